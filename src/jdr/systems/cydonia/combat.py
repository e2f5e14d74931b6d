"""Cydonia, combat (RULES.md 1.3): initiative, then the whole attack — attack against defence,
location, damage, protection, knock-out, death and dying.

Order in which an attack consumes dice (for `--des`): attack d10 (two for an expert skill),
defence d10 (none for a defender who cannot act, D-000.47), location d20 (none for an aimed
attack), weapon damage dice, extra damage of a critical location, then the defender's Résistance
Physique d10 on a head hit (knock-out) or on the Bijoux de famille (paralysis).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from jdr.core.check import Check, CheckResult, Modifier
from jdr.core.contest import Contest, ContestResult
from jdr.core.french import Genre, accord, is_state, pronoun, state_label
from jdr.core.frozen import frozen
from jdr.core.initiative import Entrant, Order, OrderRule, order
from jdr.core.messages import arg, given, say
from jdr.core.results import AttackReport, Damage, Health, Line, Location, StateChange, Step
from jdr.core.system import AttackRequest, Chooser, default_choice
from jdr.dice.notation import Die, roll
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.checks import (
    ATTACK_CONTEST,
    Character,
    malus_modifiers,
    passive_check,
    raw_check,
    resistance_check,
    roll_contest,
    skill_check,
)
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.sheet import CydoniaSheet, Weapon
from jdr.systems.cydonia.tables import Zone
from jdr.systems.cydonia.wounds import (
    StateAfter,
    aimed_malus,
    aimed_zone,
    concentration_bonus,
    knockout,
    kravkar_malus,
    location_bonus,
    location_total,
    protection_for,
    state_after,
    suffered_damage,
    wake_difficulty,
    weapon_damage,
    zone_for,
)

# ------------------------------------------------------------------ initiative

ORDER_RULE = OrderRule(rolloff_sides=10, max_rolloffs=20, rule="R000.21, A000.04",
                       score_label="initiative")


def initiative_check(character: Character) -> Check:
    """A000.04 variant: Agilité + Sensoriel + 1D10."""
    mods = (Modifier(character.characteristic("agilite"), "Agilité"),
            Modifier(character.characteristic("sensoriel"), "Sensoriel"))
    return raw_check("Initiative", mods, rule="A000.04", who=character.name)


def initiative(characters: Sequence[Character], source: DiceSource,
               die: bool = CONFIG.initiative_die) -> Order:
    """R000.21, A000.04, R000.19: Agilité + Sensoriel, no die; ties by higher Chance, then 1D10
    roll-offs until strict (`die`: the variant that adds 1D10)."""
    entrants = []
    for c in characters:
        check = initiative_check(c).roll(source) if die else None
        score = check.total if check is not None else (
            c.characteristic("agilite") + c.characteristic("sensoriel"))
        entrants.append(Entrant(c.name, score, check, (("Chance", c.characteristic("chance")),)))
    result = order(entrants, ORDER_RULE, source)
    notes = tuple(Line(f"{c.name} est {c.status} : ne peut pas agir", "D-ALL.02")
                  for c in characters if not c.can_act)
    return replace(result, notes=notes)


# ------------------------------------------------------------------ the attack's options

Update = tuple[tuple[str, ...], int | bool | str | None]


@frozen
class AttackOptions:
    weapon: str | None = None
    defence: str = "esquive"
    aimed: str | None = None
    mounted_attacker: bool = False
    mounted_defender: bool = False
    immaterial: bool = False
    area: bool = False
    bite: bool = False
    lethal: bool = False
    concentration: str | None = None   # "jet" or "degats": spend the attacker's concentration
    choice: int | None = None          # the attacker's expert die, named in advance (R000.17)
    kravkar: int = 0                   # action n of a Kravkar chain: −3 × (n − 1) (R000.42)
    formula: str | None = None         # damage formula of a Kravkar throw (PHY+1d10, R000.32)
    hold: bool = False                 # a Kravkar hold: no damage, the defender is held (R000.42)
    extra_damage: int = 0              # a mounted charge: the mount's Course (R000.39)
    move: str = ""                     # what the report names instead of the weapon (Kravkar)


def options_from(request: AttackRequest[CydoniaSheet]) -> AttackOptions:
    """The attack as the command line describes it (options parsed once by the core)."""
    o = request.options
    return AttackOptions(
        weapon=request.weapon, defence=request.defence or "esquive", aimed=request.aimed,
        mounted_attacker=o.flag("monte"), mounted_defender=o.flag("defenseur_monte"),
        immaterial=o.flag("immateriel"), area=o.flag("zone"), bite=o.flag("morsure"),
        lethal=o.flag("letal"), concentration=o.text("concentration"), choice=o.int("choix"),
    )


@frozen
class Blow:
    """One resolved attack: the report, and what it changes on each sheet (path, value)."""

    report: AttackReport
    attacker: tuple[Update, ...] = ()
    defender: tuple[Update, ...] = ()


@frozen
class Stroke:
    """The attack as declared: weapon, skill, table, damage formula, options."""

    weapon: Weapon | None
    cac: bool
    formula: str
    opts: AttackOptions

    @property
    def weapon_name(self) -> str:
        if self.opts.move:
            return self.opts.move
        if self.opts.bite:
            return "morsure"
        return self.weapon.nom if self.weapon is not None else "mains nues"


UNARMED = ("mains_nues", "cac", "corps_a_corps", "griffes")


def _weapon(attacker: Character, wanted: str | None) -> Weapon | None:
    """R000.35: the named weapon, else the main one; none means bare hands."""
    if wanted is None:
        return next((w for w in attacker.sheet.armes if w.equipee == "principale"), None)
    key = normalize(wanted)
    found = [w for w in attacker.sheet.armes if normalize(w.nom) == key]
    if found and found[-1].equipee is None:
        raise RuleError(f"« {found[-1].nom} » n'est pas équipée : {attacker.name} doit d'abord la "
                        "dégainer, ce qui prend son tour (R000.35, D-000.50)")
    if found:
        return found[-1]
    if key in UNARMED:
        return None
    names = ", ".join(w.nom for w in attacker.sheet.armes) or "aucune"
    raise RuleError(say(given("arme", wanted), f" : arme absente de la fiche de "
                        f"{attacker.name} (armes : {names}, ou mains_nues)"))


def _stroke(attacker: Character, opts: AttackOptions) -> Stroke:
    """R000.22, R000.28, R000.32, R000.40: weapon, table and damage formula of the attack. A
    werewolf's bite is a Corps à corps attack on the CAC table, whatever weapon is equipped;
    a transformed werewolf fights with claws (PHY+1d10)."""
    if opts.bite:
        return Stroke(None, True, "PHY+2d10", opts)
    weapon = _weapon(attacker, opts.weapon)
    cac = weapon is None or weapon.competence == "corps_a_corps"
    formula = "PHY" if weapon is None else weapon.degats
    claws = attacker.sheet.griffes or bool(attacker.sheet.etat.transformation)
    if opts.formula is not None:
        formula = opts.formula
    elif claws and cac and formula == "PHY":
        formula = "PHY+1d10"
    if weapon is not None:  # R000.24, A000.43: the weapon's own nature (data) counts too
        opts = replace(opts, area=opts.area or weapon.zone,
                       immaterial=opts.immaterial or weapon.immaterielle)
    return Stroke(weapon, cac, formula, opts)


# ------------------------------------------------------------------ attack and defence rolls


def _attack_check(attacker: Character, stroke: Stroke) -> Check:
    """R000.22, R000.30, R000.36, R000.38, R000.40: the attack roll."""
    opts = stroke.opts
    extra: list[Modifier] = []
    skill = "corps_a_corps" if stroke.weapon is None else stroke.weapon.competence
    if skill == "arme_de_jet":
        skill = "lancer"  # R000.05: thrown weapons use Lancer
    if opts.bite:
        extra.append(Modifier(-6, "morsure de loup-garou", "R000.40"))
    if opts.kravkar > 1:
        extra.append(Modifier(kravkar_malus(opts.kravkar), f"Kravkar, action {opts.kravkar}",
                              "R000.42"))
    if opts.aimed:
        extra.append(Modifier(aimed_malus(opts.aimed, stroke.cac), f"attaque visée : {opts.aimed}",
                              "R000.30"))
    if opts.mounted_attacker:
        extra.append(Modifier(attacker.skill("equitation"), "Équitation, attaquant monté", "R000.38"))
    if opts.concentration == "jet" and attacker.sheet.etat.concentration:
        bonus = concentration_bonus(attacker.sheet.etat.concentration)
        extra.append(Modifier(bonus, "concentration", "R000.36"))
    return skill_check(attacker, skill, extra=tuple(extra), choice=opts.choice)


def _defence_check(defender: Character, stroke: Stroke) -> tuple[Check, list[Line]]:
    """R000.22, R000.24, R000.36, R000.38, D-000.47: the defence roll the rules allow. A000.23:
    the −6 of a concentrating defender applies to whichever defence is rolled (Esquive, Bouclier,
    CAC, mounted), not to Résistance Physique against an immaterial attack; A000.37: an immaterial attack
    must beat Résistance Physique strictly and still rolls a location; A000.42: every attack
    gets its own defence roll."""
    opts = stroke.opts
    notes: list[Line] = []
    defence = normalize(opts.defence)
    if defence not in ("esquive", "bouclier", "cac"):
        raise RuleError(say(given("defense", opts.defence), " inconnue (autorisé : esquive, "
                            "bouclier, cac)"))
    if defence == "cac" and not stroke.cac:
        raise RuleError(say(arg("defense", "cac"), " : la parade au corps à corps ne s'oppose "
                            "qu'à une attaque au corps à corps (R000.24)"))
    if not defender.can_act:
        notes.append(Line(f"{defender.name} est {defender.status} : aucune défense, "
                          "total 0", "D-000.47"))
        return passive_check(defender), notes
    if opts.immaterial:
        notes.append(Line("attaque immatérielle : Résistance Physique au lieu de l'Esquive", "R000.24"))
        return resistance_check(defender, "resistance_physique"), notes
    if opts.area and defence != "esquive":
        notes.append(Line("attaque de zone : seule l'Esquive est permise", "R000.24"))
        defence = "esquive"
    extra: tuple[Modifier, ...] = ()
    if defender.sheet.etat.concentration:
        extra = (Modifier(-6, "attaqué en se concentrant", "R000.36, A000.23"),)
    if opts.mounted_defender and defence != "bouclier":
        return _mounted_defence(defender, extra), notes
    skill = {"esquive": "esquive", "bouclier": "bouclier", "cac": "corps_a_corps"}[defence]
    return skill_check(defender, skill, extra=extra), notes


def _mounted_defence(defender: Character, extra: tuple[Modifier, ...]) -> Check:
    """R000.38: a mounted defender rolls Agilité + Équitation + 1D10 (unless using a shield)."""
    parts = (Modifier(defender.characteristic("agilite"), "Agilité"),
             Modifier(defender.skill("equitation"), "Équitation, défenseur monté", "R000.38"),
             *extra, *malus_modifiers(defender))
    return raw_check("Défense montée (Agilité + Équitation)", parts, rule="R000.38",
                     who=defender.name)


# ------------------------------------------------------------------ the whole attack


def attack_contest(attacker: Character, defender: Character, opts: AttackOptions
                   ) -> tuple[Stroke, Contest, list[Line]]:
    """R000.22–R000.24: the attack roll against the defence roll, as declared (also the exact
    odds of a hit)."""
    stroke = _stroke(attacker, opts)
    defence, notes = _defence_check(defender, stroke)
    return stroke, Contest(_attack_check(attacker, stroke), defence, ATTACK_CONTEST), notes


def require_fight(attacker: Character, defender: Character) -> None:
    """R000.34: a dead character is not attacked; D-ALL.02: the attacker can act."""
    if defender.state == "mort":
        raise RuleError(f"{is_state(defender.name, 'mort', defender.genre)} (R000.34) : "
                        "plus aucune attaque possible")
    if not attacker.can_act:
        raise RuleError(f"{attacker.name} est {attacker.status} : "
                        f"{pronoun(attacker.genre, 'aucune attaque possible')}"
                        f"{'' if attacker.genre is None else ' ne peut pas attaquer'} (D-ALL.02)")


def spent_updates(attacker: Character, opts: AttackOptions) -> tuple[Update, ...]:
    """R000.36: the concentration the attack spends (hit or miss)."""
    if opts.concentration and attacker.sheet.etat.concentration:
        return ((("etat", "concentration"), 0),)
    return ()


def attack(attacker: Character, defender: Character, opts: AttackOptions,
           source: DiceSource, chooser: Chooser = default_choice) -> Blow:
    """The whole chain: R000.22–R000.41. An expert (attacker or defender) may keep the other
    die once the dice are shown (R000.17, asked through `chooser`). Its steps give the exact
    table of `attack_law` too."""
    require_fight(attacker, defender)
    stroke, duel, notes = attack_contest(attacker, defender, opts)
    contest = roll_contest(duel, source, chooser)
    spent = spent_updates(attacker, opts)
    if opts.concentration and not spent:
        notes.append(Line(f"{attacker.name} n'a aucune concentration accumulée : l'option est "
                          "sans effet", "R000.36"))
    if not contest.success:
        report = AttackReport(attacker.name, defender.name, False, (contest,), notes=tuple(notes),
                              rule="R000.23", weapon=stroke.weapon_name)
        return Blow(report, spent)
    return _hit(attacker, defender, stroke, contest, notes, source, spent)


def _hit(attacker: Character, defender: Character, stroke: Stroke, contest: ContestResult,
         notes: list[Line], source: DiceSource, spent: tuple[Update, ...]) -> Blow:
    """R000.25–R000.41: location, damage, protection, state, knock-out."""
    updates = hit_first(attacker, defender, stroke.opts)
    if defender.sheet.etat.concentration:
        hit = accord(defender.genre, "touché", "touchée", "un coup au but")
        notes.append(Line(f"{hit} pendant sa concentration : elle est perdue", "R000.36"))
    if stroke.opts.hold:
        return _held(attacker, defender, stroke, contest, notes, spent, updates)
    location, zone = _locate(contest.margin, stroke, source)
    if zone.name == "Bras" and not stroke.cac and not CONFIG.arm_row_13_is_body:
        notes.append(Line("ligne 13 « Arme » : le coup frappe l'arme", "A000.06"))
    damage = _damage(attacker, defender, zone, stroke, source)
    hp_before = defender.sheet.pv.actuels
    after = state_after(hp_before, damage.suffered, zone, defender.sheet.etat.mourant)
    steps: list[Step] = [contest]
    knocked, paralysed = _head_effects(defender, zone, damage.suffered, after.dead, stroke.opts,
                                       source, steps, notes)
    updates += hit_updates(after, damage.suffered, knocked, paralysed)
    state = after.label
    if state == "debout" and (knocked or defender.sheet.etat.assomme):
        state = "assomme"
    notes += _state_notes(defender.state, state, defender.genre)
    report = AttackReport(
        attacker.name, defender.name, True, tuple(steps), (damage,), location,
        Health("pv", hp_before, after.hit_points, defender.sheet.pv.max),
        StateChange(defender.state, state, defender.genre), notes=tuple(notes), rule="R000.23",
        weapon=stroke.weapon_name)
    return Blow(report, spent, tuple(updates))


def hit_first(attacker: Character, defender: Character, opts: AttackOptions) -> list[Update]:
    """What any hit writes first: R000.36 the defender's concentration is lost; R000.42 a
    Kravkar hold immobilises it (and does nothing else)."""
    updates: list[Update] = []
    if defender.sheet.etat.concentration:
        updates.append((("etat", "concentration"), 0))
    if opts.hold:
        updates.append((("etat", "immobilise"), attacker.name))
    return updates


def hit_updates(after: StateAfter, suffered: int, knocked: bool, paralysed: bool
                ) -> list[Update]:
    """R000.34, R000.41, R000.27: what a blow that lands writes on the defender's sheet."""
    updates: list[Update] = [(("pv",), after.hit_points), (("etat", "mourant"), after.dying),
                             (("etat", "mort"), after.dead)]
    if knocked:
        updates.append((("etat", "assomme"), suffered))
    if paralysed:
        updates.append((("etat", "paralyse"), True))
    return updates


