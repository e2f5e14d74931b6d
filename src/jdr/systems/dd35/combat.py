"""Combat of dd35 (RULES.md 3.3): damage and criticals, attacks and full attacks, damage
reduction, manoeuvres. Results are the core's `AttackReport` / `Damage` (rendered by jdr.render);
initiative is in `initiative.py`, the actions of a turn in `turn.py`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from jdr.core.check import CheckResult, Modifier
from jdr.core.french import accord
from jdr.core.results import AttackReport, Damage, Health, Line, StateChange
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.checks import attack_check, saving_throw
from jdr.systems.dd35.sheet import Weapon
from jdr.systems.dd35.tables import SAVES

BaseDice = Sequence[tuple[int, int]]

# ------------------------------------------------------------------ damage


def roll_base_dice(dice: BaseDice, source: DiceSource) -> tuple[Die, ...]:
    """One roll of a weapon's base damage dice (R002.16)."""
    return tuple(Die(sides, source.roll(sides)) for count, sides in dice for _ in range(count))


def max_base_dice(dice: BaseDice) -> int:
    """R002.17: the maximum the base damage dice allow."""
    return sum(count * sides for count, sides in dice)


def critical_extra_rolls(multiplier: int) -> int:
    """R002.17 / E002.06: ×2 → 1 extra base roll, ×3 → 2, ×4 → 3 (multiplier − 1)."""
    if multiplier < 2:
        raise RuleError(f"facteur de critique ×{multiplier} impossible (×2 au moins)")
    return multiplier - 1


def base_formula(dice: BaseDice) -> str:
    """`1d8`, `1d6+1d4` (R002.16: the weapon's base damage dice)."""
    return "+".join(f"{count}d{sides}" for count, sides in dice)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else ""


def _bonus_line(bonuses: tuple[Modifier, ...]) -> tuple[Line, ...]:
    if not bonuses:
        return ()
    return (Line("bonus : " + ", ".join(f"{m.reason} {m.value:+d}" for m in bonuses), "R002.16"),)


def roll_damage(dice: BaseDice, bonuses: tuple[Modifier, ...], critical: bool, multiplier: int,
                source: DiceSource, reduction: int = 0) -> Damage:
    """R002.16: base dice + Force + Dons + Magie. R002.17 (critical or Coup Fantastique that
    hits): maximum of the base dice + bonuses + (multiplier − 1) more rolls of the base dice
    without bonuses. A002.18: the DR met (`reduction`) is subtracted once from the total."""
    bonus = sum(m.value for m in bonuses)
    formula = base_formula(dice)
    detail = _bonus_line(bonuses)
    if critical:
        extra = critical_extra_rolls(multiplier)
        base = max_base_dice(dice)
        faces = tuple(d for _ in range(extra) for d in roll_base_dice(dice, source))
        raw = max(0, base + bonus + sum(d.face for d in faces))
        formula = (f"{formula} au maximum ({base}){_signed(bonus)} + {extra}×{formula} "
                   f"(critique ×{multiplier})")
        detail += (Line(f"critique : maximum des dés de base et bonus, puis {extra} jet(s) des "
                        "dés de base sans bonus", "R002.17"),)
    else:
        faces = roll_base_dice(dice, source)
        raw = max(0, sum(d.face for d in faces) + bonus)
        formula += _signed(bonus)
    final = max(0, raw - reduction)
    return Damage(formula, faces, raw, raw - final, final, detail)


def hit_state(hp: int) -> str:
    """The document gives no rule below 0 HP ("Etat de santé" only defines HP): report only
    whether the character still has hit points."""
    return "debout" if hp > 0 else "hors_de_combat"


def reduction_lines(defender: Character, spell_dr: int, magic: bool) -> tuple[Line, ...]:
    """How the defender's DR is made (R002.07, A002.10, A002.11, D-002.40)."""
    lines: list[Line] = []
    armour, feats = defender.armour_dr, defender.sheet.dons.rd
    if magic and armour:
        lines.append(Line(f"arme magique : la RD {armour}/Magie de l'armure ne s'applique pas "
                          "(celles des dons et des sorts, si)", "D-002.40"))
    physical = feats + (0 if magic else armour)
    if spell_dr > physical:
        lines.append(Line(f"RD {spell_dr} du sort (ne se cumule ni avec l'armure ni avec "
                          "les dons)", "A002.10"))
    elif physical:
        parts = ([f"armure {armour}/Magie"] if armour and not magic else []) + (
            [f"dons {feats}"] if feats else [])
        lines.append(Line(f"RD {physical} : " + " + ".join(parts), "R002.07"))
    return tuple(lines)


# ------------------------------------------------------------------ attacks


