"""Cydonia's rule tables as data (RULES.md section 1). The configurable readings are in `config`."""

from __future__ import annotations

from dataclasses import dataclass

from jdr.core.threshold import Ladder

# R000.02 — the eight characteristics, with the abbreviations the text uses.
CHARACTERISTICS: dict[str, str] = {
    "physique": "Physique", "agilite": "Agilité", "dexterite": "Dextérité",
    "sensoriel": "Sensoriel", "courage": "Courage", "charisme": "Charisme",
    "mental": "Mental", "chance": "Chance",
}
ABBREVIATIONS: dict[str, str] = {
    "phy": "physique", "agi": "agilite", "dex": "dexterite", "sens": "sensoriel",
    "cou": "courage", "char": "charisme", "cha": "charisme", "men": "mental", "chan": "chance",
}

# R000.05 — weapon categories, each its own skill, linked to Dextérité.
WEAPON_SKILLS: tuple[str, ...] = (
    "baton", "petite_lame", "lame", "hache", "masse", "marteau", "arc", "arbalete",
    "arme_de_jet", "grande_arme", "arme_a_feu", "faux",
)

# R000.03 / R000.04 — skills (0 to 10) → linked characteristic (None: Transformation, R000.40);
# A000.18: Persuasion is Charisme.
SKILLS: dict[str, str | None] = {
    **{w: "dexterite" for w in WEAPON_SKILLS},
    "bouclier": "dexterite", "larcin": "dexterite", "crochetage": "dexterite",
    "lancer": "dexterite", "metier": "dexterite", "torture": "dexterite",
    "piegeage": "dexterite",
    "course": "physique", "nager": "physique", "corps_a_corps": "physique",
    "esquive": "agilite", "acrobatie": "agilite", "equitation": "agilite",
    "discretion": "agilite", "vol_aerien": "agilite",
    "observation": "sensoriel",
    "persuasion": "charisme", "baratin": "charisme", "intimidation": "charisme",
    "psychologie": "charisme", "seduction": "charisme", "negociation": "charisme",
    "fouille": "chance",
    "magie": "mental", "culture_generale": "mental", "dressage": "mental",
    "linguistique": "mental", "medecine": "mental", "navigation": "mental",
    "transformation": None,
}
SKILL_ALIASES: dict[str, str] = {"cac": "corps_a_corps", "arme": "lame"}
# The skills' French names as the rulebook writes them (R000.04, R000.05).
SKILL_LABELS: dict[str, str] = {
    "baton": "Bâton", "petite_lame": "Petite lame", "lame": "Lame", "hache": "Hache",
    "masse": "Masse", "marteau": "Marteau", "arc": "Arc", "arbalete": "Arbalète",
    "arme_de_jet": "Arme de jet", "grande_arme": "Grande arme", "arme_a_feu": "Arme à feu",
    "faux": "Faux", "bouclier": "Bouclier", "larcin": "Larcin", "crochetage": "Crochetage",
    "lancer": "Lancer", "metier": "Métier", "torture": "Torture", "piegeage": "Piégeage",
    "course": "Course", "nager": "Nager", "corps_a_corps": "Corps à corps", "esquive": "Esquive",
    "acrobatie": "Acrobatie", "equitation": "Équitation", "discretion": "Discrétion",
    "vol_aerien": "Vol aérien", "observation": "Observation", "persuasion": "Persuasion",
    "baratin": "Baratin", "intimidation": "Intimidation", "psychologie": "Psychologie",
    "seduction": "Séduction", "negociation": "Négociation", "fouille": "Fouille",
    "magie": "Magie", "culture_generale": "Culture générale", "dressage": "Dressage",
    "linguistique": "Linguistique", "medecine": "Médecine", "navigation": "Navigation",
    "transformation": "Transformation",
}


def skill_label(key: str) -> str:
    """A skill's French name; a free skill (R000.60) is shown as written, capitalised."""
    return SKILL_LABELS.get(key) or key.replace("_", " ").capitalize()
# R000.04 — Métier may use Dextérité or Mental.
ALTERNATIVE_CHARACTERISTICS: dict[str, tuple[str, ...]] = {"metier": ("dexterite", "mental")}

# R000.14 / D-000.45 — the difficulty ladder; past `heroique`, any number (+5 per step).
LADDER = Ladder(
    steps={"tres_facile": 5, "facile": 10, "moyenne": 15, "difficile": 20, "tres_difficile": 25,
           "heroique": 30},
    rule="R000.14, D-000.45",
    aliases={"seulement_pour_les_heros": "heroique", "heroiques": "heroique"},
)

# R000.37 — riding difficulties.
RIDING: dict[str, int] = {"monter": 10, "pas": 10, "trot": 15, "galop": 20, "triple_galop": 25}

ARMOUR_ZONES: tuple[str, ...] = ("tete", "torse", "bras", "mains", "jambes", "pieds")


@dataclass(frozen=True, slots=True)
class Zone:
    """One row of a hit-location table."""

    name: str            # as the source writes it
    armour: str          # the armour zone covering it (A000.14)
    extra: str = ""      # extra damage dice, e.g. "2d10" (critical location)
    effect: str = ""     # e.g. paralysis
    head: bool = False   # a head hit can knock out (R000.41)


def _w(name: str, armour: str, extra: str = "", effect: str = "", head: bool = False) -> Zone:
    return Zone(name, armour, extra, effect, head)


