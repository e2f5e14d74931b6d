"""Combat (RULES.md 2.3): attack against parry or dodge, critical options, damage, initiative.

Dice are rolled in this order (what `--des` must give): attack d20; defence d20 (parry or dodge,
none without defence); then, only when they matter: 1D10 "Solidifier ses appuis" (a critical
parry against a successful attack); and if the blow lands: 1D6 damage, 1D10 "Dégâts" (critical
attack), 1D10 "Résister au coup" (critical defence that still lost).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jdr.core.check import CheckResult, Modifier
from jdr.core.system import AttackRequest, SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.maitrise.checks import characteristic_check, render_roll, skill_check
from jdr.systems.maitrise.config import MaitriseConfig
from jdr.systems.maitrise.sheet import Character
from jdr.systems.maitrise.tables import (
    ATTACK_CRITICALS,
    CRITICAL_DIE,
    DAMAGE_DIE,
    DEFENCE_CRITICAL_ALIASES,
    DEFENCE_CRITICALS,
    DEFENCES,
    DIE,
    FOOTING_BONUS,
    INCOMPETENT_DAMAGE,
    SPEED_MARGIN,
    modifier,
)

# ------------------------------------------------------------------ damage


@dataclass(frozen=True)
class Damage:
    """R001.21 / R001.22 / R001.23: 1D6 + mod(Force) [−2] [+1D10] − armour [−1D10], floor 0."""

    roll: int
    modifiers: tuple[Modifier, ...]
    floor: int = 0

    @property
    def raw(self) -> int:
        return self.roll + sum(m.value for m in self.modifiers)

    @property
    def total(self) -> int:
        return max(self.floor, self.raw)

    def render(self) -> str:
        mods = " ".join(m.render() for m in self.modifiers)
        text = f"1d6 [{self.roll}] {mods} = {self.raw}"
        if self.raw != self.total:
            text += f" → {self.total} (jamais moins de {self.floor})"
        return text


def damage(roll: int, force: int, armour: int, *, incompetent: bool = False,
           extra: int | None = None, resisted: int | None = None, floor: int = 0) -> Damage:
    """R001.21 (1D6 + Force modifier, A001 proposed), R001.23 (−2 Incompétent), R001.18 Dégâts
    (+1D10), R001.22 armour, R001.19 Résister au coup (−1D10), A001.12 / T001.12 floor 0."""
    mods = [Modifier(modifier(force), f"Force {force}")]
    if incompetent:
        mods.append(Modifier(INCOMPETENT_DAMAGE, "Incompétent"))
    if extra is not None:
        mods.append(Modifier(extra, "critique Dégâts 1d10"))
    if armour:
        mods.append(Modifier(-armour, "armure"))
    if resisted is not None:
        mods.append(Modifier(-resisted, "critique Résister au coup 1d10"))
    return Damage(roll, tuple(mods), floor)


# ------------------------------------------------------------------ options


def attack_critical(name: str | None) -> str | None:
    """R001.18: rapidite | degats | precision | mj."""
    if name is None:
        return None
    key = normalize(name)
    if key not in ATTACK_CRITICALS:
        raise RuleError(unknown_name_message("option de critique d'attaque", name,
                                             ATTACK_CRITICALS))
    return key


def defence_critical(name: str | None) -> str | None:
    """R001.19: rapidite | appuis | resister | mj."""
    if name is None:
        return None
    key = normalize(name)
    key = DEFENCE_CRITICAL_ALIASES.get(key, key)
    if key not in DEFENCE_CRITICALS:
        raise RuleError(unknown_name_message("option de critique de défense", name,
                                             DEFENCE_CRITICALS))
    return key


def _int_option(options: dict[str, str], key: str) -> int:
    raw = options.get(key)
    if raw is None:
        return 0
    try:
        return int(raw)
    except ValueError:
        raise RuleError(f"--opt {key}={raw} : un nombre entier est attendu") from None


# ------------------------------------------------------------------ the attack


@dataclass(frozen=True)
class AttackResult:
    attacker: str
    defender: str
    weapon: str
    attack: CheckResult
    attack_margin: int
    defence_kind: str
    defence: CheckResult | None
    defence_margin: int | None
    hit: bool
    location: str | None
    damage: Damage | None
    hit_points: tuple[int, int, int] | None  # (max, before, after)
    state: str
    bonus_action: bool = False
    counter_attack: bool = False
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "system": "maitrise",
            "attacker": self.attacker,
            "defender": self.defender,
            "weapon": self.weapon,
            "hit": self.hit,
            "location": self.location,
            "damage": self.damage.total if self.damage else 0,
            "damage_raw": self.damage.raw if self.damage else None,
            "damage_dice": [self.damage.roll] if self.damage else [],
            "state": self.state,
            "margin": self.attack_margin,
            "attack": self.attack.to_json(),
            "defence_kind": self.defence_kind,
            "defence": None if self.defence is None else self.defence.to_json(),
            "defence_margin": self.defence_margin,
            "hit_points": None if self.hit_points is None else {
                "max": self.hit_points[0], "before": self.hit_points[1],
                "after": self.hit_points[2]},
            "bonus_action": self.bonus_action,
            "counter_attack": self.counter_attack,
            "notes": list(self.notes),
        }

    def render(self) -> str:
        lines = [f"Attaque de {self.attacker} ({self.weapon}) contre {self.defender}",
                 "  " + render_roll(self.attack).replace("\n", "\n  ")]
        if self.attack_margin != self.attack.margin:
            lines.append(f"  marge d'attaque avec Rapidité : {self.attack_margin}")
        if self.defence is not None:
            lines.append(f"  {DEFENCES[self.defence_kind]} : "
                         + render_roll(self.defence).replace("\n", "\n  "))
            if self.defence_margin != self.defence.margin:
                lines.append(f"  marge de défense avec le critique : {self.defence_margin}")
        else:
            lines.append("  aucune défense")
        if not self.hit:
            lines.append("→ l'attaque ne touche pas")
        else:
            where = f" ({self.location})" if self.location else ""
            assert self.damage is not None
            lines.append(f"→ TOUCHÉ{where} : dégâts {self.damage.render()}")
            if self.hit_points is not None:
                mx, before, after = self.hit_points
                lines.append(f"  {self.defender} : pv {before} → {after} / {mx} ({self.state})")
        lines.extend(f"  · {n}" for n in self.notes)
        return "\n".join(lines)


def _state(hp: tuple[int, int] | None, after: int | None) -> str:
    if hp is None or after is None:
        return "pv_inconnus"
    if after <= 0:
        return "mort"
    return "blesse" if after < hp[0] else "indemne"


def attack(attacker: Character, defender: Character, request: AttackRequest,
           source: DiceSource, config: MaitriseConfig) -> tuple[AttackResult, list[SheetChange]]:
    """R001.15 .. R001.23, A001.03, A001.07, A001.09 .. A001.12."""
    if attacker.dead():
        raise RuleError(f"{attacker.name} est mort (0 pv) : il ne peut plus attaquer")
    options = {normalize(k): v for k, v in request.options.items()}
    weapon_name, skill = attacker.weapon(request.weapon)
    crit_attack = attack_critical(request.critical)
    crit_defence = defence_critical(options.get("critique_defense")
                                    or options.get("critique_defence"))
    defence_kind = normalize(request.defence) if request.defence else (
        "parade" if defender.weapons else "esquive")
    if defence_kind not in DEFENCES:
        raise RuleError(unknown_name_message("défense", request.defence or "", DEFENCES))
    notes: list[str] = []
    if defender.dead():
        notes.append(f"{defender.name} est déjà mort")

    # 1. the attack roll (R001.16: computed like any skill roll)
    a_check = skill_check(attacker, skill, config, _int_option(options, "bonus_attaque"),
                          label=f"Attaque {attacker.name} — {skill}")
    a = a_check.roll(source)
    assert a.margin is not None
    a_crit = a.critical == "success"
    att_margin = a.margin
    if crit_attack and not a_crit:
        notes.append("option de critique ignorée : l'attaque n'est pas une réussite critique")
    if a_crit and crit_attack is None:
        notes.append("réussite critique : option possible --critique rapidite|degats|precision|mj")
    if a_crit and crit_attack == "rapidite":
        att_margin += SPEED_MARGIN  # R001.18, E001.09, A001.10

    # 2. the defence roll
    d: CheckResult | None = None
    def_margin: int | None = None
    defended = False
    d_crit = False
    if defence_kind == "parade":
        parry_weapon = options.get("arme_defense") or options.get("arme_defence")
        _, d_skill = defender.weapon(parry_weapon)
        d_check = skill_check(defender, d_skill, config, _int_option(options, "bonus_defense"),
                              label=f"Parade {defender.name} — {d_skill}")
        d = d_check.roll(source)
    elif defence_kind == "esquive":
        d_check = characteristic_check(defender, "adresse", _int_option(options, "bonus_defense"),
                                       label=f"Esquive {defender.name}")
        d = d_check.roll(source)
    if d is not None:
        assert d.margin is not None
        def_margin = d.margin
        d_crit = d.critical == "success"
        if crit_defence and not d_crit:
            notes.append("option de critique de défense ignorée : "
                         "la défense n'est pas une réussite critique")
        if d_crit and crit_defence == "rapidite":
            def_margin += SPEED_MARGIN  # R001.19, E001.09
        if defence_kind == "parade":
            if d_crit and crit_defence == "appuis" and a.success:
                def_margin += source.roll(CRITICAL_DIE) + FOOTING_BONUS  # R001.19, E001.10
            # R001.16 / A001.07: the larger margin wins, equal margins go to the defender;
            # A001.03: a failed attack has no margin, a failed parry never wins.
            defended = bool(d.success) and (not a.success or def_margin >= att_margin)
            if d.success and a.success and def_margin == att_margin:
                notes.append("marges égales : le défenseur l'emporte (A001.07)")
        else:
            # R001.17 / E001.11 / A001.11: margin ≥ 10 dodges whatever the attack's margin.
            defended = bool(d.success)
            if defended and a_crit:
                notes.append("l'esquive réussie annule même une attaque critique (A001.11)")
        if defended and d_crit and crit_defence == "rapidite" and a.success:
            notes.append(f"{defender.name} peut contre-attaquer (critique Rapidité, R001.19)")
    hit = bool(a.success) and not defended
    if not a.success and a.critical == "failure":
        notes.append("échec critique : l'attaque échoue (A001.08)")

    # 3. damage and hit points
    dmg: Damage | None = None
    location: str | None = None
    hp = defender.max_hit_points()
    after: int | None = hp[1] if hp else None
    changes: list[SheetChange] = []
    bonus_action = hit and a_crit and crit_attack == "rapidite"
    if bonus_action:
        notes.append(f"{attacker.name} gagne une action immédiate : seconde attaque, position "
                     "défensive ou rechargement (A001.10)")
    counter = (not hit) and defended and d_crit and crit_defence == "rapidite" and bool(a.success)
    if hit:
        roll = source.roll(DAMAGE_DIE)
        extra = source.roll(CRITICAL_DIE) if a_crit and crit_attack == "degats" else None
        resisted = (source.roll(CRITICAL_DIE)
                    if d is not None and d_crit and crit_defence == "resister" else None)
        dmg = damage(roll, attacker.characteristic("force"), defender.armour,
                     incompetent=attacker.incompetent(skill), extra=extra, resisted=resisted,
                     floor=config.damage_floor)
        if a_crit and crit_attack == "precision":
            location = request.aimed or "au choix de l'attaquant"
        elif request.aimed:
            notes.append("--visee ne compte qu'avec une réussite critique « precision » (R001.18)")
        if a_crit and crit_attack == "mj":
            notes.append("réussite critique : le MJ décide de son effet (R001.18)")
        if hp is not None:
            after = max(0, hp[1] - dmg.total)
            if defender.hit_points is not None:
                changes.append(SheetChange(defender.doc, ("pv",), after, pool=True))
            else:
                changes.append(SheetChange(defender.doc, ("pv",),
                                           {"max": hp[0], "actuels": after}))
            if after <= 0 < hp[1]:
                notes.append(f"{defender.name} tombe à 0 pv : il meurt")
        else:
            notes.append(f"{defender.name} n'a pas de pv sur sa fiche : dégâts à reporter à la main")
    result = AttackResult(
        attacker=attacker.name, defender=defender.name, weapon=weapon_name, attack=a,
        attack_margin=att_margin, defence_kind=defence_kind, defence=d,
        defence_margin=def_margin, hit=hit, location=location, damage=dmg,
        hit_points=None if hp is None or after is None else (hp[0], hp[1], after),
        state=_state(hp, after), bonus_action=bonus_action, counter_attack=counter,
        notes=tuple(notes),
    )
    return result, changes


# ------------------------------------------------------------------ initiative (A001.25)


@dataclass(frozen=True)
class InitiativeEntry:
    name: str
    adresse: int
    rolls: tuple[int, ...]


@dataclass(frozen=True)
class InitiativeResult:
    order: tuple[InitiativeEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return {"system": "maitrise", "rule": "A001.25",
                "order": [{"name": e.name, "adresse": e.adresse, "rolls": list(e.rolls)}
                          for e in self.order]}

    def render(self) -> str:
        lines = ["Initiative (Adresse la plus haute d'abord, égalités départagées au d20) :"]
        for i, e in enumerate(self.order, start=1):
            rolls = f", d20 {', '.join(map(str, e.rolls))}" if e.rolls else ""
            lines.append(f"  {i}. {e.name} (Adresse {e.adresse}{rolls})")
        return "\n".join(lines)


def initiative(chars: list[Character], source: DiceSource) -> InitiativeResult:
    """A001.25: order by Adresse, highest first; ties broken by d20 roll-offs (re-rolled while
    still tied), dice rolled in the order the sheets were given."""
    rolls: dict[int, list[int]] = {i: [] for i in range(len(chars))}

    def order(indices: list[int]) -> list[int]:
        groups: dict[int, list[int]] = {}
        for i in indices:
            key = chars[i].characteristic("adresse") if not rolls[i] else rolls[i][-1]
            groups.setdefault(key, []).append(i)
        out: list[int] = []
        for key in sorted(groups, reverse=True):
            group = groups[key]
            if len(group) == 1:
                out.extend(group)
                continue
            for i in group:
                rolls[i].append(source.roll(DIE))
            out.extend(order(group))
        return out

    ranked = order(list(range(len(chars))))
    return InitiativeResult(tuple(
        InitiativeEntry(chars[i].name, chars[i].characteristic("adresse"), tuple(rolls[i]))
        for i in ranked))
