"""Combat (RULES.md 2.3): attack against parry or dodge, critical options, damage, initiative.

Dice are rolled in this order (what `--des` must give): attack d20; defence d20 (parry or dodge,
none without defence); then, only when they matter: 1D10 "Solidifier ses appuis" (a critical
parry against a successful attack); and if the blow lands: 1D6 damage, 1D10 "Dégâts" (critical
attack), 1D10 "Résister au coup" (critical defence that still lost).

An attack is played in named steps: `plan_attack` (what is asked, checked before any die),
`roll_attack` (R001.16, R001.18 Rapidité), `roll_defence` (R001.16 / R001.17 / E001.11, R001.19 Rapidité and
Solidifier ses appuis), `decide` (the contest rule of `checks.CONTEST`), `roll_damage` (R001.21 to
R001.23), `wound` (hit points, D-001.30 hors de combat) and `critical_effects` (notes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from jdr.core.check import Check, CheckResult, Modifier
from jdr.core.contest import ContestResult
from jdr.core.french import accord, de
from jdr.core.frozen import frozen
from jdr.core.initiative import Entrant, Order, OrderRule, order
from jdr.core.results import (
    AttackReport,
    Damage,
    Health,
    Line,
    Location,
    StateChange,
    Step,
)
from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    AttackRequest,
    Chooser,
    Loaded,
    Outcome,
    Question,
    SheetChange,
    default_choice,
)
from jdr.dice.notation import Die, RollResult, roll
from jdr.dice.source import DiceSource
from jdr.names import lookup
from jdr.systems.maitrise.checks import Stat, contest, defence_stat, stat_check
from jdr.systems.maitrise.config import MaitriseConfig
from jdr.systems.maitrise.sheet import Character
from jdr.systems.maitrise.tables import (
    ATTACK_CRITICALS,
    CRITICAL_DIE,
    DAMAGE_DIE,
    DEAD,
    DEFENCE_CRITICALS,
    DEFENCES,
    DIE,
    DOWN,
    FOOTING_BONUS,
    INCOMPETENT_DAMAGE,
    SPEED_MARGIN,
    STANDING,
    modifier,
)

NO_OPTION = "aucune"  # a critical whose option nobody chose

# ------------------------------------------------------------------ damage


def damage(roll_d6: int, force: int, armour: int, *, incompetent: bool = False,
           extra: int | None = None, resisted: int | None = None, floor: int = 0) -> Damage:
    """R001.21 (1D6 + Force modifier, A001 proposed), R001.23 (−2 Incompétent), R001.18 Dégâts
    (+1D10), R001.22 armour, R001.19 Résister au coup (−1D10), A001.12 / T001.12 floor 0.

    `total` is the blow before the defender's mitigation; `protection` is armour plus the
    Résister au coup die; `suffered` never goes below `floor`."""
    mods = [Modifier(modifier(force), f"Force {force}", "R001.21")]
    if incompetent:
        mods.append(Modifier(INCOMPETENT_DAMAGE, "Incompétent", "R001.23"))
    dice = [Die(DAMAGE_DIE, roll_d6)]
    formula = "1d6" + "".join(f"{m.value:+d}" for m in mods if m.value)
    if extra is not None:
        mods.append(Modifier(extra, "critique Dégâts 1d10", "R001.18"))
        dice.append(Die(CRITICAL_DIE, extra))
        formula += "+1d10"
    detail = [Line(f"{m.reason} : {m.value:+d}", m.rule) for m in mods]
    total = roll_d6 + sum(m.value for m in mods)
    protection = armour
    if armour:
        detail.append(Line(f"armure : −{armour}", "R001.22"))
    if resisted is not None:
        protection += resisted
        detail.append(Line(f"critique Résister au coup : 1d10 [{resisted}], −{resisted}",
                           "R001.19"))
    if total - protection < floor:
        detail.append(Line(f"{total - protection} : jamais moins de {floor} dégâts", "A001.12"))
    return Damage(formula, tuple(dice), total, protection, max(floor, total - protection),
                  tuple(detail))


# ------------------------------------------------------------------ the plan


@frozen
class AttackPlan:
    """What an attack request asks for, checked before any die is rolled."""

    attacker: Character
    defender: Character
    weapon: str
    skill: str
    critical: str | None  # R001.18, `--critique`
    defence: str  # parade | esquive | aucune (R001.15)
    defence_critical: str | None  # R001.19, `--opt critique_defense`
    parry_weapon: str | None
    bonus_attack: int
    bonus_defence: int
    kill: bool  # D-001.30: the MJ decides that 0 pv means death


def _defence_kind(request: AttackRequest[Character], defender: Character) -> str:
    if request.defence is None:
        return "parade" if defender.weapons else "esquive"
    return lookup(request.defence, DEFENCES, "défense")[0]


def plan_attack(request: AttackRequest[Character]) -> AttackPlan:
    """D-ALL.02: a character who cannot act (hors de combat, mort) cannot attack, nor defend
    (no defence roll)."""
    attacker, defender = request.attacker.model, request.defender.model
    attacker.refuse_if_unable()
    weapon, skill = attacker.weapon(request.weapon)
    critical = None
    if request.critical is not None:
        critical = lookup(request.critical, ATTACK_CRITICALS, "option de critique d'attaque")[0]
    defence = _defence_kind(request, defender)
    if not defender.can_act():
        defence = "aucune"
    options = request.options
    return AttackPlan(
        attacker=attacker, defender=defender, weapon=weapon, skill=skill, critical=critical,
        defence=defence, defence_critical=options.text("critique_defense"),
        parry_weapon=options.text("arme_defense"), bonus_attack=options.int("bonus_attaque", 0) or 0,
        bonus_defence=options.int("bonus_defense", 0) or 0, kill=options.flag("mort"),
    )


# ------------------------------------------------------------------ the rolls


def _boost(result: CheckResult, amount: int, why: str, rule: str) -> CheckResult:
    """A critical option that adds to the margin (R001.18, R001.19, A001.09)."""
    assert result.margin is not None
    margin = result.margin + amount
    note = Line(f"{why} : marge {result.margin} {amount:+d} = {margin}", rule)
    return replace(result, margin=margin, notes=(*result.notes, note))


def _ask(chooser: Chooser, prompt: str, options: Mapping[str, str], shown: CheckResult,
         who: str = "") -> str | None:
    """A critical's option chosen after seeing the die (R001.18 / R001.19); `aucune` by default,
    as when nobody can be asked (the option can be given beforehand instead). `who`: whose
    critical it is (the defender's is the defender's choice)."""
    labels = (*(text.split(" : ")[0] for text in options.values()), "Aucune option")
    choice = chooser(Question(prompt, (*options, NO_OPTION), NO_OPTION, shown, labels, who))
    return None if choice == NO_OPTION else choice


def attack_check(plan: AttackPlan, config: MaitriseConfig) -> Check:
    """R001.16: the attack is a skill roll."""
    return stat_check(plan.attacker, Stat("skill", plan.skill), config, plan.bonus_attack,
                      label=f"Attaque {plan.attacker.name} — {plan.skill}")


def attack_after(plan: AttackPlan, result: CheckResult) -> CheckResult:
    """R001.18 / E001.09 / A001.10: a critical attack with Rapidité gets +10 margin."""
    if result.critical == "success" and plan.critical == "rapidite":
        return _boost(result, SPEED_MARGIN, "critique Rapidité", "R001.18")
    return result


def roll_attack(plan: AttackPlan, config: MaitriseConfig, source: DiceSource,
                chooser: Chooser = default_choice) -> tuple[AttackPlan, Check, CheckResult]:
    """R001.16: the attack roll; its critical option asked once the die is seen (R001.18)."""
    check = attack_check(plan, config)
    result = check.roll(source)
    if result.critical == "success" and plan.critical is None:
        plan = replace(plan, critical=_ask(
            chooser, f"Attaque critique {de(plan.attacker.name)} : quelle option ?",
            ATTACK_CRITICALS, result, plan.attacker.name))
    return plan, check, attack_after(plan, result)


def defence_check(plan: AttackPlan, config: MaitriseConfig) -> Check:
    """R001.16 parry with the weapon's skill (A001.05), or R001.17 dodge on Adresse."""
    stat = (defence_stat(plan.defender, plan.parry_weapon) if plan.defence == "parade"
            else Stat("carac", "adresse", dodge=True))
    kind = "Parade" if plan.defence == "parade" else "Esquive"
    label = f"{kind} {plan.defender.name}" + (f" — {stat.key}" if stat.kind == "skill" else "")
    return stat_check(plan.defender, stat, config, plan.bonus_defence, label=label)


