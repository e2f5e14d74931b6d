"""The `maitrise` character sheet (SHEETS.md): model, template, cross-key checks, the character.

Characteristics 1..20 (R001.02), skills 0..100 (R001.04), extra critical faces at 20+ / 100+
(R001.13, faces 2..19, never 1: E001.04), Charisme / Volonté bonuses of Maître and Grand maître
computed from the skills (R001.06, A001.20), Grand maître exclusivity (R001.07, A001.21).
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from jdr.core.french import Genre, state_label
from jdr.core.frozen import frozen
from jdr.core.results import Line, Row, Section, SheetView
from jdr.core.sheet import (
    GenreField,
    InRange,
    Int,
    NormalizedKeys,
    PoolField,
    SheetDocument,
    validate,
)
from jdr.errors import RuleError, SheetError
from jdr.names import normalize, unknown_name_message
from jdr.systems.maitrise.config import DEFAULT, MaitriseConfig
from jdr.systems.maitrise.tables import (
    CHARACTERISTIC_MAX,
    CHARACTERISTIC_MIN,
    CHARACTERISTICS,
    CRITICAL_FAILURE_FACE,
    CRITICAL_SUCCESS_FACE,
    DEAD,
    DOWN,
    SKILL_MAX,
    SKILL_MIN,
    STANDING,
    STATE_WORDS,
    Rank,
    modifier,
    rank_bonus,
    rank_of,
)

# ------------------------------------------------------------------ field types


def _face(value: int) -> int:
    """R001.13 / E001.04: an extra critical face is 2..19; 1 stays a critical failure."""
    if value == CRITICAL_FAILURE_FACE:
        raise PydanticCustomError(
            "face_interdite",
            "la face 1 ne peut jamais être une réussite critique (elle reste un échec critique)",
        )
    if value == CRITICAL_SUCCESS_FACE:
        raise PydanticCustomError(
            "face_inutile", "la face 20 est déjà une réussite critique (autorisé : de 2 à 19)"
        )
    if not 2 <= value <= 19:
        raise PydanticCustomError(
            "face_inconnue", "{value} n'est pas une face du d20 (autorisé : de 2 à 19)",
            {"value": value},
        )
    return value


Face = Annotated[Int, AfterValidator(_face)]
CharacteristicValue = Annotated[Int, InRange(CHARACTERISTIC_MIN, CHARACTERISTIC_MAX)]  # R001.02
SkillValue = Annotated[Int, InRange(SKILL_MIN, SKILL_MAX)]  # R001.04
Positive = Annotated[Int, InRange(0)]


def _system(value: Any) -> Any:
    if isinstance(value, str) and normalize(value) == "maitrise":
        return "maitrise"
    raise PydanticCustomError(
        "systeme", "« {value} » : cette fiche n'est pas du système maitrise", {"value": value}
    )


class Weapon(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)

    nom: str
    competence: str


class Characteristics(BaseModel):
    """R001.01 / R001.02: the six characteristics, 1..20."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    intelligence: CharacteristicValue
    adresse: CharacteristicValue
    force: CharacteristicValue
    charisme: CharacteristicValue
    volonte: CharacteristicValue
    constitution: CharacteristicValue


