"""R003.04 / A003.13: the prédilection is the player's choice after seeing the dice, inside one
action: first whether to reroll (asked with the first roll shown; nobody to ask: no reroll),
then which result to keep (nobody to ask: the better one). Given in advance, nothing is asked.
The box is ticked in the same action: re-running the command never rerolls twice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from jdr.core.actions import commit, execute
from jdr.core.check import CheckResult
from jdr.core.contest import ContestResult
from jdr.core.results import Report
from jdr.core.system import Loaded, Question
from jdr.core.usecase import FileWorkspace
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.cyd import SYSTEM
from jdr.systems.cyd.sheet import CydSheet
from systems.cyd.cyd_support import reload, request, roll, rules, texts

Make = Callable[..., Loaded[CydSheet]]


class Player:
    """A chooser that answers in turn and remembers every question."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.questions: list[Question] = []

    def __call__(self, question: Question) -> str:
        self.questions.append(question)
        return self.answers.pop(0) if self.answers else question.default


def ask_roll(actor: Loaded[CydSheet], faces: Sequence[int], player: Player,
             opts: dict[str, str] | None = None, **kw: Any) -> Any:
    kw.setdefault("die", "d10")
    return roll(actor, "tir", list(faces), opts, chooser=player, **kw)


def test_R003_04_asked_after_the_first_roll_default_is_no(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    player = Player()  # takes every default
    outcome = ask_roll(doc, [3], player, threshold="15")
    assert outcome.changes[0].path == ("echecs", "tir")  # failed, no reroll, no box ticked
    (question,) = player.questions
    assert question.choices == ("non", "oui") and question.default == "non"
    assert "prédilection « tir »" in question.prompt
    shown = question.shown
    assert isinstance(shown, CheckResult) and shown.total == 8 + 3 and shown.success is False


def test_R003_04_reroll_then_keep_either_result(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    player = Player("oui", "1")
    outcome = ask_roll(doc, [3, 9], player, threshold="15")
    result = outcome.result
    assert isinstance(result, CheckResult)
    assert result.total == 8 + 3 and [(d.face, d.kept) for d in result.dice] == [(3, True),
                                                                                 (9, False)]
    _, keep = player.questions
    assert keep.choices == ("1", "2") and keep.default == "2"  # the better one
    both = keep.shown
    assert isinstance(both, Report) and [p.total for p in both.parts
                                         if isinstance(p, CheckResult)] == [11, 17]
    assert ("predilections", "tir") in [c.path for c in outcome.changes]
    assert "R003.04" in rules(result.notes)
    assert any("résultat n° 1 est gardé" in n for n in texts(result.notes))


def test_R003_04_keep_default_is_the_better_result(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    result = ask_roll(doc, [11, 4], Player("oui"), die="d20", threshold="10").result
    assert isinstance(result, CheckResult)
    assert result.natural == 4 and result.success is True  # 11 is a dramatic failure


@pytest.mark.parametrize(("boxes", "opts"), [
    ({"tir": "utilisee"}, {}),            # used this session
    ({}, {}),                             # no prédilection for the skill
    ({"tir": "disponible"}, {"predilection": "non"}),  # declined in advance
])
def test_R003_04_not_asked_when_it_cannot_or_need_not_be(make_sheet: Make,
                                                       boxes: dict[str, str],
                                                       opts: dict[str, str]) -> None:
    doc = make_sheet(predilections=boxes or None)
    player = Player("oui")
    outcome = ask_roll(doc, [3], player, opts, threshold="5")
    assert player.questions == [] and outcome.changes == ()


def test_R003_04_given_in_advance_nothing_asked(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    player = Player()
    result = ask_roll(doc, [3, 9], player, {"predilection": "oui"}, choice=1).result
    assert player.questions == [] and isinstance(result, CheckResult) and result.total == 11
    first = ask_roll(doc, [9], player, {"premier_jet": "3"}, choice=2).result  # only the reroll
    assert isinstance(first, CheckResult) and first.total == 17 and player.questions == []
    asked = ask_roll(doc, [9], Player("1"), {"premier_jet": "3"}).result  # keep still asked
    assert isinstance(asked, CheckResult) and asked.total == 11


def test_R003_04_opposed_asked_after_both_dice(make_sheet: Make) -> None:
    a = make_sheet("A", predilections={"tir": "disponible"})
    b = make_sheet("B", competences={"tir": 3})
    player = Player("oui")
    result = ask_roll(a, [2, 9, 10], player, opponent=b).result  # A 10 vs B 17; reroll 18
    assert isinstance(result, ContestResult) and result.winner == "actor"
    shown = player.questions[0].shown
    assert isinstance(shown, ContestResult) and shown.winner == "opponent"
    assert result.opponent.total == 17 and result.actor.total == 18


def test_R003_04_a_bad_answer_is_one_french_line(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    with pytest.raises(RuleError, match="choisir parmi non, oui"):
        ask_roll(doc, [3], Player("peut-être"))


def _params(path: Path) -> dict[str, str]:
    return {"personnage": str(path), "competence": "tir", "seuil": "5", "de": "d10"}


def test_R003_04_rerunning_never_rerolls_twice(make_sheet: Make) -> None:
    """The box is ticked in the action that rerolled: the next run cannot reroll."""
    doc = make_sheet(predilections={"tir": "disponible"})
    ws = FileWorkspace()
    player = Player("oui", "2")
    done = execute(ws, "check", _params(doc.doc.path), FixedSource([1, 6]), chooser=player)
    commit(ws, done)
    assert reload(doc).model.boxes == {"tir": "utilisee"}
    assert done.rec.changes[0]["after"] == "utilisee"
    again = Player("oui", "2")
    second = execute(ws, "check", _params(doc.doc.path), FixedSource([1]), chooser=again)
    assert again.questions == [] and second.result.total == 9
    with pytest.raises(RuleError, match="déjà utilisée"):
        execute(ws, "check", {**_params(doc.doc.path), "opt": ["predilection=oui"]},
                FixedSource([1, 6]))


def _outcomes(doc: Loaded[CydSheet], answer: str, die: str) -> dict[tuple[int, bool], Fraction]:
    def run(src: Any) -> tuple[int, bool]:
        outcome = SYSTEM.check(request(doc, "tir", {"retente": "ignorer"}, threshold="15",
                                       die=die, chooser=Player(answer)), src)
        assert isinstance(outcome.result, CheckResult)
        return outcome.result.total, bool(outcome.result.success)
    return enumerate_outcomes(run)


@pytest.mark.parametrize("die", ["d10", "d20"])
def test_R003_04_exact_odds_equal_the_asked_reroll(make_sheet: Make, die: str) -> None:
    """Answering yes (and keeping the better) is what `--opt predilection=oui` odds count;
    answering no is the plain test."""
    doc = make_sheet(predilections={"tir": "disponible"})
    for answer, opts in (("oui", {"predilection": "oui"}), ("non", {})):
        rolled = _outcomes(doc, answer, die)
        odds = SYSTEM.odds(request(doc, "tir", opts, action="odds", threshold="15", die=die))
        assert not isinstance(odds, Report)
        assert odds.success == sum(p for (_, ok), p in rolled.items() if ok)
        totals: dict[int, Fraction] = {}
        for (total, _), p in rolled.items():
            totals[total] = totals.get(total, Fraction(0)) + p
        assert dict(odds.distribution) == totals