def roll_defence(plan: AttackPlan, config: MaitriseConfig, source: DiceSource,
                 attack: CheckResult, chooser: Chooser = default_choice
                 ) -> tuple[AttackPlan, tuple[Check, CheckResult, RollResult | None] | None]:
    """The defence roll and its R001.19 criticals: Rapidité +10 margin, Solidifier ses appuis
    +1D10+5 (a parry against a successful attack, E001.10)."""
    if plan.defence == "aucune":
        return plan, None
    check = defence_check(plan, config)
    result = check.roll(source)
    footing: RollResult | None = None
    if result.critical == "success" and plan.defence_critical is None:
        plan = replace(plan, defence_critical=_ask(
            chooser, f"Défense critique {de(plan.defender.name)} : quelle option ?",
            DEFENCE_CRITICALS, result, plan.defender.name))
    if needs_footing(plan, result, attack):
        footing = roll(f"1d{CRITICAL_DIE}+{FOOTING_BONUS}", source)
    total = None if footing is None else footing.total
    return plan, (check, defence_after(plan, result, total), footing)


def needs_footing(plan: AttackPlan, defence: CheckResult, attack: CheckResult) -> bool:
    """R001.19 / E001.10: Solidifier ses appuis rolls 1d10+5, on a critical parry against a
    successful attack."""
    return (defence.critical == "success" and plan.defence_critical == "appuis"
            and plan.defence == "parade" and bool(attack.success))


