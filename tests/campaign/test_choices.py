"""A roll waiting for a choice, in the campaign itself (`jdr.campaign.choices`): what the CLI
and the encounter see of it — nothing else on its characters, its defaults at the next turn,
no undo across it — and a sheet changed under it (SQLite: the API tests run both databases)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jdr.campaign import encounter
from jdr.campaign.choices import Request, answer, rows, start
from jdr.campaign.journal import undo
from jdr.campaign.store import Campaign
from jdr.campaign.workspace import CampaignWorkspace
from jdr.core.actions import commit, execute
from jdr.core.choices import Waiting, scripted
from jdr.core.sheet import SheetDocument
from jdr.core.usecase import Recording
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from sheets_data import ELFE_YAML, NAIN_YAML

EXPERT = {"personnage": "Nain A", "competence": "negociation", "seuil": "10"}


@pytest.fixture
def campaign(tmp_path: Path) -> Any:
    camp = Campaign.create(str(tmp_path / "essai.jdr"), "Essai", "cydonia")
    with camp.transaction() as tx:
        for text in (NAIN_YAML, ELFE_YAML):
            tx.add(SheetDocument.from_text(text, Path("x.yaml")))
    yield camp
    camp.dispose()


def _wait(camp: Any, faces: list[int], params: dict[str, Any] = EXPERT) -> int:
    request = Request("check", params, faces=faces)
    with camp.transaction() as tx:
        ws = CampaignWorkspace(tx)
        source = Recording(FixedSource(faces))
        with pytest.raises(Waiting) as waiting:
            execute(ws, "check", params, source, chooser=scripted([]), system=camp.system)
        entry, _ = start(tx, request, waiting.value, source.rolls, ["Nain A"], "Lise", "Nain A")
        return entry.seq


def _play(camp: Any, kind: str, params: dict[str, Any], faces: list[int]) -> int | None:
    with camp.transaction() as tx:
        ws = CampaignWorkspace(tx, force=True)
        return commit(ws, execute(ws, kind, params, Recording(FixedSource(faces)),
                                  system=camp.system))


def test_nothing_else_on_its_characters_and_the_next_turn_settles(campaign: Any) -> None:
    with campaign.transaction() as tx:
        encounter.start(tx, ["Nain A", "Elfe B"], Recording(FixedSource([5, 5, 3, 4])))
    _wait(campaign, [3, 8])
    with pytest.raises(RuleError, match="un jet de Nain A attend un choix"):
        _play(campaign, "attack", {"attaquant": "Elfe B", "defenseur": "Nain A"}, [9, 2, 4, 5])
    with pytest.raises(RuleError, match="attend un choix"):
        _play(campaign, "check", {"personnage": "Nain A", "competence": "hache"}, [4])
    with pytest.raises(RuleError, match="attend un choix"):  # the MJ's health by hand too
        _play(campaign, "sante", {"personnage": "Nain A", "valeur": "-3"}, [])
    _play(campaign, "check", {"personnage": "Elfe B", "competence": "lame"}, [4])  # free
    with campaign.transaction() as tx:
        encounter.next_turn(tx, Recording(FixedSource([])))
        assert rows(tx) == []
        checks = [e for e in tx.entries() if e.action == "check"]
    assert [c.result["natural"] for c in checks] == [4, 8]  # the default: the better die


def test_no_undo_across_a_waiting_roll(campaign: Any) -> None:
    _play(campaign, "sante", {"personnage": "Nain A", "valeur": "-5"}, [])
    _wait(campaign, [3, 8])
    with campaign.transaction() as tx, pytest.raises(RuleError, match="attend un choix"):
        undo(tx)


def test_a_sheet_changed_under_it_is_refused_then_abandoned(campaign: Any) -> None:
    seq = _wait(campaign, [3, 8])
    with campaign.transaction() as tx:  # by hand, outside the rules: no longer an expert
        doc = tx.document("Nain A")
        doc.set(("expertes",), [])
        tx.save([doc])
    with campaign.transaction() as tx, pytest.raises(RuleError, match="moins de dés"):
        (row,) = rows(tx)
        answer(tx, row, "1")
    from jdr.campaign.choices import settle

    with campaign.transaction() as tx:
        (row,) = rows(tx)
        note = settle(tx, row)
        assert note.action == "attente" and f"n° {seq} abandonné" in note.text
        assert rows(tx) == [] and not [e for e in tx.entries() if e.action == "check"]
