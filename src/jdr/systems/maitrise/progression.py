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

from jdr.core.frozen import frozen
from jdr.core.messages import Ref, arg, say
from jdr.core.options import Options
from jdr.core.results import Line, Purchase
from jdr.core.system import Loaded, Outcome, SheetChange, XpRequest
from jdr.errors import RuleError
from jdr.names import unknown_name_message
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


def characteristic_cost(target: int) -> int:
    """R001.25: raising a characteristic to `target` costs target × 9 XP (A001.16 beyond 20)."""
    return target * 9


def skill_cost(target: int) -> int:
    """R001.27 / A001.17: raising a skill to `target` costs `target` XP (A001.16 beyond 100)."""
    return target


def cumulative_skill_cost(start: int, end: int) -> int:
    """T001.04: the XP from `start` to `end` (0 → N is N(N + 1)/2)."""
    return sum(skill_cost(t) for t in range(start + 1, end + 1))


@frozen
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


def _pay(char: Character, cost: int) -> None:
    if char.xp < cost:
        raise RuleError(f"refusé : il faut {cost} XP, {char.name} n'en a que {char.xp}")


def _new_face(char: Character, key: str, options: Options, level: str) -> int:
    """R001.13 / E001.04: the face the player picks (2..19), never 1, never twice."""
    face = options.int("face")
    if face is None:
        raise RuleError(say(f"refusé : au niveau {level} chaque progression donne une face "
                            "critique de plus ; choisissez-la avec ", options.ref("face", "N"),
                            " (de 2 à 19, jamais 1)"))
    if face == 1:
        raise RuleError("refusé : la face 1 ne peut jamais être choisie, elle reste un échec "
                        "critique (R001.13)")
    if face not in CHOOSABLE_FACES:
        raise RuleError(f"refusé : face {face} impossible (autorisé : de 2 à 19 ; 20 est déjà "
                        "une réussite critique)")
    if face in char.extra_faces.get(key, ()):
        raise RuleError(f"refusé : la face {face} est déjà une réussite critique pour {key}")
    return face


def _buy_face(sheet: Loaded[Character], key: str, what: str, level: int, cost: int,
              options: Options, rule: str) -> Outcome:
    """R001.13 / R001.26 / R001.29 / A001.16: at 20+ / 100+ a level-up buys one critical face."""
    char = sheet.model
    top = f"{level}+"
    faces = char.extra_faces.get(key, ())
    face = _new_face(char, key, options, top)
    _pay(char, cost)
    shown = ", ".join(str(f) for f in sorted({20, *faces, face}))
    result = Purchase(char.name, f"{what} ({top})", level, level, cost, char.xp, char.xp - cost,
                      (Line(f"nouvelle face de réussite critique : {face} (critiques sur "
                            f"{shown})", "R001.13"),), f"{rule}, A001.16")
    return Outcome(result, (SheetChange(sheet.doc, ("faces_critiques", key), [*faces, face]),
                            SheetChange(sheet.doc, ("xp",), result.xp_after)))


def raise_characteristic(sheet: Loaded[Character], key: str, options: Options) -> Outcome:
    """R001.25, R001.26, A001.16: (next level) × 9 XP, up to 20, then one face per level."""
    char = sheet.model
    level = char.base[key]
    what = CHARACTERISTICS[key]
    if level >= CHARACTERISTIC_MAX:
        faces = char.extra_faces.get(key, ())
        cost = characteristic_cost(CHARACTERISTIC_MAX + 1 + len(faces))
        return _buy_face(sheet, key, what, level, cost, options, "R001.26")
    cost = characteristic_cost(level + 1)
    _pay(char, cost)
    notes = _unused_face(options)
    result = Purchase(char.name, what, level, level + 1, cost, char.xp, char.xp - cost,
                      notes, "R001.25")
    return Outcome(result, (SheetChange(sheet.doc, ("caracteristiques", key), level + 1),
                            SheetChange(sheet.doc, ("xp",), result.xp_after)))


def _unused_face(options: Options) -> tuple[Line, ...]:
    if options.was_given("face"):
        return (Line("face ignorée (option « Face critique choisie ») : une face critique ne "
                     "s'achète qu'à 20+ / 100+",
                     "R001.13"),)
    return ()


def _check_exclusivity(char: Character, key: str, target: int, config: MaitriseConfig) -> None:
    """A001.21: once one weapon skill is Grand maître, the other weapon skills stop at 99."""
    cap = config.grand_master_exclusive_cap
    if cap is None or target <= cap or not char.is_weapon_skill(key):
        return
    others = [k for k in sorted(char.weapon_skills) if k != key and char.skill(k) >= SKILL_MAX]
    if others:
        raise RuleError(f"refusé : {others[0]} est déjà au rang Grand maître ; aucune autre "
                        f"compétence d'arme ne peut dépasser {cap} (A001.21)")


