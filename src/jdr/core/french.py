"""French grammar, once for every message: elision (« tour d'Orque 3 »), agreement by a
character's `genre` (« Camille est assommée : elle perd ce tour »), neutral wording when the sheet
gives no genre (« Camille est sans connaissance : son tour est perdu »), and the labels of the
states, zones and actions a person reads (never their internal ids).

`genre` is optional on every sheet: `f` (féminin), `m` (masculin) or absent (`n`, neutre). The
neutral wording is not « assommé·e »: it says the same thing with words that do not agree
(« sans connaissance », « à l'agonie », « son tour est perdu »).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal

Genre = Literal["f", "m"] | None

_GENRES = {"f": "f", "feminin": "f", "femme": "f", "fille": "f", "elle": "f",
           "m": "m", "masculin": "m", "homme": "m", "garcon": "m", "il": "m",
           "n": None, "neutre": None, "": None}


def parse_genre(value: Any) -> Genre:
    """`f`, `F`, `féminin` → `f`; `m`, `masculin` → `m`; absent, `n`, `neutre` → None.
    Raise ValueError (a French message) for anything else."""
    if value is None:
        return None
    from jdr.names import normalize

    key = normalize(str(value))
    if key not in _GENRES:
        raise ValueError(f"genre « {value} » inconnu : f (féminin), m (masculin) ou n (neutre)")
    return _GENRES[key]  # type: ignore[return-value]


def sheet_genre(model: Any) -> Genre:
    """The genre a typed sheet model carries (its optional `genre` field), None when absent."""
    value = getattr(model, "genre", None)
    try:
        return parse_genre(value)
    except ValueError:
        return None


# ------------------------------------------------------------------ numbers

THIN = "\u202f"  # the narrow no-break space that groups thousands (« 10 000 »)


def number(value: int) -> str:
    """An integer as a French text shows it: from 1 000 on, thousands grouped by a narrow no-break
    space (« 20 000 », « -1 000 »: the hyphen-minus the command line reads back)."""
    return f"{value:,}".replace(",", THIN) if abs(value) >= 1000 else str(value)


# ------------------------------------------------------------------ elision

_VOWELS = set("aeiouy")


def _first_letter(word: str) -> str:
    for c in unicodedata.normalize("NFKD", word.strip()):
        if c.isalpha():
            return c.lower()
    return ""


def elides(word: str) -> bool:
    """Whether « de », « le », « que » lose their vowel before `word` (a vowel, accented or not;
    a mute `h` is not guessed: « de Hugo »)."""
    return _first_letter(word) in _VOWELS


def de(name: str) -> str:
    """« de Léo », « d'Orque 3 », « d'Élise »."""
    return f"d'{name}" if elides(name) else f"de {name}"


def que(word: str) -> str:
    """« que Léo », « qu'Orque 3 »."""
    return f"qu'{word}" if elides(word) else f"que {word}"


def le(word: str) -> str:
    """« le tour », « l'attaque » (for common nouns; names take no article)."""
    return f"l'{word}" if elides(word) else f"le {word}"


# ------------------------------------------------------------------ agreement


def accord(genre: Genre, masculin: str, feminin: str, neutre: str | None = None) -> str:
    """The words for this genre: `neutre` when the sheet gives none (the masculine form when no
    neutral wording exists, as for « debout »)."""
    if genre == "f":
        return feminin
    if genre == "m":
        return masculin
    return masculin if neutre is None else neutre


def pronoun(genre: Genre, neutre: str) -> str:
    """« il » / « elle », or the neutral wording given (a name, « son tour est perdu », ...)."""
    return accord(genre, "il", "elle", neutre)


def participle(word: str, genre: Genre) -> str:
    """A regular past participle or adjective agreed (« assommé » → « assommée »); use
    `accord` for the irregular ones and for neutral wording."""
    if genre != "f" or (word.endswith("e") and not word.endswith("é")):
        return word
    return word + "e"


# ------------------------------------------------------------------ states

# state id → (masculin, féminin, neutre): how it reads after « est » and in a table cell
STATES: dict[str, tuple[str, str, str]] = {
    "debout": ("debout", "debout", "debout"),
    "assomme": ("assommé", "assommée", "sans connaissance"),
    "mourant": ("mourant", "mourante", "à l'agonie"),
    "mort": ("mort", "morte", "sans vie"),
    "inconscient": ("inconscient", "inconsciente", "sans connaissance"),
    "coma": ("dans le coma", "dans le coma", "dans le coma"),
    "en_fuite": ("en fuite", "en fuite", "en fuite"),
    "hors_de_combat": ("hors de combat", "hors de combat", "hors de combat"),
    "conscient": ("conscient", "consciente", "en éveil"),
    "paralyse": ("paralysé", "paralysée", "sous paralysie"),
    "immobilise": ("immobilisé", "immobilisée", "sous une prise"),
    "stabilise": ("stabilisé", "stabilisée", "hors de danger"),
}


