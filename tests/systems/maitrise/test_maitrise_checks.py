"""Resolution: the d20 check, margins, characteristic rolls, contests, odds, errors."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from maitrise_support import attack, options, reload, roll

from jdr.core.check import Odds
from jdr.core.system import CheckRequest
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.render import render
from jdr.systems.maitrise import SYSTEM, MaitriseSystem
from jdr.systems.maitrise.checks import MasteryJudge, margin_of
from jdr.systems.maitrise.config import MaitriseConfig


def odds(request: CheckRequest[Any]) -> Odds:
    return SYSTEM.odds(request)


def test_margin_is_the_integer_part() -> None:
    assert [margin_of(t) for t in (27, 28, 1, 0, -1, -6)] == [13, 14, 0, 0, -1, -3]


def test_judge_natural_20_and_extra_faces_succeed_1_fails() -> None:
    judge = MasteryJudge(10, frozenset({20, 17}), die_malus=-7)
    assert judge(20, 13, 50).success is True
    assert judge(17, 10, None).critical == "success"
    assert judge(16, 9, None).success is False  # 16 − 7 = 9 < 10
    one = judge(1, 200, None)
    assert one.success is False and one.critical == "failure"


@pytest.mark.parametrize("face", range(1, 21))
def test_json_contract_and_margin_everywhere(sheet: Any, face: int) -> None:
    data = roll(sheet(skills={"epee": 42}), "epee", [face])
    for key in ("total", "success", "critical", "margin", "dice"):
        assert key in data
    assert data["margin"] == (face + 42) // 2 and data["dice"] == [face]
    assert data["success"] is (face >= 8)


def test_R001_10_text_shows_the_margin_of_every_roll(sheet: Any) -> None:
    """The renderer prints `marge` whenever a check has one (no note of our own any more)."""
    doc = sheet(skills={"epee": 42})
    outcome = SYSTEM.check(CheckRequest(doc, "epee"), FixedSource([5]))
    text = render(outcome.result)
    assert text.count("marge +23") == 1 and "partie entière" not in text


def test_incompetent_needs_17_on_the_die(sheet: Any) -> None:
    doc = sheet(skills={"epee": 0})
    assert roll(doc, "epee", [16])["success"] is False
    assert roll(doc, "epee", [17])["success"] is True


def test_incompetent_non_weapon_has_no_malus(sheet: Any) -> None:
    data = roll(sheet(skills={"lire": 0}), "lire", [10])
    assert data["success"] is True and data["total"] == 10


def test_unlisted_weapon_skill_is_level_0(sheet: Any) -> None:
    doc = sheet(skills={}, armes=[{"nom": "Arc court", "competence": "arc"}])
    data = roll(doc, "arc", [18])
    assert data["total"] == 11 and data["success"] is True


def test_threshold_is_a_minimum_margin(sheet: Any) -> None:
    doc = sheet(skills={"epee": 30})
    assert roll(doc, "epee", [10], threshold="20")["success"] is True
    assert roll(doc, "epee", [9], threshold="20")["success"] is False
    with pytest.raises(RuleError, match="marge minimale"):
        SYSTEM.check(CheckRequest(doc, "epee", threshold="difficile"), FixedSource([10]))


def test_bonus_goes_before_halving(sheet: Any) -> None:
    assert roll(sheet(skills={"epee": 30}), "epee", [10], bonus=3)["margin"] == 21


def test_characteristic_roll_with_carac_option(sheet: Any) -> None:
    doc = sheet(caracs={"volonte": 15})
    assert roll(doc, "", [5], carac="Volonté")["success"] is True
    assert roll(doc, "", [4], carac="volonte")["success"] is False
    assert roll(doc, "", [1], carac="volonte")["critical"] == "failure"


def test_characteristic_20_plus_faces(sheet: Any) -> None:
    doc = sheet(caracs={"adresse": 20}, faces_critiques={"adresse": [2]})
    data = roll(doc, "adresse", [2])
    assert data["critical"] == "success" and data["success"] is True


def test_wrong_die_and_unknown_skill(sheet: Any) -> None:
    doc = sheet()
    with pytest.raises(RuleError, match="d20"):
        SYSTEM.check(CheckRequest(doc, "epee", die="d10"), FixedSource([5]))
    with pytest.raises(RuleError, match="un seul d20"):
        SYSTEM.check(CheckRequest(doc, "epee", choice=1), FixedSource([5]))
    with pytest.raises(RuleError, match="epee"):
        SYSTEM.check(CheckRequest(doc, "epe"), FixedSource([5]))


def test_D_ALL_02_out_of_combat_rolls_no_check(sheet: Any) -> None:
    doc = sheet(pv={"max": 20, "actuels": 0})
    with pytest.raises(RuleError, match="hors de combat"):
        SYSTEM.check(CheckRequest(doc, "epee"), FixedSource([12]))


# ------------------------------------------------------------------ contests (R001.11)


def contest(a: Any, b: Any, faces: list[int], skill: str | None = "epee") -> dict[str, Any]:
    return roll(a, "epee", faces, opponent=b, opponent_skill=skill)


def test_contest_larger_margin_wins(sheet: Any) -> None:
    a, b = sheet("A", skills={"epee": 30}), sheet("B", skills={"epee": 20})
    data = contest(a, b, [10, 10])
    assert data["success"] is True and data["winner"] == "actor"
    assert data["actor"]["margin"] == 20 and data["opponent"]["margin"] == 15
    data = contest(a, b, [8, 19])  # 19 vs 19.5 → 19 = 19: tie
    assert data["success"] is False and data["tie"] is True


def test_contest_tie_goes_to_defender(sheet: Any) -> None:
    a, b = sheet("A", skills={"epee": 30}), sheet("B", skills={"epee": 30})
    data = contest(a, b, [12, 13])  # margins 21 and 21
    assert data["tie"] is True and data["success"] is False and data["winner"] == "opponent"
    assert data["rule"].startswith("R001.11") and "A001.07" in data["rule"]


def test_contest_failed_roll_never_wins(sheet: Any) -> None:
    a, b = sheet("A", skills={"epee": 90}), sheet("B", skills={"epee": 5})
    data = contest(a, b, [1, 10])  # critical failure loses (A001.08)
    assert data["success"] is False and data["winner"] == "opponent" and data["tie"] is False
    assert contest(b, a, [12, 3])["success"] is True  # 3 < 4: the master fails at the die
    both = contest(b, b, [5, 5])  # both fail: nothing happens (A001.03)
    assert both["success"] is False and both["winner"] == "nobody" and both["tie"] is False


def test_contest_against_dodge_ignores_margins(sheet: Any) -> None:
    """R001.17: a successful dodge wins whatever the other's margin; a failed one loses."""
    a, b = sheet("A", skills={"epee": 90}), sheet("B", caracs={"adresse": 12})
    assert contest(a, b, [19, 8], "esquive")["winner"] == "opponent"  # 54 against 10
    assert contest(a, b, [19, 7], "esquive")["winner"] == "actor"  # dodge margin 9