def _held(attacker: Character, defender: Character, stroke: Stroke, contest: ContestResult,
          notes: list[Line], spent: tuple[Update, ...], updates: list[Update]) -> Blow:
    """R000.42: a Kravkar hold that succeeds immobilises the opponent (no damage, no location);
    it may break free on its following turn (Physique × 2, opposed)."""
    notes.append(Line(f"prise : {is_state(defender.name, 'immobilise', defender.genre)} ; "
                      + accord(defender.genre, "il peut", "elle peut", "dégagement possible")
                      + (" se dégager" if defender.genre else "")
                      + " à son tour (jdr regle degagement, Physique × 2 opposé)", "R000.42"))
    state = StateChange(defender.state, defender.state, defender.genre)
    report = AttackReport(attacker.name, defender.name, True, (contest,), state=state,
                          notes=tuple(notes), rule="R000.42", weapon=stroke.weapon_name)
    return Blow(report, spent, tuple(updates))


LOCATION_DIE = 20


def zone_at(raw: int, margin: int, stroke: Stroke) -> tuple[int, Zone]:
    """R000.29, R000.38: the row (and its zone) a location die `raw` gives after the margin."""
    opts = stroke.opts
    total = location_total(raw, margin, opts.mounted_attacker, opts.mounted_defender)
    return total, zone_for(total, stroke.cac)


