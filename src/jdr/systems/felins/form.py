"""The felins sheet form: French labels and lists of names of `FelinsSheet` (`core.sheetform`)."""

from __future__ import annotations

from jdr.core.sheetform import FormData
from jdr.systems.felins import tables
from jdr.systems.felins.sheet import FelinsSheet

_STATE_LABELS = {"conscient": "Conscient", "en_fuite": "En fuite", "inconscient": "Inconscient",
                 "coma": "Dans le coma", "mort": "Mort"}
_CARE_LABELS = {"aucun": "Aucun", "reussi": "Réussi (pas de nouvel essai)",
                "rate": "Raté (nouvel essai le lendemain)"}

FORM = FormData(
    model=FelinsSheet,
    labels={
        "nom": "Nom", "rang": "Rang", "clan": "Clan", "caracteristiques": "Caractéristiques",
        **tables.CHARACTERISTICS,
        "competences": "Compétences (rang acquis)", "competences.*": "Rang acquis",
        "reputation": "Réputation", "blessures": "Blessures", "etat": "État",
        "inconscience": "Minutes d'inconscience restantes", "soins": "Derniers soins reçus",
    },
    choices={
        "rang": tuple((k, label) for k, (label, _) in tables.RANKS.items()),
        "clan": tuple((k, label) for k, (label, _) in tables.CLANS.items()),
        "competences": tuple((k, s.name) for k, s in tables.SKILLS.items()),
        "etat": tuple((k, _STATE_LABELS.get(k, str(v))) for k, v in tables.STATES.items()),
        "soins": tuple((k, _CARE_LABELS.get(k, str(v))) for k, v in tables.CARE.items()),
    },
    keys={"competences": "Compétence"},
    adds={"competences": "Ajouter une compétence"},
)