def defence_after(plan: AttackPlan, result: CheckResult, footing: int | None) -> CheckResult:
    """R001.19: a critical defence with Rapidité gets +10 margin; with Solidifier ses appuis,
    the footing die's total (`footing`, rolled only when `needs_footing`)."""
    if result.critical == "success" and plan.defence_critical == "rapidite":
        return _boost(result, SPEED_MARGIN, "critique Rapidité", "R001.19")
    if footing is not None:
        return _boost(result, footing, "critique Solidifier ses appuis (1d10+5)", "R001.19")
    return result


def decide(attack: tuple[Check, CheckResult],
           defence: tuple[Check, CheckResult, RollResult | None] | None
           ) -> tuple[bool, tuple[Step, ...], ContestResult | None]:
    """R001.16 / R001.17 / A001.03 / A001.07 through `checks.CONTEST`: whether the blow lands,
    and the steps to show (the attack alone, or the contest and the footing die)."""
    a_check, a = attack
    if defence is None:
        return bool(a.success), (a,), None
    d_check, d, footing = defence
    result = contest(a_check, d_check).resolve(a, d)
    steps: tuple[Step, ...] = (result,) if footing is None else (result, footing)
    return result.winner == "actor", steps, result


def roll_damage(plan: AttackPlan, attack: CheckResult, defence: CheckResult | None,
                config: MaitriseConfig, source: DiceSource) -> Damage:
    """R001.21 .. R001.23, with the critical options that change damage (R001.18, R001.19)."""
    d6 = source.roll(DAMAGE_DIE)
    extra = (source.roll(CRITICAL_DIE)
             if attack.critical == "success" and plan.critical == "degats" else None)
    resists = (defence is not None and defence.critical == "success"
               and plan.defence_critical == "resister")
    resisted = source.roll(CRITICAL_DIE) if resists else None
    return damage(d6, plan.attacker.characteristic("force"), plan.defender.armour,
                  incompetent=plan.attacker.incompetent(plan.skill), extra=extra,
                  resisted=resisted, floor=config.damage_floor)


# ------------------------------------------------------------------ hit points and state


def _state_after(defender: Character, current: int, kill: bool) -> str:
    """D-001.30: at 0 pv hors de combat; death only when the MJ says so (`--opt mort=oui`),
    and kept on the sheet (`etat.mort`)."""
    if defender.dead:
        return DEAD
    if current > 0:
        return STANDING
    return DEAD if kill else DOWN