# R000.26 — weapons (row 8 has lost its "8)" in the source, A000.05; row 13 "Arme", A000.06).
WEAPON_LOCATIONS: dict[int, Zone] = {
    1: _w("Pied droit", "pieds"), 2: _w("Pied gauche", "pieds"),
    3: _w("Jambe droite", "jambes"), 4: _w("Jambe gauche", "jambes"),
    5: _w("Épaule droite", "bras"), 6: _w("Épaule gauche", "bras"),
    7: _w("Main droite", "mains"), 8: _w("Main gauche", "mains"),
    9: _w("Abdomen", "torse"), 10: _w("Abdomen", "torse"),
    11: _w("Abdomen", "torse"), 12: _w("Abdomen", "torse"),
    13: _w("Bras", "bras"),
    14: _w("Torse", "torse"), 15: _w("Torse", "torse"), 16: _w("Torse", "torse"),
    17: _w("Torse", "torse"),
    18: _w("Gorge", "tete", extra="2d10"),
    19: _w("Tête", "tete", extra="1d20", head=True),
    20: _w("Torse", "torse"),  # A000.10: after Tête, as written
}

# R000.27 — hand-to-hand.
CAC_LOCATIONS: dict[int, Zone] = {
    1: _w("Jambe droite", "jambes"), 2: _w("Jambe gauche", "jambes"),
    3: _w("Épaule droite", "bras"), 4: _w("Épaule gauche", "bras"),
    5: _w("Côte droite", "torse"), 6: _w("Côte gauche", "torse"),
    7: _w("Côte droite", "torse"), 8: _w("Côte gauche", "torse"),
    9: _w("Abdomen", "torse"), 10: _w("Abdomen", "torse"),
    11: _w("Abdomen", "torse"), 12: _w("Abdomen", "torse"),
    13: _w("Bijoux de famille", "jambes",
           effect="paralysé un tour sauf Résistance Physique ≥ 25"),
    14: _w("Tête", "tete", head=True), 15: _w("Tête", "tete", head=True),
    16: _w("Tête", "tete", head=True), 17: _w("Tête", "tete", head=True),
    18: _w("Tête", "tete", head=True),
    19: _w("Glotte", "tete", extra="2d10"),
    20: _w("Tête", "tete", head=True),
}

# R000.30 — zones an aimed attack may name, and their malus (A000.38: the CAC head is −6).
VERY_PRECISE_WEAPON = frozenset({"gorge", "tete"})
VERY_PRECISE_CAC = frozenset({"bijoux_de_famille", "glotte"})

# R000.45 — XP costs.
XP_CHARACTERISTIC = 4
XP_SKILL = 2
XP_HIT_POINTS = 1          # for +3 hit points or mana
HIT_POINTS_PER_XP = 3
XP_SERVANT_STAT = 2

# R000.46 / R000.47 — end-of-scenario awards: event → (XP, PA, Shira XP).
COMMON_AWARDS: dict[str, tuple[int, int, int]] = {
    "participation": (2, 1, 0),
    "reussite": (2, 1, 0),
    "amelioration_shira": (0, 0, 2),
    "respect_du_kei": (0, 0, 2),
}
INDIVIDUAL_AWARDS: dict[str, tuple[int, int]] = {   # (XP, or PA instead)
    "meilleure_idee": (2, 1), "meilleure_action": (2, 1), "meilleur_combattant": (2, 1),
    "meilleur_roleplay": (2, 1), "meilleure_punchline": (1, 0),
    "plus_gros_poissard": (1, 0),   # seed L403: « Plus gros poissard du scénario = +1 d'Xp »
}

# R000.48 — reputation levels.
REPUTATION: dict[int, str] = {
    10: "Légende adulée (chanté par tous les Bardes)",
    9: "Célébrité adulée (chanté par beaucoup de Bardes)",
    8: "Chevalier adulé (chanté par la plupart des Bardes)",
    7: "Chevalier respecté (chanté par une partie des Bardes)",
    6: "Chevalier (chanté par quelques Bardes)",
    5: "Guerrier reconnu", 4: "Bien vu dans sa ville", 3: "Bien vu dans son quartier",
    2: "Reconnu par son entourage", 1: "Vie banale", 0: "Vie insignifiante",
    -1: "Vie Banale", -2: "Reconnu par son entourage", -3: "Mal vu dans son quartier",
    -4: "Mal vu dans sa ville", -5: "Bandit reconnu (prime de 10 Po)",
    -6: "Bandit redouté (prime de 20 Po) (chanté par quelques Bardes)",
    -7: "Bandit terrifiant (prime de 50 Po) (chanté par une partie des Bardes)",
    -8: "Bandit maudit (prime de 100 Po) (chanté par la plupart des Bardes)",
    -9: "Célébrité crainte (prime de 200 Po) (chanté par beaucoup de Bardes)",
    -10: "Légende crainte (prime de 400 Po) (chanté par tous les Bardes)",
}
BOUNTIES: dict[int, int] = {-5: 10, -6: 20, -7: 50, -8: 100, -9: 200, -10: 400}

# A000.25 — rest condition → die (GM-selectable).
REST_DICE: dict[str, int] = {
    "belle_etoile": 4, "sac_de_couchage": 6, "tente": 10, "lit_de_paille": 10,
    "chambre_luxueuse": 20,
}

