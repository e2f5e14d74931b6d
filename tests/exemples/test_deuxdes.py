"""The example system (`exemples/deuxdes`, its own distribution, found through the `jdr.systems`
entry point): played in the CLI and in a campaign encounter with no line of jdr written for it;
and the declarations (`core.declare`) checked on every system's real sheets."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from helpers import cli, ok


def _sheets(tmp_path: Path) -> tuple[Path, Path]:
    aldo = tmp_path / "aldo.yaml"
    ok("sheet", "new", "deuxdes", "--sortie", aldo)
    brute = tmp_path / "brute.yaml"
    brute.write_text(aldo.read_text(encoding="utf-8").replace("nom: Aldo", "nom: Brute"),
                     encoding="utf-8")
    return aldo, brute


def test_example_is_found_by_its_entry_point() -> None:
    from jdr.core.registry import available

    assert "deuxdes" in available()
    assert "deuxdes" in ok("systems").out


def test_example_check_odds_and_attack_in_the_cli(tmp_path: Path) -> None:
    aldo, brute = _sheets(tmp_path)
    check = ok("check", aldo, "force", "--des", "4,5", "--json").json()
    assert check["total"] == 11 and check["success"] is True  # 4 + 5 + Force 2 ≥ 8 (D2-01)
    assert ok("check", aldo, "force", "--des", "1,1", "--json").json()["critical"] == "failure"
    odds = ok("odds", aldo, "adresse", "--json").json()
    # 2d6 + 1 ≥ 8 ⇔ 2d6 ≥ 7: 21/36 (a double 1 fails anyway, a double 6 succeeds anyway)
    assert Fraction(odds["success"]).limit_denominator(1000) == Fraction(21, 36)
    hit = ok("attack", aldo, brute, "--des", "6,3,4", "--json").json()
    assert hit["hit"] and hit["health"] == {"unit": "pv", "before": 10, "after": 2, "max": 10}
    assert "actuels: 2" in brute.read_text(encoding="utf-8")
    miss = cli("attack", aldo, brute, "--des", "1,2")
    assert miss.code == 0 and "actuels: 2" in brute.read_text(encoding="utf-8")


def test_example_in_a_campaign_encounter_with_undo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                   ) -> None:
    aldo, brute = _sheets(tmp_path)
    monkeypatch.chdir(tmp_path)
    ok("campagne", "new", "Essai", "--systeme", "deuxdes")
    ok("campagne", "import", aldo, brute)
    ok("combat", "start", "Aldo", "Brute")
    shown = ok("combat", "--json").json()
    current = shown["current"]
    other = "Brute" if current == "Aldo" else "Aldo"
    ok("attack", current, other, "--des", "6,6,6")
    after = ok("combat", "--json").json()
    row = next(r for r in after["order"] if r["name"] == other)
    assert row["hit_points"]["current"] == 10 - (6 + 2 + 2)
    ok("annuler")
    row = next(r for r in ok("combat", "--json").json()["order"] if r["name"] == other)
    assert row["hit_points"]["current"] == 10
    ok("combat", "suivant")
    assert ok("combat", "--json").json()["current"] == other


def test_undo_restores_a_cyd_sheet_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed cyd action writes `echecs.tir`; `annuler` leaves no empty `echecs: {}` behind."""
    monkeypatch.chdir(tmp_path)
    ok("campagne", "new", "Essai", "--systeme", "cyd")
    ok("sheet", "new", "cyd", "--sortie", "r.yaml")
    ok("campagne", "import", "r.yaml")
    before = ok("campagne", "export", "Rôdeuse").out
    ok("check", "Rôdeuse", "tir", "--seuil", "30", "--des", "2", "--de", "d10")
    assert "echecs" in ok("campagne", "export", "Rôdeuse").out
    ok("annuler")
    assert ok("campagne", "export", "Rôdeuse").out == before


def test_dead_cyd_character_is_still_an_opponent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    """docs/campagne.md: one who cannot act stays the opponent of an opposed roll (passive,
    A003.03)."""
    monkeypatch.chdir(tmp_path)
    ok("campagne", "new", "Essai", "--systeme", "cyd")
    ok("sheet", "new", "cyd", "--sortie", "r.yaml")
    ok("campagne", "import", "r.yaml", "--nombre", "2")
    ok("sante", "Rôdeuse 2", "0")
    run = ok("check", "Rôdeuse 1", "tir", "--contre", "Rôdeuse 2", "--des", "7", "--de", "d10")
    assert "opposition passive" in run.out