@dataclass(frozen=True)
class Blow:
    """How an attack is made: every iterative (`full`, R002.04), against a flat-footed
    defender (R002.06), a circumstance bonus, the defender's spell DR, the weapon taken as magic
    (None: magic when it has an enhancement)."""

    full: bool = False
    flat_footed: bool = False
    circumstance: int = 0
    spell_dr: int = 0
    magic: bool | None = None


def _critical(steps: Sequence[CheckResult]) -> Literal["success", "failure"] | None:
    if any(s.success and s.critical == "success" for s in steps):
        return "success"
    if steps and all(s.critical == "failure" for s in steps):
        return "failure"
    return None


def _attack_notes(defender: Character, ac: int, blow: Blow, reduction: tuple[Line, ...]
                  ) -> tuple[Line, ...]:
    notes: list[Line] = []
    if blow.flat_footed and defender.sheet.etat.surpris:
        caught = accord(defender.genre, "surpris, donc pris", "surprise, donc prise",
                        "surprise : attaque")
        notes.append(Line(f"{defender.name} : {caught} au dépourvu, CA {ac}", "A002.21"))
    elif blow.flat_footed:
        caught = accord(defender.genre, "pris", "prise", "attaque")
        notes.append(Line(f"{defender.name} : {caught} au dépourvu, CA {ac}", "R002.06"))
    if blow.full:
        notes.append(Line("attaque complète : toutes les attaques itératives, une Action "
                          "Complexe", "A002.20"))
    return (*notes, *reduction)


def resolve_attack(attacker: Character, defender: Character, weapon: Weapon, source: DiceSource,
                   blow: Blow = Blow()) -> AttackReport:
    """R002.10 + R002.04 (a full attack rolls every iterative, A002.20), R002.16-R002.18
    damage, R002.07 DR of the defender (D-002.40 against a magic weapon)."""
    attacker.require_able()
    ac = defender.flat_footed_ac if blow.flat_footed else defender.ac
    magic = weapon.magie > 0 if blow.magic is None else blow.magic
    reduction = defender.damage_reduction(blow.spell_dr, magic)
    offsets = [attacker.bab - v for v in attacker.attacks] if blow.full else [0]
    steps: list[CheckResult] = []
    damage: list[Damage] = []
    for offset in offsets:
        roll = attack_check(attacker, weapon, ac, offset, blow.circumstance, attacker.rules,
                            defender.name).roll(source)
        steps.append(roll)
        if roll.success:
            damage.append(roll_damage(weapon.dice, attacker.damage_bonus(weapon),
                                      roll.critical == "success", weapon.multiplicateur, source,
                                      reduction))
    before = defender.current_hp
    after = before - sum(d.suffered for d in damage)
    lines = reduction_lines(defender, blow.spell_dr, magic) if damage else ()
    return AttackReport(
        attacker.name, defender.name, bool(damage), tuple(steps), tuple(damage),
        health=Health("pv", before, after, defender.max_hp),
        state=StateChange(hit_state(before), hit_state(after)), critical=_critical(steps),
        notes=_attack_notes(defender, ac, blow, lines), rule="R002.10", weapon=weapon.nom)


def suffered(report: AttackReport) -> int:
    """The damage the defender took from every hit of an attack."""
    return sum(d.suffered for d in report.damage)


# ------------------------------------------------------------------ manoeuvres


def resolve_manoeuvre(attacker: Character, targets: Sequence[Character], name: str, save: str,
                      dc: int, source: DiceSource, notes: Sequence[Line] = ()) -> AttackReport:
    """R002.15: no attack roll; each target rolls a save against the DC. As many opponents as
    attacks per round; against several, the manoeuvre is a Complex action."""
    attacker.require_able()
    if len(targets) > len(attacker.attacks):
        raise RuleError(f"manœuvre contre {len(targets)} adversaires : {attacker.name} n'a que "
                        f"{len(attacker.attacks)} attaque(s) par round (R002.15)")
    saves = tuple(saving_throw(t, save, dc).roll(source) for t in targets)
    lines = [Line(f"manœuvre « {name} » : pas de jet d'attaque, jet de Sauvegarde "
                  f"({SAVES[save]}) de l'adversaire contre ND {dc}", "R002.15")]
    lines += [Line(f"{s.who} : la manœuvre {'échoue' if s.success else 'réussit'}", "R002.15")
              for s in saves]
    if len(targets) > 1:
        lines.append(Line("plusieurs adversaires : la manœuvre devient une Action Complexe",
                          "R002.15"))
    return AttackReport(attacker.name, ", ".join(t.name for t in targets),
                        any(not s.success for s in saves), saves,
                        notes=(*lines, *notes), rule="R002.15", weapon=f"manœuvre : {name}")