def _locate(margin: int, stroke: Stroke, source: DiceSource) -> tuple[Location, Zone]:
    """R000.25–R000.30, R000.38, A000.08: where the blow lands."""
    opts = stroke.opts
    table = ("table du corps à corps", "R000.27") if stroke.cac else ("table des armes", "R000.26")
    if opts.aimed:
        number, zone = aimed_zone(opts.aimed, stroke.cac)
        return Location(number, zone.name, (), (
            Line("attaque visée : pas de jet de localisation", "R000.30"), Line(*table))), zone
    raw = source.roll(LOCATION_DIE)
    total, zone = zone_at(raw, margin, stroke)
    text = f"d20 {raw} + écart {location_bonus(margin)} (au plus 5)"
    unclamped = raw + location_bonus(margin)
    if opts.mounted_attacker:
        text, unclamped = text + " + 5 (attaquant monté)", unclamped + 5
    if opts.mounted_defender:
        text, unclamped = text + " − 5 (défenseur monté)", unclamped - 5
    if unclamped != total:
        text += f" = {unclamped}, ramené entre 1 et 20"
    return Location(total, zone.name, (Die(LOCATION_DIE, raw),), (
        Line(f"{text} = {total}", "R000.29"), Line(*table))), zone


def _damage(attacker: Character, defender: Character, zone: Zone, stroke: Stroke,
            source: DiceSource) -> Damage:
    """R000.31–R000.33, R000.36, D-000.46: weapon damage (+ Physique), critical location,
    concentration, minus the protection covering the zone (A000.14)."""
    weapon, rolled, added_phy = weapon_damage(attacker, stroke.formula, source)
    formula = stroke.formula
    dice = list(rolled.dice)
    detail: list[Line] = []
    if added_phy:
        formula += " + Physique"
        detail.append(Line(f"Physique ajoutée : +{attacker.characteristic('physique')}", "D-000.46"))
    extra_total = 0
    if zone.extra:
        extra = roll(zone.extra, source)
        extra_total = extra.total
        dice += extra.dice
        formula += f" + {zone.extra}"
        detail.append(Line(f"{zone.name} : +{zone.extra} = +{extra.total}",
                           "R000.27" if stroke.cac else "R000.26"))
    bonus = concentration_damage(attacker, stroke.opts)
    if bonus:
        formula += " + concentration"
        detail.append(Line(f"concentration : +{bonus}", "R000.36"))
    if stroke.opts.extra_damage:
        formula += " + Course de la monture"
        detail.append(Line(f"charge : Course de la monture +{stroke.opts.extra_damage}", "R000.39"))
    raw = raw_damage(weapon, extra_total, attacker, stroke.opts)
    protection = protection_for(defender, zone)
    return Damage(formula, tuple(dice), raw, protection, suffered_damage(raw, protection),
                  tuple(detail))


