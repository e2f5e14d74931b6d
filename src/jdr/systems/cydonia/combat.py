"""Cydonia, combat (RULES.md 1.3): initiative, attack and defence, location, damage, death.

Order in which an attack consumes dice (for `--des`): attack d10 (two for an expert skill),
defence d10, location d20 (none for an aimed attack), weapon damage dice, extra damage of a
critical location, then the defender's Résistance Physique d10 on a head hit (knock-out) or on
the Bijoux de famille (paralysis).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jdr.core.check import Check, CheckResult, Modifier, Opposed, OpposedResult
from jdr.dice.notation import RollResult, names_in, roll
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.checks import Character, resistance_check, skill_check
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    CAC_LOCATIONS,
    CHARACTERISTICS,
    CONFIG,
    VERY_PRECISE_CAC,
    VERY_PRECISE_WEAPON,
    WEAPON_LOCATIONS,
    Zone,
)

# ------------------------------------------------------------------ initiative


@dataclass(frozen=True)
class InitiativeEntry:
    name: str
    score: int
    chance: int
    rolloffs: tuple[int, ...] = ()


@dataclass(frozen=True)
class InitiativeResult:
    order: tuple[InitiativeEntry, ...]
    tiebreaks: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "order": [{"name": e.name, "initiative": e.score, "chance": e.chance,
                       "rolloffs": list(e.rolloffs)} for e in self.order],
            "tiebreaks": list(self.tiebreaks),
        }

    def render(self) -> str:
        lines = ["Ordre d'initiative (Agilité + Sensoriel, R000.21) :"]
        for i, e in enumerate(self.order, 1):
            lines.append(f"  {i}. {e.name} : {e.score}")
        lines.extend(f"  · {t}" for t in self.tiebreaks)
        return "\n".join(lines)


def initiative(characters: list[Character], source: DiceSource) -> InitiativeResult:
    """R000.21, A000.04: Agilité + Sensoriel, no die; ties by higher Chance, then 1D10 roll-offs."""
    entries = []
    for c in characters:
        score = c.characteristic("agilite") + c.characteristic("sensoriel")
        if CONFIG.initiative_die:
            score += source.roll(10)
        entries.append(InitiativeEntry(c.name, score, c.characteristic("chance")))
    tiebreaks: list[str] = []
    groups: dict[tuple[int, int], list[InitiativeEntry]] = {}
    for e in entries:
        groups.setdefault((e.score, e.chance), []).append(e)
    ordered: list[InitiativeEntry] = []
    for (score, chance) in sorted(groups, reverse=True):
        group = groups[(score, chance)]
        same_score = [e for e in entries if e.score == score]
        if len(same_score) > 1 and len({e.chance for e in same_score}) > 1 and len(group) == 1:
            tiebreaks.append(f"{group[0].name} : égalité à {score}, départagé par la Chance ({chance})")
        if len(group) > 1:
            group = _rolloff(group, source, tiebreaks, score)
        ordered.extend(group)
    return InitiativeResult(tuple(ordered), tuple(tiebreaks))


def _rolloff(group: list[InitiativeEntry], source: DiceSource, notes: list[str],
             score: int) -> list[InitiativeEntry]:
    """Roll 1D10 each until the order is strict (R000.19)."""
    names = ", ".join(e.name for e in group)
    current = list(group)
    for _ in range(100):
        current = [InitiativeEntry(e.name, e.score, e.chance, (*e.rolloffs, source.roll(10)))
                   for e in current]
        last = [e.rolloffs[-1] for e in current]
        if len(set(last)) == len(last):
            current.sort(key=lambda e: e.rolloffs, reverse=True)
            faces = ", ".join(f"{e.name} {e.rolloffs[-1]}" for e in current)
            notes.append(f"égalité à {score} et même Chance ({names}) : jet de 1D10 ({faces})")
            return current
    raise RuleError("initiative : égalité impossible à départager")


# ------------------------------------------------------------------ location


def location_bonus(margin: int, cap: int | None = None) -> int:
    """R000.29: the attack's margin, at most 5."""
    return min(margin, CONFIG.location_bonus_cap if cap is None else cap)


