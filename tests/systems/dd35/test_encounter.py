"""dd35 initiative across rounds in a campaign encounter (SQLite in tmp_path): R002.13 — +5 to
whoever did not act, the order re-sorted (A002.05 ties), the combat over when nobody acts,
newcomers join; a character who cannot act has its turn passed (D-ALL.02)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jdr.campaign import encounter
from jdr.campaign.store import Campaign
from jdr.campaign.workspace import CampaignWorkspace
from jdr.core.actions import commit, execute
from jdr.core.encounter import Combatant, EncounterState
from jdr.core.results import EncounterView, Notes
from jdr.core.sheet import SheetDocument
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.dd35.initiative import end_round


def _sheet(name: str, dex: int = 10, hp: int | None = None, etat: str = "") -> SheetDocument:
    text = (f"systeme: dd35\nnom: {name}\ncaracteristiques: {{force: 14, dexterite: {dex}, "
            "constitution: 10, intelligence: 10, sagesse: 10, charisme: 10}\n"
            "classes: {guerrier: 3}\narmes:\n  - {nom: Épée, degats: 1d8}\n")
    if hp is not None:
        text += f"pv: {{max: 20, actuels: {hp}}}\n"
    if etat:
        text += f"etat: {{{etat}}}\n"
    return SheetDocument.from_text(text, Path(f"{name}.yaml"))


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[Campaign]:
    """Aldric (Dex +2), the issue's Ogre at −1 HP, Brunhild (surprised by an ambush)."""
    made = Campaign.create(str(tmp_path / "essai.jdr"), "Col", "dd35")
    with made.transaction() as tx:
        tx.add(_sheet("Aldric", 14))
        tx.add(_sheet("Ogre", 10, -1))
        tx.add(_sheet("Brunhild", etat="surpris: true"))
        tx.add(_sheet("Cassia", 10))
    yield made
    made.dispose()


def start(campaign: Campaign, names: list[str], *faces: int) -> EncounterView:
    with campaign.transaction() as tx:
        view, _ = encounter.start(tx, names, FixedSource(faces))
    return view


def step(campaign: Campaign, *faces: int) -> EncounterView:
    with campaign.transaction() as tx:
        view, _ = encounter.next_turn(tx, FixedSource(faces))
    return view


def act(campaign: Campaign, kind: str, params: dict[str, Any], *faces: int) -> Any:
    with campaign.transaction() as tx:
        ws = CampaignWorkspace(tx)
        done = execute(ws, kind, params, FixedSource(faces))
        commit(ws, done)
        return done.result


def scores(view: EncounterView) -> list[tuple[str, int]]:
    return [(row.name, row.score) for row in view.order]


def sheet_etat(campaign: Campaign, name: str) -> tuple[bool, bool]:
    with campaign.reading() as tx:
        etat = tx.load([name])[1][0].model.etat
    return etat.attend, etat.surpris


def test_R002_13_ogre_hors_de_combat_is_passed_and_gains_5(campaign: Campaign) -> None:
    view = start(campaign, ["Aldric", "Ogre", "Brunhild"], 15, 12, 10)
    assert scores(view) == [("Aldric", 17), ("Ogre", 12), ("Brunhild", 10)]
    assert [row.state for row in view.order] == ["debout", "hors_de_combat", "debout"]
    assert view.order[2].conditions == ("au dépourvu (surprise)",)
    with pytest.raises(RuleError, match="Ogre ne peut pas agir"):
        act(campaign, "attack", {"attaquant": "Ogre", "defenseur": "Aldric"}, 20, 8, 8, 8, 8)
    view = step(campaign)                     # the Ogre's turn is passed
    assert view.current == "Brunhild"
    assert any("Ogre ne peut pas agir" in n.text and n.rule == "D-ALL.02" for n in view.notes)
    view = step(campaign)                     # round 2: Ogre 12 + 5 = 17, behind Aldric (Dex)
    assert (view.round, view.current) == (2, "Aldric")
    assert scores(view) == [("Aldric", 17), ("Ogre", 17), ("Brunhild", 10)]
    event = view.events[0]
    assert isinstance(event, Notes) and event.rule == "R002.13"
    assert any("initiative 12 → 17" in line.text for line in event.lines)
    assert sheet_etat(campaign, "Brunhild") == (False, False)   # A002.21: first round only
    step(campaign)
    view = step(campaign)                     # round 3: the Ogre 22 leads, its turn passed
    assert scores(view)[0] == ("Ogre", 22) and view.current == "Aldric"


def test_R002_13_combat_ends_when_nobody_acts(campaign: Campaign) -> None:
    start(campaign, ["Aldric", "Ogre", "Brunhild"], 15, 12, 10)
    act(campaign, "regle", {"nom": "attendre", "personnages": ["Aldric"]})
    assert sheet_etat(campaign, "Aldric") == (True, False)
    step(campaign)
    act(campaign, "regle", {"nom": "attendre", "personnages": ["Brunhild"]})
    view = step(campaign)
    assert view.ended and view.current is None
    event = view.events[0]
    assert isinstance(event, Notes) and event.title == "Fin du combat"
    assert sheet_etat(campaign, "Aldric") == (False, False)


def test_E002_08_waiting_adds_5_and_A002_05_a_new_tie_rolls_off(campaign: Campaign) -> None:
    start(campaign, ["Brunhild", "Cassia"], 15, 10)    # Brunhild 15, Cassia 10, same Dex
    step(campaign)
    act(campaign, "regle", {"nom": "attendre", "personnages": ["Cassia"]})
    view = step(campaign, 4, 11)                       # Cassia 15 = Brunhild 15: d20 4 / 11
    assert scores(view) == [("Cassia", 15), ("Brunhild", 15)]
    event = view.events[0]
    assert isinstance(event, Notes)
    assert any(line.rule == "A002.05" and "Brunhild 4" in line.text for line in event.lines)
    step(campaign)
    view = step(campaign)                              # both acted: the tie keeps its order
    assert scores(view) == [("Cassia", 15), ("Brunhild", 15)]


def test_R002_13_newcomer_joins_the_order(campaign: Campaign) -> None:
    start(campaign, ["Aldric", "Brunhild"], 15, 10)
    step(campaign)                                     # Brunhild's turn
    with campaign.transaction() as tx:                 # Cassia rolls 18: before Aldric, too late
        view, _ = encounter.join(tx, ["Cassia"], FixedSource([18]))
    assert scores(view) == [("Cassia", 18), ("Aldric", 17), ("Brunhild", 10)]
    assert view.current == "Brunhild"
    view = step(campaign)                              # no turn in round 1: no +5 for Cassia
    assert (view.round, view.current) == (2, "Cassia")
    assert scores(view) == [("Cassia", 18), ("Aldric", 17), ("Brunhild", 10)]


def test_A002_04_end_round_on_plain_state() -> None:
    """Joined during the ended round without a turn: neither acted nor idle, the combat goes on
    even if everyone else waited."""
    state = EncounterState(round=3, order=[Combatant("A", 15, acted=True, data={"tour": 2}),
                                           Combatant("N", 9, joined_round=2)])
    done = end_round(state, frozenset({"A"}), {}, FixedSource([]))
    assert not done.over and [(c.name, c.score) for c in state.order] == [("A", 20), ("N", 9)]
    state = EncounterState(round=3, order=[Combatant("A", 15, acted=True, data={"tour": 2}),
                                           Combatant("B", 9, acted=True,
                                                     data={"tour": 2, "sans_action": 2})])
    assert end_round(state, frozenset({"A"}), {}, FixedSource([])).over and state.ended
