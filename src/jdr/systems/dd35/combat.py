"""Combat of dd35 (RULES.md 3.3): damage and criticals, attacks and full attacks, damage reduction,
manoeuvres, initiative and the action economy of a turn."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from jdr.core.check import CheckResult, Modifier
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.dd35.character import Character, apply_damage_reduction
from jdr.systems.dd35.checks import attack_check, initiative_check, saving_throw
from jdr.systems.dd35.config import DEFAULT_RULES, Rules
from jdr.systems.dd35.sheet import Weapon
from jdr.systems.dd35.tables import MOVE_SQUARE_METRES, NOT_ACTING_INITIATIVE_BONUS

# ------------------------------------------------------------------ damage


@dataclass(frozen=True)
class Damage:
    """One hit's damage: base dice (or their maximum), bonuses, extra critical rolls, DR."""

    base_faces: tuple[int, ...]
    base_value: int
    bonuses: tuple[Modifier, ...]
    critical: bool
    extra_rolls: tuple[tuple[int, ...], ...]
    raw: int
    reduction: int
    final: int
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "base_faces": list(self.base_faces), "base": self.base_value,
            "bonuses": [{"value": m.value, "reason": m.reason} for m in self.bonuses],
            "critical": self.critical, "extra_rolls": [list(r) for r in self.extra_rolls],
            "raw": self.raw, "reduction": self.reduction, "damage": self.final,
        }

    def render(self) -> str:
        if self.critical:
            parts = [f"maximum des dés {self.base_value}"]
        else:
            parts = [f"dés [{', '.join(map(str, self.base_faces))}] = {self.base_value}"]
        parts += [m.render() for m in self.bonuses]
        parts += [f"+{sum(r)} (jet supplémentaire [{', '.join(map(str, r))}])"
                  for r in self.extra_rolls]
        text = f"dégâts : {' '.join(parts)} = {self.raw}"
        if self.raw != self.final:
            text += f", après réduction {self.final}"
        for n in self.notes:
            text += f" ({n})"
        return text


def roll_base_dice(dice: Sequence[tuple[int, int]], source: DiceSource) -> tuple[int, ...]:
    """One roll of a weapon's base damage dice (R002.16)."""
    return tuple(source.roll(sides) for count, sides in dice for _ in range(count))


def max_base_dice(dice: Sequence[tuple[int, int]]) -> int:
    """R002.17: the maximum the base damage dice allow."""
    return sum(count * sides for count, sides in dice)


def critical_extra_rolls(multiplier: int) -> int:
    """R002.17 / E002.06: ×2 → 1 extra base roll, ×3 → 2, ×4 → 3 (multiplier − 1)."""
    if multiplier < 2:
        raise RuleError(f"facteur de critique ×{multiplier} impossible (×2 au moins)")
    return multiplier - 1


def roll_damage(dice: Sequence[tuple[int, int]], bonuses: tuple[Modifier, ...], critical: bool,
                multiplier: int, source: DiceSource, reduction: int = 0,
                magic_weapon: bool = False) -> Damage:
    """R002.16: base dice + Force + Dons + Magie. R002.17 (critical or Coup Fantastique that
    hits): maximum of the base dice + bonuses + (multiplier − 1) more rolls of the base dice
    without bonuses. R002.07/A002.11/A002.18: DR x/Magie subtracted once from the total."""
    bonus = sum(m.value for m in bonuses)
    if critical:
        faces: tuple[int, ...] = ()
        base = max_base_dice(dice)
        extra = tuple(roll_base_dice(dice, source) for _ in range(critical_extra_rolls(multiplier)))
    else:
        faces = roll_base_dice(dice, source)
        base = sum(faces)
        extra = ()
    raw = max(0, base + bonus + sum(sum(r) for r in extra))
    final = apply_damage_reduction(raw, reduction, magic_weapon)
    notes: tuple[str, ...] = ()
    if reduction and magic_weapon:
        notes = (f"arme magique : la RD {reduction}/Magie ne s'applique pas",)
    elif reduction:
        notes = (f"RD {reduction}/Magie",)
    return Damage(faces, base, bonuses, critical, extra, raw, raw - final, final, notes)


# ------------------------------------------------------------------ attacks


def hit_state(hp: int) -> str:
    """The document gives no rule below 0 HP ("Etat de santé" only defines HP): report only
    whether the character still has hit points."""
    return "debout" if hp > 0 else "hors_de_combat"