def location_total(raw: int, margin: int, mounted_attacker: bool = False,
                   mounted_defender: bool = False) -> int:
    """R000.29, R000.38, A000.08, A000.09: raw d20 + capped margin ± 5 mounted, clamped 1–20."""
    total = raw + location_bonus(margin)
    if mounted_attacker:
        total += 5
    if mounted_defender:
        total -= 5
    return max(1, min(20, total))


def zone_for(number: int, cac: bool) -> Zone:
    """R000.26 / R000.27."""
    return (CAC_LOCATIONS if cac else WEAPON_LOCATIONS)[number]


def aimed_malus(zone: str, cac: bool) -> int:
    """R000.30, A000.38: −8 for a very precise zone (Gorge, Tête; CAC: Bijoux, Glotte), else −6."""
    key = normalize(zone)
    very = VERY_PRECISE_CAC if cac else VERY_PRECISE_WEAPON
    return -8 if key in very else -6


def aimed_zone(zone: str, cac: bool) -> tuple[int, Zone]:
    table = CAC_LOCATIONS if cac else WEAPON_LOCATIONS
    key = normalize(zone)
    for number, z in table.items():
        if normalize(z.name) == key:
            return number, z
    names = sorted({normalize(z.name) for z in table.values()})
    raise RuleError(f"--visee « {zone} » : zone inconnue (autorisé : {', '.join(names)})")


def is_vital(zone: Zone) -> bool:
    """R000.34, A000.11."""
    return zone.name in CONFIG.vital_zones


# ------------------------------------------------------------------ damage and state


def concentration_bonus(turns: int) -> int:
    """R000.36: +2 per turn not played, at most 3 turns."""
    return 2 * min(max(turns, 0), 3)


def kravkar_malus(action: int) -> int:
    """R000.42: action n of a Kravkar sequence has −3 × (n − 1)."""
    if action < 1:
        raise RuleError("Kravkar : les actions se comptent à partir de 1")
    return -3 * (action - 1)


def transformed(physique: int, agilite: int, transformation: int) -> tuple[int, int, int]:
    """R000.40: Transformation is added to Physique and Agilité (even above 14); lasts that many turns."""
    return physique + transformation, agilite + transformation, transformation


def suffered_damage(raw: int, protection: int) -> int:
    """R000.31, R000.33: damage − protection, floored at 0."""
    return max(0, raw - protection)


def protection_for(character: Character, zone: Zone) -> int:
    """A000.14: the piece covering the zone, or a global `toutes`."""
    prot = character.sheet.protections
    return int(prot.get(zone.armour, prot.get("toutes", 0)))


@dataclass(frozen=True)
class StateAfter:
    hit_points: int
    dying: bool
    dead: bool

    @property
    def label(self) -> str:
        return "mort" if self.dead else "mourant" if self.dying else "debout"


def state_after(hit_points: int, damage: int, zone: Zone | None, was_dying: bool = False) -> StateAfter:
    """R000.34, A000.12: at ≤ 0 HP a vital zone kills, any other leaves the character dying.

    A dying character hit again in a vital zone dies.
    """
    hp = hit_points - damage
    if hp > 0 and not was_dying:
        return StateAfter(hp, False, False)
    vital = zone is not None and is_vital(zone)
    if hp <= 0 and vital:
        return StateAfter(hp, False, True)
    if was_dying and vital and damage > 0:
        return StateAfter(hp, False, True)
    return StateAfter(hp, hp <= 0 or was_dying, False)


def knockout(resistance_total: int, damage: int) -> bool:
    """R000.41: knocked out unless Résistance Physique is greater than the damage."""
    return not resistance_total > damage


def wake_difficulty(damage: int, attempt: int) -> int:
    """R000.41, A000.29: the t-th wake-up attempt has difficulty damage − t (never below 0)."""
    return max(0, damage - attempt)


