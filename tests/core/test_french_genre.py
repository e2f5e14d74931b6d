"""Every French line a game produces about its characters agrees with their `genre` (issue 17.7).

For each system, `french_scenario.play` plays every core action, every rule it declares, each
state it declares (`GameSystem.states`) and the encounter's steps, with three groups of
characters: genre `f`, `m`, or none (neutral wording). A line is judged by the genre of the
names it holds (of the whole text when the line holds none; not judged when they differ).
Every line read must hold:

- `f`: no masculine-only participle or pronoun (« assommé », « il »); `m`: no feminine one;
  none: neither (the neutral wording: « sans connaissance », « son tour est perdu »);
- elision before a vowel (« d'Aude », « qu'Eden », never « de Aude »);
- no internal identifier: a state key (`assomme`, `hors_de_combat`), a zone key (`tete`), an
  action kind (`attack`, `combat:suivant`), a Python dict or `None`.

The lists come from the systems: their declared states (worded by `jdr.core.french.STATES`) and
the zones their attacks may aim at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from french_scenario import GENRE_OF, SCENES, Played, play
from jdr.core.french import STATES
from jdr.core.registry import get_system

SYSTEMS = ("cydonia", "maitrise", "dd35", "cyd", "felins", "deuxdes")

# Words that agree with the character they are said of: masculine → feminine. The states' own
# words come from `STATES`; these are the other participles and adjectives the rules use.
AGREED = {
    "touché": "touchée", "blessé": "blessée", "saisi": "saisie", "tombé": "tombée",
    "réveillé": "réveillée", "soigné": "soignée", "guéri": "guérie", "sauvé": "sauvée",
    "surpris": "surprise", "transformé": "transformée", "attaqué": "attaquée",
    "nommé": "nommée", "affecté": "affectée", "prêt": "prête",
    "étourdi": "étourdie", "projeté": "projetée", "renversé": "renversée", "vivant": "vivante",
    "chanceux": "chanceuse", "lui-même": "elle-même",
    **{m: f for m, f, _ in STATES.values() if m != f and " " not in m},
}
NOUNS = {"surprise"}  # feminine forms that are nouns as well (« la surprise échoue »)
# What may stand beside such a word without being said of a character.
GENERIC = [
    r"\bpersonnages? \w+",       # « au moins un personnage surpris » agrees with « personnage »
    r"\btous \w+",               # « tous surpris »
    r"\b(la|sa|à) mort\b",       # the noun
    r"\bêtre touché\b",          # « seuil pour être touché »
]
IMPERSONAL = r"\b[Ii]l (faut|y a|n'y a|reste|s'agit|manque)\b|\bs'il\b|\bqu'il\b"

ELISION = re.compile(r"(?<![\w-])(de|que|le|la|ne|se|je|me|te|jusque|lorsque|puisque) "
                     r"([AEIOUYÉÈÊËÀÂÎÏÔÛaeiouyéèêàâîïôû][\w-]*)")
ELISION_OK = {"ou", "un", "une", "onze", "y", "oui"}  # « le ou les », « de un à trois »
KINDS = ("attack", "attack_odds", "check", "odds", "show", "roll", "combat:", "regle:")
DICT = re.compile(r"\{'|'\s*:\s|\{\"|\bNone\b|\bTrue\b|\bFalse\b")
NAME = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in GENRE_OF))


def _words(line: str) -> set[str]:
    for pattern in [*GENERIC, IMPERSONAL]:
        line = re.sub(pattern, " ", line)
    return set(re.findall(r"[\w-]+", line))


def forbidden_words(genre: str | None) -> set[str]:
    masculine, feminine = set(AGREED), set(AGREED.values()) - NOUNS
    if genre == "f":
        return masculine | {"il", "Il"}
    if genre == "m":
        return feminine
    return masculine | feminine | {"il", "Il"}


def identifiers(played: Played) -> set[str]:
    """State keys and zone keys a person must never read: those not written as such in their
    own French words (`assomme` is not « assommé », `tete` is not « Tête »; `coma` is in « dans
    le coma »)."""
    system = get_system(played.system)
    pairs = [(state, STATES.get(state, (state,))) for state in {*system.states, *played.states}]
    pairs += [(value, (label,)) for value, label in played.zones]
    out: set[str] = set()
    for key, words in pairs:
        if not any(re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", w.lower()) for w in words):
            out.add(key)
    return out


def genre_of(line: str, text: str) -> tuple[bool, str | None]:
    """(whether the line can be judged, the genre of the names it holds — of the whole text
    when it holds none)."""
    genres = {GENRE_OF[n] for n in NAME.findall(line)} or {GENRE_OF[n] for n in NAME.findall(text)}
    if len(genres) != 1:
        return False, None
    return True, next(iter(genres))


def _line_problems(where: str, line: str, banned: set[str], ids: set[str]) -> list[str]:
    found = [f"[{where}] « {word} » : {line}" for word in sorted(_words(line) & banned)]
    for match in ELISION.finditer(line):
        if match.group(2).lower() not in ELISION_OK:
            found.append(f"[{where}] élision « {match.group(0)} » : {line}")
    for key in (*ids, *KINDS):
        if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", line):
            found.append(f"[{where}] identifiant « {key} » : {line}")
    if DICT.search(line):
        found.append(f"[{where}] dictionnaire : {line}")
    return found


def problems(played: Played) -> list[str]:
    ids = identifiers(played)
    found: list[str] = []
    for where, text, line in played.lines():
        judged, genre = genre_of(line, text)
        banned = forbidden_words(genre) if judged else set()
        found += _line_problems(f"{where} ({genre or 'neutre'})", line.strip(), banned, ids)
    return found


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_line_agrees_elides_and_names_nothing_internal(tmp_path: Path, system_id: str
                                                             ) -> None:
    played = play(system_id, tmp_path)
    system = get_system(system_id)
    assert set(system.states) <= played.states, (
        f"états déclarés jamais atteints : {set(system.states) - played.states} "
        f"(SCENES de french_scenario)")
    judged = [genre_of(line, text) for _, text, line in played.lines()]
    for genre in ("f", "m", None):  # each genre has lines of its own to judge
        assert sum(j == (True, genre) for j in judged) > 30, genre
    found = problems(played)
    assert not found, "\n".join(found[:60])


def test_the_checks_can_fail() -> None:
    """The checker sees what it must (a masculine word for `f`, a missing elision, an id)."""
    played = Played("cydonia", [("x", "Aude est assommé : il perd ce tour"),
                                ("y", "tour de Iris"), ("z", "Élise : tete {'max': 3}")],
                    {"debout", "assomme"}, {("tete", "Tête")})
    text = "\n".join(problems(played))
    assert "« assommé »" in text and "« il »" in text and "élision « de Iris »" in text
    assert "identifiant « tete »" in text and "dictionnaire" in text
    neutral = Played("felins", [("x", "Eden est inconsciente"), ("y", "Alix :\nil se réveille")])
    assert len(problems(neutral)) == 2
    male = Played("felins", [("x", "Émile est morte"), ("y", "Achille est mort")])
    assert len(problems(male)) == 1
    mixed = Played("felins", [("x", "Aude attaque Achille : il est mort")])
    assert problems(mixed) == []  # two genres on one line: not judged


def test_scenes_reach_each_declared_state() -> None:
    for system_id in SYSTEMS:
        system = get_system(system_id)
        missing = set(system.states) - {"debout"} - set(SCENES.get(system_id, {}))
        assert not missing, (system_id, missing)