def raw_damage(weapon: int, extra: int, attacker: Character, opts: AttackOptions) -> int:
    """R000.31, R000.36, R000.39: a blow's damage before protection: the weapon's (Physique
    included), the zone's extra dice, the concentration spent on damage, the mount's Course."""
    return weapon + extra + concentration_damage(attacker, opts) + opts.extra_damage


def concentration_damage(attacker: Character, opts: AttackOptions) -> int:
    """R000.36: what the attacker's concentration adds to the damage (0 when not spent so)."""
    if opts.concentration == "degats" and attacker.sheet.etat.concentration:
        return concentration_bonus(attacker.sheet.etat.concentration)
    return 0


PARALYSIS_RESISTANCE = 25  # R000.27: Résistance Physique ≥ 25 escapes the paralysis


def head_roll(defender: Character, zone: Zone, suffered: int, dead: bool, opts: AttackOptions
              ) -> tuple[str, Check | None]:
    """R000.41, A000.29: a head hit that hurts calls for a knock-out roll (`assommement`;
    `deja` and no roll when the defender is knocked out already); R000.27: the Bijoux de
    famille for a paralysis roll (`paralysie`); ("", None): no roll."""
    if dead:
        return "", None
    if zone.head and suffered > 0 and CONFIG.knockout_on_any_head_hit and not opts.lethal:
        if defender.sheet.etat.assomme:
            return "deja", None
        return "assommement", resistance_check(defender, "resistance_physique",
                                               label="Résistance Physique (assommement)")
    if zone.effect:
        return "paralysie", resistance_check(defender, "resistance_physique",
                                             threshold=PARALYSIS_RESISTANCE,
                                             label="Résistance Physique (Bijoux de famille)")
    return "", None


