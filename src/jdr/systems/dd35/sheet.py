"""The dd35 sheet (SHEETS.md, `dd35`): pydantic model, French validation, commented template."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from jdr.core.sheet import GenreField, InRange, Int, NormalizedKeys, PoolField, normalized_keys
from jdr.names import normalize
from jdr.systems.dd35.tables import ABILITY_ALIASES, ARMOURS, CLASSES, MAX_LEVEL

Score = Annotated[Int, InRange(1, 50)]
Level = Annotated[Int, InRange(1, MAX_LEVEL)]
NonNegative = Annotated[Int, InRange(0)]
Small = Annotated[Int, InRange(-50, 50)]
Rank = Annotated[Int, InRange(0, 60)]

_DICE = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*$", re.IGNORECASE)


def parse_base_dice(text: str) -> tuple[tuple[int, int], ...]:
    """A weapon's base damage dice (R002.16, A002.24): `1d8`, `2d6`, `1d6+1d4` → ((1, 8), ...)."""
    terms: list[tuple[int, int]] = []
    for part in str(text).split("+"):
        m = _DICE.match(part)
        if not m:
            raise ValueError(part)
        count = int(m.group(1) or 1)
        sides = int(m.group(2))
        if not 1 <= count <= 20 or not 2 <= sides <= 100:
            raise ValueError(part)
        terms.append((count, sides))
    return tuple(terms)


def _check_dice(value: str) -> str:
    try:
        parse_base_dice(value)
    except ValueError:
        raise PydanticCustomError(
            "des", "« {value} » n'est pas une formule de dés de base (exemples : 1d8, 2d6, 1d6+1d4 ;"
            " 1 à 20 dés de 2 à 100 faces, sans bonus : Force, dons et magie s'ajoutent à part)",
            {"value": value},
        ) from None
    return value


def _check_class(name: str) -> str:
    if name not in CLASSES:
        raise PydanticCustomError(
            "classe", "classe inconnue « {name} » (autorisé : {allowed})",
            {"name": name, "allowed": ", ".join(CLASSES)},
        )
    return name


def _abilities(value: Any) -> Any:
    value = normalized_keys(value, "caracteristiques")
    if isinstance(value, dict):
        return {ABILITY_ALIASES.get(k, k): v for k, v in value.items()}
    return value


ClassName = Annotated[str, AfterValidator(_check_class)]


class Abilities(BaseModel):
    """A002.01: the six 3.5 abilities, scores 1..50."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    force: Score
    dexterite: Score
    constitution: Score
    intelligence: Score
    sagesse: Score
    charisme: Score


class Armour(BaseModel):
    """Armour or shield (R002.06, R002.07). `malus` is the armour check penalty (its size: 6 or
    -6 alike). A missing value is taken from the armour table (A002.09) by name."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    nom: str = ""
    bonus_ca: NonNegative | None = None
    malus: Small | None = None

    @model_validator(mode="after")
    def _from_table(self) -> Armour:
        if self.bonus_ca is None or self.malus is None:
            data = ARMOURS.get(normalize(self.nom))
            if data is None:
                missing = "bonus_ca" if self.bonus_ca is None else "malus"
                raise PydanticCustomError(
                    "armure", "{missing} absent et « {nom} » n'est pas dans la table des armures "
                    "(connues : {known}) : donnez bonus_ca et malus",
                    {"missing": missing, "nom": self.nom, "known": ", ".join(ARMOURS)},
                )
            if self.bonus_ca is None:
                self.bonus_ca = data.ac_bonus
            if self.malus is None:
                self.malus = data.check_penalty
        return self

    @property
    def ac(self) -> int:
        return int(self.bonus_ca or 0)

    @property
    def penalty(self) -> int:
        return abs(int(self.malus or 0))


class Feats(BaseModel):
    """Feat bonuses (dons) the formulas name: AC, attack, damage, initiative, class-feat DR."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    ca: Small = 0
    attaque: Small = 0
    degats: Small = 0
    initiative: Small = 0
    rd: NonNegative = 0


class Weapon(BaseModel):
    """A weapon (A002.24: its dice, threat range and multiplier are data)."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    nom: str
    degats: Annotated[str, AfterValidator(_check_dice)]
    zone_critique: Annotated[Int, InRange(2, 20)] = 20
    multiplicateur: Annotated[Int, InRange(2, 4)] = 2
    portee: Literal["contact", "distance"] = "contact"
    projectile: bool = False
    magie: Annotated[Int, InRange(0, 10)] = 0
    bonus_attaque: Small = 0

    @property
    def dice(self) -> tuple[tuple[int, int], ...]:
        return parse_base_dice(self.degats)