def _hp_change(doc: SheetDocument, defender: Character, hp: tuple[int, int], after: int
               ) -> SheetChange:
    if defender.hit_points is not None:
        return SheetChange(doc, ("pv",), after, pool=True)
    return SheetChange(doc, ("pv",), {"max": hp[0], "actuels": after})  # A001.12 option


def _state_notes(defender: Character, state: StateChange) -> list[Line]:
    if state.after == state.before:
        return []
    if state.after == DOWN:
        return [Line(f"{defender.name} tombe à 0 pv : hors de combat ; sa mort est la "
                     "décision du MJ (option « Mort à 0 PV »)", "D-001.30")]
    if state.after == DEAD:
        return [Line(f"{defender.name} meurt : le MJ l'a décidé (c'est noté sur la fiche)",
                     "D-001.30")]
    return []


def wound(plan: AttackPlan, doc: SheetDocument, blow: Damage | None
          ) -> tuple[Health | None, StateChange | None, tuple[SheetChange, ...], list[Line]]:
    """Hit points after the blow (A001.12: the sheet's `pv`), and the state (D-001.30)."""
    defender = plan.defender
    hp = defender.max_hit_points()
    if hp is None:
        note = ([Line(f"{defender.name} n'a pas de pv sur sa fiche : dégâts à reporter à la "
                      "main", "A001.12")] if blow is not None else [])
        return None, None, (), note
    before = hp[1]
    after = before if blow is None else max(0, before - blow.suffered)
    state = StateChange(defender.state(),
                        _state_after(defender, after, plan.kill and blow is not None), defender.genre)
    changes: tuple[SheetChange, ...] = ()
    if blow is not None:
        changes = (_hp_change(doc, defender, hp, after),)
    if state.after == DEAD and not defender.dead:
        changes += (SheetChange(doc, ("etat", "mort"), True),)
    return Health("pv", before, after, hp[0]), state, changes, _state_notes(defender, state)


# ------------------------------------------------------------------ critical options (notes)


def _attack_critical_notes(plan: AttackPlan, attack: CheckResult, hit: bool,
                           aimed: str | None) -> tuple[list[Line], Location | None]:
    """R001.18 / A001.10 / A001.11: what the attacker's critical option did."""
    critical = attack.critical == "success"
    if plan.critical and not critical:
        return [Line("option de critique ignorée : l'attaque n'est pas une réussite critique",
                     "R001.18")], None
    if not critical:
        return [], None
    if plan.critical is None:
        return [Line("réussite critique : option possible, à choisir parmi rapidite, degats, "
                     "precision ou mj", "R001.18")], None
    notes: list[Line] = []
    location: Location | None = None
    if plan.critical == "rapidite" and hit:
        notes.append(Line(f"{plan.attacker.name} gagne une action immédiate : seconde attaque, "
                          "position défensive ou rechargement", "A001.10"))
    elif plan.critical == "precision" and hit:
        zone = aimed or "au choix de l'attaquant"
        location = Location(None, zone, detail=(
            Line(f"réussite critique ({attack.natural}) « Précision » : l'attaquant choisit "
                 "l'endroit de l'impact", "R001.18"),))
    elif plan.critical == "mj":
        notes.append(Line("réussite critique : le MJ décide de son effet", "R001.18"))
    return notes, location


def _defence_critical_notes(plan: AttackPlan, attack: CheckResult,
                            defence: CheckResult | None, defended: bool) -> list[Line]:
    """R001.19: what the defender's critical option did (counter-attack, MJ)."""
    if defence is None:
        return []
    critical = defence.critical == "success"
    if plan.defence_critical and not critical:
        return [Line("option de critique de défense ignorée : la défense n'est pas une "
                     "réussite critique", "R001.19")]
    if not critical:
        return []
    if plan.defence_critical is None:
        return [Line("défense critique : option possible, à choisir parmi rapidite, appuis, "
                     "resister ou mj", "R001.19")]
    if plan.defence_critical == "rapidite" and defended and attack.success:
        return [Line(f"{plan.defender.name} peut contre-attaquer (critique Rapidité)",
                     "R001.19")]
    if plan.defence_critical == "mj":
        return [Line("défense critique : le MJ décide de son effet", "R001.19")]
    return []