def head_effects(kind: str, suffered: int, result: CheckResult | None) -> tuple[bool, bool]:
    """(knocked out, paralysed) after the roll `head_roll` called for."""
    if result is None:
        return False, False
    if kind == "assommement":
        return knockout(result.total, suffered), False
    return False, result.total < PARALYSIS_RESISTANCE


def _head_effects(defender: Character, zone: Zone, suffered: int, dead: bool, opts: AttackOptions,
                  source: DiceSource, steps: list[Step], notes: list[Line]) -> tuple[bool, bool]:
    """R000.41, A000.29: a head hit may knock out; R000.27: the Bijoux de famille may paralyse.
    Adds the Résistance Physique roll to `steps`; returns (knocked out, paralysed)."""
    kind, check = head_roll(defender, zone, suffered, dead, opts)
    if kind == "deja":
        notes.append(Line(accord(defender.genre, "déjà assommé", "déjà assommée",
                                 "déjà sans connaissance")
                          + " : pas de nouveau jet d'assommement", "R000.41"))
    if check is None:
        return False, False
    result = check.roll(source)
    steps.append(result)
    knocked, paralysed = head_effects(kind, suffered, result)
    if kind == "assommement":
        notes.append(_knockout_note(result, suffered, knocked, defender.genre))
    elif not paralysed:
        notes.append(Line("Bijoux de famille : Résistance Physique ≥ 25, pas de paralysie", "R000.27"))
    else:
        notes.append(Line("Bijoux de famille : " + accord(
            defender.genre, "paralysé, il perd son prochain tour et ne se défend pas d'ici là",
            "paralysée, elle perd son prochain tour et ne se défend pas d'ici là",
            "paralysie : son prochain tour est perdu, et aucune défense d'ici là"),
            "R000.27, D-000.47"))
    return knocked, paralysed


