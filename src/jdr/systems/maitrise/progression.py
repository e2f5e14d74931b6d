"""Progression (RULES.md 2.4): spending XP on characteristics and skills.

- Characteristic L → L + 1 costs (L + 1) × 9 XP, up to 20 (R001.25, T001.01, T001.02).
- Skill L → L + 1 costs L + 1 XP (R001.27, A001.17, T001.03, T001.04).
- Crossing a tier (0→1, 19→20, 49→50, 79→80) needs a teacher one rank above the new rank and the
  rank's gold (R001.28, A001.18, A001.19, E001.02, E001.07): `--opt maitre=oui`.
- 99 → 100 (Grand maître): no teacher exists; the MJ decides (`--opt mj=oui`, gold `cout_or=N`).
- Grand maître exclusivity (A001.21): one weapon skill at 100, the others stop at 99.
- 20+ / 100+ (R001.13, R001.26, R001.29, A001.16, E001.03, E001.04): each further level costs the
  continued formula and adds one critical face of the player's choice (`--opt face=N`, 2..19).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jdr.core.system import SheetChange, XpRequest
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.maitrise.config import MaitriseConfig
from jdr.systems.maitrise.sheet import Character
from jdr.systems.maitrise.tables import (
    CHARACTERISTIC_MAX,
    CHARACTERISTICS,
    CHOOSABLE_FACES,
    RANK_BY_KEY,
    SKILL_MAX,
    Rank,
    rank_of,
)

YES = {"oui", "o", "yes", "y", "true", "vrai", "1"}


def _yes(options: dict[str, str], *keys: str) -> bool:
    return any(normalize(options.get(k, "")) in YES for k in keys)


def characteristic_cost(target: int) -> int:
    """R001.25: raising a characteristic to `target` costs target × 9 XP (A001.16 beyond 20)."""
    return target * 9


def skill_cost(target: int) -> int:
    """R001.27 / A001.17: raising a skill to `target` costs `target` XP (A001.16 beyond 100)."""
    return target


def cumulative_skill_cost(start: int, end: int) -> int:
    """T001.04: the XP from `start` to `end` (0 → N is N(N + 1)/2)."""
    return sum(skill_cost(t) for t in range(start + 1, end + 1))


@dataclass(frozen=True)
class TierCrossing:
    """R001.28 / A001.18 / A001.19: what crossing into `rank` requires."""

    rank: Rank
    teacher: Rank | None
    gold: int | None  # None: undetermined (Grand maître), the MJ decides


def tier_crossing(level: int, target: int) -> TierCrossing | None:
    """R001.28: None when `level` and `target` are in the same tier."""
    before, after = rank_of(level), rank_of(target)
    if before == after:
        return None
    teacher = RANK_BY_KEY[after.teacher] if after.teacher else None
    return TierCrossing(after, teacher, after.gold)


@dataclass(frozen=True)
class XpResult:
    name: str
    kind: str  # "skill" | "carac"
    key: str
    before: int
    after: int
    cost: int
    xp_before: int
    gold_cost: int
    gold_remaining: int
    face: int | None = None
    rank_before: str | None = None
    rank_after: str | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def remaining(self) -> int:
        return self.xp_before - self.cost

    def to_json(self) -> dict[str, Any]:
        return {
            "system": "maitrise",
            "name": self.name,
            "kind": self.kind,
            "target": self.key,
            "before": self.before,
            "after": self.after,
            "cost": self.cost,
            "remaining": self.remaining,
            "gold_cost": self.gold_cost,
            "gold_remaining": self.gold_remaining,
            "face": self.face,
            "rank_before": self.rank_before,
            "rank_after": self.rank_after,
            "notes": list(self.notes),
        }

    def render(self) -> str:
        what = CHARACTERISTICS.get(self.key, self.key)
        if self.face is not None:
            line = (f"{self.name} : {what} {self.before}+ — nouvelle face critique {self.face} "
                    f"pour {self.cost} XP")
        else:
            line = f"{self.name} : {what} {self.before} → {self.after} pour {self.cost} XP"
        line += f" (reste {self.remaining} XP)"
        if self.gold_cost:
            line += f", {self.gold_cost} pièce(s) d'or au professeur (reste {self.gold_remaining})"
        if self.rank_before != self.rank_after and self.rank_after:
            line += f"\n  rang : {self.rank_before} → {self.rank_after}"
        return line + "".join(f"\n  · {n}" for n in self.notes)


def _pay(char: Character, cost: int) -> None:
    if char.xp < cost:
        raise RuleError(f"refusé : il faut {cost} XP, {char.name} n'en a que {char.xp}")


def _new_face(char: Character, key: str, options: dict[str, str], level: str) -> int:
    """R001.13 / E001.04: the face the player picks (2..19), never 1, never twice."""
    raw = options.get("face")
    if raw is None:
        raise RuleError(f"refusé : au niveau {level} chaque progression donne une face critique "
                        "de plus ; choisissez-la avec --opt face=N (de 2 à 19, jamais 1)")
    try:
        face = int(raw)
    except ValueError:
        raise RuleError(f"--opt face={raw} : un numéro de face (de 2 à 19) est attendu") from None
    if face == 1:
        raise RuleError("refusé : la face 1 ne peut jamais être choisie, elle reste un échec "
                        "critique (R001.13)")
    if face not in CHOOSABLE_FACES:
        raise RuleError(f"refusé : face {face} impossible (autorisé : de 2 à 19 ; 20 est déjà "
                        "une réussite critique)")
    if face in char.extra_faces.get(key, ()):
        raise RuleError(f"refusé : la face {face} est déjà une réussite critique pour {key}")
    return face


def raise_characteristic(char: Character, key: str, options: dict[str, str]
                         ) -> tuple[XpResult, list[SheetChange]]:
    """R001.25, R001.26, A001.16."""
    level = char.base[key]
    faces = char.extra_faces.get(key, ())
    if level < CHARACTERISTIC_MAX:
        cost = characteristic_cost(level + 1)
        _pay(char, cost)
        result = XpResult(char.name, "carac", key, level, level + 1, cost, char.xp, 0, char.gold)
        return result, [SheetChange(char.doc, ("caracteristiques", key), level + 1),
                        SheetChange(char.doc, ("xp",), result.remaining)]
    cost = characteristic_cost(CHARACTERISTIC_MAX + 1 + len(faces))
    face = _new_face(char, key, options, "20+")
    _pay(char, cost)
    result = XpResult(char.name, "carac", key, level, level, cost, char.xp, 0, char.gold,
                      face=face)
    return result, [SheetChange(char.doc, ("faces_critiques", key), [*faces, face]),
                    SheetChange(char.doc, ("xp",), result.remaining)]


def raise_skill(char: Character, key: str, options: dict[str, str], config: MaitriseConfig
                ) -> tuple[XpResult, list[SheetChange]]:
    """R001.27, R001.28, R001.29, A001.16 .. A001.21."""
    level = char.skill(key)
    faces = char.extra_faces.get(key, ())
    if level >= SKILL_MAX:
        cost = skill_cost(SKILL_MAX + 1 + len(faces))
        face = _new_face(char, key, options, "100+")
        _pay(char, cost)
        rank = rank_of(level).name
        result = XpResult(char.name, "skill", key, level, level, cost, char.xp, 0, char.gold,
                          face=face, rank_before=rank, rank_after=rank)
        return result, [SheetChange(char.doc, ("faces_critiques", key), [*faces, face]),
                        SheetChange(char.doc, ("xp",), result.remaining)]
    target = level + 1
    cost = skill_cost(target)
    notes: list[str] = []
    gold = 0
    cap = config.grand_master_exclusive_cap
    if cap is not None and target > cap and char.is_weapon_skill(key):
        others = [k for k in sorted(char.weapon_skills)
                  if k != key and char.skill(k) >= SKILL_MAX]
        if others:
            raise RuleError(f"refusé : {others[0]} est déjà au rang Grand maître ; aucune autre "
                            f"compétence d'arme ne peut dépasser {cap} (A001.21)")
    crossing = tier_crossing(level, target)
    if crossing is not None:
        new = crossing.rank
        before = rank_of(level)
        if crossing.teacher is None:
            if not _yes(options, "mj"):
                raise RuleError(
                    f"refusé : passer de {before.name} ({level}) à {new.name} ({target}) est un "
                    "parcours solitaire sans professeur, au coût indéterminé : le MJ décide "
                    "(--opt mj=oui, et cout_or=N s'il demande de l'or)")
            gold = _gold_option(options)
        else:
            if not _yes(options, "maitre", "professeur"):
                raise RuleError(
                    f"refusé : passer de {before.name} ({level}) à {new.name} ({target}) demande "
                    f"un professeur de rang {crossing.teacher.name} et {crossing.gold} pièce(s) "
                    "d'or (--opt maitre=oui une fois le professeur trouvé)")
            gold = crossing.gold or 0
        if char.gold < gold:
            raise RuleError(f"refusé : le professeur demande {gold} pièce(s) d'or, "
                            f"{char.name} n'en a que {char.gold}")
        if new.charisme or new.volonte:
            notes.append(f"rang {new.name} : +{new.charisme} Charisme et +{new.volonte} Volonté "
                         "(R001.06, ajoutés automatiquement aux caractéristiques)")
        if new.key == "grand_maitre" and char.is_weapon_skill(key) and cap is not None:
            notes.append(f"Grand maître : les autres compétences d'arme s'arrêtent à {cap} "
                         "(A001.21)")
    _pay(char, cost)
    result = XpResult(char.name, "skill", key, level, target, cost, char.xp, gold,
                      char.gold - gold, rank_before=rank_of(level).name,
                      rank_after=rank_of(target).name, notes=tuple(notes))
    changes = [SheetChange(char.doc, ("competences", key), target),
               SheetChange(char.doc, ("xp",), result.remaining)]
    if gold:
        changes.append(SheetChange(char.doc, ("or",), result.gold_remaining))
    return result, changes


def _gold_option(options: dict[str, str]) -> int:
    raw = options.get("cout_or", "0")
    try:
        value = int(raw)
    except ValueError:
        raise RuleError(f"--opt cout_or={raw} : un nombre entier de pièces d'or est attendu"
                        ) from None
    if value < 0:
        raise RuleError(f"--opt cout_or={raw} : le coût ne peut pas être négatif")
    return value


def spend(char: Character, request: XpRequest, config: MaitriseConfig
          ) -> tuple[XpResult, list[SheetChange]]:
    """Dispatch an `xp` request."""
    options = {normalize(k): v for k, v in request.options.items()}
    if request.hit_points:
        raise RuleError("les règles ne donnent aucun coût en XP pour les points de vie : "
                        "ils sont notés sur la fiche (A001.12)")
    if request.carac:
        key = char.find_characteristic(request.carac)
        if key is None:
            raise RuleError(unknown_name_message("caractéristique", request.carac,
                                                 CHARACTERISTICS))
        return raise_characteristic(char, key, options)
    if request.skill:
        return raise_skill(char, char.skill_or_error(request.skill), options, config)
    raise RuleError("indiquez --competence C ou --carac C")