def _context_notes(plan: AttackPlan, request: AttackRequest[Character], attack: CheckResult,
                   defence: CheckResult | None, hit: bool) -> list[Line]:
    """Notes on the exchange itself: states, a failed attack, a dodge against a critical."""
    notes: list[Line] = []
    if not plan.defender.can_act():
        word = plan.defender.state_words()
        notes.append(Line(f"{plan.defender.name} est {word} : aucune défense", "D-ALL.02"))
    if attack.critical == "failure":
        notes.append(Line("échec critique : l'attaque échoue", "A001.08"))
    dodged = plan.defence == "esquive" and defence is not None and bool(defence.success)
    if dodged and attack.critical == "success":
        notes.append(Line("l'esquive réussie annule même une attaque critique", "A001.11"))
    if request.aimed and not (hit and plan.critical == "precision"
                              and attack.critical == "success"):
        notes.append(Line("la zone visée ne compte qu'avec une réussite critique « precision » "
                          "qui touche", "R001.18"))
    if request.full:
        notes.append(Line("l'attaque complète n'a pas de sens en maitrise : ignorée", "R001.15"))
    if plan.kill and not hit:
        notes.append(Line("option « Mort à 0 PV » ignorée : le coup ne porte pas", "D-001.30"))
    return notes


# ------------------------------------------------------------------ the attack


@frozen
class Exchange:
    """The attack and defence rolls and whether the blow lands (what `attack_odds` counts)."""

    plan: AttackPlan
    hit: bool
    steps: tuple[Step, ...]
    attack: CheckResult
    defence: CheckResult | None
    contest: ContestResult | None


def exchange(request: AttackRequest[Character], source: DiceSource, config: MaitriseConfig
             ) -> Exchange:
    """R001.15 .. R001.19: the plan, the attack roll, the defence roll, the contest."""
    plan, a_check, a = roll_attack(plan_attack(request), config, source, request.chooser)
    plan, defence_roll = roll_defence(plan, config, source, a, request.chooser)
    hit, steps, result = decide((a_check, a), defence_roll)
    if result is None:
        return Exchange(plan, hit, steps, a, None, None)
    return Exchange(plan, hit, steps, result.actor, result.opponent, result)


def attack(request: AttackRequest[Character], source: DiceSource, config: MaitriseConfig
           ) -> Outcome:
    """R001.15 .. R001.23, A001.03, A001.07, A001.09 .. A001.12, D-001.30, D-ALL.02."""
    played = exchange(request, source, config)
    plan, hit, steps, a, d = played.plan, played.hit, played.steps, played.attack, played.defence
    blow = roll_damage(plan, a, d, config, source) if hit else None
    health, state, changes, hp_notes = wound(plan, request.defender.doc, blow)
    notes = _context_notes(plan, request, a, d, hit)
    critical_notes, location = _attack_critical_notes(plan, a, hit, request.aimed)
    notes += critical_notes + _defence_critical_notes(plan, a, d, not hit and bool(a.success))
    report = AttackReport(
        attacker=plan.attacker.name, defender=plan.defender.name, hit=hit, steps=steps,
        damage=() if blow is None else (blow,), location=location, health=health, state=state,
        critical=a.critical, notes=tuple(notes + hp_notes), rule="R001.15, R001.16, R001.21",
        weapon=plan.weapon,
    )
    return Outcome(report, changes)


# ------------------------------------------------------------------ initiative (A001.25)

INITIATIVE = OrderRule(rolloff_sides=DIE, rule="A001.25", score_label="initiative")


def initiative(sheets: tuple[Loaded[Character], ...], source: DiceSource) -> Order:
    """R001.24 / A001.25: order by Adresse, highest first; ties broken by d20 roll-offs (re-rolled while
    still tied), dice rolled in the order the sheets were given (`core.initiative.order`)."""
    chars = [s.model for s in sheets]
    ranked = order([Entrant(c.name, c.characteristic("adresse")) for c in chars], INITIATIVE,
                   source)
    down = tuple(Line(f"{c.name} est {c.state_words()} : "
                      + accord(c.genre, "il ne joue pas", "elle ne joue pas", "pas de tour"), "D-ALL.02")
                 for c in chars if not c.can_act())
    return replace(ranked, notes=down) if down else ranked
