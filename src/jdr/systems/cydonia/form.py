"""The Cydonia sheet form: French labels and lists of names of `CydoniaSheet` (`core.sheetform`)."""

from __future__ import annotations

from jdr.core.sheetform import FormData
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    ARMOUR_ZONES,
    CHARACTERISTICS,
    SKILL_LABELS,
)

_CARACS = tuple(CHARACTERISTICS.items())
_SKILLS = tuple(SKILL_LABELS.items())
_ZONES = (("tete", "Tête"), ("torse", "Torse"), ("bras", "Bras"), ("mains", "Mains"),
          ("jambes", "Jambes"), ("pieds", "Pieds"), ("toutes", "Toutes les zones"))
assert {z for z, _ in _ZONES} == {*ARMOUR_ZONES, "toutes"}
# R000.10 / A000.40: the peoples the text names (their data is in a supplement not included).
_PEOPLES = (("humain", "Humain"), ("nain", "Nain"), ("elfe", "Elfe"), ("ork", "Ork"),
            ("lutin", "Lutin"), ("loup_garou", "Loup-garou"), ("hasaki", "Hasaki"))

FORM = FormData(
    model=CydoniaSheet,
    labels={
        "nom": "Nom", "peuple": "Peuple", "caracteristiques": "Caractéristiques",
        "competences": "Compétences", "competences.*": "Niveau",
        "competences_libres": "Compétences libres (R000.60)",
        "competences_libres.*": "Caractéristique liée",
        "expertes": "Compétences expertes (2d10, R000.06)", "expertes.*": "Compétence experte",
        "pv": "Points de vie", "mana": "Mana", "xp": "XP à dépenser",
        "pa": "Points d'apprentissage", "xp_shira": "XP de Shira", "reputation": "Réputation",
        "reputation.niveau": "Niveau", "reputation.points": "Points",
        "armes": "Armes", "armes.*": "Arme", "armes.*.competence": "Compétence",
        "degats": "Dégâts", "equipee": "Équipée", "zone": "Attaque de zone (Esquive seule)",
        "immaterielle": "Attaque immatérielle (Résistance physique)",
        "protections": "Protections", "protections.*": "Points d'armure",
        "objets": "Objets", "objets.*": "Objet", "bonus": "Bonus", "objets.*.bonus.*": "Bonus",
        "equipe": "Équipé", "griffes": "Griffes (PHY+1d10 à mains nues)",
        "compagnons": "Compagnons (R000.45)", "compagnons.*": "Compagnon",
        "stats": "Statistiques", "compagnons.*.stats.*": "Valeur",
        "etat": "État (tenu par le moteur)", "malus": "Malus", "concentration": "Concentration",
        "assomme": "Dégâts d'assommement", "mourant": "Mourant", "mort": "Mort",
        "paralyse": "Paralysé", "transformation": "Tours de transformation restants",
        "pv_transformation": "PV ajoutés par la transformation", "elan": "Tours d'élan",
        "immobilise": "Immobilisé par", "soigne": "Soigné (Médecine) aujourd'hui",
    },
    choices={
        "peuple": _PEOPLES, "competences": _SKILLS, "competences_libres.*": _CARACS,
        "expertes.*": _SKILLS, "armes.*.competence": _SKILLS,
        "armes.*.equipee": (("principale", "principale"), ("secondaire", "secondaire")),
        "protections": _ZONES, "objets.*.bonus": _CARACS + _SKILLS,
    },
    suggested=frozenset({"peuple", "competences", "expertes.*", "armes.*.competence",
                         "objets.*.bonus"}),
    fixed={"caracteristiques": _CARACS},
    aliases={"caracteristiques": ABBREVIATIONS},
    keys={"competences": "Compétence", "competences_libres": "Compétence",
          "protections": "Zone", "objets.*.bonus": "Caractéristique ou compétence",
          "compagnons": "Nom", "compagnons.*.stats": "Statistique"},
    adds={"competences": "Ajouter une compétence",
          "competences_libres": "Ajouter une compétence libre",
          "expertes": "Ajouter une compétence experte", "armes": "Ajouter une arme",
          "protections": "Ajouter une protection", "objets": "Ajouter un objet",
          "objets.*.bonus": "Ajouter un bonus", "compagnons": "Ajouter un compagnon",
          "compagnons.*.stats": "Ajouter une statistique"},
    folded=frozenset({"etat"}),
)
