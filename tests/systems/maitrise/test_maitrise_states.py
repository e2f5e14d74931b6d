"""States (D-001.30, D-ALL.02) and the R001.12 defect of issue 10: who cannot act is refused
(directly, through `core.actions.execute`, and through the CLI), death is kept on the sheet, an
opponent who cannot act rolls nothing; `--seuil` adds to the 10 of a characteristic roll."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from maitrise_support import apply, attack, reload, roll

from helpers import cli, golden, ok
from jdr.core.actions import commit, execute
from jdr.core.check import Check
from jdr.core.contest import Contest
from jdr.core.system import CheckRequest, GroupRequest
from jdr.core.usecase import FileWorkspace
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.render import render
from jdr.systems.maitrise import SYSTEM
from jdr.systems.maitrise.checks import request_checks

DOWN_LINE = "ne peut pas agir : hors de combat (0 pv) (D-001.30, D-ALL.02)"
DEAD_LINE = "ne peut pas agir : sans vie (décision du MJ) (D-001.30, D-ALL.02)"


def _yaml(name: str, pv: int = 20, extra: str = "", adresse: int = 12) -> str:
    return (f"systeme: maitrise\nnom: {name}\ncaracteristiques: {{intelligence: 10, adresse: "
            f"{adresse}, force: 14, charisme: 9, volonte: 10, constitution: 12}}\n"
            "competences: {epee: 25, discretion: 30}\narmes: [{nom: Épée, competence: epee}]\n"
            f"pv: {{max: 20, actuels: {pv}}}\n{extra}")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, pv, extra in (("debout", 20, ""), ("tombee", 0, ""),
                            ("morte", 5, "etat: {mort: true}\n")):
        path = tmp_path / f"{name}.yaml"
        path.write_text(_yaml(name.capitalize(), pv, extra), encoding="utf-8")
        out[name] = path
    return out


# ------------------------------------------------------------------ D-001.30 / D-ALL.02


def test_D_001_30_death_is_kept_on_the_sheet(sheet: Any) -> None:
    a = sheet(caracs={"force": 20})
    d = sheet("Cible", armes=[], pv={"max": 20, "actuels": 10})
    data, changes = attack(a, d, [12, 2, 6], defence="esquive", opts={"mort": "oui"})
    assert (data["state_before"], data["state"]) == ("debout", "mort")
    assert {c.path: c.value for c in changes} == {("pv",): 0, ("etat", "mort"): True}
    apply(changes)
    dead = reload(d)
    assert SYSTEM.state(dead) == "mort" and dead.model.dead
    why = SYSTEM.incapacity(dead)
    assert why is not None and why.text == "sans vie (décision du MJ)" and "D-001.30" in why.rule
    assert "sans vie (décision du MJ)" in render(SYSTEM.show(dead))


def test_D_001_30_a_dead_character_stays_dead_when_hit_again(sheet: Any) -> None:
    d = sheet("Cible", armes=[], pv={"max": 20, "actuels": 0}, etat={"mort": True})
    data, changes = attack(sheet(), d, [12, 3])
    assert (data["state_before"], data["state"]) == ("mort", "mort")
    assert [c.path for c in changes] == [("pv",)]  # no second etat.mort
    assert any("Cible est sans vie (décision du MJ) : aucune défense" in n["text"]
               for n in data["notes"])


def test_D_001_30_mort_is_the_mj_s_call_even_with_hit_points(sheet: Any) -> None:
    d = sheet("Cible", pv={"max": 20, "actuels": 12}, etat={"mort": True})
    assert SYSTEM.state(d) == "mort"
    health = SYSTEM.health(d)
    assert health is not None and (health.after, health.max) == (12, 20)
    assert SYSTEM.conditions(d) == ()
    with pytest.raises(RuleError) as caught:
        roll(d, "epee", [12])
    assert caught.value.message == f"Cible {DEAD_LINE}"


@pytest.mark.parametrize(("who", "line"), [("tombee", DOWN_LINE), ("morte", DEAD_LINE)])
def test_D_ALL_02_refused_through_execute(files: dict[str, Path], who: str, line: str) -> None:
    actor, other = str(files[who]), str(files["debout"])
    before = files[who].read_text(encoding="utf-8")
    cases: list[tuple[str, dict[str, Any]]] = [
        ("check", {"personnage": actor, "competence": "epee"}),
        ("check", {"personnage": actor, "competence": "esquive"}),
        ("attack", {"attaquant": actor, "defenseur": other}),
        ("regle", {"nom": "surprise", "personnages": [actor, other],
                   "opt": ["competence=discretion", "resistance=intelligence"]}),
    ]
    for kind, params in cases:
        with pytest.raises(RuleError) as caught:
            execute(FileWorkspace(), kind, params, FixedSource([12, 12, 3]))
        assert caught.value.message == f"{who.capitalize()} {line}"
    assert files[who].read_text(encoding="utf-8") == before


@pytest.mark.parametrize(("who", "line"), [("tombee", DOWN_LINE), ("morte", DEAD_LINE)])
def test_D_ALL_02_refused_through_the_cli(files: dict[str, Path], who: str, line: str) -> None:
    before = files[who].read_text(encoding="utf-8")
    for args in (("check", files[who], "epee", "--des", "12"),
                 ("check", files[who], "force", "--des", "12"),
                 ("attack", files[who], files["debout"], "--des", "12,3,4")):
        run = cli(*args)
        assert run.code == 2 and run.out == ""
        assert run.err.strip().endswith(f"{who.capitalize()} {line}")
        assert len(run.err.strip().splitlines()) == 1
    assert files[who].read_text(encoding="utf-8") == before


def test_D_ALL_02_odds_and_sheets_stay_open_to_whoever_cannot_act(files: dict[str, Path]
                                                                  ) -> None:
    ok("odds", files["tombee"], "epee")
    ok("sheet", "show", files["morte"])


def test_D_ALL_02_an_opponent_who_cannot_act_rolls_nothing(sheet: Any) -> None:
    a, down = sheet("A", skills={"epee": 30}), sheet("B", pv={"max": 20, "actuels": 0})
    won = roll(a, "epee", [12], opponent=down)  # one die only
    assert won["winner"] == "actor" and won["opponent"]["dice"] == []
    assert won["opponent"]["notes"][0] == {"text": "B ne peut pas agir : hors de combat (0 pv)",
                                           "rule": "D-ALL.02"}
    assert roll(a, "epee", [3], opponent=down)["winner"] == "nobody"
    built = request_checks(CheckRequest(a, "epee", opponent=down), SYSTEM.config)
    assert isinstance(built, Contest)
    rolled = enumerate_outcomes(lambda src: built.roll(src).winner)
    odds = built.odds()
    assert rolled == {"actor": Fraction(13, 20), "nobody": Fraction(7, 20)}
    assert odds.success == Fraction(13, 20) and odds.nobody == Fraction(7, 20)
    assert odds.opponent_wins == 0


def test_D_ALL_02_initiative_and_encounter_hooks(sheet: Any) -> None:
    down = sheet("Tombée", pv={"max": 20, "actuels": 0})
    dead = sheet("Morte", etat={"mort": True})
    assert [SYSTEM.state(s) for s in (sheet(), down, dead)] == ["debout", "hors_de_combat",
                                                               "mort"]
    outcome = SYSTEM.initiative(GroupRequest((down, dead)), FixedSource([4, 9]))
    text = render(outcome.result)
    assert "Tombée est hors de combat (0 pv) : pas de tour" in text  # no genre: neutral wording
    assert "Morte est sans vie (décision du MJ) : pas de tour" in text


# ------------------------------------------------------------------ R001.12 (issue 10 defect)


@pytest.mark.parametrize(("seuil", "needed"), [(None, 10), ("5", 15), ("0", 10), ("-4", 6)])
def test_R001_12_seuil_adds_to_the_characteristic_margin(sheet: Any, seuil: str | None,
                                                         needed: int) -> None:
    """Adresse 12: margin floor((d20 + 12) / 2) ≥ 10 + N, i.e. d20 ≥ 2 × (10 + N) − 12."""
    doc = sheet(caracs={"adresse": 12})
    lowest = max(2, 2 * needed - 12)
    for face in range(2, 20):
        data = roll(doc, "", [face], carac="adresse", threshold=seuil)
        assert data["threshold"] == needed
        assert data["success"] is (face >= lowest), face
    odds = SYSTEM.odds(CheckRequest(doc, "adresse", threshold=seuil))
    assert odds.success == Fraction(21 - max(lowest, 2) if lowest <= 20 else 1, 20)
    assert odds.threshold == needed


def test_R001_12_seuil_on_a_dodge_and_its_note(sheet: Any) -> None:
    doc = sheet(caracs={"adresse": 12})
    data = roll(doc, "esquive", [17], threshold="5")  # (17 + 12) / 2 = 14 < 15
    assert data["success"] is False and data["threshold"] == 15
    assert data["notes"] == [
        {"text": "marge minimale 10 des jets de caractéristique +5 (--seuil) = 15",
         "rule": "R001.12"},
        {"text": "marge 14 < 15 requise", "rule": "R001.12"}]
    assert roll(doc, "esquive", [18], threshold="5")["success"] is True


def test_R001_12_seuil_stays_a_minimum_margin_on_a_skill(sheet: Any) -> None:
    doc = sheet(skills={"epee": 30})
    data = roll(doc, "epee", [10], threshold="20")  # 40 / 2 = 20: the die test and 20 of margin
    assert data["success"] is True and data["threshold"] == 20


def test_R001_12_odds_are_the_roll(sheet: Any) -> None:
    doc = sheet(caracs={"volonte": 9}, faces_critiques={})
    built = request_checks(CheckRequest(doc, "", carac="volonte", threshold="3"), SYSTEM.config)
    assert isinstance(built, Check)
    rolled = enumerate_outcomes(lambda src: bool(built.roll(src).success))
    assert rolled[True] == built.odds().success == Fraction(4, 20)  # margin 13: d20 ≥ 17


def test_R001_12_through_execute_and_the_cli(files: dict[str, Path]) -> None:
    path = str(files["debout"])
    done = execute(FileWorkspace(), "check", {"personnage": path, "competence": "adresse",
                                              "seuil": "5"}, FixedSource([17]))
    assert done.result.threshold == 15 and done.result.success is False
    assert commit(FileWorkspace(), done) is None
    run = ok("check", files["debout"], "adresse", "--seuil", "5", "--des", "17")
    assert "contre marge minimale 15" in run.out and "ÉCHEC" in run.out
    for suffix, extra in (("txt", []), ("forum.txt", ["--format", "forum"]), ("json", ["--json"])):
        golden(f"maitrise/check_carac_seuil.{suffix}",
               ok("check", files["debout"], "adresse", "--seuil", "5", "--des", "18", *extra).out)
