"""Every rule table of the forum cats & clans game (RULES.md section 5), as data.

The missing tables of the forum post (difficulty ladder, base reputation, will-check thresholds,
normal skill costs) are the [Proposed] / [External] defaults of RULES.md; they can be replaced
through `FelinsConfig` (config.py).
"""

from __future__ import annotations

from dataclasses import dataclass

# ------------------------------------------------------------------ R004.02 characteristics

#: canonical name -> name as printed (R004.02), in sheet order.
CHARACTERISTICS: dict[str, str] = {
    "force": "Force",
    "precision": "Précision",
    "vigueur": "Vigueur",
    "agilite": "Agilité",
    "intelligence": "Intelligence",
    "volonte": "Volonté",
    "intuition": "Intuition",
    "sociabilite": "Sociabilité",
    "chance": "Chance",
}

#: R004.03 every characteristic is 1..5; Chance <= 3 at creation; Chance 1..5 in play.
CHARACTERISTIC_MIN = 1
CHARACTERISTIC_MAX = 5
CHANCE_CREATION_MAX = 3

# ------------------------------------------------------------------ R004.04 ranks

#: rank -> (name as printed, characteristic points = the TOTAL of the nine values, A004.09).
#: Chaton: "1 dans chacune des neuf caractéristiques" = a total of 9 with every value at 1.
RANKS: dict[str, tuple[str, int]] = {
    "chaton": ("Chaton", 9),
    "apprenti": ("Apprenti", 16),
    "apprenti_guerisseur": ("Apprenti guérisseur", 16),
    "guerrier": ("Guerrier", 28),
    "lieutenant": ("Lieutenant", 28),
    "guerisseur": ("Guérisseur", 28),
    "ancien": ("Ancien", 28),
    "chef": ("Chef", 30),
    "ancien_chef": ("Ancien chef", 30),
}

#: A004.10 base reputation by rank: the table is missing in the post, default 0 (data).
BASE_REPUTATION: dict[str, int] = {rank: 0 for rank in RANKS}
REPUTATION_MIN = 0
REPUTATION_MAX = 30

# ------------------------------------------------------------------ R004.11 clans

#: clan -> (name as printed, clan skill). "Chasser" = chasse, "Escalader" = escalade (A004.14).
CLANS: dict[str, tuple[str, str]] = {
    "eaux": ("Clan des eaux", "nager"),
    "plaines": ("Clan des plaines", "chasse"),
    "roches": ("Clan des roches", "discretion"),
    "brumes": ("Clan des brumes", "escalade"),
}

