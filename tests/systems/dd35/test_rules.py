"""The dd35 rules played by `jdr regle` (through the core's `execute`): a manoeuvre against
several opponents (R002.15), declaring not to act (R002.13), surprise (A002.21), the actions of
a turn (R002.14); exact odds checked against every face sequence of the production roll."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from jdr.core.actions import commit, execute
from jdr.core.check import Odds
from jdr.core.results import AttackReport, Notes, Report
from jdr.core.sheet import SheetDocument
from jdr.core.system import RuleRequest
from jdr.core.usecase import FileWorkspace, load, options
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.dd35 import SYSTEM
from jdr.systems.dd35.demo import document

SWORD = {"nom": "Épée longue", "degats": "1d8", "zone_critique": 19, "multiplicateur": 2}


@pytest.fixture
def party(tmp_path: Path) -> dict[str, Path]:
    """A Guerrier 6 (+6/+1: two attacks, Force +2) and three opponents."""
    made = {
        "auteur": document(tmp_path, "auteur", nom="Aldric", classes={"guerrier": 6},
                           abilities={"force": 14}, armes=[SWORD]),
        "t1": document(tmp_path, "t1", nom="Gobelin 1", sauvegardes={"vigueur": 3}),
        "t2": document(tmp_path, "t2", nom="Gobelin 2", classes={"guerrier": 5},
                       abilities={"constitution": 8, "sagesse": 14}),
        "t3": document(tmp_path, "t3", nom="Gobelin 3"),
    }
    return {k: Path(d.path) for k, d in made.items()}


def regle(name: str, who: list[Path], *faces: int, **opts: str) -> Any:
    done = execute(FileWorkspace(), "regle", {"nom": name, "personnages": [str(p) for p in who],
                                              "opt": opts}, FixedSource(faces))
    commit(FileWorkspace(), done)
    return done.result


def odds(name: str, who: list[Path], **opts: str) -> Odds:
    done = execute(FileWorkspace(), "regle", {"nom": name, "personnages": [str(p) for p in who],
                                              "opt": opts, "chances": True})
    assert isinstance(done.result, Odds)
    return done.result


def request(name: str, who: list[Path], **opts: str) -> RuleRequest[Any]:
    sheets = tuple(load(SYSTEM, SheetDocument.load(p)) for p in who)
    return RuleRequest(sheets, options(SYSTEM, name, opts))


# ------------------------------------------------------------------ manoeuvre (R002.15)


def test_R002_15_manoeuvre_against_two_opponents(party: dict[str, Path]) -> None:
    result = regle("manoeuvre", [party["auteur"], party["t1"], party["t2"]], 14, 15,
                   manoeuvre="Croc-en-jambe", sauvegarde="vigueur")
    assert isinstance(result, AttackReport)
    # placeholder DC 10 + 6 + 2 = 18 (A002.16); Gobelin 1: 14 + 3 = 17 fails; Gobelin 2: 15 − 1
    assert [(s.who, s.total, s.threshold, s.success) for s in result.steps] == [  # type: ignore[union-attr]
        ("Gobelin 1", 17, 18, False), ("Gobelin 2", 14, 18, False)]
    assert result.hit and result.defender == "Gobelin 1, Gobelin 2"
    assert any("Action Complexe" in n.text and n.rule == "R002.15" for n in result.notes)
    assert any(n.rule == "A002.16" for n in result.notes)


def test_R002_15_manoeuvre_limits(party: dict[str, Path]) -> None:
    three = [party["auteur"], party["t1"], party["t2"], party["t3"]]
    with pytest.raises(RuleError, match="n'a que 2 attaque"):
        regle("manoeuvre", three, 5, 5, 5, sauvegarde="reflexes", nd="15")
    with pytest.raises(RuleError, match="devient une Action Complexe"):
        regle("manoeuvre", three[:3], 5, 5, sauvegarde="reflexes", nd="15",
              tour="mouvement+simple")
    assert regle("manoeuvre", three[:3], 5, 5, sauvegarde="reflexes", nd="15",
                 tour="complexe+pas").hit
    with pytest.raises(RuleError, match="nom donné deux fois"):
        regle("manoeuvre", [party["auteur"], party["auteur"]], 5, sauvegarde="reflexes")
    with pytest.raises(RuleError, match="sauvegarde=reflexes"):
        regle("manoeuvre", three[:2], 5)


def test_R002_15_manoeuvre_odds_are_exact(party: dict[str, Path]) -> None:
    who = [party["auteur"], party["t1"], party["t2"]]
    opts = {"sauvegarde": "vigueur", "nd": "16"}
    got = odds("manoeuvre", who, **opts)
    req = request("manoeuvre", who, **opts)

    def affected(src: Any) -> int:
        report = SYSTEM.rule("manoeuvre", req, src).result
        assert isinstance(report, AttackReport)
        return sum(1 for s in report.steps if not s.success)

    exact = enumerate_outcomes(affected)
    assert dict(got.distribution) == {k: p for k, p in exact.items() if p}
    assert got.success == 1 - exact.get(0, Fraction(0))
    # Gobelin 1 saves on 13+ (affected 12/20), Gobelin 2 (Con −1) on 17+ (affected 16/20)
    assert [p for _, _, p in got.extra] == [Fraction(12, 20), Fraction(16, 20),
                                            Fraction(12 * 16, 400)]


# ------------------------------------------------------------------ attendre (R002.13)


def test_R002_13_attendre_is_written_on_the_sheet(party: dict[str, Path]) -> None:
    result = regle("attendre", [party["t1"]])
    assert isinstance(result, Notes) and result.rule == "R002.13"
    assert "attend: true" in party["t1"].read_text(encoding="utf-8")
    with pytest.raises(RuleError, match="ne lance pas de dés"):
        odds("attendre", [party["t1"]])
    with pytest.raises(RuleError, match="1 personnage"):
        regle("attendre", [party["t1"], party["t2"]])


# ------------------------------------------------------------------ surprise (A002.21)


def test_A002_21_surprise_against_passive_perception(party: dict[str, Path]) -> None:
    # Aldric's attack roll +8 (BAB 6, Force +2); Passive Perception: Gobelin 1 11, Gobelin 2 17
    who = [party["auteur"], party["t1"], party["t2"]]
    result = regle("surprise", who, 3)            # 3 + 8 = 11: equals Gobelin 1's 11
    assert isinstance(result, Report)
    assert [getattr(p, "winner", None) for p in result.parts] == ["actor", "opponent"]
    assert "surpris: true" in party["t1"].read_text(encoding="utf-8")
    assert "surpris" not in party["t2"].read_text(encoding="utf-8")
    by_ability = regle("surprise", who, 20, jet="dexterite")   # 20 + 0 beats both
    assert [getattr(p, "winner", None) for p in by_ability.parts] == ["actor", "actor"]
    with pytest.raises(RuleError, match="--opt jet=nage"):
        regle("surprise", who, 5, jet="nage")


def test_A002_21_surprise_odds_are_exact(party: dict[str, Path]) -> None:
    who = [party["auteur"], party["t1"], party["t2"]]
    got = odds("surprise", who)
    req = request("surprise", who)

    def surprised(src: Any) -> int:
        report = SYSTEM.rule("surprise", req, src).result
        assert isinstance(report, Report)
        return sum(1 for p in report.parts if getattr(p, "winner", None) == "actor")

    exact = enumerate_outcomes(surprised)
    # one roll against 11 and 17: natural 3+ and 9+ (equal totals surprise)
    assert exact == {0: Fraction(2, 20), 1: Fraction(6, 20), 2: Fraction(12, 20)}
    assert dict(got.distribution) == exact
    assert got.success == Fraction(18, 20)
    assert [p for _, _, p in got.extra] == [Fraction(18, 20), Fraction(12, 20), Fraction(12, 20)]


# ------------------------------------------------------------------ tour (R002.14)


def test_R002_14_tour_rule(party: dict[str, Path]) -> None:
    legal = regle("tour", [party["auteur"]], actions="simple+pas")
    assert isinstance(legal, Notes)
    assert [line.rule for line in legal.lines] == ["R002.14", "E002.07"]
    assert "1,5 m (1 case)" in legal.lines[1].text
    for declared, why in (("complexe+mouvement", "aucune autre action"),
                          ("mouvement+pas", "s'est déplacé"),
                          ("simple+simple", "une seule Action Simple")):
        with pytest.raises(RuleError, match=why):
            regle("tour", [party["auteur"]], actions=declared)
    with pytest.raises(RuleError, match="terrain difficile"):
        regle("tour", [party["auteur"]], actions="simple+pas", terrain_difficile="oui")
    with pytest.raises(RuleError, match="actions="):
        regle("tour", [party["auteur"]])
