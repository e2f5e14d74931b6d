"""French that reads right (issue 17.7): elision, agreement by the sheet's `genre`, neutral wording
without it, and no internal identifier in what a person reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from jdr.campaign.journal import change_text
from jdr.core.french import (
    accord,
    action_label,
    de,
    display_name,
    humanize,
    is_state,
    loses_turn,
    parse_genre,
    que,
    state_label,
    they_are,
)
from jdr.core.sheet import SheetDocument
from jdr.dice.source import FixedSource
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.duel import wake_turn
from jdr.systems.cydonia.system import SYSTEM

CAMILLE = """\
systeme: cydonia
nom: Camille la Naine
genre: {genre}
caracteristiques: {{physique: 8, agilite: 5, dexterite: 4, sensoriel: 4, courage: 2, charisme: 1,
  mental: 2, chance: 3}}
pv: 12
etat: {{assomme: 12}}
"""


def _camille(genre: str) -> Character:
    text = CAMILLE.format(genre=genre).replace("genre: \n", "")
    return Character(SYSTEM.load(SheetDocument.from_text(text, Path("camille.yaml"))))


def test_elision() -> None:
    assert de("Léo") == "de Léo" and de("Orque 3") == "d'Orque 3" and de("Élise") == "d'Élise"
    assert de("Yvain") == "d'Yvain" and de("Hugo") == "de Hugo"
    assert que("Orque 3") == "qu'Orque 3" and que("Léo") == "que Léo"


def test_agreement_and_neutral_wording() -> None:
    assert is_state("Camille", "assomme", "f") == "Camille est assommée"
    assert is_state("Léo", "assomme", "m") == "Léo est assommé"
    assert is_state("Camille", "assomme", None) == "Camille est sans connaissance"
    assert loses_turn("f") == "elle perd ce tour" and loses_turn("m") == "il perd ce tour"
    assert loses_turn(None) == "son tour est perdu"
    assert they_are("mort", "f") == "elle est morte" and they_are("mourant", None) == "à l'agonie"
    assert state_label("hors_de_combat") == "hors de combat" and state_label("debout", "f") == "debout"
    assert accord("f", "prêt", "prête", "paré") == "prête"


@pytest.mark.parametrize("value, genre", [("f", "f"), ("F", "f"), ("Féminin", "f"), ("m", "m"),
                                          ("masculin", "m"), ("n", None), (None, None)])
def test_genre_values(value: str | None, genre: str | None) -> None:
    assert parse_genre(value) == genre


def test_unknown_genre_is_a_french_sheet_error() -> None:
    from jdr.errors import SheetError

    with pytest.raises(SheetError, match="genre inconnu"):
        _camille("x")


@pytest.mark.parametrize("genre, title", [
    ("f", "Camille la Naine est assommée : elle perd ce tour"),
    ("m", "Camille la Naine est assommé : il perd ce tour"),
    ("", "Camille la Naine est sans connaissance : son tour est perdu"),
])
def test_R000_41_knocked_out_turn_agrees(genre: str, title: str) -> None:
    result, woke = wake_turn(_camille(genre), 1, FixedSource([]))
    assert not woke and result.title == title  # type: ignore[union-attr]


def test_identifiers_become_words() -> None:
    assert humanize("tete") == "tête" and humanize("bras_gauche") == "bras gauche"
    assert display_name("camille_la_naine") == "Camille la Naine"
    assert action_label("attack") == "attaque" and action_label("combat:suivant") == "tour suivant"
    assert action_label("sante") == "santé à la main"
    assert action_label("regle:concentration") == "règle : concentration"


def test_undo_shows_pools_not_dicts() -> None:
    change = {"character": "Gobelin 1", "path": ["pv"], "pool": True,
              "before": {"max": 12, "actuels": 8}, "after": 12}
    assert change_text(change) == "Gobelin 1 : PV 8/12 → 12/12"
    state = {"character": "Nain A", "path": ["etat", "assomme"], "pool": False, "before": 13,
             "after": 0}
    assert change_text(state, SYSTEM) == "Nain A : dégâts d'assommement 13 → 0"  # the form's label


def test_suggestions_give_names_as_written() -> None:
    from jdr.names import unknown_name_message

    message = unknown_name_message("personnage", "camile la naine", ["Camille la Naine", "Orque 3"])
    assert message.endswith("vouliez-vous dire : Camille la Naine ?")
