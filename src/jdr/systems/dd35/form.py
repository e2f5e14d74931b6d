"""The dd35 sheet form: French labels and lists of names of `Sheet` (`core.sheetform`)."""

from __future__ import annotations

from jdr.core.sheetform import FormData
from jdr.systems.dd35.sheet import Sheet
from jdr.systems.dd35.tables import ABILITY_ALIASES, ABILITY_LABELS, ARMOURS, CLASSES, SAVES

_ARMOURS = tuple((a.label, a.label) for a in ARMOURS.values())

FORM = FormData(
    model=Sheet,
    labels={
        "nom": "Nom", "caracteristiques": "Caractéristiques", **ABILITY_LABELS,
        "classes": "Classes", "classes.*": "Niveau", "des_de_vie": "Dés de vie",
        "pv": "Points de vie", "pv_mode": "Points de vie par niveau",
        "armure": "Armure", "bouclier": "Bouclier", "armure.nom": "Nom de l'armure",
        "bouclier.nom": "Nom du bouclier", "bonus_ca": "Bonus de CA",
        "malus": "Malus d'armure aux tests", "dons": "Bonus des dons", "ca": "CA",
        "attaque": "Attaque", "degats": "Dégâts", "initiative": "Initiative",
        "rd": "Réduction de dégâts (dons de classe)",
        "competences": "Compétences (rangs)", "competences.*": "Rangs",
        "sauvegardes": "Bonus de sauvegarde", "sauvegardes.*": "Bonus",
        "divers": "Bonus divers", "divers.*": "Bonus",
        "armes": "Armes", "armes.*": "Arme", "armes.*.nom": "Nom", "armes.*.degats": "Dés de dégâts",
        "zone_critique": "Zone de critique (à partir de)", "multiplicateur": "Multiplicateur",
        "portee": "Portée", "projectile": "Projectile", "magie": "Bonus magique",
        "bonus_attaque": "Bonus d'attaque", "etat": "État (tenu par le moteur)",
        "attend": "Attend (ne joue pas ce round)", "surpris": "Surpris",
    },
    choices={
        "classes": tuple((k, c.label) for k, c in CLASSES.items()),
        "pv_mode": (("fixe", "fixe (valeur par niveau, calculée)"),
                    ("lance", "lancé (total des dés écrit sur la fiche)")),
        "sauvegardes": tuple(SAVES.items()),
        "armure.nom": _ARMOURS, "bouclier.nom": _ARMOURS,
        "armes.*.portee": (("contact", "contact"), ("distance", "distance")),
    },
    suggested=frozenset({"armure.nom", "bouclier.nom"}),
    keys={"classes": "Classe", "competences": "Compétence", "sauvegardes": "Sauvegarde",
          "divers": "Bonus"},
    adds={"classes": "Ajouter une classe", "competences": "Ajouter une compétence",
          "sauvegardes": "Ajouter un bonus de sauvegarde", "divers": "Ajouter un bonus",
          "armes": "Ajouter une arme"},
    folded=frozenset({"etat", "dons"}),
    aliases={"caracteristiques": ABILITY_ALIASES},
)