def _knockout_note(ko: CheckResult, suffered: int, knocked: bool, g: Genre = None) -> Line:
    if knocked:
        then = (accord(g, "il perd son prochain tour, puis se réveille",
                       "elle perd son prochain tour, puis se réveille",
                       "son prochain tour est perdu, puis le réveil vient")
                + f" sur un jet > {wake_difficulty(suffered, 1)}")
        return Line(f"{state_label('assomme', g)} : Résistance Physique {ko.total} ≤ "
                    f"{suffered} dégâts ; {then}", "R000.41")
    return Line(accord(g, "reste conscient", "reste consciente", "garde connaissance")
                + f" : Résistance Physique {ko.total} > {suffered} dégâts", "R000.41")


def _state_notes(before: str, after: str, g: Genre = None) -> list[Line]:
    if after == before:
        return []
    if after == "mort":
        return [Line(f"{state_label('mort', g)} : 0 PV ou moins sur une zone vitale", "R000.34")]
    if after == "mourant":
        return [Line(f"{state_label('mourant', g)} : 0 PV ou moins, hors zone vitale ; des soins "
                     "rapides peuvent " + accord(g, "le sauver", "la sauver", "encore tout sauver"),
                     "R000.34")]
    return []


# ------------------------------------------------------------------ sheet updates


def updated(character: Character, updates: Sequence[Update]) -> Character:
    """The character after the updates (the duel plays on without writing sheets)."""
    sheet = character.sheet
    etat = dict(sheet.etat.model_dump())
    pv = sheet.pv
    for path, value in updates:
        if path == ("pv",):
            assert isinstance(value, int)
            pv = pv.model_copy(update={"actuels": value})
        elif path[0] == "etat":
            etat[path[1]] = value
    new_etat = sheet.etat.model_copy(update=etat)
    return Character(sheet.model_copy(update={"pv": pv, "etat": new_etat}))
