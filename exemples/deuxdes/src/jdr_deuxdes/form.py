"""Le formulaire de la fiche (« Nouvelle fiche » dans les pages, et la modification d'une fiche) :
le modèle que le cœur lit pour construire ses champs (`jdr.core.sheetform`), avec ses bornes, et
les libellés français. La fiche reste validée par `DeuxDes.load` (D2-01, D2-04)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from jdr.core.sheet import InRange, Int
from jdr.core.sheetform import FormData

Attribute = Annotated[Int, InRange(0, 3)]


class Attributes(BaseModel):
    model_config = ConfigDict(extra="forbid")
    force: Attribute
    adresse: Attribute
    esprit: Attribute


class HitPoints(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max: Annotated[Int, InRange(1, 99)]
    actuels: Annotated[Int, InRange(-99, 99)]


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nom: str
    degats: Int = 0


class Sheet(BaseModel):
    """Une fiche deuxdes, telle que le formulaire la montre."""

    model_config = ConfigDict(extra="allow")
    systeme: str
    nom: str
    attributs: Attributes
    pv: HitPoints
    armes: list[Weapon] = Field(default_factory=list)


FORM = FormData(
    model=Sheet,
    labels={"nom": "Nom", "attributs": "Attributs", "force": "Force",
            "adresse": "Adresse", "esprit": "Esprit", "pv": "Points de vie (PV)",
            "armes": "Armes", "armes.*": "Arme", "degats": "Dégâts ajoutés à 1d6 + Force"},
    adds={"armes": "Ajouter une arme"},
)
