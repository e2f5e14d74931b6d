"""The CYD rules beyond the worked examples: errors, prédilection, sessions, opposed variants,
cooperation, long actions, retrying, odds of both dice, sheets."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from jdr.core.check import CheckResult, Odds
from jdr.core.results import Notes, Report
from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded
from jdr.core.usecase import action_spec, options
from jdr.dice.source import FixedSource, RandomSource
from jdr.errors import RuleError, SheetError
from jdr.render import render
from jdr.systems.cyd import SYSTEM, CydConfig, CydSystem
from jdr.systems.cyd.sheet import CydSheet
from systems.cyd.cyd_support import (
    commit,
    group,
    one_french_line,
    opposed,
    problems,
    reload,
    request,
    roll,
    single,
    stat,
    texts,
)

Make = Callable[..., Loaded[CydSheet]]
MakeDoc = Callable[..., SheetDocument]


def odds_report(actor: Loaded[CydSheet], skill: str, opts: dict[str, str] | None = None,
                **kw: Any) -> tuple[Odds, Odds]:
    """`jdr odds` without --de: the d10 and the d20 side by side."""
    result = SYSTEM.odds(request(actor, skill, opts, action="odds", **kw))
    assert isinstance(result, Report)
    d10, d20 = result.parts
    assert isinstance(d10, Odds) and isinstance(d20, Odds)
    assert d10.label.startswith("d10") and d20.label.startswith("d20")
    return d10, d20


def extra(odds: Odds, key: str) -> Fraction:
    return {k: p for k, _, p in odds.extra}[key]


# ------------------------------------------------------------------ bad input: one French line


@pytest.mark.parametrize("die", ["d12", "d6", "2d10", "dé", "d100"])
def test_bad_die_is_one_french_line(make_sheet: Make, die: str) -> None:
    doc = make_sheet()
    with pytest.raises(RuleError) as info:
        roll(doc, "tir", [5], die=die)
    line = one_french_line(info.value)
    assert f"« {die} »" in line and "d10" in line and "d20" in line and "choisissez" in line
    with pytest.raises(RuleError):
        SYSTEM.odds(request(doc, "tir", action="odds", die=die))


@pytest.mark.parametrize("spelling", ["d10", "D10", "1d10", "10"])
def test_die_spellings(make_sheet: Make, spelling: str) -> None:
    result = single(make_sheet(), "tir", [10], die=spelling)
    assert result.label.endswith("(d10)") and result.total == 5 + 3 + 10


def test_D003_20_no_die_given_is_refused_naming_the_choice(make_sheet: Make) -> None:
    doc = make_sheet()
    for strict in (SYSTEM, CydSystem(CydConfig())):
        with pytest.raises(RuleError) as info:
            roll(doc, "tir", [4], system=strict)
        line = one_french_line(info.value)
        assert "--de d10|d20" in line
    # the odds need no choice: they show both dice
    assert len(odds_report(doc, "tir")) == 2


def test_attribute_of_11_is_one_french_line(make_doc: MakeDoc) -> None:
    doc = make_doc(attributs={"adresse": 11})
    with pytest.raises(SheetError) as info:
        SYSTEM.load(doc)
    line = one_french_line(info.value)
    assert "attributs.adresse" in line and "11" in line and "de 1 à 10" in line
    assert problems(doc) == [line]


def test_used_predilection_is_one_french_line(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "utilisee"})
    with pytest.raises(RuleError) as info:
        roll(doc, "tir", [5, 6], {"predilection": "oui"}, die="d10")
    line = one_french_line(info.value)
    assert "déjà utilisée" in line and "tir" in line and "séance" in line


def test_every_sheet_problem_listed_once(make_doc: MakeDoc) -> None:
    doc = make_doc(attributs={"adresse": 0, "trempe": 12}, competences={"tir": 11, "vol": -1},
                   usuel={"tir": "force", "vol": "adresse", "nage": "puissance"},
                   predilections={"tir": "peut-etre", "chant": "disponible"})
    found = problems(doc)
    assert len(found) == 8, found
    text = "\n".join(found)
    for expected in ("attributs.adresse", "attributs.trempe", "competences.tir", "competences.vol",
                     "attribut_usuel.tir", "attribut_usuel.nage", "predilections.tir",
                     "predilections.chant"):
        assert expected in text


def test_missing_attribute_and_unknown_attribute(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("systeme: cyd\nnom: X\nattributs: {adresse: 5, force: 3}\n", encoding="utf-8")
    text = "\n".join(problems(SheetDocument.load(path)))
    assert "attributs.clairvoyance" in text and "champ obligatoire absent" in text
    assert "attributs.force" in text and "clé inconnue" in text


def test_template_is_a_valid_sheet(tmp_path: Path) -> None:
    path = tmp_path / "modele.yaml"
    path.write_text(SYSTEM.template(), encoding="utf-8")
    doc = SheetDocument.load(path)
    assert problems(doc) == []
    loaded = Loaded(doc, SYSTEM.load(doc), "Rôdeuse")
    assert SYSTEM.creation_problems(loaded) == []  # A003.12: no creation rules
    sheet = loaded.model
    assert sheet.attributs.get("puissance") == 6 and sheet.boxes == {"tir": "disponible"}
    view = SYSTEM.show(loaded)
    values = {row.key: row.value for s in view.sections for row in s.rows}
    assert values["capacite_tir"] == 8 and values["tir"] == 3 and values["adresse"] == 5
    assert values["hit_points"] == 20 and values["predilection_tir"] == "disponible"
    assert "Capacité 8" in render(view, "texte")


def test_names_match_whatever_the_spelling(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"presence": 7}, competences={"Négociation": 2},
                     usuel={"Négociation": "Présence"})
    result = single(doc, "NEGOCIATION", [1], die="d10")
    assert result.modifiers[0].reason == "Présence" and result.total == 7 + 2 + 1
    other = single(doc, "negociation", [1], carac="Trempe", die="d10")
    assert other.modifiers[0].reason == "Trempe" and other.total == 5 + 2 + 1


@pytest.mark.parametrize(("kw", "opts", "words"), [
    ({"skill": "tri"}, {}, ("compétence", "tir")),
    ({"carac": "force"}, {}, ("attribut", "force")),
    ({"skill": "survie"}, {}, ("attribut usuel", "--carac")),
    ({"threshold": "difficle"}, {}, ("seuil", "difficile")),
    ({"choice": 1}, {}, ("--choix",)),
    ({}, {"predilecton": "oui"}, ("option", "predilection")),
    ({}, {"competence": "tir"}, ("option",)),
    ({}, {"retente": "jamais"}, ("retente",)),
])
def test_unknown_skill_attribute_threshold_option(
        make_sheet: Make, kw: dict[str, Any], opts: dict[str, str], words: tuple[str, ...]
) -> None:
    doc = make_sheet(competences={"tir": 3, "survie": 2}, usuel={"tir": "adresse"})
    skill = str(kw.pop("skill", "tir"))
    with pytest.raises(RuleError) as info:
        roll(doc, skill, [5], opts, die="d10", **kw)
    line = one_french_line(info.value)
    for word in words:
        assert word in line, line


def test_no_combat_initiative_nor_xp_rules() -> None:
    """R003.21 / R003.22: not among the actions; the core refuses them in French."""
    assert set(SYSTEM.actions) == {"check", "odds", "duel", "session", "cooperation",
                                   "action_simple", "encaisser", "recuperer", "deplacement"}
    for action in ("attack", "initiative", "xp"):
        with pytest.raises(RuleError, match="ne joue pas l'action"):
            action_spec(SYSTEM, action)
    notes = " ".join(SYSTEM.help().notes)
    assert "combat" in notes and "expérience" in notes


def test_help_lists_the_five_attributes() -> None:
    info = SYSTEM.help()
    assert list(info.characteristics) == ["adresse", "clairvoyance", "presence", "puissance",
                                          "trempe"]
    assert info.characteristics["presence"] == "Présence"


# ------------------------------------------------------------------ prédilection (R003.04)


def test_predilection_reroll_keeps_better_and_ticks_the_box(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    opts = {"predilection": "oui"}
    outcome = roll(doc, "tir", [11, 14], opts, threshold="10", die="d20")  # 1st: automatic failure
    result = outcome.result
    assert isinstance(result, CheckResult)
    assert [d.face for d in result.dice] == [11, 14]
    assert [d.kept for d in result.dice] == [False, True]
    assert result.total == 8 + 14 and result.success is True and stat(result, "auto_ok") == 1
    assert [(c.path, c.value) for c in outcome.changes] == [(("predilections", "tir"), "utilisee")]
    commit(outcome)
    doc = reload(doc)
    assert doc.model.boxes["tir"] == "utilisee"
    assert "# commentaire de la personne" in doc.doc.path.read_text(encoding="utf-8")
    with pytest.raises(RuleError, match="déjà utilisée"):
        roll(doc, "tir", [3, 4], opts, threshold="10", die="d20")


def test_predilection_player_keeps_either_result(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    opts = {"predilection": "oui"}
    first = single(doc, "tir", [3, 9], opts, die="d10", choice=1)
    assert first.total == 8 + 3 and first.dice[0].kept
    second = single(doc, "tir", [3, 9], opts, die="d10", choice=2)
    assert second.total == 8 + 9
    with pytest.raises(RuleError, match="--choix 3"):
        roll(doc, "tir", [3, 9], opts, die="d10", choice=3)


def test_predilection_after_a_roll_made_at_the_table(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    result = single(doc, "tir", [16], {"premier_jet": "13"}, die="d20", threshold="10")
    assert [d.face for d in result.dice] == [13, 16] and result.total == 24
    with pytest.raises(RuleError, match="1 à 20"):
        roll(doc, "tir", [4], {"premier_jet": "21"}, die="d20")
    with pytest.raises(RuleError, match="1 à 10"):
        roll(doc, "tir", [4], {"premier_jet": "13"}, die="d10")


def test_predilection_needs_a_box(make_sheet: Make) -> None:
    doc = make_sheet(competences={"tir": 3, "vol": 2}, predilections={"tir": "disponible"})
    with pytest.raises(RuleError, match="pas de prédilection pour « vol »"):
        roll(doc, "vol", [1, 2], {"predilection": "oui"}, die="d10")


def test_new_session_frees_every_box(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"tir": 3, "vol": 1},
                   predilections={"tir": "utilisee", "vol": "disponible"})
    b = make_sheet("B", predilections={"tir": "Utilisée"})
    outcome = SYSTEM.new_session(group((a, b), "session"))
    assert {(c.doc.path, c.path, c.value) for c in outcome.changes} == {
        (a.doc.path, ("predilections", "tir"), "disponible"),
        (b.doc.path, ("predilections", "tir"), "disponible")}
    assert isinstance(outcome.result, Notes)
    assert [line.text for line in outcome.result.lines] == ["A : tir", "B : tir"]
    commit(outcome)
    b = reload(b)
    assert b.model.boxes == {"tir": "disponible"}
    single(b, "tir", [1, 2], {"predilection": "oui"}, die="d10")


def test_predilection_odds_use_the_better_of_two(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    plain = odds_report(doc, "tir", threshold="10")
    rerolled = odds_report(doc, "tir", {"predilection": "oui"}, threshold="10")
    for p, r in zip(plain, rerolled, strict=True):
        assert p.success is not None and r.success is not None
        assert r.success == 1 - (1 - p.success) ** 2
        assert extra(r, "automatic_failure") == extra(p, "automatic_failure") ** 2


# ------------------------------------------------------------------ opposed tests


def test_opposed_equal_skills_tie_is_status_quo(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 5}, competences={"tir": 3})
    b = make_sheet("B", attributs={"adresse": 5}, competences={"tir": 3})
    result = opposed(a, "tir", [4, 4], opponent=b, die="d10")
    assert result.winner == "nobody" and result.success is False and result.tie
    assert any("statu quo" in n for n in texts(result.notes))
    assert json.loads(render(result, "json"))["winner"] == "nobody"


def test_opposed_automatic_failures_and_heroic(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 10}, competences={"tir": 10})
    b = make_sheet("B", attributs={"adresse": 1}, competences={"tir": 1})
    opts = {"de_adverse": "d20"}
    lost = opposed(a, "tir", [1, 3], opts, opponent=b, die="d20")
    assert lost.winner == "opponent" and lost.actor.critical == "failure" and not lost.tie
    both = opposed(a, "tir", [11, 1], opts, opponent=b, die="d20")
    assert both.winner == "nobody" and not both.tie
    won = opposed(b, "tir", [2, 11], opts, opponent=a, die="d20")
    assert won.success and won.actor.critical is None
    heroic = opposed(a, "tir", [1, 1], opponent=b, die="d10")  # 21 vs 3
    assert heroic.success and heroic.actor.critical == "success"
    assert any("réussite héroïque d'A" in n for n in texts(heroic.notes))
    just = opposed(a, "tir", [1, 10], opponent=b, die="d10")  # 21 vs 12
    assert just.success and just.actor.critical is None
    gap = opposed(a, "tir", [1, 9], opponent=b, die="d10")  # 21 vs 11: ≥ + 10
    assert gap.actor.critical == "success"
    theirs = opposed(b, "tir", [1, 9], opponent=a, die="d10")  # 3 vs 29
    assert theirs.winner == "opponent" and theirs.opponent.critical == "success"


def test_D003_20_opponent_without_the_skill_rolls_it_at_0(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"discretion": 2})  # Adresse 5 + 2 = 7
    b = make_sheet("B", attributs={"adresse": 6}, competences={"vigilance": 3},
                   usuel={"vigilance": "clairvoyance"})
    result = opposed(a, "discretion", [5, 5], opponent=b, die="d10")  # --contre FICHE alone
    assert [m.value for m in result.opponent.modifiers] == [6, 0, -3]
    assert result.opponent.total == 6 - 3 + 5 and result.actor.total == 12
    assert any("niveau 0" in n for n in texts(result.notes))


def test_contre_sheet_alone_opposes_the_same_skill(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"tir": 3})
    b = make_sheet("B", attributs={"clairvoyance": 7}, competences={"tir": 1},
                   usuel={"tir": "clairvoyance"})
    result = opposed(a, "tir", [2, 2], opponent=b, die="d10")
    assert result.opponent.label == "B : Clairvoyance + tir (d10)"
    other = opposed(a, "tir", [2, 2], {"carac_adverse": "Adresse"}, opponent=b, die="d10")
    assert other.opponent.label == "B : Adresse + tir (d10)"


def test_passive_opposition_threshold_is_opponent_capacity(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"discretion": 2})  # Capacité 7
    b = make_sheet("B", attributs={"clairvoyance": 6}, competences={"vigilance": 3},
                   usuel={"vigilance": "clairvoyance"})  # Capacité 9
    opts = {"opposition": "passive"}
    kw = {"opponent": b, "opponent_skill": "vigilance"}
    hit = single(a, "discretion", [2], opts, die="d10", **kw)
    assert hit.threshold == 9 and hit.total == 9 and hit.success is True
    assert single(a, "discretion", [1], opts, die="d10", **kw).success is False
    odds = SYSTEM.odds(request(a, "discretion", opts, action="odds", die="d10", **kw))
    assert isinstance(odds, Odds)
    assert odds.threshold == 9 and odds.success == Fraction(9, 10)


def test_opposed_odds(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 5}, competences={"tir": 3})
    b = make_sheet("B", attributs={"adresse": 5}, competences={"tir": 3})
    d10, d20 = odds_report(a, "tir", opponent=b)
    # d10 vs d10, same Capacité and skill: win = lose = 45 %, the 10 % of ties = status quo
    assert d10.success == Fraction(45, 100) and d10.nobody == Fraction(1, 10)
    assert d10.opponent_wins == Fraction(45, 100)
    assert d20.critical_failure == Fraction(1, 10) == extra(d20, "automatic_failure")
    assert d20.success is not None and d20.nobody is not None and d20.opponent_wins is not None
    assert d20.success + d20.nobody + d20.opponent_wins == 1


# ------------------------------------------------------------------ odds of both dice


def test_odds_show_both_dice_side_by_side(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})  # Capacité 6
    report = SYSTEM.odds(request(doc, "tir", action="odds", threshold="10"))
    data = json.loads(render(report, "json"))
    assert data["type"] == "report" and [p["type"] for p in data["parts"]] == ["odds", "odds"]
    d10, d20 = data["parts"]
    for part in (d10, d20):
        for key in ("success", "critical_success", "critical_failure", "distribution",
                    "automatic_failure"):
            assert key in part
    assert d10["success"] == pytest.approx(0.7)       # faces 4..10
    assert d10["critical_success"] == pytest.approx(0.0)
    assert d20["success"] == pytest.approx(0.45)      # even faces 4..20
    assert d20["critical_success"] == pytest.approx(0.2)  # 14..20 even
    assert d20["critical_failure"] == pytest.approx(0.1)
    text = render(report, "texte")
    assert "d10 (prudent)" in text and "d20 (risqué)" in text and "réussite héroïque" in text


def test_odds_restricted_to_one_die(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    odds = SYSTEM.odds(request(doc, "tir", action="odds", threshold="moyenne", die="d20"))
    assert isinstance(odds, Odds) and odds.label.startswith("d20")
    assert odds.success == Fraction(45, 100) and odds.threshold == 10


# ------------------------------------------------------------------ cooperation, long actions


def test_cooperation_table_empty_by_default(make_sheet: Make) -> None:
    result = single(make_sheet(), "tir", [5], {"aides": "3,8"}, die="d10")
    assert result.total == 8 + 5
    assert any("table de bonus manque" in n for n in texts(result.notes))


def test_cooperation_table_from_options(make_sheet: Make) -> None:
    doc = make_sheet()
    opts = {"aides": "3,8,0", "table_cooperation": "1:1,5:2"}
    result = single(doc, "tir", [5], opts, die="d10")
    assert result.total == 8 + 5 + 1 + 2 + 0
    assert result.modifiers[-1].rule == "R003.18"
    table = CydSystem(CydConfig(cooperation_bonus=((2, 1),)))
    res = roll(doc, "tir", [5], {"aides": "2"}, system=table, die="d10").result
    assert isinstance(res, CheckResult) and res.total == 8 + 5 + 1
    with pytest.raises(RuleError, match="aides"):
        roll(doc, "tir", [5], {"aides": "12"}, die="d10")


@pytest.mark.parametrize(("face", "text"), [
    (10, "achevée au bout de la durée moyenne (temps : 4h)"),   # 8 + 10 = 18 vs 15
    (2, "non achevée au bout de la durée moyenne ; elle peut se poursuivre"),  # 10 < 15
    (7, "achevée au bout de la durée moyenne (temps : 4h)"),     # 15 vs 15
])
def test_long_action(make_sheet: Make, face: int, text: str) -> None:
    result = single(make_sheet(), "tir", [face], {"duree": "4h"}, threshold="15", die="d10")
    assert any(n.startswith("action longue, durée moyenne 4h : ") and text in n
               for n in texts(result.notes)), result.notes


def test_long_action_heroic_and_dramatic(make_sheet: Make) -> None:
    doc = make_sheet()
    heroic = single(doc, "tir", [8], {"duree": "30 min"}, threshold="5", die="d20")  # 16 >= 15
    assert any("moitié de la durée moyenne" in n and "(temps : 15 min)" in n
               for n in texts(heroic.notes))
    dramatic = single(doc, "tir", [1], {"duree": "2 jours"}, threshold="5", die="d20")
    assert any("une complication survient" in n for n in texts(dramatic.notes))
    with pytest.raises(RuleError, match="seuil"):
        roll(doc, "tir", [1], {"duree": "4h"}, die="d10")


# ------------------------------------------------------------------ retrying (D-003.16)


def test_retry_refused_until_the_mj_says_circumstances_changed(make_sheet: Make) -> None:
    doc = make_sheet()
    failed = roll(doc, "tir", [2], threshold="15", die="d10")
    assert [(c.path, c.value) for c in failed.changes] == [(("echecs", "tir"), 3)]
    commit(failed)
    doc = reload(doc)
    with pytest.raises(RuleError, match="déjà échoué") as info:
        roll(doc, "tir", [9], threshold="15", die="d10")
    assert "circonstances=changees" in one_french_line(info.value)
    allowed = roll(doc, "tir", [9], {"circonstances": "changees"}, threshold="15", die="d10")
    assert isinstance(allowed.result, CheckResult) and allowed.result.success is True
    assert [(c.path, c.value) for c in allowed.changes] == [(("echecs", "tir"), None)]
    other_action = single(doc, "tir", [9], {"action": "crocheter"}, threshold="15", die="d10")
    assert not any("attention" in n for n in texts(other_action.notes))
    warned = single(doc, "tir", [9], {"retente": "avertir"}, threshold="15", die="d10")
    assert any(n.startswith("attention : « tir » a déjà échoué") for n in texts(warned.notes))
    quiet = roll(doc, "tir", [1], {"retente": "ignorer"}, threshold="15", die="d10")
    assert quiet.changes == ()
    commit(allowed)
    assert reload(doc).model.failures == {"tir": None}


def test_retry_allowed_once_the_skill_was_raised(make_sheet: Make) -> None:
    doc = make_sheet(competences={"tir": 4}, extra="echecs: {tir: 3}\n")
    result = single(doc, "tir", [1], threshold="15", die="d10")
    assert result.success is False


# ------------------------------------------------------------------ duels and rendering


def test_duel_first_to_two_and_needs_a_skill_and_dice(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"escrime": 4})
    b = make_sheet("B", competences={"escrime": 2})
    source = FixedSource([5, 5, 1, 9, 6, 2])
    outcome = SYSTEM.duel(group((a, b), "duel", {"competence": "escrime", "de": "d10"}), source)
    source.finish()
    report = outcome.result
    assert isinstance(report, Report) and len(report.parts) == 3
    assert [p.title for p in report.parts if isinstance(p, Report)] == [
        "Manche 1 : A l'emporte", "Manche 2 : B l'emporte", "Manche 3 : A l'emporte"]
    assert report.notes[0].text == "score 2 à 1, vainqueur : A"
    with pytest.raises(RuleError, match="compétence"):
        SYSTEM.duel(group((a, b), "duel", {"de": "d10"}), FixedSource([1]))
    with pytest.raises(RuleError, match=re.escape("--opt de=d10|d20")):
        SYSTEM.duel(group((a, b), "duel", {"competence": "escrime", "de_a": "d20"}),
                    FixedSource([1]))
    with pytest.raises(RuleError, match="option"):
        options(SYSTEM, "duel", {"competence": "escrime", "predilection": "oui"})


def test_render_and_json_are_french_and_complete(make_sheet: Make) -> None:
    doc = make_sheet()
    result = single(doc, "tir", [11], threshold="difficile", die="d20")
    text = render(result, "texte")
    assert "ÉCHEC" in text and "échec critique" in text and "pas calculé" in text
    data = json.loads(render(result, "json"))
    for key in ("total", "success", "critical", "margin", "dice"):
        assert key in data
    assert data["dice"] == [11] and data["margin"] is None and data["critical"] == "failure"
    source = RandomSource(7)
    for _ in range(50):
        outcome = SYSTEM.check(request(doc, "tir", {"retente": "ignorer"}, threshold="10",
                                       die="d20"), source)
        for fmt in ("texte", "forum", "json"):
            assert render(outcome.result, fmt)
        json.loads(render(outcome.result, "json"))


def test_demo_is_a_short_scene_in_every_format() -> None:
    report = SYSTEM.demo(RandomSource(3))
    assert isinstance(report, Report) and len(report.parts) == 4
    for fmt in ("texte", "forum", "json"):
        assert "Rôdeuse" in render(report, fmt)


def test_negative_capacity_allowed_A003_15(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 1}, competences={"escalade": 0})
    result = single(doc, "escalade", [1], threshold="moyenne", die="d10")
    assert sum(m.value for m in result.modifiers) == -2 and result.total == -1
    assert result.success is False and result.critical == "failure"  # -1 <= 10 - 10
    easy = single(doc, "escalade", [1], threshold="facile", die="d10")
    assert easy.success is False and easy.critical is None  # -1 > 5 - 10


@pytest.mark.parametrize(("name", "value"), [
    ("Très difficile", 20), ("tres-difficile", 20), ("TRES_DIFFICILE", 20), ("Extrême", 25),
    ("moyenne", 10), ("moyen", 10), ("difficile", 15), ("12", 12), ("-3", -3),
])
def test_ladder_D003_06(make_sheet: Make, name: str, value: int) -> None:
    result = single(make_sheet(), "tir", [5], threshold=name, die="d10")
    assert result.threshold == value
    assert result.success is (value <= 13)