@dataclass(frozen=True)
class SingleAttack:
    roll: CheckResult
    damage: Damage | None

    @property
    def hit(self) -> bool:
        return bool(self.roll.success)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.roll.to_json(),
            "hit": self.hit,
            "coup_fantastique": self.hit and self.roll.critical == "success"
            and self.roll.natural != 20,
            "damage": self.damage.final if self.damage else 0,
            "damage_detail": self.damage.to_json() if self.damage else None,
        }

    def render(self) -> str:
        text = self.roll.render()
        if self.damage is not None:
            text += "\n  " + self.damage.render()
        return text


@dataclass(frozen=True)
class AttackResult:
    """One attack, or a full attack with every iterative (R002.04, AttackRequest.full)."""

    attacker: str
    defender: str
    weapon: str
    attacks: tuple[SingleAttack, ...]
    hp_before: int
    hp_after: int
    reduction: int
    full: bool
    notes: tuple[str, ...] = ()

    @property
    def hit(self) -> bool:
        return any(a.hit for a in self.attacks)

    @property
    def damage(self) -> int:
        return sum(a.damage.final for a in self.attacks if a.damage)

    @property
    def state(self) -> str:
        return hit_state(self.hp_after)

    def to_json(self) -> dict[str, Any]:
        return {
            "hit": self.hit, "location": None, "damage": self.damage, "state": self.state,
            "critical": any(a.roll.critical == "success" and a.hit for a in self.attacks),
            "attacker": self.attacker, "defender": self.defender, "weapon": self.weapon,
            "full": self.full, "damage_reduction": self.reduction,
            "hp_before": self.hp_before, "hp_after": self.hp_after,
            "attacks": [a.to_json() for a in self.attacks], "notes": list(self.notes),
        }

    def render(self) -> str:
        kind = "attaque complète" if self.full else "attaque"
        lines = [f"{self.attacker} → {self.defender}, {kind} ({self.weapon})"]
        lines += [a.render() for a in self.attacks]
        lines.append(f"Total : {self.damage} dégât(s) ; {self.defender} : "
                     f"{self.hp_before} → {self.hp_after} PV"
                     + (" (hors de combat)" if self.state == "hors_de_combat" else ""))
        lines += [f"  · {n}" for n in self.notes]
        return "\n".join(lines)


def resolve_attack(attacker: Character, defender: Character, weapon: Weapon, source: DiceSource,
                   full: bool = False, flat_footed: bool = False, circumstance: int = 0,
                   spell_dr: int = 0, magic: bool | None = None,
                   rules: Rules = DEFAULT_RULES) -> AttackResult:
    """R002.10 + R002.04 (a full attack rolls every iterative, A002.20: a Complex action),
    R002.16-R002.18 damage, R002.07 DR of the defender."""
    ac = defender.flat_footed_ac if flat_footed else defender.ac
    reduction = defender.damage_reduction(spell_dr)
    is_magic = weapon.magie > 0 if magic is None else magic
    offsets = [attacker.bab - v for v in attacker.attacks] if full else [0]
    hp = defender.current_hp
    done: list[SingleAttack] = []
    for offset in offsets:
        check = attack_check(attacker, weapon, ac, offset, circumstance, rules, defender.name)
        roll = check.roll(source)
        damage = None
        if roll.success:
            damage = roll_damage(weapon.dice, attacker.damage_bonus(weapon),
                                 roll.critical == "success", weapon.multiplicateur, source,
                                 reduction, is_magic)
            hp -= damage.final
        done.append(SingleAttack(roll, damage))
    notes: list[str] = []
    if flat_footed:
        notes.append(f"{defender.name} est pris au dépourvu : CA {ac}")
    if full:
        notes.append("attaque complète : Action Complexe (A002.20)")
    return AttackResult(attacker.name, defender.name, weapon.nom, tuple(done),
                        defender.current_hp, hp, reduction, full, tuple(notes))


# ------------------------------------------------------------------ manoeuvres


@dataclass(frozen=True)
class ManoeuvreResult:
    """R002.15: no attack roll; each target rolls a save against the manoeuvre's DC."""

    attacker: str
    name: str
    dc: int
    saves: tuple[CheckResult, ...]
    complex_action: bool
    notes: tuple[str, ...] = ()

    @property
    def hit(self) -> bool:
        return any(not s.success for s in self.saves)

    def to_json(self) -> dict[str, Any]:
        return {
            "hit": self.hit, "location": None, "damage": 0, "state": None,
            "manoeuvre": self.name, "dc": self.dc, "complex_action": self.complex_action,
            "saves": [s.to_json() for s in self.saves], "notes": list(self.notes),
        }

    def render(self) -> str:
        lines = [f"{self.attacker} : manœuvre « {self.name} », ND {self.dc} (pas de jet "
                 "d'attaque, sauvegarde de l'adversaire)"]
        for s in self.saves:
            lines.append(s.render() + (" : la manœuvre échoue" if s.success
                                       else " : la manœuvre réussit"))
        if self.complex_action:
            lines.append("  · plusieurs adversaires : la manœuvre devient une Action Complexe")
        lines += [f"  · {n}" for n in self.notes]
        return "\n".join(lines)