def test_contre_alone_opposes_the_defence_or_the_same_skill(sheet: Any) -> None:
    a = sheet("A", skills={"epee": 30, "lire": 10})
    parry = sheet("B", skills={"epee": 40, "lire": 12})
    dodge = sheet("C", skills={"lire": 12}, armes=[])
    data = contest(a, parry, [12, 12], None)
    assert data["opponent"]["label"].startswith("B — epee") and data["winner"] == "opponent"
    data = contest(a, dodge, [12, 9], None)
    assert "esquive" in data["opponent"]["label"] and data["winner"] == "opponent"
    data = roll(a, "lire", [12, 3], opponent=parry)
    assert data["opponent"]["label"].startswith("B — lire") and data["winner"] == "actor"
    with pytest.raises(RuleError, match="--contre FICHE:COMPETENCE"):
        roll(a, "lire", [12, 3], opponent=sheet("D", skills={}, armes=[]))


# ------------------------------------------------------------------ odds


def test_odds_match_rank_faces(sheet: Any) -> None:
    for level, face in ((0, 10), (25, 8), (60, 6), (85, 4), (100, 2)):
        result = odds(CheckRequest(sheet(skills={"lire": level}, armes=[]), "lire"))
        assert result.success == Fraction(21 - face, 20)
        assert result.critical_success == Fraction(1, 20)
        assert result.critical_failure == Fraction(1, 20)
        assert sum(p for _, p in result.distribution) == 1


