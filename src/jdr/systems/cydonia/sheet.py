"""The Cydonia sheet (SHEETS.md, RULES.md R000.02–R000.10, R000.53)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from jdr.core.sheet import GenreField, InRange, Int, NormalizedKeys, PoolField
from jdr.names import normalize
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    ARMOUR_ZONES,
    CHARACTERISTICS,
    SKILL_ALIASES,
    SKILLS,
)


class Weapon(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)
    nom: str
    competence: str
    degats: str = "0"
    equipee: Literal["principale", "secondaire"] | None = None
    zone: bool = False          # large area of effect (R000.24: Esquive only)
    immaterielle: bool = False  # immaterial attack (R000.24: Résistance Physique)

    @field_validator("competence")
    @classmethod
    def _skill(cls, value: str) -> str:
        return normalize(value)


class Item(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)
    nom: str
    bonus: Annotated[dict[str, Annotated[Int, InRange(0, 14)]], NormalizedKeys("bonus")] = Field(
        default_factory=dict)
    equipe: bool = True


class Reputation(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)
    niveau: Annotated[Int, InRange(-10, 10)] = 0
    points: Annotated[Int, InRange(-1000, 1000)] = 0


class State(BaseModel):
    """Kept by the engine (SHEETS.md): malus (A000.16), concentration (R000.36), ..."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    malus: Annotated[Int, InRange(-100, 100)] = 0   # A000.16: its size is taken off every roll
    concentration: Annotated[Int, InRange(0, 3)] = 0
    assomme: Annotated[Int, InRange(0, 1000)] = 0   # knock-out damage (R000.41), 0 = awake
    mourant: bool = False
    mort: bool = False
    paralyse: bool = False                          # Bijoux de famille: loses a turn (R000.27)
    transformation: Annotated[Int, InRange(0, 100)] = 0  # turns left (R000.40)
    pv_transformation: Annotated[Int, InRange(0, 1000)] = 0  # HP the transformation added (A000.28)
    elan: Annotated[Int, InRange(0, 2)] = 0         # turns of run-up before a charge (R000.39)
    immobilise: str | None = None                   # held by (Kravkar hold, R000.42)
    soigne: bool = False                            # Médecine received today (R000.54)


class Companion(BaseModel):
    """An animal or servant (R000.45: +1 stat for 2 XP); its stats are the MJ's data."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    stats: Annotated[dict[str, Annotated[Int, InRange(0, 100)]],
                     NormalizedKeys("compagnons.stats")] = Field(default_factory=dict)


def _abbrev(values: Any) -> Any:
    if not isinstance(values, dict):
        return values
    return {ABBREVIATIONS.get(normalize(str(k)), k): v for k, v in values.items()}


class CydoniaSheet(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)

    systeme: Literal["cydonia"]
    nom: str
    genre: GenreField = None  # f, m ou absent (neutre) : accord des messages
    peuple: str | None = None
    caracteristiques: Annotated[dict[str, Annotated[Int, InRange(1, 14)]],
                                NormalizedKeys("caracteristiques")]
    competences: Annotated[dict[str, Annotated[Int, InRange(0, 10)]],
                           NormalizedKeys("competences")] = Field(default_factory=dict)
    competences_libres: Annotated[dict[str, str],
                                  NormalizedKeys("competences_libres")] = Field(default_factory=dict)
    expertes: list[str] = Field(default_factory=list)
    pv: PoolField                 # A000.13: no formula in the rules, the sheet gives it
    mana: PoolField | None = None
    xp: Annotated[Int, InRange(0)] = 0
    pa: Annotated[Int, InRange(0)] = 0
    xp_shira: Annotated[Int, InRange(0)] = 0
    reputation: Reputation = Field(default_factory=Reputation)
    armes: list[Weapon] = Field(default_factory=list)
    protections: Annotated[dict[str, Annotated[Int, InRange(0, 100)]],
                           NormalizedKeys("protections")] = Field(default_factory=dict)
    objets: list[Item] = Field(default_factory=list)
    griffes: bool = False
    compagnons: Annotated[dict[str, Companion], NormalizedKeys("compagnons")] = Field(
        default_factory=dict)
    etat: State = Field(default_factory=State)

    @model_validator(mode="before")
    @classmethod
    def _abbreviations(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("caracteristiques"), dict):
            data = dict(data)
            data["caracteristiques"] = _abbrev(data["caracteristiques"])
        return data

    @field_validator("caracteristiques")
    @classmethod
    def _eight(cls, values: dict[str, int]) -> dict[str, int]:
        """R000.02: exactly the eight characteristics."""
        unknown = sorted(set(values) - set(CHARACTERISTICS))
        if unknown:
            raise PydanticCustomError(
                "carac_inconnue", "caractéristique(s) inconnue(s) : {names} (connues : {known})",
                {"names": ", ".join(unknown), "known": ", ".join(CHARACTERISTICS)},
            )
        missing = [c for c in CHARACTERISTICS if c not in values]
        if missing:
            raise PydanticCustomError(
                "carac_absente", "caractéristique(s) absente(s) : {names}",
                {"names": ", ".join(missing)},
            )
        return values

    @field_validator("competences_libres")
    @classmethod
    def _free_skills(cls, values: dict[str, str]) -> dict[str, str]:
        """R000.60: players may create skills; each names its characteristic."""
        for skill, carac in values.items():
            if normalize(carac) not in CHARACTERISTICS:
                raise PydanticCustomError(
                    "carac_inconnue",
                    "la compétence libre « {skill} » doit nommer une caractéristique ({known})",
                    {"skill": skill, "known": ", ".join(CHARACTERISTICS)},
                )
        return {k: normalize(v) for k, v in values.items()}

    @field_validator("protections")
    @classmethod
    def _zones(cls, values: dict[str, int]) -> dict[str, int]:
        """R000.08: one piece per zone, or `toutes`."""
        allowed = (*ARMOUR_ZONES, "toutes")
        for zone in values:
            if zone not in allowed:
                raise PydanticCustomError(
                    "zone_inconnue", "zone « {zone} » inconnue (autorisé : {allowed})",
                    {"zone": zone, "allowed": ", ".join(allowed)},
                )
        return values

    @model_validator(mode="after")
    def _rules(self) -> CydoniaSheet:
        """Every rule problem at once: skills, weapons, item bonuses, hit points."""
        known = set(SKILLS) | set(self.competences_libres)
        problems = [*self._skill_problems(known), *self._weapon_problems(known),
                    *self._item_problems(known)]
        if self.pv.actuels > self.pv.max and not self.etat.transformation:
            problems.append(f"pv.actuels = {self.pv.actuels} : au-dessus de pv.max {self.pv.max}")
        if problems:
            raise PydanticCustomError("regles", "{lines}", {"lines": "\n".join(problems)})
        return self

    def _skill_problems(self, known: set[str]) -> list[str]:
        """R000.04 / R000.60: known skills, or free skills declared in competences_libres."""
        problems: list[str] = []
        for skill in self.competences:
            if SKILL_ALIASES.get(skill, skill) not in known:
                problems.append(_unknown_skill("competences", skill, known))
        for skill in self.expertes:
            if SKILL_ALIASES.get(normalize(skill), normalize(skill)) not in known:
                problems.append(_unknown_skill("expertes", skill, known))
        return problems

    def _weapon_problems(self, known: set[str]) -> list[str]:
        """R000.08 / R000.35: a weapon's skill is known; at most one main and one secondary."""
        problems: list[str] = []
        for i, weapon in enumerate(self.armes):
            if SKILL_ALIASES.get(weapon.competence, weapon.competence) not in known:
                problems.append(_unknown_skill(f"armes.{i}.competence", weapon.competence, known))
        for slot in ("principale", "secondaire"):
            count = sum(1 for w in self.armes if w.equipee == slot)
            if count > 1:
                problems.append(f"armes : {count} armes équipées en {slot} (autorisé : 1)")
        return problems

    def _item_problems(self, known: set[str]) -> list[str]:
        """R000.53 / A000.22: the total item bonus on a stat never exceeds the stat's value;
        A000.21: a characteristic with its items stays within the cap."""
        problems: list[str] = []
        totals: dict[str, int] = {}
        for item in self.objets:
            if not item.equipe:
                continue
            for stat, bonus in item.bonus.items():
                stat = ABBREVIATIONS.get(stat, stat)
                if stat not in CHARACTERISTICS and SKILL_ALIASES.get(stat, stat) not in known:
                    problems.append(f"objets : « {item.nom} » donne un bonus à « {stat} », inconnu")
                    continue
                totals[stat] = totals.get(stat, 0) + bonus
        for stat, total in totals.items():
            base = self.caracteristiques.get(stat, self.competences.get(stat, 0))
            if total > base:
                problems.append(
                    f"objets : bonus total {total} sur « {stat} » au-dessus de sa valeur {base} "
                    f"(R000.53 : le bonus des objets ne dépasse jamais la valeur)"
                )
            elif stat in CHARACTERISTICS and base + total > CONFIG.characteristic_cap:
                problems.append(
                    f"objets : {stat} {base} + {total} = {base + total} dépasse "
                    f"{CONFIG.characteristic_cap} (A000.21)"
                )
        return problems