def resolve_manoeuvre(attacker: Character, targets: Sequence[Character], name: str, save: str,
                      dc: int, source: DiceSource, notes: Iterable[str] = ()) -> ManoeuvreResult:
    """R002.15: as many opponents as attacks per round; then it is a Complex action."""
    if len(targets) > len(attacker.attacks):
        raise RuleError(f"manœuvre contre {len(targets)} adversaires : {attacker.name} n'a que "
                        f"{len(attacker.attacks)} attaque(s) par round (R002.15)")
    saves = tuple(saving_throw(t, save, dc).roll(source) for t in targets)
    return ManoeuvreResult(attacker.name, name, dc, saves, len(targets) > 1, tuple(notes))


# ------------------------------------------------------------------ initiative


@dataclass(frozen=True)
class InitiativeEntry:
    name: str
    score: int
    dex: int
    roll: CheckResult | None = None
    tiebreak: int = 0


def _order(entries: Iterable[InitiativeEntry]) -> tuple[InitiativeEntry, ...]:
    """A002.05: higher score, then higher Dex bonus, then the d20 roll-off."""
    return tuple(sorted(entries, key=lambda e: (-e.score, -e.dex, -e.tiebreak)))


def roll_initiative(characters: Sequence[Character], source: DiceSource,
                    circumstance: int = 0) -> InitiativeTracker:
    """R002.13: 1d20 + Dex + Dons + Magie + circonstance; ties per A002.05 (roll-off d20)."""
    rolled = [InitiativeEntry(c.name, r.total, c.mod("dexterite"), r)
              for c in characters for r in [initiative_check(c, circumstance).roll(source)]]
    keys: dict[tuple[int, int], int] = {}
    for e in rolled:
        keys[(e.score, e.dex)] = keys.get((e.score, e.dex), 0) + 1
    out = []
    for e in rolled:
        if keys[(e.score, e.dex)] > 1:
            e = replace(e, tiebreak=source.roll(20))
        out.append(e)
    return InitiativeTracker(_order(out))


@dataclass(frozen=True)
class InitiativeTracker:
    """The initiative order through the rounds (R002.13, A002.04): pure values."""

    entries: tuple[InitiativeEntry, ...]
    round: int = 1
    over: bool = False

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries)

    def score(self, name: str) -> int:
        for e in self.entries:
            if e.name == name:
                return e.score
        raise RuleError(f"« {name} » n'est pas dans l'ordre d'initiative")

    def join(self, entry: InitiativeEntry) -> InitiativeTracker:
        """R002.13: a newcomer rolls initiative and takes their place in the order."""
        return replace(self, entries=_order((*self.entries, entry)))

    def end_round(self, acted: Iterable[str]) -> InitiativeTracker:
        """R002.13 + A002.04: whoever did not act this round gains +5 initiative (cumulative,
        re-sorted); if nobody acted, the combat ends."""
        acted_set = set(acted)
        unknown = acted_set - set(self.order)
        if unknown:
            raise RuleError(f"inconnu(s) dans l'initiative : {', '.join(sorted(unknown))}")
        if not acted_set:
            return replace(self, over=True)
        entries = [e if e.name in acted_set
                   else replace(e, score=e.score + NOT_ACTING_INITIATIVE_BONUS)
                   for e in self.entries]
        return replace(self, entries=_order(entries), round=self.round + 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "over": self.over,
            "order": [{"name": e.name, "initiative": e.score, "dex": e.dex,
                       "dice": [d.face for d in e.roll.dice] if e.roll else [],
                       "tiebreak": e.tiebreak or None} for e in self.entries],
        }

    def render(self) -> str:
        lines = ["Ordre d'initiative :"]
        for i, e in enumerate(self.entries, start=1):
            detail = f" ({e.roll.render()})" if e.roll else ""
            tie = f" [départage d20 : {e.tiebreak}]" if e.tiebreak else ""
            lines.append(f"{i}. {e.name} : {e.score}{tie}{detail}")
        if self.over:
            lines.append("Personne n'a agi ce round : le combat prend fin.")
        return "\n".join(lines)


# ------------------------------------------------------------------ actions of a turn