def test_odds_incompetent_and_extra_faces(sheet: Any) -> None:
    inc = odds(CheckRequest(sheet(skills={"epee": 0}), "epee"))
    assert inc.success == Fraction(4, 20)  # 17, 18, 19, 20
    gm = sheet(skills={"epee": 100}, faces_critiques={"epee": [19, 18]})
    result = odds(CheckRequest(gm, "epee"))
    assert result.critical_success == Fraction(3, 20) and result.success == Fraction(19, 20)


def test_contest_odds_exact(sheet: Any) -> None:
    a, b = sheet("A", skills={"epee": 30}), sheet("B", skills={"epee": 30})
    result = odds(CheckRequest(a, "epee", opponent=b, opponent_skill="epee"))
    wins = ties = nobody = 0
    for x in range(1, 21):
        for y in range(1, 21):
            ok_x = x != 1 and (x >= 8)
            ok_y = y != 1 and (y >= 8)
            mx, my = (x + 30) // 2, (y + 30) // 2
            wins += ok_x and (not ok_y or mx > my)
            ties += ok_x and ok_y and mx == my
            nobody += not ok_x and not ok_y
    assert result.success == Fraction(wins, 400)
    assert result.tie == Fraction(ties, 400)
    assert result.nobody == Fraction(nobody, 400)
    assert result.opponent_wins == 1 - result.success - result.nobody
    assert "R001.11" in result.rule


# ------------------------------------------------------------------ configuration


def test_config_malus_only_before_halving(sheet: Any) -> None:
    lenient = MaitriseSystem(MaitriseConfig(incompetent_malus_on_die=False))
    doc = sheet(skills={"epee": 0})
    data = roll(doc, "epee", [10], system=lenient)
    assert data["success"] is True and data["total"] == 3
    assert roll(doc, "epee", [10])["success"] is False


def test_config_hit_points_from_constitution(sheet: Any) -> None:
    target = sheet("Cible", armes=[], caracs={"constitution": 12})
    del target.doc.data["pv"]
    system = MaitriseSystem(MaitriseConfig(hit_points_from_constitution=True))
    data, changes = attack(sheet(), reload(target, system), [12, 3], system=system,
                           defence="aucune")
    assert data["health"] == {"unit": "pv", "before": 12, "after": 4, "max": 12}
    default, none = attack(sheet(), reload(target), [12, 3], defence="aucune")
    assert default["health"] is None and default["state"] is None and none == ()
    assert changes[0].value == {"max": 12, "actuels": 4}


def test_config_bonuses_do_not_stack(sheet: Any) -> None:
    doc = sheet(skills={"epee": 80, "chant": 100})
    assert doc.model.characteristic("charisme") == 9 + 1 + 3
    single = MaitriseSystem(MaitriseConfig(bonuses_stack=False))
    assert reload(doc, single).model.characteristic("charisme") == 9 + 3


def test_options_are_declared_not_parsed_here() -> None:
    with pytest.raises(RuleError, match="option"):
        options("attack", {"critique_defence": "rapidite"})
    assert options("xp", {"maitre": "oui"}).flag("maitre") is True