class State(BaseModel):
    """Kept by the engine between turns (`etat`): `attend`, the character declared it does not
    act this round (R002.13: +5 to its initiative when the round ends); `surpris`, it did not
    see an ambush coming (A002.21: flat-footed until the first round ends)."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    attend: bool = False
    surpris: bool = False


class Sheet(BaseModel):
    """A dd35 character sheet (SHEETS.md)."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    systeme: Literal["dd35"]
    nom: str
    genre: GenreField = None  # f, m ou absent (neutre) : accord des messages
    caracteristiques: Annotated[Abilities, BeforeValidator(_abilities)]
    classes: Annotated[dict[ClassName, Level], NormalizedKeys("classes")]
    des_de_vie: Annotated[Int, InRange(1, 60)] | None = None
    pv: PoolField | None = None
    pv_mode: Literal["fixe", "lance"] = "fixe"
    armure: Armour | None = None
    bouclier: Armour | None = None
    dons: Feats = Feats()
    competences: Annotated[dict[str, Rank], NormalizedKeys("competences")] = {}
    sauvegardes: Annotated[
        dict[Literal["reflexes", "vigueur", "volonte"], Small], NormalizedKeys("sauvegardes")
    ] = {}
    divers: Annotated[dict[str, Small], NormalizedKeys("divers")] = {}
    armes: list[Weapon] = []
    etat: State = Field(default_factory=State)

    @model_validator(mode="after")
    def _character_level(self) -> Sheet:
        total = sum(self.classes.values())
        if not self.classes:
            raise PydanticCustomError(
                "classes", "classes : au moins une classe avec son niveau (exemple : guerrier: 3)",
            )
        if total > MAX_LEVEL:
            raise PydanticCustomError(
                "niveau", "classes : niveau de personnage {total} hors limites "
                "(autorisé : de 1 à {max}, la table de Base Attaque s'arrête au niveau {max})",
                {"total": total, "max": MAX_LEVEL},
            )
        return self


TEMPLATE = """\
# Fiche dd35 (Catégorie:Combat, règles d20 3.5 maison) — voir SHEETS.md
systeme: dd35
nom: Guerrier
# Les six caractéristiques (1 à 50) ; modificateur = (valeur - 10) / 2 arrondi en dessous.
caracteristiques: {force: 16, dexterite: 14, constitution: 14, intelligence: 10, sagesse: 12, charisme: 8}
# Classes et niveaux (1 à 20, total 20 au plus). La première classe écrite est celle du
# premier niveau (premier dé de vie au maximum) : barbare, guerrier, paladin, rodeur, barde,
# druide, moine, pretre, roublard, mage, ensorceleur.
classes: {guerrier: 6, mage: 4}
# pv : omettez-les en mode fixe, jdr les calcule ; en mode lance, écrivez le total obtenu.
pv_mode: fixe                     # fixe (valeur fixe par niveau) ou lance (dé lancé)
# Armure et bouclier : bonus de CA et malus d'armure aux tests (= réduction de dégâts,
# plafonnée par la Base Attaque). Sans chiffres, la table des armures de jdr est utilisée.
armure: {nom: Harnois, bonus_ca: 8, malus: 6}
bouclier: {nom: Pavois, bonus_ca: 4, malus: 10}
dons: {ca: 0, attaque: 0, degats: 0, initiative: 0, rd: 0}
competences: {social: 4, nature: 2, ingenierie: 0}   # rangs utilisés par la perception active
sauvegardes: {reflexes: 2, vigueur: 5, volonte: 1}   # bonus de sauvegarde (données de la fiche)
armes:
  - {nom: Épée longue, degats: 1d8, zone_critique: 19, multiplicateur: 2, portee: contact, magie: 0}
  - {nom: Arc long, degats: 1d8, multiplicateur: 3, portee: distance, projectile: true}
notes: ""
"""
