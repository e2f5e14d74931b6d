"""The maitrise sheet form: French labels and lists of names of `MaitriseSheet`
(`core.sheetform`)."""

from __future__ import annotations

from jdr.core.sheetform import FormData
from jdr.systems.maitrise.sheet import MaitriseSheet
from jdr.systems.maitrise.tables import CHARACTERISTICS

FORM = FormData(
    model=MaitriseSheet,
    labels={
        "nom": "Nom", "caracteristiques": "Caractéristiques", **CHARACTERISTICS,
        "competences": "Compétences (0 à 100)", "competences.*": "Niveau",
        "competences_armes": "Autres compétences d'arme", "competences_armes.*": "Compétence",
        "armes": "Armes", "armes.*": "Arme", "armes.*.competence": "Compétence de l'arme",
        "armure": "Points d'armure", "pv": "Points de vie", "xp": "XP à dépenser",
        "or": "Pièces d'or", "faces_critiques": "Faces critiques supplémentaires (20+ / 100+)",
        "faces_critiques.*": "Faces", "faces_critiques.*.*": "Face du d20",
        "etat": "État (tenu par le moteur)", "mort": "Mort (décision du MJ)",
    },
    choices={"faces_critiques": tuple(CHARACTERISTICS.items())},
    suggested=frozenset({"faces_critiques"}),
    keys={"competences": "Compétence", "faces_critiques": "Compétence ou caractéristique"},
    adds={"competences": "Ajouter une compétence",
          "competences_armes": "Ajouter une compétence d'arme", "armes": "Ajouter une arme",
          "faces_critiques": "Ajouter des faces critiques",
          "faces_critiques.*": "Ajouter une face"},
    folded=frozenset({"etat"}),
)
