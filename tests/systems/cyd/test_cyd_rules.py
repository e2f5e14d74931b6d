"""The CYD rules beyond the worked examples: errors, prédilection, sessions, opposed variants,
cooperation, long actions, retrying, odds of both dice, sheets."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, CheckRequest, XpRequest
from jdr.dice.source import FixedSource, RandomSource
from jdr.errors import JdrError, RuleError, SheetError
from jdr.systems.cyd import SYSTEM, CydConfig, CydSystem
from jdr.systems.cyd.checks import CydCheckResult, CydOdds, CydOpposedResult

Make = Callable[..., SheetDocument]


def check(req: CheckRequest, faces: list[int]) -> CydCheckResult | CydOpposedResult:
    source = FixedSource(faces)
    result, changes = SYSTEM.check(req, source)
    source.finish()
    assert changes == list(result.changes)
    return result


def single(req: CheckRequest, faces: list[int]) -> CydCheckResult:
    result = check(req, faces)
    assert isinstance(result, CydCheckResult)
    return result


def apply(result: CydCheckResult | CydOpposedResult) -> None:
    for change in result.changes:
        change.apply()


def reload(doc: SheetDocument) -> SheetDocument:
    doc.save()
    return SheetDocument.load(doc.path)


def one_french_line(exc: JdrError) -> str:
    lines = exc.problems if isinstance(exc, SheetError) and exc.problems else [exc.message]
    assert len(lines) == 1
    assert "\n" not in lines[0]
    return lines[0]


# ------------------------------------------------------------------ bad input: one French line


@pytest.mark.parametrize("die", ["d12", "d6", "2d10", "dé", "d100"])
def test_bad_die_is_one_french_line(make_sheet: Make, die: str) -> None:
    doc = make_sheet()
    with pytest.raises(RuleError) as info:
        SYSTEM.check(CheckRequest(doc, "tir", die=die), FixedSource([5]))
    line = one_french_line(info.value)
    assert f"« {die} »" in line and "d10" in line and "d20" in line and "choisissez" in line
    with pytest.raises(RuleError):
        SYSTEM.odds(CheckRequest(doc, "tir", die=die))


@pytest.mark.parametrize("spelling", ["d10", "D10", "1d10", "10"])
def test_die_spellings(make_sheet: Make, spelling: str) -> None:
    result = single(CheckRequest(make_sheet(), "tir", die=spelling), [10])
    assert result.die == "d10" and result.total == 5 + 3 + 10


def test_attribute_of_11_is_one_french_line(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 11})
    with pytest.raises(SheetError) as info:
        SYSTEM.check(CheckRequest(doc, "tir", die="d10"), FixedSource([5]))
    line = one_french_line(info.value)
    assert "attributs.adresse" in line and "11" in line and "de 1 à 10" in line
    assert SYSTEM.check_sheet(doc) == [line]


def test_used_predilection_is_one_french_line(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "utilisee"})
    with pytest.raises(RuleError) as info:
        SYSTEM.check(CheckRequest(doc, "tir", die="d10", options={"predilection": "oui"}),
                     FixedSource([5, 6]))
    line = one_french_line(info.value)
    assert "déjà utilisée" in line and "tir" in line and "séance" in line


def test_every_sheet_problem_listed_once(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 0, "trempe": 12}, competences={"tir": 11, "vol": -1},
                     usuel={"tir": "force", "vol": "adresse", "nage": "puissance"},
                     predilections={"tir": "peut-etre", "chant": "disponible"})
    problems = SYSTEM.check_sheet(doc)
    assert len(problems) == 8, problems
    text = "\n".join(problems)
    for expected in ("attributs.adresse", "attributs.trempe", "competences.tir", "competences.vol",
                     "attribut_usuel.tir", "attribut_usuel.nage", "predilections.tir",
                     "predilections.chant"):
        assert expected in text


def test_missing_attribute_and_unknown_attribute(make_sheet: Make, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "f.yaml"
    path.write_text("systeme: cyd\nnom: X\nattributs: {adresse: 5, force: 3}\n", encoding="utf-8")
    problems = SYSTEM.check_sheet(SheetDocument.load(path))
    text = "\n".join(problems)
    assert "attributs.clairvoyance" in text and "champ obligatoire absent" in text
    assert "attributs.force" in text and "clé inconnue" in text


def test_template_is_a_valid_sheet(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "modele.yaml"
    path.write_text(SYSTEM.template(), encoding="utf-8")
    doc = SheetDocument.load(path)
    assert SYSTEM.check_sheet(doc) == []
    assert SYSTEM.check_sheet(doc, creation=True) == []
    sheet = SYSTEM.load(doc)
    assert sheet.attributs.get("puissance") == 6 and sheet.boxes == {"tir": "disponible"}
    shown = SYSTEM.show(doc)
    assert "Capacité 8" in shown.render() and shown.to_json()["skills"]["tir"]["capacite"] == 8


def test_names_match_whatever_the_spelling(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"presence": 7}, competences={"Négociation": 2},
                     usuel={"Négociation": "Présence"})
    result = single(CheckRequest(doc, "NEGOCIATION", die="d10"), [1])
    assert result.capacity.attribute == "presence" and result.total == 7 + 2 + 1
    other = single(CheckRequest(doc, "negociation", carac="Trempe", die="d10"), [1])
    assert other.capacity.attribute == "trempe" and other.total == 5 + 2 + 1


def test_unknown_skill_attribute_threshold_option(make_sheet: Make) -> None:
    doc = make_sheet(competences={"tir": 3, "survie": 2}, usuel={"tir": "adresse"})
    for req, words in [
        (CheckRequest(doc, "tri", die="d10"), ("compétence", "tir")),
        (CheckRequest(doc, "tir", carac="force", die="d10"), ("attribut", "force")),
        (CheckRequest(doc, "survie", die="d10"), ("attribut usuel", "--carac")),
        (CheckRequest(doc, "tir", threshold="difficle", die="d10"), ("seuil", "difficile")),
        (CheckRequest(doc, "tir", die="d10", options={"predilecton": "oui"}), ("option",)),
        (CheckRequest(doc, "tir", die="d10", choice=1), ("--choix",)),
        (CheckRequest(doc, "tir", die="d10", options={"competence": "tir"}), ("option",)),
        (CheckRequest(doc, "tir", die="d10", options={"retente": "jamais"}), ("retente",)),
    ]:
        with pytest.raises(RuleError) as info:
            SYSTEM.check(req, FixedSource([5]))
        line = one_french_line(info.value)
        for word in words:
            assert word in line, line


def test_no_die_given_uses_configured_default_or_refuses(make_sheet: Make) -> None:
    doc = make_sheet()
    result = single(CheckRequest(doc, "tir"), [4])
    assert result.die == "d10" and any("par défaut" in n for n in result.notes)
    strict = CydSystem(CydConfig(default_die=None))
    with pytest.raises(RuleError, match="choisissez votre dé"):
        strict.check(CheckRequest(doc, "tir"), FixedSource([4]))


def test_no_combat_nor_xp_rules(make_sheet: Make) -> None:
    doc = make_sheet()
    with pytest.raises(RuleError, match=r"R003\.21"):
        SYSTEM.attack(AttackRequest(doc, doc), FixedSource([1]))
    with pytest.raises(RuleError, match=r"R003\.22"):
        SYSTEM.xp(XpRequest(doc, skill="tir"))
    with pytest.raises(RuleError, match="initiative"):
        SYSTEM.initiative([doc], FixedSource([1]))


# ------------------------------------------------------------------ prédilection (R003.04)


def test_predilection_reroll_keeps_better_and_ticks_the_box(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    req = CheckRequest(doc, "tir", threshold="10", die="d20", options={"predilection": "oui"})
    result = single(req, [11, 14])  # 1st roll: automatic failure; the reroll is kept
    assert [d.face for d in result.result.dice] == [11, 14]
    assert [d.kept for d in result.result.dice] == [False, True]
    assert result.total == 8 + 14 and result.success is True and not result.automatic_failure
    assert [(c.path, c.value) for c in result.changes] == [(("predilections", "tir"), "utilisee")]
    apply(result)
    doc = reload(doc)
    assert SYSTEM.load(doc).boxes["tir"] == "utilisee"
    assert "# commentaire de la personne" in doc.path.read_text(encoding="utf-8")
    with pytest.raises(RuleError, match="déjà utilisée"):
        SYSTEM.check(req, FixedSource([3, 4]))


def test_predilection_player_keeps_either_result(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    first = single(CheckRequest(doc, "tir", die="d10", choice=1,
                                options={"predilection": "oui"}), [3, 9])
    assert first.total == 8 + 3 and first.result.dice[0].kept
    second = single(CheckRequest(doc, "tir", die="d10", choice=2,
                                 options={"predilection": "oui"}), [3, 9])
    assert second.total == 8 + 9
    with pytest.raises(RuleError, match="--choix 3"):
        SYSTEM.check(CheckRequest(doc, "tir", die="d10", choice=3,
                                  options={"predilection": "oui"}), FixedSource([3, 9]))


def test_predilection_after_a_roll_made_at_the_table(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    result = single(CheckRequest(doc, "tir", die="d20", threshold="10",
                                 options={"predilection": "13"}), [16])  # only the reroll
    assert [d.face for d in result.result.dice] == [13, 16] and result.total == 24
    with pytest.raises(RuleError, match="1 à 20"):
        SYSTEM.check(CheckRequest(doc, "tir", die="d20", options={"predilection": "21"}),
                     FixedSource([4]))


def test_predilection_needs_a_box(make_sheet: Make) -> None:
    doc = make_sheet(competences={"tir": 3, "vol": 2}, predilections={"tir": "disponible"})
    with pytest.raises(RuleError, match="pas de prédilection pour « vol »"):
        SYSTEM.check(CheckRequest(doc, "vol", die="d10", options={"predilection": "oui"}),
                     FixedSource([1, 2]))


def test_new_session_frees_every_box(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"tir": 3, "vol": 1},
                   predilections={"tir": "utilisee", "vol": "disponible"})
    b = make_sheet("B", predilections={"tir": "Utilisée"})
    result, changes = SYSTEM.new_session([a, b])
    assert {(c.doc.path, c.path, c.value) for c in changes} == {
        (a.path, ("predilections", "tir"), "disponible"),
        (b.path, ("predilections", "tir"), "disponible")}
    assert result.to_json()["freed"] == {"A": ["tir"], "B": ["tir"]}
    for change in changes:
        change.apply()
    b = reload(b)
    assert SYSTEM.load(b).boxes == {"tir": "disponible"}
    single(CheckRequest(b, "tir", die="d10", options={"predilection": "oui"}), [1, 2])


def test_predilection_odds_use_the_better_of_two(make_sheet: Make) -> None:
    doc = make_sheet(predilections={"tir": "disponible"})
    plain = SYSTEM.odds(CheckRequest(doc, "tir", threshold="10"))
    rerolled = SYSTEM.odds(CheckRequest(doc, "tir", threshold="10",
                                        options={"predilection": "oui"}))
    for p, r in zip(plain.per_die, rerolled.per_die, strict=True):
        assert p.success is not None and r.success is not None
        assert r.success == 1 - (1 - p.success) ** 2
        assert r.automatic_failure == p.automatic_failure ** 2


# ------------------------------------------------------------------ opposed tests


def test_opposed_equal_skills_tie_is_status_quo(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 5}, competences={"tir": 3})
    b = make_sheet("B", attributs={"adresse": 5}, competences={"tir": 3})
    result = check(CheckRequest(a, "tir", opponent=b, die="d10"), [4, 4])
    assert isinstance(result, CydOpposedResult)
    assert result.outcome.winner is None and result.success is False and result.outcome.tie
    assert result.to_json()["winner"] is None


def test_opposed_automatic_failures_and_heroic(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 10}, competences={"tir": 10})
    b = make_sheet("B", attributs={"adresse": 1}, competences={"tir": 1})
    opts = {"de_adverse": "d20"}
    lost = check(CheckRequest(a, "tir", opponent=b, die="d20", options=opts), [1, 3])
    assert isinstance(lost, CydOpposedResult)
    assert lost.outcome.winner == "opponent" and lost.critical == "failure"
    both = check(CheckRequest(a, "tir", opponent=b, die="d20", options=opts), [11, 1])
    assert isinstance(both, CydOpposedResult) and both.outcome.winner is None
    won = check(CheckRequest(b, "tir", opponent=a, die="d20", options=opts), [2, 11])
    assert isinstance(won, CydOpposedResult) and won.success and not won.outcome.heroic
    heroic = check(CheckRequest(a, "tir", opponent=b, die="d10"), [1, 1])  # 21 vs 3
    assert isinstance(heroic, CydOpposedResult)
    assert heroic.success and heroic.outcome.heroic and heroic.critical == "success"
    just = check(CheckRequest(a, "tir", opponent=b, die="d10"), [1, 10])  # 21 vs 12
    assert isinstance(just, CydOpposedResult) and just.success and not just.outcome.heroic


def test_passive_opposition_threshold_is_opponent_capacity(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"discretion": 2})  # Capacité 7
    b = make_sheet("B", attributs={"clairvoyance": 6}, competences={"vigilance": 3},
                   usuel={"vigilance": "clairvoyance"})  # Capacité 9
    opts = {"opposition": "passive"}
    req = CheckRequest(a, "discretion", opponent=b, opponent_skill="vigilance", die="d10",
                       options=opts)
    hit = single(req, [2])
    assert hit.result.threshold == 9 and hit.total == 9 and hit.success is True
    miss = single(req, [1])
    assert miss.success is False
    odds = SYSTEM.odds(req)
    assert odds.threshold == 9 and odds.per_die[0].success == Fraction(9, 10)


def test_opposed_odds(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 5}, competences={"tir": 3})
    b = make_sheet("B", attributs={"adresse": 5}, competences={"tir": 3})
    odds = SYSTEM.odds(CheckRequest(a, "tir", opponent=b))
    d10, d20 = odds.per_die
    # d10 vs d10, same Capacité and skill: win = lose = 45 %, the 10 % of ties = status quo
    assert d10.success == Fraction(45, 100) and d10.nobody == Fraction(1, 10)
    assert d10.opponent_wins == Fraction(45, 100)
    assert d20.critical_failure == Fraction(1, 10)
    total = d20.success + d20.nobody + d20.opponent_wins  # type: ignore[operator]
    assert total == 1


# ------------------------------------------------------------------ odds of both dice


def test_odds_show_both_dice_side_by_side(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})  # Capacité 6
    odds = SYSTEM.odds(CheckRequest(doc, "tir", threshold="10"))
    assert isinstance(odds, CydOdds)
    data = json.loads(json.dumps(odds.to_json()))
    for die in ("d10", "d20"):
        for key in ("success", "critical_success", "critical_failure", "distribution"):
            assert key in data[die]
    assert data["d10"]["success"] == pytest.approx(0.7)       # faces 4..10
    assert data["d10"]["critical_success"] == pytest.approx(0.0)
    assert data["d20"]["success"] == pytest.approx(0.45)      # even faces 4..20
    assert data["d20"]["critical_success"] == pytest.approx(0.2)  # 14..20 even
    assert data["d20"]["critical_failure"] == pytest.approx(0.1)
    text = odds.render()
    assert "d10 (prudent)" in text and "d20 (risqué)" in text and "Réussite héroïque" in text


def test_odds_restricted_to_one_die(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    data = SYSTEM.odds(CheckRequest(doc, "tir", threshold="moyenne", die="d20")).to_json()
    assert "d20" in data and "d10" not in data
    assert data["success"] == data["d20"]["success"] == pytest.approx(0.45)
    assert data["threshold"] == 10 and data["threshold_name"] == "moyenne"


def test_odds_match_the_core_check_odds(make_sheet: Make) -> None:
    from jdr.systems.cyd.checks import build_plan, check_odds

    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    for die in ("d10", "d20"):
        plan = build_plan(CheckRequest(doc, "tir", threshold="12"), SYSTEM.config, die, False)
        core = plan.check.odds()
        mine = check_odds(plan.check, plan.sides)
        assert core.success == mine.success
        assert core.critical_success == mine.critical_success
        assert core.critical_failure == mine.critical_failure


# ------------------------------------------------------------------ cooperation, long actions


def test_cooperation_table_empty_by_default(make_sheet: Make) -> None:
    doc = make_sheet()
    result = single(CheckRequest(doc, "tir", die="d10", options={"aides": "3,8"}), [5])
    assert result.total == 8 + 5
    assert any("A003.09" in n for n in result.notes)


def test_cooperation_table_from_options(make_sheet: Make) -> None:
    doc = make_sheet()
    opts = {"aides": "3,8,0", "table_cooperation": "1:1,5:2"}
    result = single(CheckRequest(doc, "tir", die="d10", options=opts), [5])
    assert result.total == 8 + 5 + 1 + 2 + 0
    table = CydSystem(CydConfig(cooperation_bonus=((2, 1),)))
    res, _ = table.check(CheckRequest(doc, "tir", die="d10", options={"aides": "2"}),
                         FixedSource([5]))
    assert res.total == 8 + 5 + 1
    with pytest.raises(RuleError, match="aides"):
        SYSTEM.check(CheckRequest(doc, "tir", die="d10", options={"aides": "12"}),
                     FixedSource([5]))


@pytest.mark.parametrize(("face", "outcome", "time"), [
    (10, "success", "4h"),        # 8 + 10 = 18 vs 15
    (2, "failure", None),         # 10 < 15
    (7, "success", "4h"),         # 15 vs 15
])
def test_long_action(make_sheet: Make, face: int, outcome: str, time: str | None) -> None:
    doc = make_sheet()
    result = single(CheckRequest(doc, "tir", threshold="15", die="d10",
                                 options={"duree": "4h"}), [face])
    assert result.long_action is not None
    assert result.long_action.outcome == outcome and result.long_action.time == time


def test_long_action_heroic_and_dramatic(make_sheet: Make) -> None:
    doc = make_sheet()
    heroic = single(CheckRequest(doc, "tir", threshold="5", die="d20",
                                 options={"duree": "30 min"}), [8])  # 16 >= 15
    assert heroic.long_action is not None and heroic.long_action.outcome == "heroic"
    assert heroic.long_action.time == "15 min"
    dramatic = single(CheckRequest(doc, "tir", threshold="5", die="d20",
                                   options={"duree": "2 jours"}), [1])
    assert dramatic.long_action is not None and dramatic.long_action.outcome == "dramatic"
    with pytest.raises(RuleError, match="seuil"):
        SYSTEM.check(CheckRequest(doc, "tir", die="d10", options={"duree": "4h"}),
                     FixedSource([1]))


# ------------------------------------------------------------------ retrying (A003.16)


def test_retry_rule_warns_and_the_mj_overrides(make_sheet: Make) -> None:
    doc = make_sheet()
    req = CheckRequest(doc, "tir", threshold="15", die="d10")
    failed = single(req, [2])
    assert failed.success is False and not failed.warnings
    assert [(c.path, c.value) for c in failed.changes] == [(("echecs", "tir"), 3)]
    apply(failed)
    doc = reload(doc)
    req = CheckRequest(doc, "tir", threshold="15", die="d10")
    again = single(req, [9])
    assert len(again.warnings) == 1 and "déjà échoué" in again.warnings[0]
    override = CheckRequest(doc, "tir", threshold="15", die="d10",
                            options={"circonstances": "changees"})
    allowed = single(override, [9])
    assert not allowed.warnings and allowed.success is True
    assert [(c.path, c.value) for c in allowed.changes] == [(("echecs", "tir"), None)]
    other_action = single(CheckRequest(doc, "tir", threshold="15", die="d10",
                                       options={"action": "crocheter"}), [9])
    assert not other_action.warnings
    with pytest.raises(RuleError, match="déjà échoué"):
        SYSTEM.check(CheckRequest(doc, "tir", threshold="15", die="d10",
                                  options={"retente": "bloquer"}), FixedSource([9]))
    quiet = single(CheckRequest(doc, "tir", threshold="15", die="d10",
                                options={"retente": "ignorer"}), [1])
    assert not quiet.warnings and quiet.changes == ()


def test_retry_allowed_once_the_skill_was_raised(make_sheet: Make) -> None:
    doc = make_sheet(competences={"tir": 4}, extra="echecs: {tir: 3}\n")
    result = single(CheckRequest(doc, "tir", threshold="15", die="d10"), [1])
    assert not result.warnings


# ------------------------------------------------------------------ duels and rendering


def test_duel_first_to_two_and_needs_a_skill(make_sheet: Make) -> None:
    a = make_sheet("A", competences={"escrime": 4})
    b = make_sheet("B", competences={"escrime": 2})
    source = FixedSource([5, 5, 1, 9, 6, 2])
    result, _ = SYSTEM.duel(a, b, source, {"competence": "escrime"})
    source.finish()
    data = result.to_json()
    assert data["score"] == [2, 1] and data["winner"] == "A" and len(data["rounds"]) == 3
    with pytest.raises(RuleError, match="compétence"):
        SYSTEM.duel(a, b, FixedSource([1]), {})
    with pytest.raises(RuleError, match="option"):
        SYSTEM.duel(a, b, FixedSource([1]), {"competence": "escrime", "predilection": "oui"})


def test_render_and_json_are_french_and_complete(make_sheet: Make) -> None:
    doc = make_sheet()
    result = single(CheckRequest(doc, "tir", threshold="difficile", die="d20"), [11])
    text = result.render()
    assert "ÉCHEC DRAMATIQUE" in text and "non calculé" in text
    data = result.to_json()
    for key in ("total", "success", "critical", "margin", "dice"):
        assert key in data
    assert data["dice"] == [11]
    source = RandomSource(7)
    for _ in range(50):
        r, _ = SYSTEM.check(CheckRequest(doc, "tir", threshold="10", die="d20"), source)
        json.dumps(r.to_json())
        assert r.render()


def test_negative_capacity_allowed_A003_15(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 1}, competences={"escalade": 0})
    result = single(CheckRequest(doc, "escalade", threshold="moyenne", die="d10"), [1])
    assert result.capacity.value == -2 and result.total == -1
    assert result.success is False and result.dramatic  # -1 <= 10 - 10
    easy = single(CheckRequest(doc, "escalade", threshold="facile", die="d10"), [1])
    assert easy.success is False and not easy.dramatic  # -1 > 5 - 10


@pytest.mark.parametrize(("name", "value"), [
    ("Très difficile", 20), ("tres-difficile", 20), ("TRES_DIFFICILE", 20), ("Extrême", 25),
    ("moyenne", 10), ("difficile", 15), ("12", 12), ("-3", -3),
])
def test_ladder_D003_06(make_sheet: Make, name: str, value: int) -> None:
    result = single(CheckRequest(make_sheet(), "tir", threshold=name, die="d10"), [5])
    assert result.result.threshold == value
    assert result.success is (value <= 13)