def wakes(resistance_total: int, damage: int, attempt: int) -> bool:
    """R000.41: the roll must be strictly greater than the difficulty."""
    return resistance_total > wake_difficulty(damage, attempt)


def weapon_damage(character: Character, formula: str, source: DiceSource) -> tuple[int, RollResult, bool]:
    """R000.31, D-000.46: a formula naming PHY already counts Physique; otherwise it is added."""
    variables = _variables(character)
    names = names_in(formula)
    result = roll(formula, source, variables)
    names_physique = any(ABBREVIATIONS.get(n, n) == "physique" for n in names)
    total = result.total if names_physique else result.total + character.characteristic("physique")
    return total, result, not names_physique


def _variables(character: Character) -> dict[str, int]:
    values: dict[str, int] = {}
    for key in CHARACTERISTICS:
        values[key] = character.characteristic(key)
    for abbr, key in ABBREVIATIONS.items():
        values[abbr] = values[key]
    return values


# ------------------------------------------------------------------ the whole attack


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class AttackResult:
    attacker: str
    defender: str
    contest: OpposedResult
    hit: bool
    location: dict[str, Any] | None
    damage: dict[str, Any] | None
    state: str
    hit_points: int
    notes: tuple[str, ...] = ()
    knockout: CheckResult | None = None
    changes: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "hit": self.hit,
            "location": self.location,
            "damage": self.damage,
            "state": self.state,
            "hit_points": self.hit_points,
            "attack": self.contest.actor.to_json(),
            "defence": self.contest.opponent.to_json(),
            "margin": self.contest.margin,
            "knockout": None if self.knockout is None else self.knockout.to_json(),
            "notes": list(self.notes),
        }

    def render(self) -> str:
        lines = [f"{self.attacker} attaque {self.defender}",
                 "  attaque : " + self.contest.actor.render(),
                 "  défense : " + self.contest.opponent.render()]
        if not self.hit:
            lines.append("  → manqué" + (" (égalité : le défenseur l'emporte)" if self.contest.tie else ""))
        else:
            loc = self.location or {}
            if loc.get("aimed"):
                lines.append(f"  → touché, attaque visée : {loc['zone']}")
            else:
                lines.append(
                    f"  → touché ; localisation d20 {loc['roll']} + bonus {loc['bonus']}"
                    f"{loc.get('mounted', '')} = {loc['total']} : {loc['zone']}"
                )
            dmg = self.damage or {}
            lines.append(f"  dégâts : {dmg['detail']} = {dmg['raw']} − protection "
                         f"{dmg['protection']} = {dmg['suffered']}")
            if self.knockout is not None:
                lines.append("  " + self.knockout.render())
            lines.append(f"  {self.defender} : {self.hit_points} PV, {self.state}")
        lines.extend(f"  · {n}" for n in self.notes)
        return "\n".join(lines)


def _attack_check(attacker: Character, opts: AttackOptions) -> tuple[Check, bool, str]:
    """R000.22, R000.30, R000.36, R000.38, R000.40: the attack roll and whether it is CAC."""
    weapon = None
    if opts.weapon is not None:
        wanted = normalize(opts.weapon)
        for w in attacker.sheet.armes:
            if normalize(w.nom) == wanted:
                weapon = w
        if weapon is None and wanted not in ("mains_nues", "cac", "corps_a_corps", "griffes"):
            names = ", ".join(w.nom for w in attacker.sheet.armes) or "aucune"
            raise RuleError(f"--arme « {opts.weapon} » : arme absente de la fiche de "
                            f"{attacker.name} (armes : {names}, ou mains_nues)")
    elif opts.weapon is None:
        weapon = next((w for w in attacker.sheet.armes if w.equipee == "principale"), None)
    extra: list[Modifier] = []
    cac = weapon is None or weapon.competence == "corps_a_corps"
    formula = "PHY" if weapon is None else weapon.degats
    skill = "corps_a_corps" if weapon is None else weapon.competence
    if skill == "arme_de_jet":
        skill = "lancer"  # R000.05: thrown weapons use Lancer
    if opts.bite:
        extra.append(Modifier(-6, "morsure de loup-garou (R000.40)"))
    if opts.aimed:
        extra.append(Modifier(aimed_malus(opts.aimed, cac), f"attaque visée : {opts.aimed} (R000.30)"))
    if opts.mounted_attacker:
        extra.append(Modifier(attacker.skill("equitation"), "Équitation, attaquant monté (R000.38)"))
    if opts.concentration == "jet" and attacker.sheet.etat.concentration:
        bonus = concentration_bonus(attacker.sheet.etat.concentration)
        extra.append(Modifier(bonus, "concentration (R000.36)"))
    check = skill_check(attacker, skill, extra=tuple(extra))
    return check, cac, formula