ActionKind = Literal["mouvement", "simple", "simple_en_mouvement", "complexe", "libre", "pas"]

ACTION_LABELS: dict[str, str] = {
    "mouvement": "Action Mouvement", "simple": "Action Simple",
    "simple_en_mouvement": "Action Simple utilisée comme Action Mouvement",
    "complexe": "Action Complexe", "libre": "Action Libre", "pas": "Pas de Placement",
}


@dataclass(frozen=True)
class Action:
    """One declared action. `moves`: it is a Déplacement (a move action usually is).
    `full_attack`: every iterative attack. `targets`: opponents of a manoeuvre."""

    kind: ActionKind
    name: str = ""
    moves: bool | None = None
    full_attack: bool = False
    manoeuvre: bool = False
    targets: int = 1

    @property
    def is_movement(self) -> bool:
        if self.moves is not None:
            return self.moves
        return self.kind in ("mouvement", "simple_en_mouvement")


@dataclass(frozen=True)
class TurnVerdict:
    valid: bool
    problems: tuple[str, ...] = field(default=())
    distance_step_m: float | None = None


def validate_turn(actions: Sequence[Action], attacks_per_round: int = 1,
                  difficult_terrain: bool = False) -> TurnVerdict:
    """R002.14: a Move action and a Simple action, or one Complex action; any Free actions; a
    5-foot step (1.5 m, one square) unless the character moved this turn. A002.14: the Simple
    action may replace a second move. A002.15: no 5-foot step in difficult terrain. A002.20: a
    full attack is a Complex action. R002.15: a manoeuvre against several opponents is a
    Complex action, against at most as many as the attacks per round."""
    problems: list[str] = []
    count = {k: 0 for k in ACTION_LABELS}
    for a in actions:
        if a.kind not in ACTION_LABELS:
            raise RuleError(f"action inconnue « {a.kind} » (autorisé : {', '.join(ACTION_LABELS)})")
        count[a.kind] += 1
    if count["mouvement"] > 1:
        problems.append("une seule Action Mouvement par tour")
    if count["simple"] + count["simple_en_mouvement"] > 1:
        problems.append("une seule Action Simple par tour (y compris utilisée comme mouvement)")
    if count["complexe"] > 1:
        problems.append("une seule Action Complexe par tour")
    if count["complexe"] and (count["mouvement"] or count["simple"]
                              or count["simple_en_mouvement"]):
        problems.append("aucune autre action avant ou après une Action Complexe, sauf des "
                        "Actions Libres ou un Pas de Placement")
    if count["pas"] > 1:
        problems.append("un seul Pas de Placement par tour")
    if count["pas"] and any(a.is_movement for a in actions if a.kind != "pas"):
        problems.append("pas de Pas de Placement dans un tour où le personnage s'est déplacé")
    if count["pas"] and difficult_terrain:
        problems.append("pas de Pas de Placement en terrain difficile (A002.15)")
    for a in actions:
        label = a.name or ACTION_LABELS[a.kind]
        if a.full_attack and a.kind != "complexe":
            problems.append(f"{label} : une attaque complète (toutes les attaques itératives) "
                            "est une Action Complexe")
        if a.manoeuvre and a.targets > attacks_per_round:
            problems.append(f"{label} : {a.targets} adversaires, mais seulement "
                            f"{attacks_per_round} attaque(s) par round")
        if a.manoeuvre and a.targets > 1 and a.kind != "complexe":
            problems.append(f"{label} : contre plusieurs adversaires, la manœuvre devient "
                            "une Action Complexe")
    return TurnVerdict(not problems, tuple(problems),
                       MOVE_SQUARE_METRES if count["pas"] else None)


def parse_turn(text: str) -> tuple[Action, ...]:
    """`mouvement+simple+libre` → actions (names after D-ALL.01 normalisation)."""
    aliases = {"move": "mouvement", "standard": "simple", "full": "complexe",
               "complete": "complexe", "gratuite": "libre", "free": "libre",
               "pas_de_placement": "pas", "5ft": "pas"}
    out: list[Action] = []
    for part in text.replace(",", "+").split("+"):
        key = normalize(part)
        if not key:
            continue
        key = aliases.get(key, key)
        if key not in ACTION_LABELS:
            raise RuleError(f"action inconnue « {part.strip()} » "
                            f"(autorisé : {', '.join(ACTION_LABELS)})")
        out.append(Action(key))  # type: ignore[arg-type]
    return tuple(out)


def pas_de_placement_distance() -> tuple[float, int]:
    """E002.07: a Pas de Placement moves 1.5 m, one square."""
    return MOVE_SQUARE_METRES, 1

