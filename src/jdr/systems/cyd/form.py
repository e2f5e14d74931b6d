"""The cyd sheet form: French labels and lists of names of `CydSheet` (`core.sheetform`)."""

from __future__ import annotations

from jdr.core.sheetform import FormData
from jdr.systems.cyd import tables
from jdr.systems.cyd.sheet import CydSheet

_ATTRIBUTES = tuple(tables.ATTRIBUTE_LABELS.items())

FORM = FormData(
    model=CydSheet,
    labels={
        "nom": "Nom", "attributs": "Attributs", **tables.ATTRIBUTE_LABELS,
        "competences": "Compétences (noms libres)", "competences.*": "Niveau",
        "attribut_usuel": "Attribut usuel des compétences", "attribut_usuel.*": "Attribut",
        "secondaires": "Attributs secondaires", **tables.SECONDARY_LABELS,
        "predilections": "Prédilections (une relance par séance)",
        "predilections.*": "Case", "echecs": "Actions échouées (règle des nouvelles tentatives)",
        "echecs.*": "Niveau de la compétence à l'échec", "notes": "Notes",
    },
    choices={
        "attribut_usuel.*": _ATTRIBUTES,
        "predilections.*": (("disponible", "disponible"), ("utilisee", "utilisée")),
    },
    keys={"competences": "Compétence", "attribut_usuel": "Compétence",
          "predilections": "Compétence", "echecs": "Action"},
    adds={"competences": "Ajouter une compétence",
          "attribut_usuel": "Ajouter un attribut usuel",
          "predilections": "Ajouter une prédilection", "echecs": "Ajouter une action échouée"},
    folded=frozenset({"echecs"}),
)