def _defence_check(defender: Character, opts: AttackOptions, cac: bool) -> tuple[Check, list[str]]:
    """R000.22, R000.24, R000.36, R000.38: the defence roll the rules allow."""
    notes: list[str] = []
    extra: list[Modifier] = []
    defence = normalize(opts.defence)
    if opts.immaterial:
        notes.append("attaque immatérielle : Résistance Physique au lieu d'Esquive (R000.24)")
        return resistance_check(defender, "resistance_physique"), notes
    if opts.area and defence != "esquive":
        notes.append("attaque de zone : seule l'Esquive est permise (R000.24)")
        defence = "esquive"
    if defence == "cac" and not cac:
        raise RuleError("--defense cac : la parade au corps à corps ne s'oppose qu'à une attaque "
                        "au corps à corps (R000.24)")
    if defender.sheet.etat.concentration and defence == "esquive":
        extra.append(Modifier(-6, "attaqué en se concentrant (R000.36)"))
    if opts.mounted_defender and defence != "bouclier":
        parts = (Modifier(defender.characteristic("agilite"), "Agilité"),
                 Modifier(defender.skill("equitation"), "Équitation, défenseur monté (R000.38)"),
                 *extra)
        if defender.malus:
            parts = (*parts, Modifier(defender.malus, "malus en cours (A000.16)"))
        from jdr.systems.cydonia.checks import raw_check

        return raw_check("Défense montée (Agilité + Équitation)", parts, rule="R000.38"), notes
    skill = {"esquive": "esquive", "bouclier": "bouclier", "cac": "corps_a_corps"}.get(defence)
    if skill is None:
        raise RuleError(f"--defense « {opts.defence} » inconnue (autorisé : esquive, bouclier, cac)")
    return skill_check(defender, skill, extra=tuple(extra)), notes