# ------------------------------------------------------------------ the declarations


SYSTEMS = ("cydonia", "maitrise", "dd35", "cyd", "felins", "deuxdes")


def _loaded(system_id: str) -> tuple[object, object]:
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument
    from jdr.core.usecase import load

    system = get_system(system_id)
    return system, load(system, SheetDocument.from_text(system.template(), Path("x.yaml")))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_choices_come_from_the_rules_and_the_sheet(system_id: str) -> None:
    from jdr.core.declare import ACTIONS, rules_of
    from jdr.core.system import CheckRequest

    system, sheet = _loaded(system_id)
    skills = [c.value for c in system.check_choices(sheet)]  # type: ignore[attr-defined]
    assert skills and "hit_points" not in skills and len(set(skills)) == len(skills)
    from jdr.errors import RuleError

    for skill in skills:  # every offered choice is one the rules know: odds, or an option asked
        try:
            system.odds(CheckRequest(sheet, skill))  # type: ignore[attr-defined]
        except RuleError as exc:
            assert "--opt" in exc.message, (skill, exc.message)
    assert set(ACTIONS["check"].names) >= {"personnage", "competence", "seuil", "contre"}
    rules = [name for name, _ in rules_of(system)]  # type: ignore[arg-type]
    assert not set(rules) & {"check", "odds", "attack", "xp", "initiative", "duel", "session"}


def test_cydonia_defences_have_no_parade_and_felins_none() -> None:
    cydonia, nain = _loaded("cydonia")
    defences = [c.value for c in cydonia.defence_choices(nain, nain, None)]  # type: ignore[attr-defined]
    assert "parade" not in defences and "esquive" in defences
    felins, chat = _loaded("felins")
    assert felins.defence_choices(chat, chat, None) == ()  # type: ignore[attr-defined]
    zones = [c.value for c in cydonia.aim_choices(nain, None)]  # type: ignore[attr-defined]
    assert "tete" in zones


@pytest.mark.parametrize("system_id", ["cydonia", "maitrise", "dd35", "felins", "deuxdes"])
def test_attack_odds_are_the_attack_roll(system_id: str) -> None:
    from jdr.core.system import AttackRequest

    system, sheet = _loaded(system_id)
    odds = system.attack_odds(AttackRequest(sheet, sheet))  # type: ignore[attr-defined,arg-type]
    assert 0 < odds.success < 1


def test_rights_and_health_by_hand_are_declared() -> None:
    from jdr.core.declare import ACTIONS, may_play

    assert ACTIONS["sante"].who == "mj" and not may_play("sante", False) and may_play("sante", True)
    assert ACTIONS["check"].acting({"personnage": "A", "contre": "B"}) == ["A"]
    assert ACTIONS["regle"].acting({"nom": "soin", "personnages": ["A", "B"]}) == ["A"]
    assert ACTIONS["session"].acting({"personnages": ["A", "B"]}) == ["A", "B"]
    assert not ACTIONS["odds"].journaled and not ACTIONS["attack_odds"].rolls
    cydonia, nain = _loaded("cydonia")
    felins, chat = _loaded("felins")
    assert cydonia.hand_health(nain).unit == "PV"  # type: ignore[attr-defined]
    assert felins.hand_health(chat).unit == "blessures"  # type: ignore[attr-defined]


def test_form_params_round_trip() -> None:
    from jdr.core.declare import params_from_form

    params = params_from_form("regle", {"role.0": ["Nain A"], "role.1": ["Elfe B"],
                                        "opt.pv": ["4"], "opt.vide": [""]})
    assert params == {"personnages": ["Nain A", "Elfe B"], "opt": {"pv": "4"}}
    assert params_from_form("check", {"personnage": ["A"], "competence": ["hache"], "contre": ["B"],
                                      "contre_competence": ["esquive"]}) == {
        "personnage": "A", "competence": "hache", "contre": "B:esquive"}