def state_label(state: str, genre: Genre = None) -> str:
    """A state id (`assomme`, `hors_de_combat`) as a person reads it, agreed by genre."""
    from jdr.names import normalize

    forms = STATES.get(normalize(state))
    if forms is None:
        return humanize(state)
    return accord(genre, *forms)


def is_state(name: str, state: str, genre: Genre) -> str:
    """« Camille est assommée », « Léo est assommé », « Camille est sans connaissance »."""
    return f"{name} est {state_label(state, genre)}"


def they_are(state: str, genre: Genre) -> str:
    """« il est assommé » / « elle est assommée » / « sans connaissance » (after « X ne peut pas
    agir : »; the neutral wording reads as a label, with no pronoun)."""
    label = state_label(state, genre)
    return accord(genre, f"il est {label}", f"elle est {label}", label)


def loses_turn(genre: Genre) -> str:
    """« elle perd ce tour » / « il perd ce tour » / « son tour est perdu »."""
    return accord(genre, "il perd ce tour", "elle perd ce tour", "son tour est perdu")


# ------------------------------------------------------------------ ids a person must not read

_ACCENTS = {"tete": "tête", "degats": "dégâts", "defense": "défense", "defenseur": "défenseur",
            "etat": "état", "bijoux": "bijoux", "sante": "santé", "elan": "élan",
            "negociation": "négociation", "reveil": "réveil", "competence": "compétence",
            "caracteristique": "caractéristique", "precision": "précision",
            "rapidite": "rapidité", "epee": "épée", "epaule": "épaule", "pied": "pied",
            "gauche": "gauche", "droite": "droite", "jambe": "jambe", "bras": "bras",
            "torse": "torse", "ventre": "ventre", "mains": "mains", "main": "main",
            "dexterite": "dextérité", "volonte": "volonté", "equipee": "équipée",
            "blessures": "blessures", "resistance": "résistance", "mentale": "mentale",
            "pa": "PA", "pv": "PV", "xp": "XP", "mj": "MJ", "pnj": "PNJ"}

_TOKEN = re.compile(r"[A-Za-z]+")


def humanize(identifier: str) -> str:
    """An internal id (`tete`, `bras_gauche`, `hors_de_combat`) as words: separators become
    spaces and the usual accents come back (« tête », « bras gauche »)."""
    words = identifier.replace("_", " ").replace("-", " ").strip()
    return _TOKEN.sub(lambda m: _ACCENTS.get(m.group(0).lower(), m.group(0)), words)


def display_name(identifier: str) -> str:
    """A slug (`camille_la_naine`) as a name (« Camille la Naine »): words capitalised, short
    joining words (la, le, de, du, des, d') kept low."""
    small = {"la", "le", "les", "de", "du", "des", "et", "d", "l", "aux", "au"}
    words = identifier.replace("_", " ").replace("-", " ").split()
    shown = [w if (i and w.lower() in small) else w[:1].upper() + w[1:]
             for i, w in enumerate(words)]
    return " ".join(shown)


# action kinds (the use-case layer's ids) as a person reads them
ACTIONS: dict[str, str] = {
    "roll": "jet de dés", "check": "test", "odds": "chances", "attack": "attaque",
    "xp": "dépense d'XP", "initiative": "initiative", "duel": "duel", "regle": "règle",
    "sante": "santé à la main", "session": "nouvelle session", "show": "fiche",
    "combat:debut": "début du combat", "combat:start": "début du combat",
    "combat:suivant": "tour suivant", "combat:rejoindre": "arrivée dans la rencontre",
    "combat:quitter": "départ de la rencontre", "combat:fin": "fin du combat",
    "annuler": "annulation", "message": "message",
}


def action_label(kind: str) -> str:
    """An action id (`attack`, `combat:suivant`) as a person reads it (« attaque »)."""
    if kind.startswith("regle:"):
        return f"règle : {humanize(kind[6:])}"
    return ACTIONS.get(kind) or humanize(kind.replace(":", " "))


def pool_text(value: Any, label: str = "PV") -> str:
    """A pool as stored (`{'max': 12, 'actuels': 8}`) or a plain number, as a person reads it:
    « PV 8/12 », « 8 »."""
    if isinstance(value, dict):
        current = value.get("actuels")
        most = value.get("max")
        if current is None and most is not None:
            current = most
        return f"{label} {current}/{most}" if most is not None else f"{label} {current}"
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, list | tuple):
        return ", ".join(pool_text(v, label) for v in value) or "—"
    return str(value)