def attack(attacker: Character, defender: Character, opts: AttackOptions,
           source: DiceSource) -> AttackResult:
    """The whole chain: R000.22–R000.41."""
    if defender.sheet.etat.mort:
        raise RuleError(f"{defender.name} est mort (R000.34) : on n'attaque plus un mort")
    att_check, cac, formula = _attack_check(attacker, opts)
    def_check, notes = _defence_check(defender, opts, cac)
    contest = Opposed(att_check, def_check, rule="R000.23").roll(source)
    etat: dict[str, Any] = {}
    if opts.concentration and attacker.sheet.etat.concentration:
        etat["attacker_concentration"] = 0
    hp_now = defender.sheet.pv.actuels
    if not contest.success:
        state = "mort" if defender.sheet.etat.mort else (
            "mourant" if defender.sheet.etat.mourant else "debout")
        return AttackResult(attacker.name, defender.name, contest, False, None, None, state,
                            hp_now, tuple(notes), changes=etat)
    if defender.sheet.etat.concentration:
        notes.append("touché pendant sa concentration : elle est perdue (R000.36)")
        etat["defender_concentration"] = 0
    margin = contest.margin
    if opts.aimed:
        number, zone = aimed_zone(opts.aimed, cac)
        location: dict[str, Any] = {"aimed": True, "total": number, "zone": zone.name,
                                    "table": "cac" if cac else "armes"}
    else:
        raw = source.roll(20)
        total = location_total(raw, margin, opts.mounted_attacker, opts.mounted_defender)
        zone = zone_for(total, cac)
        mounted = (" + 5 (monté)" if opts.mounted_attacker else "") + (
            " − 5 (défenseur monté)" if opts.mounted_defender else "")
        location = {"aimed": False, "roll": raw, "bonus": location_bonus(margin),
                    "mounted": mounted, "total": total, "zone": zone.name,
                    "table": "cac" if cac else "armes"}
    if zone.name == "Bras" and not cac and not CONFIG.arm_row_13_is_body:
        notes.append("ligne 13 « Arme » : le coup frappe l'arme (A000.06)")
    # damage
    claws = attacker.sheet.griffes and cac and formula == "PHY"
    if opts.bite:
        formula = "PHY+2d10"
    elif claws:
        formula = "PHY+1d10"
    raw_damage, dmg_roll, added_phy = weapon_damage(attacker, formula, source)
    detail = dmg_roll.detail() + (" + Physique" if added_phy else "")
    if zone.extra:
        extra_roll = roll(zone.extra, source)
        raw_damage += extra_roll.total
        detail += f" + {extra_roll.detail()} ({zone.name})"
    if opts.concentration == "degats" and attacker.sheet.etat.concentration:
        bonus = concentration_bonus(attacker.sheet.etat.concentration)
        raw_damage += bonus
        detail += f" + {bonus} (concentration)"
    protection = protection_for(defender, zone)
    suffered = suffered_damage(raw_damage, protection)
    after = state_after(hp_now, suffered, zone, defender.sheet.etat.mourant)
    damage = {"raw": raw_damage, "protection": protection, "suffered": suffered,
              "detail": detail}
    ko_result = None
    if not after.dead and zone.head and suffered > 0 and CONFIG.knockout_on_any_head_hit \
            and not opts.lethal:
        ko_result = resistance_check(defender, "resistance_physique").roll(source)
        if knockout(ko_result.total, suffered):
            etat["assomme"] = suffered
            notes.append(f"assommé : Résistance Physique {ko_result.total} ≤ {suffered} dégâts "
                         f"(R000.41) ; réveil au prochain tour contre {wake_difficulty(suffered, 1)}")
        else:
            notes.append(f"reste conscient : Résistance Physique {ko_result.total} > {suffered}")
    elif zone.effect and not after.dead:
        ko_result = resistance_check(defender, "resistance_physique", threshold=25).roll(source)
        if ko_result.total >= 25:
            notes.append("Bijoux de famille : Résistance Physique ≥ 25, pas de paralysie")
        else:
            notes.append("Bijoux de famille : paralysé un tour (R000.27)")
    etat["pv"] = after.hit_points
    etat["mourant"] = after.dying
    etat["mort"] = after.dead
    return AttackResult(attacker.name, defender.name, contest, True, location, damage,
                        after.label, after.hit_points, tuple(notes), ko_result, etat)


def options_from(defence: str | None, aimed: str | None, weapon: str | None,
                 options: dict[str, str]) -> AttackOptions:
    def flag(key: str) -> bool:
        value = normalize(options.get(key, "non"))
        if value not in ("oui", "non", "true", "false", "1", "0"):
            raise RuleError(f"--opt {key}={options[key]} : valeur attendue oui ou non")
        return value in ("oui", "true", "1")

    known = {"monte", "defenseur_monte", "immateriel", "zone", "morsure", "letal", "concentration"}
    for key in options:
        if key not in known:
            raise RuleError(f"--opt {key} : option inconnue (autorisé : {', '.join(sorted(known))})")
    conc = options.get("concentration")
    if conc is not None and normalize(conc) not in ("jet", "degats"):
        raise RuleError("--opt concentration : jet ou degats (R000.36)")
    return AttackOptions(
        weapon=weapon, defence=defence or "esquive", aimed=aimed,
        mounted_attacker=flag("monte"), mounted_defender=flag("defenseur_monte"),
        immaterial=flag("immateriel"), area=flag("zone"), bite=flag("morsure"),
        lethal=flag("letal"), concentration=normalize(conc) if conc else None,
    )