class State(BaseModel):
    """Kept by jdr: `mort` once the MJ decided that a character at 0 pv died (D-001.30)."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    mort: bool = False


class MaitriseSheet(BaseModel):
    """SHEETS.md, `maitrise`. Unknown keys are kept."""

    model_config = ConfigDict(extra="allow", defer_build=True, populate_by_name=True)

    systeme: Annotated[str, BeforeValidator(_system)]
    nom: str
    genre: GenreField = None  # f, m ou absent (neutre) : accord des messages
    caracteristiques: Annotated[Characteristics, NormalizedKeys("caracteristiques")]
    competences: Annotated[dict[str, SkillValue], NormalizedKeys("competences")] = Field(
        default_factory=dict
    )
    competences_armes: list[str] = Field(default_factory=list)
    armes: list[Weapon] = Field(default_factory=list)
    armure: Positive = 0
    pv: PoolField | None = None
    xp: Positive = 0
    or_: Positive = Field(0, alias="or")
    faces_critiques: Annotated[dict[str, list[Face]], NormalizedKeys("faces_critiques")] = Field(
        default_factory=dict
    )
    etat: State | None = None


# ------------------------------------------------------------------ the character view


@frozen
class Character:
    """A validated sheet, read the way the rules need it (the system's typed model)."""

    name: str
    base: dict[str, int]
    skills: dict[str, int]
    weapons: tuple[tuple[str, str], ...]  # (name, normalized skill)
    weapon_skills: frozenset[str]
    armour: int
    hit_points: tuple[int, int] | None  # (max, actuels)
    xp: int
    gold: int
    extra_faces: dict[str, tuple[int, ...]]
    config: MaitriseConfig = field(default=DEFAULT)
    dead: bool = False  # D-001.30: the MJ's decision, kept in `etat.mort`
    genre: Genre = None  # how messages agree (docs/fiches.md)

    # -- characteristics ---------------------------------------------------

    def bonus(self, carac: str) -> int:
        """R001.06 / A001.20: Charisme and Volonté bonuses from Maître / Grand maître skills."""
        if carac not in ("charisme", "volonte"):
            return 0
        per_skill = [rank_bonus(level)[0 if carac == "charisme" else 1]
                     for level in self.skills.values()]
        total = sum(per_skill) if self.config.bonuses_stack else max(per_skill, default=0)
        return total

    def characteristic(self, carac: str) -> int:
        """The characteristic used by the rules: the sheet's value plus mastery bonuses."""
        value = self.base[carac] + self.bonus(carac)
        cap = self.config.bonuses_cap
        if cap is not None and self.bonus(carac):
            value = min(value, max(cap, self.base[carac]))
        return value

    def find_characteristic(self, name: str) -> str | None:
        key = normalize(name)
        return key if key in CHARACTERISTICS else None

    # -- skills ------------------------------------------------------------

    def find_skill(self, name: str) -> str | None:
        """The skill's key, or None; a weapon skill missing from `competences` is level 0."""
        key = normalize(name)
        if key in self.skills or key in self.weapon_skills:
            return key
        return None

    def skill(self, key: str) -> int:
        return self.skills.get(key, 0)

    def rank(self, key: str) -> Rank:
        return rank_of(self.skill(key))

    def is_weapon_skill(self, key: str) -> bool:
        return key in self.weapon_skills

    def incompetent(self, key: str) -> bool:
        """R001.23 / A001.23: level 0 in a weapon skill (or any skill, if configured)."""
        if self.skill(key) != 0:
            return False
        return self.is_weapon_skill(key) or not self.config.incompetent_weapons_only

    def critical_faces(self, key: str) -> frozenset[int]:
        """R001.08 / R001.13 / A001.16: 20 plus the faces chosen for this statistic."""
        return frozenset((CRITICAL_SUCCESS_FACE, *self.extra_faces.get(key, ())))

    def skill_or_error(self, name: str) -> str:
        key = self.find_skill(name)
        if key is None:
            known = set(self.skills) | set(self.weapon_skills)
            raise RuleError(
                f"{self.name} : " + unknown_name_message("compétence", name, known)
                + " (ajoutez-la à la fiche, au niveau 0 si besoin)"
            )
        return key

    def weapon(self, name: str | None) -> tuple[str, str]:
        """The weapon used (by its name or its skill); the first one listed by default."""
        if name is None:
            if not self.weapons:
                raise RuleError(f"{self.name} n'a aucune arme (clé « armes » de la fiche)")
            return self.weapons[0]
        wanted = normalize(name)
        for weapon in self.weapons:
            if normalize(weapon[0]) == wanted or weapon[1] == wanted:
                return weapon
        raise RuleError(
            f"{self.name} : " + unknown_name_message(
                "arme", name, [normalize(w[0]) for w in self.weapons] + [w[1] for w in self.weapons]
            )
        )

    def out_of_combat(self) -> bool:
        """D-001.30: at 0 pv a character is hors de combat."""
        return self.hit_points is not None and self.hit_points[1] <= 0

    def state(self) -> str:
        """D-001.30: `mort` when the MJ said so, `hors_de_combat` at 0 pv, else `debout`."""
        if self.dead:
            return DEAD
        return DOWN if self.out_of_combat() else STANDING

    def incapacity(self) -> Line | None:
        """D-ALL.02: why this character cannot act (attack, defend, roll, spend an action)."""
        state = self.state()
        if state == STANDING:
            return None
        return Line(self.state_words(), "D-001.30, D-ALL.02")

    def state_words(self) -> str:
        """D-001.30 the state in words, agreed (« hors de combat (0 pv) », « morte (décision du
        MJ) »)."""
        state = self.state()
        if state == DEAD:
            return f"{state_label('mort', self.genre)} (décision du MJ)"
        return STATE_WORDS[state]

    def can_act(self) -> bool:
        return self.state() == STANDING

    def refuse_if_unable(self) -> None:
        """The same French line the core prints (`core.actions`), for direct calls."""
        why = self.incapacity()
        if why is not None:
            raise RuleError(f"{self.name} ne peut pas agir : {why.text} ({why.rule})")

    def max_hit_points(self) -> tuple[int, int] | None:
        """A001.12: the sheet's `pv`; Constitution only if the configuration says so."""
        if self.hit_points is not None:
            return self.hit_points
        if self.config.hit_points_from_constitution:
            con = self.base["constitution"]
            return con, con
        return None


# ------------------------------------------------------------------ loading


def _whole_values(raw: Any) -> dict[str, int]:
    """The whole-number values of a table, keys normalized (wrong values are reported elsewhere)."""
    if not isinstance(raw, dict):
        return {}
    return {normalize(str(k)): v for k, v in raw.items()
            if isinstance(v, int) and not isinstance(v, bool)}


def _face_problems(key: str, chosen: Any, caracs: dict[str, int], skills: dict[str, int]
                   ) -> list[str]:
    """R001.13: extra faces only at 20+ / 100+, on a statistic of the sheet, each face once."""
    where = f"faces_critiques.{key}"
    if key in CHARACTERISTICS:
        level, top, what = caracs.get(key), CHARACTERISTIC_MAX, "caractéristique"
    elif key in skills:
        level, top, what = skills.get(key), SKILL_MAX, "compétence"
    else:
        return [f"{where} : ni une compétence ni une caractéristique de la fiche"]
    problems: list[str] = []
    if level is not None and level < top and chosen:
        problems.append(f"{where} : faces critiques supplémentaires réservées au niveau {top}+ "
                        f"(cette {what} est au niveau {level}, R001.13)")
    if isinstance(chosen, list):
        seen: set[Any] = set()
        for face in chosen:
            if face in seen:
                problems.append(f"{where} : la face {face} est choisie deux fois")
            seen.add(face)
    return problems


def _exclusivity_problems(data: dict[str, Any], skills: dict[str, int],
                          config: MaitriseConfig) -> list[str]:
    """A001.21: once one weapon skill is Grand maître, the other weapon skills stop at 99."""
    weapon_skills = _weapon_skills(data)
    masters = sorted(k for k in weapon_skills if skills.get(k, 0) >= SKILL_MAX)
    cap = config.grand_master_exclusive_cap
    if not masters or cap is None:
        return []
    return [f"competences.{key} = {skills[key]} : {masters[0]} est déjà au rang Grand "
            f"maître, les autres compétences d'arme s'arrêtent à {cap} (A001.21)"
            for key in sorted(weapon_skills)
            if key != masters[0] and skills.get(key, 0) > cap]


def _cross_problems(data: dict[str, Any], config: MaitriseConfig) -> list[str]:
    """Problems that involve several keys (tolerant of values already reported as wrong)."""
    skills = _whole_values(data.get("competences"))
    caracs = _whole_values(data.get("caracteristiques"))
    problems: list[str] = []
    faces = data.get("faces_critiques")
    if isinstance(faces, dict):
        for raw_key, chosen in faces.items():
            problems += _face_problems(normalize(str(raw_key)), chosen, caracs, skills)
    return problems + _exclusivity_problems(data, skills, config)


def _weapon_skills(data: dict[str, Any]) -> frozenset[str]:
    """Weapon skills: those named by `armes`, plus `competences_armes` (A001.23)."""
    keys: set[str] = set()
    for weapon in data.get("armes") or []:
        if isinstance(weapon, dict) and isinstance(weapon.get("competence"), str):
            keys.add(normalize(weapon["competence"]))
    extra = data.get("competences_armes")
    if isinstance(extra, list):
        keys.update(normalize(str(k)) for k in extra)
    return frozenset(keys)


def load_character(doc: SheetDocument, config: MaitriseConfig = DEFAULT) -> Character:
    """Validate a sheet (every problem at once, one French line each) and read it."""
    data = doc.plain()
    problems: list[str] = []
    model: MaitriseSheet | None = None
    try:
        valid = validate(MaitriseSheet, doc)
        assert isinstance(valid, MaitriseSheet)
        model = valid
    except SheetError as exc:
        problems.extend(exc.problems or [exc.message])
    problems.extend(_cross_problems(data, config))
    if problems or model is None:
        head = f"{doc.path} : {len(problems)} problème(s)"
        raise SheetError(head + "\n" + "\n".join(f"  - {p}" for p in problems), problems)
    caracs = model.caracteristiques.model_dump()
    hp = None if model.pv is None else (int(model.pv.max), int(model.pv.actuels))
    return Character(
        name=model.nom,
        base={k: int(v) for k, v in caracs.items()},
        skills={k: int(v) for k, v in model.competences.items()},
        weapons=tuple((w.nom, normalize(w.competence)) for w in model.armes),
        weapon_skills=_weapon_skills(data),
        armour=int(model.armure),
        hit_points=hp,
        xp=int(model.xp),
        gold=int(model.or_),
        extra_faces={k: tuple(int(f) for f in v) for k, v in model.faces_critiques.items()},
        config=config,
        dead=model.etat is not None and model.etat.mort,
        genre=model.genre,
    )


# ------------------------------------------------------------------ `jdr fiche voir`


def _faces_text(faces: frozenset[int]) -> str:
    return f", critiques sur {', '.join(map(str, sorted(faces)))}" if len(faces) > 1 else ""


def _characteristic_rows(char: Character) -> tuple[Row, ...]:
    """R001.01 / R001.03 / R001.06: value with mastery bonuses, modifier, extra faces."""
    rows = []
    for key, name in CHARACTERISTICS.items():
        value, bonus = char.characteristic(key), char.bonus(key)
        faces = char.critical_faces(key)
        plus = "+" if len(faces) > 1 else ""
        extra = f" (dont +{bonus} de maîtrise)" if bonus else ""
        rows.append(Row(key, name, value, f"{value}{plus}, mod {modifier(value):+d}{extra}"
                        f"{_faces_text(faces)}", "R001.03"))
    return tuple(rows)


def _skill_rows(char: Character) -> tuple[Row, ...]:
    """R001.05 / R001.09 / R001.23: level, rank, die face needed, Incompétent malus."""
    rows = []
    for key in sorted(set(char.skills) | set(char.weapon_skills)):
        level, rank = char.skill(key), char.rank(key)
        faces = char.critical_faces(key)
        plus = "+" if level >= SKILL_MAX and len(faces) > 1 else ""
        weapon = " (arme)" if char.is_weapon_skill(key) else ""
        malus = ", −7 à l'attaque et −2 aux dégâts" if char.incompetent(key) else ""
        rows.append(Row(key, key, level, f"{level}{plus} — {rank.name}{weapon}, réussite au dé "
                        f"dès {rank.success_face}{_faces_text(faces)}{malus}", "R001.05"))
    return tuple(rows)


def _combat_rows(char: Character) -> tuple[Row, ...]:
    hp = char.max_hit_points()
    weapons = ", ".join(f"{n} ({s})" for n, s in char.weapons) or None
    return (
        Row("weapons", "Armes", weapons, weapons or "aucune", "A001.05"),
        Row("armor", "Armure", char.armour, f"{char.armour} point(s) retirés des dégâts",
            "R001.22"),
        Row("hit_points", "Points de vie", None if hp is None else hp[1],
            "inconnus" if hp is None else f"{hp[1]}/{hp[0]}", "A001.12"),
        Row("state", "État", char.state(), char.state_words(), "D-001.30"),
        Row("initiative", "Initiative (Adresse)", char.characteristic("adresse"), "", "A001.25"),
    )


def sheet_view(char: Character) -> SheetView:
    """`jdr fiche voir`: characteristics, skills with their rank, combat, progression."""
    progression = (Row("xp", "XP", char.xp, f"{char.xp} XP à dépenser", "R001.25"),
                   Row("gold", "Or", char.gold, f"{char.gold} pièce(s) d'or", "R001.28"))
    return SheetView("maitrise", char.name, (
        Section("Caractéristiques", _characteristic_rows(char)),
        Section("Compétences", _skill_rows(char)),
        Section("Combat", _combat_rows(char)),
        Section("Progression", progression),
    ))


# ------------------------------------------------------------------ template

TEMPLATE = """\
# Fiche de personnage — système « maitrise » (règles du d20 à rangs de maîtrise)
systeme: maitrise
nom: Nouveau personnage
caracteristiques:            # de 1 à 20 ; modificateur : 1→-5 … 6 à 9→0 … 20→+11
  intelligence: 10
  adresse: 10
  force: 10
  charisme: 10               # sans les bonus de Maître / Grand maître (calculés par jdr)
  volonte: 10
  constitution: 10
competences:                 # de 0 à 100 : 0 Incompétent, 1-19 Novice, 20-49 Compétent,
  epee: 0                    #   50-79 Expérimenté, 80-99 Maître, 100 Grand maître
armes:                       # la compétence de l'arme sert à l'attaque et à la parade
  - {nom: Épée, competence: epee}
competences_armes: []        # autres compétences d'arme sans arme listée (ex. [arc])
armure: 0                    # points d'armure retirés des dégâts
pv: {max: 10, actuels: 10}   # points de vie : aucune formule dans les règles, la fiche les donne
xp: 0                        # points d'expérience non dépensés
or: 0                        # pièces d'or, pour payer les professeurs
faces_critiques: {}          # faces critiques gagnées à 20+ / 100+, ex. {epee: [19]} (jamais 1)
# etat: {mort: true}         # écrit par jdr quand le MJ décide la mort d'un personnage à 0 pv
"""
