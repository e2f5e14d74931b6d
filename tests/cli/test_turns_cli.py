"""The turn rules from the command line, in a Cydonia campaign (a SQLite file): a declaration
counts once per turn (R000.36: `jdr regle concentration` twice in round 1 was « 2 tour(s) : +4 »),
one attack per turn, in turn; `--mj` overrides, and the override is journaled."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import cli, ok
from sheets_data import ELFE_YAML, NAIN_YAML


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JDR_CAMPAGNE", raising=False)


def _campaign(tmp_path: Path) -> str:
    target = str(tmp_path / "Marche.jdr")
    (tmp_path / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    (tmp_path / "elfe.yaml").write_text(ELFE_YAML, encoding="utf-8")
    ok("campagne", "new", "Marche", "--systeme", "cydonia")
    ok("campagne", "import", str(tmp_path / "nain.yaml"), str(tmp_path / "elfe.yaml"),
       "--campagne", target)
    ok("combat", "start", "Nain A", "Elfe B", "--campagne", target)  # Elfe B 9, Nain A 7
    return target


def test_R000_36_concentration_twice_in_a_turn_is_refused(tmp_path: Path) -> None:
    target = _campaign(tmp_path)
    first = ok("regle", "concentration", "Elfe B", "--campagne", target)
    assert "1 tour(s) : +2" in first.out
    again = cli("regle", "concentration", "Elfe B", "--campagne", target)
    assert again.code == 2
    assert "la concentration compte une fois par tour" in again.err and "R000.36" in again.err
    assert "+4" not in again.out
    ok("combat", "suivant", "--campagne", target)
    ok("combat", "suivant", "--campagne", target)          # round 2: Elfe B's turn again
    assert "2 tour(s) : +4" in ok("regle", "concentration", "Elfe B", "--campagne", target).out


def test_out_of_turn_and_second_attack_refused_unless_the_mj_overrides(tmp_path: Path) -> None:
    target = _campaign(tmp_path)
    out_of_turn = cli("attack", "Nain A", "Elfe B", "--campagne", target, "--seed", "1")
    assert out_of_turn.code == 2
    assert "ce n'est pas le tour de Nain A mais celui d'Elfe B" in out_of_turn.err
    ok("attack", "Elfe B", "Nain A", "--campagne", target, "--seed", "2")
    second = cli("attack", "Elfe B", "Nain A", "--campagne", target, "--seed", "3")
    assert second.code == 2 and "Elfe B a déjà agi ce tour (une attaque)" in second.err
    forced = ok("attack", "Elfe B", "Nain A", "--campagne", target, "--seed", "3", "--mj")
    assert "dérogation du MJ : Elfe B a déjà agi ce tour" in forced.out
    journal = ok("journal", "--campagne", target, "--json").json()
    assert journal[-1]["params"]["derogation"].startswith("dérogation du MJ")