# ------------------------------------------------------------------ R004.10 skills


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill of R004.10: its printed name, linked characteristics and (Ω) mark."""

    name: str
    characteristics: tuple[str, ...]
    omega: bool = False


#: R004.10, in document order. SAUT and REPÉRER/TROUVER have no "/2" printed: the general rule
#: (two characteristics -> average rounded up) applies to them too (A004.13).
SKILLS: dict[str, Skill] = {
    "chasse": Skill("Chasse", ("intelligence", "intuition")),
    "combat_griffu": Skill("Combat griffu", ("force", "precision")),
    "connaissance_de_la_rue": Skill("Connaissance de la rue", ("intelligence", "sociabilite"),
                                    omega=True),
    "connaissance_de_la_foret": Skill("Connaissance de la forêt", ("intelligence",)),
    "discretion": Skill("Discrétion", ("agilite",)),
    "escalade": Skill("Escalade", ("force", "agilite")),
    "provoquer": Skill("Provoquer", ("agilite", "intelligence")),
    "langage_humain": Skill("Langage humain", ("intelligence",), omega=True),
    "leadership": Skill("Leadership", ("volonte",)),
    "nager": Skill("Nager", ("force", "vigueur"), omega=True),
    "odorat": Skill("Odorat", ("intelligence", "intuition")),
    "orientation": Skill("Orientation", ("intuition",)),
    "psychologie_humaine": Skill("Psychologie humaine", ("intelligence",), omega=True),
    "saut": Skill("Saut", ("agilite", "precision")),
    "seduire": Skill("Séduire", ("sociabilite",)),
    "soigner": Skill("Soigner", ("intelligence",), omega=True),
    "survie": Skill("Survie", ("intelligence", "intuition")),
    "reperer_trouver": Skill("Repérer/Trouver", ("volonte", "intuition")),
    "utiliser_un_objet_humain": Skill("Utiliser un objet humain", ("precision",)),
}

#: Other spellings people use (normalized form -> canonical skill).
SKILL_ALIASES: dict[str, str] = {
    "chasser": "chasse",
    "escalader": "escalade",
    "combat": "combat_griffu",
    "reperer": "reperer_trouver",
    "trouver": "reperer_trouver",
    "reperer/trouver": "reperer_trouver",
    "connaissance_de_la_rue_(o)": "connaissance_de_la_rue",
    "soins": "soigner",
    "discrete": "discretion",
}

SKILL_RANK_MIN = 0
SKILL_RANK_MAX = 5
#: R004.06 / A004.11: only these two rank names survive.
SKILL_RANK_NAMES: dict[int, str] = {0: "néophyte", 1: "amateur"}

#: R004.10 Langage humain gets +1 when Psychologie humaine is at rank 3 or more (A004.25).
LANGUAGE_BONUS_SKILL = "langage_humain"
LANGUAGE_BONUS_SOURCE = "psychologie_humaine"
LANGUAGE_BONUS_MIN_RANK = 3

#: R004.38 / R004.10 what the rules oppose to a skill by default (`--contre FICHE` alone):
#: Repérer/Trouver against Discrétion and back; any other skill is opposed by itself.
OPPOSED_BY: dict[str, str] = {
    "discretion": "reperer_trouver",
    "reperer_trouver": "discretion",
}

#: R004.30 the skill used in combat.
COMBAT_SKILL = "combat_griffu"
#: R004.33 the healing skill.
HEAL_SKILL = "soigner"

# ------------------------------------------------------------------ skill costs (A004.12)

#: Per-rank increments of a normal skill (rank 1..5), [Proposed] doubling scale (R004.11).
NORMAL_RANK_COSTS: tuple[int, ...] = (1, 2, 4, 8, 16)
#: Per-rank increments of the clan skill, as printed (E004.03).
CLAN_RANK_COSTS: tuple[int, ...] = (0, 1, 2, 4, 8)
#: R004.07 skill points at creation = (Intelligence + Volonté) × 3.
SKILL_POINTS_FACTOR = 3

# ------------------------------------------------------------------ D-004.31 ladder

#: D-004.31 / A004.01 [External, non-authoritative] the Cats! ladder, two points per row:
#: (name typed after --seuil, label as printed, threshold).
LADDER: tuple[tuple[str, str, int], ...] = (
    ("quasi-automatique", "Réussite quasi automatique", 1),
    ("tres-facile", "Très facile", 3),
    ("facile", "Facile", 5),
    ("assez-facile", "Assez facile", 7),
    ("moyen", "Moyen", 9),
    ("assez-difficile", "Assez difficile", 11),
    ("difficile", "Difficile", 13),
    ("tres-difficile", "Très difficile", 15),
    ("quasi-impossible", "Quasiment impossible", 17),
    ("impossible", "Impossible (action héroïque)", 19),
)
#: Other spellings of ladder names (normalized form -> normalized ladder name, D-ALL.01).
LADDER_ALIASES: dict[str, str] = {
    "reussite_quasi_automatique": "quasi_automatique",
    "quasiment_impossible": "quasi_impossible",
    "moyenne": "moyen",
}
#: A004.02 one row of the ladder is two points.
LADDER_ROW = 2

# ------------------------------------------------------------------ combat tables

#: R004.24 to-hit threshold = 5 + 2 × Agilité (the defender's "score de défense").
DEFENCE_BASE = 5
DEFENCE_FACTOR = 2
#: R004.25 protection -> threshold modifier.
PROTECTION: dict[str, tuple[str, int]] = {
    "nulle": ("nulle", 0),
    "partielle": ("partielle", 1),
    "complete": ("complète", 2),
}
#: R004.26 surprise -> threshold modifier.
SURPRISE: dict[str, tuple[str, int]] = {
    "nulle": ("nulle", 0),
    "partielle": ("partielle", -1),
    "complete": ("complète", -2),
}
#: R004.13 a characteristic roll adds 2 × the characteristic (also duels, A004.15).
CHARACTERISTIC_FACTOR = 2
#: R004.27 +1 to the die per full 5 points of reputation.
REPUTATION_STEP = 5

#: R004.32 states of a cat (sheet value -> French text); R004.28 a cat that fails its will check
#: abandons the fight (`en_fuite`) until the fight is over (the rules give no other duration).
STATES: dict[str, str] = {
    "conscient": "conscient",
    "en_fuite": "en fuite",
    "inconscient": "inconscient",
    "coma": "dans le coma",
    "mort": "mort",
}
#: The states in which a cat is awake (wounds knock it out, R004.32 / A004.18).
AWAKE = ("conscient", "en_fuite")
#: R004.32 an unconscious cat stays so 3d10 × 5 minutes (E004.11).
UNCONSCIOUS_DICE = 3
UNCONSCIOUS_SIDES = 10
UNCONSCIOUS_MINUTES = 5
#: R004.32 one wound level recovered per three days at the healer's den (E004.06).
DEN_DAYS_PER_WOUND = 3
#: R004.33 Soigner: success -1 wound, critical success -2, fumble +1 (E004.12).
HEAL_SUCCESS = 1
HEAL_CRITICAL = 2
HEAL_FUMBLE = 1
#: R004.33 what the sheet keeps of the last Soigner roll on a patient (`soins`): a success is
#: not retried to do better; after a failure the healer tries again the next day.
CARE: dict[str, str] = {
    "aucun": "aucun soin en cours",
    "reussi": "soigné : le jet ne se retente pas pour faire mieux",
    "rate": "soin raté : nouvel essai le lendemain",
}

#: The shared state names of results (`StateChange`, `jdr combat`): a conscious cat stands.
RESULT_STATES: dict[str, str] = {
    "conscient": "debout",
    "en_fuite": "en_fuite",
    "inconscient": "inconscient",
    "coma": "coma",
    "mort": "mort",
}
FLED = "en_fuite"
