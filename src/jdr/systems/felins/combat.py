"""Combat (RULES.md 5.3): to-hit threshold, wounds = margin, will check, initiative.

- R004.24 threshold = 5 + 2 × the defender's Agilité; R004.25 protection +1/+2; R004.26 surprise
  −1/−2; A004.22 both stack, no floor; A004.29 they move the threshold, not the roll.
- R004.30 the attack is CHANCE d10 + Combat griffu; R004.31 wounds = margin (0 = fur flies).
- R004.28 the will check after a wound; R004.32 unconscious / coma / death.
- R004.29 initiative: Agilité, then Chance, then 1d10 (core `order`).
The duel of provocation (R004.27) is in `duel.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from jdr.core.check import Check, CheckResult
from jdr.core.french import Genre, accord, state_label
from jdr.core.frozen import frozen
from jdr.core.initiative import Entrant, Order, OrderRule, order
from jdr.core.results import AttackReport, Damage, Health, Line, StateChange, Step
from jdr.core.system import Chooser, Loaded, Outcome, SheetChange, default_choice
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.felins import tables
from jdr.systems.felins.checks import Roll, roll_changes, roll_kept, skill_check
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.health import (
    WoundOutcome,
    conscious_limit,
    take_wounds,
    will_check,
    wound_changes,
)
from jdr.systems.felins.sheet import Cat


def cover_modifier(kind: str, value: str | None) -> tuple[str, int]:
    """R004.25 protection / R004.26 surprise: `nulle`, `partielle`, `complete` → (printed name,
    threshold modifier)."""
    table = tables.PROTECTION if kind == "protection" else tables.SURPRISE
    key = normalize(value) if value else "nulle"
    if key not in table:
        raise RuleError(unknown_name_message(kind, value or "", table))
    return table[key]


def to_hit_threshold(agilite: int, protection: str | None = None,
                     surprise: str | None = None) -> int:
    """R004.24–R004.26 5 + 2 × Agilité + protection + surprise (E004.07, E004.08, T004.03)."""
    return (tables.DEFENCE_BASE + tables.DEFENCE_FACTOR * agilite
            + cover_modifier("protection", protection)[1]
            + cover_modifier("surprise", surprise)[1])


def wounds_from_margin(hit: bool, margin: int | None) -> int:
    """R004.31 wounds = margin of success; a margin of 0 touches without wounding (E004.05)."""
    if not hit or margin is None:
        return 0
    return max(0, margin)


@frozen
class Cover:
    """What shields the defender (R004.25) and how unaware it is (R004.26)."""

    protection: str | None = None
    surprise: str | None = None

    def line(self, agilite: int) -> Line:
        protection, p = cover_modifier("protection", self.protection)
        surprise, s = cover_modifier("surprise", self.surprise)
        threshold = to_hit_threshold(agilite, self.protection, self.surprise)
        return Line(f"seuil pour toucher : 5 + 2 × Agilité {agilite}, protection {protection} "
                    f"{p:+d}, surprise {surprise} {s:+d} = {threshold}", "R004.24")


# ------------------------------------------------------------------ one attack


@frozen
class Blow:
    """What one attack did: the roll, the wounds, the defender before and after, the will
    check."""

    roll: CheckResult
    wounds: int
    outcome: WoundOutcome
    will: CheckResult | None

    @property
    def fled(self) -> bool:
        return self.will is not None and not self.will.success


def attack_check(attacker: Cat, defender: Cat, cover: Cover, config: FelinsConfig = DEFAULT
                 ) -> Check:
    """R004.30 the Combat griffu roll against the defender's Agilité (and cover): the one
    definition `attack` rolls and `attack_odds` computes."""
    threshold = to_hit_threshold(defender.characteristics["agilite"], cover.protection,
                                 cover.surprise)
    return skill_check(attacker, tables.COMBAT_SKILL, Roll(threshold, rule="R004.30"), config)


def require_fight(attacker: Cat, defender: Cat) -> None:
    """The attacker can act (D-ALL.02); a dead cat is not attacked (R004.32)."""
    attacker.require_able("attaquer")
    if defender.state == "mort":
        raise RuleError(f"{defender.name} est déjà {state_label('mort', defender.genre)} "
                        "(R004.32)")


def will_after(outcome: WoundOutcome, wounds: int, config: FelinsConfig = DEFAULT
               ) -> Check | None:
    """R004.28 the will check new wounds call for, from a cat still conscious (A004.17: on the
    new wounds, or on all of them)."""
    if not wounds or outcome.state_after != "conscient":
        return None
    basis = outcome.wounds_after if config.will_wounds == "total" else wounds
    return will_check(outcome.after, basis, config)


def after_will(outcome: WoundOutcome, will: CheckResult | None) -> WoundOutcome:
    """R004.28 a failed will check: the cat abandons the fight."""
    return outcome.fled() if will is not None and not will.success else outcome


def _strike(attacker: Cat, defender: Cat, cover: Cover, source: DiceSource,
            config: FelinsConfig, chooser: Chooser = default_choice) -> Blow:
    """R004.30 the roll, R004.31 the wounds, R004.32 the state, R004.28 the will check of a cat
    still in the fight — in the order the dice are rolled; each roller keeps the die it wishes
    (A004.05). The same steps give the exact table of `attack_law`."""
    require_fight(attacker, defender)
    roll = roll_kept(attack_check(attacker, defender, cover, config), source, chooser)
    wounds = wounds_from_margin(bool(roll.success), roll.margin)
    outcome = take_wounds(defender, wounds, source, config)
    check = will_after(outcome, wounds, config)
    will = roll_kept(check, source, chooser) if check is not None else None
    return Blow(roll, wounds, after_will(outcome, will), will)


def _summary(blow: Blow, attacker: str, defender: str, genre: Genre = None) -> tuple[Line, ...]:
    if not blow.roll.success:
        return (Line(f"{attacker} manque {defender}", "R004.24"),)
    if blow.wounds == 0:
        hit = accord(genre, f"{defender} est touché sans blessure",
                     f"{defender} est touchée sans blessure", f"le coup porte sans blesser {defender}")
        return (Line(f"{hit} : seuls les poils volent", "R004.31"),)
    lines = list(blow.outcome.lines(levels=False))  # wounds: `Damage`, `Health`
    if blow.will is not None:
        text = (f"{defender} cède à la peur et abandonne le combat jusqu'à sa fin"
                if blow.fled else f"{defender} tient bon et reste dans la lutte")
        lines.append(Line(text, "R004.28"))
    return tuple(lines)


def _state(blow: Blow, genre: Genre = None) -> StateChange | None:
    before = tables.RESULT_STATES[blow.outcome.state_before]
    after = tables.RESULT_STATES[blow.outcome.state_after]
    return None if before == after else StateChange(before, after, genre)


def attack_report(attacker: Cat, defender: Cat, cover: Cover, blow: Blow,
                  config: FelinsConfig = DEFAULT) -> AttackReport:
    steps: list[Step] = [blow.roll]
    if blow.outcome.duration is not None:
        steps.append(blow.outcome.duration)
    if blow.will is not None:
        steps.append(blow.will)
    hit = bool(blow.roll.success)
    damage = (Damage("marge de réussite", (), blow.wounds, 0, blow.wounds),) if hit else ()
    health = None
    if blow.wounds:
        limit = conscious_limit(defender.characteristics["vigueur"], config)
        health = Health("blessures", blow.outcome.wounds_before, blow.outcome.wounds_after, limit)
    notes = (cover.line(defender.characteristics["agilite"]),
             *_summary(blow, attacker.name, defender.name, defender.genre))
    return AttackReport(attacker.name, defender.name, hit, tuple(steps), damage, None, health,
                        _state(blow, defender.genre), blow.roll.critical, notes, "R004.23",
                        tables.SKILLS[tables.COMBAT_SKILL].name)


def attack(attacker: Loaded[Cat], defender: Loaded[Cat], cover: Cover, source: DiceSource,
           config: FelinsConfig = DEFAULT, chooser: Chooser = default_choice) -> Outcome:
    """R004.23–R004.32 one Combat griffu attack, and what it writes on both sheets: the
    attacker's Chance after a critical; the defender's wounds, state (`en_fuite` after a failed
    will check, R004.28), minutes of unconsciousness, and Chance (will check)."""
    blow = _strike(attacker.model, defender.model, cover, source, config, chooser)
    changes = (*roll_changes(attacker, blow.roll), *hurt_changes(defender, blow.outcome, blow.will))
    return Outcome(attack_report(attacker.model, defender.model, cover, blow, config), changes)


def hurt_changes(defender: Loaded[Cat], outcome: WoundOutcome, will: CheckResult | None
                 ) -> tuple[SheetChange, ...]:
    """What a blow writes on the defender's sheet: wounds, state, minutes, then the Chance its
    will check leaves (the attacker's Chance: `roll_changes`)."""
    changes = wound_changes(defender, outcome)
    return changes + roll_changes(defender, will) if will is not None else changes


# ------------------------------------------------------------------ initiative (R004.29)


def initiative(cats: Sequence[Cat], source: DiceSource, config: FelinsConfig = DEFAULT) -> Order:
    """R004.29 highest Agilité first; tie → Chance; still tied → 1d10 each, again while tied
    (T004.10)."""
    entrants = [Entrant(cat.name, cat.characteristics["agilite"],
                        tiebreaks=(("Chance", cat.chance),)) for cat in cats]
    rule = OrderRule(rolloff_sides=10, max_rolloffs=config.max_rerolls, rule="R004.29",
                     score_label="initiative (Agilité)")
    return order(entrants, rule, source)