def _unknown_skill(where: str, skill: str, known: set[str]) -> str:
    from jdr.names import suggestions

    close = suggestions(skill, known)
    hint = f" ; vouliez-vous dire : {', '.join(close)} ?" if close else (
        " ; une compétence nouvelle se déclare dans competences_libres (R000.60)")
    return f"{where} : compétence « {skill} » inconnue{hint}"


TEMPLATE = """\
# Fiche Cydonia (RULES.md section 1). Les noms s'écrivent avec ou sans accents ni majuscules.
systeme: cydonia
nom: Nouveau personnage
peuple: humain               # texte libre : les peuples ne sont pas dans les règles
caracteristiques:            # 1 à 10 (jusqu'à 14 avec les modificateurs de peuple, A000.21)
  physique: 5
  agilite: 5
  dexterite: 5
  sensoriel: 5
  courage: 5
  charisme: 5
  mental: 5
  chance: 5
competences:                 # 0 à 10 ; armes par catégorie : baton, petite_lame, lame, hache,
  lame: 3                    #   masse, marteau, arc, arbalete, arme_de_jet, grande_arme,
  esquive: 2                 #   arme_a_feu, faux ; autres compétences : voir R000.04
  observation: 2
competences_libres: {}       # compétences inventées : {nom: caracteristique} (R000.60)
expertes: []                 # compétences expertes : 2d10, on garde un dé (R000.06)
pv: {max: 25, actuels: 25}   # pas de formule dans les règles : la fiche la donne
mana: {max: 0, actuels: 0}
xp: 0                        # expérience non dépensée
pa: 0                        # points d'apprentissage
reputation: {niveau: 0, points: 0}
armes:                       # 2 armes équipées au plus : principale, secondaire
  - {nom: Épée courte, competence: lame, degats: "3+1d10", equipee: principale}
protections: {}              # par zone : tete, torse, bras, mains, jambes, pieds ; ou {toutes: 3}
objets: []                   # {nom, bonus: {physique: 2}, equipe: true} ; bonus <= valeur (R000.53)
griffes: false               # dégâts à mains nues PHY+1d10 au lieu de PHY
compagnons: {}               # animaux, serviteurs : {loup: {stats: {physique: 4}}} (R000.45)
"""