def _teacher_gold(char: Character, level: int, crossing: TierCrossing, options: Options) -> int:
    """R001.28 / A001.18 / A001.19: the teacher found (or the MJ's solitary path) and his gold."""
    before, new, target = rank_of(level), crossing.rank, level + 1
    if crossing.teacher is None:
        if not options.flag("mj"):
            raise RuleError(say(
                f"refusé : passer de {before.name} ({level}) à {new.name} ({target}) est un "
                "parcours solitaire sans professeur, au coût indéterminé : le MJ décide (",
                options.ref("mj", "oui"), ", et ", Ref("cout_or=N", options.ref("cout_or").web),
                " s'il demande de l'or)"))
        gold = options.int("cout_or", 0) or 0
    else:
        if not (options.flag("maitre") or options.flag("professeur")):
            raise RuleError(say(
                f"refusé : passer de {before.name} ({level}) à {new.name} ({target}) demande "
                f"un professeur de rang {crossing.teacher.name} et {crossing.gold} pièce(s) "
                "d'or (", options.ref("maitre", "oui"), " une fois le professeur trouvé)"))
        gold = crossing.gold or 0
    if char.gold < gold:
        raise RuleError(f"refusé : le professeur demande {gold} pièce(s) d'or, "
                        f"{char.name} n'en a que {char.gold}")
    return gold


def _crossing_notes(char: Character, key: str, crossing: TierCrossing, gold: int,
                    config: MaitriseConfig) -> list[Line]:
    new = crossing.rank
    who = (f"professeur de rang {crossing.teacher.name}" if crossing.teacher
           else "parcours solitaire, coût fixé par le MJ")
    notes = [Line(f"rang {new.name} : {who}, {gold} pièce(s) d'or (reste {char.gold - gold})",
                  "R001.28")]
    if new.charisme or new.volonte:
        notes.append(Line(f"rang {new.name} : +{new.charisme} Charisme et +{new.volonte} Volonté "
                          "(ajoutés automatiquement aux caractéristiques)", "R001.06"))
    cap = config.grand_master_exclusive_cap
    if new.key == "grand_maitre" and char.is_weapon_skill(key) and cap is not None:
        notes.append(Line(f"Grand maître : les autres compétences d'arme s'arrêtent à {cap}",
                          "A001.21"))
    return notes


def raise_skill(sheet: Loaded[Character], key: str, options: Options, config: MaitriseConfig
                ) -> Outcome:
    """R001.27, R001.28, R001.29, A001.16 .. A001.21."""
    char = sheet.model
    level = char.skill(key)
    if level >= SKILL_MAX:
        cost = skill_cost(SKILL_MAX + 1 + len(char.extra_faces.get(key, ())))
        return _buy_face(sheet, key, key, level, cost, options, "R001.29")
    target = level + 1
    _check_exclusivity(char, key, target, config)
    crossing = tier_crossing(level, target)
    gold = 0 if crossing is None else _teacher_gold(char, level, crossing, options)
    notes = [] if crossing is None else _crossing_notes(char, key, crossing, gold, config)
    cost = skill_cost(target)
    _pay(char, cost)
    result = Purchase(char.name, key, level, target, cost, char.xp, char.xp - cost,
                      (*notes, *_unused_face(options)), "R001.27")
    changes = [SheetChange(sheet.doc, ("competences", key), target),
               SheetChange(sheet.doc, ("xp",), result.xp_after)]
    if gold:
        changes.append(SheetChange(sheet.doc, ("or",), char.gold - gold))
    return Outcome(result, tuple(changes))


def spend(request: XpRequest[Character], config: MaitriseConfig) -> Outcome:
    """Dispatch an `xp` request."""
    char = request.sheet.model
    if request.hit_points:
        raise RuleError("les règles ne donnent aucun coût en XP pour les points de vie : "
                        "ils sont notés sur la fiche (A001.12)")
    if request.carac:
        key = char.find_characteristic(request.carac)
        if key is None:
            raise RuleError(unknown_name_message("caractéristique", request.carac,
                                                 CHARACTERISTICS))
        return raise_characteristic(request.sheet, key, request.options)
    if request.skill:
        return raise_skill(request.sheet, char.skill_or_error(request.skill), request.options,
                           config)
    raise RuleError(say("indiquez ", arg("competence", "C", "xp"), " ou ", arg("carac", "C", "xp")))
