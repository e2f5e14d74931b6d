"""The `maitrise` character sheet (SHEETS.md): model, template, checks, and the character view.

Characteristics 1..20 (R001.02), skills 0..100 (R001.04), extra critical faces at 20+ / 100+
(R001.13, faces 2..19, never 1: E001.04), Charisme / Volonté bonuses of Maître and Grand maître
computed from the skills (R001.06, A001.20), Grand maître exclusivity (A001.21).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from jdr.core.sheet import (
    NormalizedDict,
    PoolField,
    Ranged,
    SheetDocument,
    normalized_keys,
    validate,
)
from jdr.errors import RuleError, SheetError
from jdr.names import normalize, unknown_name_message
from jdr.systems.maitrise.config import DEFAULT, MaitriseConfig
from jdr.systems.maitrise.tables import (
    CHARACTERISTIC_MAX,
    CHARACTERISTICS,
    CRITICAL_FAILURE_FACE,
    CRITICAL_SUCCESS_FACE,
    SKILL_MAX,
    Rank,
    rank_bonus,
    rank_of,
)

# ------------------------------------------------------------------ field types


def _whole(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError(
            "nombre_entier", "« {value} » n'est pas un nombre entier", {"value": value}
        )
    return value


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


Face = Annotated[int, BeforeValidator(_whole), AfterValidator(_face)]


def _system(value: Any) -> Any:
    if isinstance(value, str) and normalize(value) == "maitrise":
        return "maitrise"
    raise PydanticCustomError(
        "systeme", "« {value} » : cette fiche n'est pas du système maitrise", {"value": value}
    )


class Weapon(BaseModel):
    model_config = ConfigDict(extra="allow")

    nom: str
    competence: str


class Characteristics(BaseModel):
    """R001.01 / R001.02: the six characteristics, 1..20."""

    model_config = ConfigDict(extra="forbid")

    intelligence: Ranged(1, CHARACTERISTIC_MAX)  # type: ignore[valid-type]
    adresse: Ranged(1, CHARACTERISTIC_MAX)  # type: ignore[valid-type]
    force: Ranged(1, CHARACTERISTIC_MAX)  # type: ignore[valid-type]
    charisme: Ranged(1, CHARACTERISTIC_MAX)  # type: ignore[valid-type]
    volonte: Ranged(1, CHARACTERISTIC_MAX)  # type: ignore[valid-type]
    constitution: Ranged(1, CHARACTERISTIC_MAX)  # type: ignore[valid-type]


class MaitriseSheet(BaseModel):
    """SHEETS.md, `maitrise`. Unknown keys are kept."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    systeme: Annotated[str, BeforeValidator(_system)]
    nom: str
    caracteristiques: Annotated[
        Characteristics, BeforeValidator(lambda v: normalized_keys(v, "caracteristiques"))
    ]
    competences: NormalizedDict(Ranged(0, SKILL_MAX), "competences") = Field(  # type: ignore[valid-type]
        default_factory=dict
    )
    competences_armes: list[str] = Field(default_factory=list)
    armes: list[Weapon] = Field(default_factory=list)
    armure: Ranged(0) = 0  # type: ignore[valid-type]
    pv: PoolField | None = None
    xp: Ranged(0) = 0  # type: ignore[valid-type]
    or_: Ranged(0) = Field(0, alias="or")  # type: ignore[valid-type]
    faces_critiques: NormalizedDict(list[Face], "faces_critiques") = Field(  # type: ignore[valid-type]
        default_factory=dict
    )


# ------------------------------------------------------------------ the character view


@dataclass(frozen=True)
class Character:
    """A validated sheet, read the way the rules need it."""

    doc: SheetDocument
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

    def dead(self) -> bool:
        return self.hit_points is not None and self.hit_points[1] <= 0

    def max_hit_points(self) -> tuple[int, int] | None:
        """A001.12: the sheet's `pv`; Constitution only if the configuration says so."""
        if self.hit_points is not None:
            return self.hit_points
        if self.config.hit_points_from_constitution:
            con = self.base["constitution"]
            return con, con
        return None


# ------------------------------------------------------------------ loading


def _cross_problems(data: dict[str, Any], config: MaitriseConfig) -> list[str]:
    """Problems that involve several keys (tolerant of values already reported as wrong)."""
    problems: list[str] = []
    raw_skills = data.get("competences")
    skills: dict[str, int] = {}
    if isinstance(raw_skills, dict):
        skills = {normalize(str(k)): v for k, v in raw_skills.items()
                  if isinstance(v, int) and not isinstance(v, bool)}
    raw_caracs = data.get("caracteristiques")
    caracs: dict[str, int] = {}
    if isinstance(raw_caracs, dict):
        caracs = {normalize(str(k)): v for k, v in raw_caracs.items()
                  if isinstance(v, int) and not isinstance(v, bool)}
    faces = data.get("faces_critiques")
    if isinstance(faces, dict):
        for raw_key, chosen in faces.items():
            key = normalize(str(raw_key))
            where = f"faces_critiques.{key}"
            if key in CHARACTERISTICS:
                level, top, what = caracs.get(key), CHARACTERISTIC_MAX, "caractéristique"
            elif key in skills:
                level, top, what = skills.get(key), SKILL_MAX, "compétence"
            else:
                problems.append(f"{where} : ni une compétence ni une caractéristique de la fiche")
                continue
            if level is not None and level < top and chosen:
                problems.append(
                    f"{where} : faces critiques supplémentaires réservées au niveau {top}+ "
                    f"(cette {what} est au niveau {level}, R001.13)"
                )
            if isinstance(chosen, list):
                seen: set[Any] = set()
                for face in chosen:
                    if face in seen:
                        problems.append(f"{where} : la face {face} est choisie deux fois")
                    seen.add(face)
    weapon_skills = _weapon_skills(data)
    masters = sorted(k for k in weapon_skills if skills.get(k, 0) >= SKILL_MAX)
    cap = config.grand_master_exclusive_cap
    if masters and cap is not None:
        for key in sorted(weapon_skills):
            if key != masters[0] and skills.get(key, 0) > cap:
                problems.append(
                    f"competences.{key} = {skills[key]} : {masters[0]} est déjà au rang Grand "
                    f"maître, les autres compétences d'arme s'arrêtent à {cap} (A001.21)"
                )
    return problems


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
        model = validate(MaitriseSheet, doc)
    except SheetError as exc:
        problems.extend(exc.problems or [exc.message])
    problems.extend(_cross_problems(data, config))
    if problems or model is None:
        head = f"{doc.path} : {len(problems)} problème(s)"
        raise SheetError(head + "\n" + "\n".join(f"  - {p}" for p in problems), problems)
    caracs = model.caracteristiques.model_dump()
    hp = None if model.pv is None else (int(model.pv.max), int(model.pv.actuels))
    return Character(
        doc=doc,
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
    )


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
"""
