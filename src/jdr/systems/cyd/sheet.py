"""The CYD character sheet (SHEETS.md, `cyd`): pydantic model, cross checks, commented template.

R003.01 five attributes 1..10, R003.02 four secondary attributes (data only, A003.12),
R003.03 free-named skills 0..10, A003.18 the usual attribute of a skill, R003.04 the
prédilection boxes (disponible / utilisee), A003.16 the failed actions kept for the retry rule.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from jdr.core.sheet import (
    GenreField,
    InRange,
    Int,
    NormalizedKeys,
    PoolField,
    SheetDocument,
    validate,
)
from jdr.errors import SheetError
from jdr.names import normalize
from jdr.systems.cyd import tables


def _attribute_name(value: str) -> str:
    """A003.18: the usual attribute of a skill must be one of the five (R003.01)."""
    name = normalize(value)
    if name not in tables.ATTRIBUTES:
        raise PydanticCustomError(
            "attribut_inconnu", "attribut « {value} » inconnu (autorisé : {allowed})",
            {"value": value, "allowed": ", ".join(tables.ATTRIBUTES)},
        )
    return name


def _predilection_state(value: Any) -> str:
    """R003.04: a prédilection box is free (disponible) or ticked (utilisee)."""
    name = normalize(str(value)) if isinstance(value, str) else ""
    if name not in tables.PREDILECTION_STATES:
        raise PydanticCustomError(
            "etat_predilection", "« {value} » : état inconnu (autorisé : {allowed})",
            {"value": value, "allowed": ", ".join(tables.PREDILECTION_STATES)},
        )
    return name


def _system(value: Any) -> str:
    if not isinstance(value, str) or normalize(value) != "cyd":
        raise PydanticCustomError(
            "systeme", "« {value} » : cette fiche n'est pas une fiche cyd", {"value": value}
        )
    return "cyd"


AttributeValue = Annotated[Int, InRange(tables.ATTRIBUTE_MIN, tables.ATTRIBUTE_MAX)]
SkillValue = Annotated[Int, InRange(tables.SKILL_MIN, tables.SKILL_MAX)]
Positive = Annotated[Int, InRange(0)]
AttributeName = Annotated[str, AfterValidator(_attribute_name)]
PredilectionState = Annotated[str, BeforeValidator(_predilection_state)]


class Attributes(BaseModel):
    """R003.01: Adresse, Clairvoyance, Présence, Puissance, Trempe, each 1..10."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    adresse: AttributeValue
    clairvoyance: AttributeValue
    presence: AttributeValue
    puissance: AttributeValue
    trempe: AttributeValue

    def get(self, name: str) -> int:
        value = getattr(self, name)
        assert isinstance(value, int)
        return value


class Secondary(BaseModel):
    """R003.02 / A003.12: Défense, Santé, Psyché, Vitesse (metres per 6-second turn): data."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    defense: Positive | None = None
    sante: PoolField | None = None
    psyche: PoolField | None = None
    vitesse: Positive | None = None


class CydSheet(BaseModel):
    """A `cyd` sheet (SHEETS.md). Unknown top-level keys are kept (a person's notes)."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    systeme: Annotated[str, BeforeValidator(_system)]
    nom: str
    genre: GenreField = None  # f, m ou absent (neutre) : accord des messages
    attributs: Annotated[Attributes, NormalizedKeys("attributs")]
    competences: Annotated[dict[str, SkillValue], NormalizedKeys("competences")] = Field(
        default_factory=dict)
    attribut_usuel: Annotated[dict[str, AttributeName], NormalizedKeys("attribut_usuel")] = Field(
        default_factory=dict)
    secondaires: Annotated[Secondary, NormalizedKeys("secondaires")] = Field(
        default_factory=Secondary)
    predilections: Annotated[dict[str, PredilectionState], NormalizedKeys("predilections")] = Field(
        default_factory=dict)
    # A003.16: failed actions: action name -> skill value when it failed (null = cleared).
    echecs: Annotated[dict[str, SkillValue | None], NormalizedKeys("echecs")] = Field(
        default_factory=dict)
    notes: str | None = None

    @property
    def skills(self) -> dict[str, int]:
        return dict(self.competences)

    @property
    def usual(self) -> dict[str, str]:
        return dict(self.attribut_usuel)

    @property
    def boxes(self) -> dict[str, str]:
        return dict(self.predilections)

    @property
    def failures(self) -> dict[str, int | None]:
        return dict(self.echecs)


def cross_problems(data: Any) -> list[str]:
    """Problems between fields: a usual attribute or a prédilection for a skill not on the sheet."""
    if not isinstance(data, dict):
        return []
    skills_raw = data.get("competences")
    if not isinstance(skills_raw, dict):
        return []
    skills = {normalize(str(k)) for k in skills_raw}
    problems: list[str] = []
    for field, what in (("attribut_usuel", "attribut usuel"), ("predilections", "prédilection")):
        table = data.get(field)
        if not isinstance(table, dict):
            continue
        for key in table:
            if normalize(str(key)) not in skills:
                problems.append(
                    f"{field}.{normalize(str(key))} : {what} d'une compétence absente de "
                    f"« competences » (compétences : {', '.join(sorted(skills)) or 'aucune'})"
                )
    return problems


def load_sheet(doc: SheetDocument) -> CydSheet:
    """Validate a sheet; one SheetError listing every problem, one French line each."""
    problems: list[str] = []
    sheet: CydSheet | None = None
    try:
        sheet = validate(CydSheet, doc)
    except SheetError as exc:
        problems.extend(exc.problems or [exc.message])
    problems.extend(cross_problems(doc.plain()))
    if problems:
        head = f"{doc.path} : {len(problems)} problème(s)"
        raise SheetError(head + "\n" + "\n".join(f"  - {p}" for p in problems), problems)
    assert sheet is not None
    return sheet


TEMPLATE = """\
# Fiche de personnage — CYD System (Choose Your Dice), kit de démonstration Wasteland.
systeme: cyd
nom: Rôdeuse
# Attributs principaux, de 1 à 10 (R003.01).
attributs:
  adresse: 5        # habileté manuelle, réflexes, souplesse, coordination
  clairvoyance: 4   # vivacité d'esprit, mémoire, finesse psychologique, acuité des sens
  presence: 3       # charisme, autorité, confiance, attrait
  puissance: 6      # force, résistance, carrure
  trempe: 5         # sang-froid, courage, persévérance, volonté
# Compétences, de 0 à 10, noms libres (R003.03). À 0, la Capacité perd 3 (R003.09).
competences:
  tir: 3
  athletisme: 2
  discretion: 0
# Attribut habituel de chaque compétence ; le MJ peut en choisir un autre (--carac).
attribut_usuel:
  tir: adresse
  athletisme: puissance
  discretion: adresse
# Attributs secondaires (R003.02) : le document ne donne pas de formule, la fiche fait foi.
secondaires:
  defense: 10
  sante: {max: 20, actuels: 20}
  psyche: 10
  vitesse: 8        # mètres par tour de jeu (6 secondes)
# Prédilections : une relance par séance de jeu (R003.04). disponible | utilisee
# (`jdr session nouvelle` remet toutes les cases à « disponible »).
predilections:
  tir: disponible
"""
