"""States as far as the kit defines them (R003.02: a Santé spent kills; D-ALL.02: the dead
cannot act) and the rules `jdr regle` plays (cooperation R003.18, action simple A003.08, Santé
and Psyché R003.02, moving R003.02 / R003.23), through `jdr.core.actions.execute` as every
front end calls them."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from helpers import cli
from jdr.core.actions import commit, execute
from jdr.core.check import CheckResult, Odds
from jdr.core.results import Health, Notes
from jdr.core.system import Loaded, RuleRequest
from jdr.core.usecase import FileWorkspace, options
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import FixedSource
from jdr.errors import JdrError, RuleError
from jdr.systems.cyd import SYSTEM
from jdr.systems.cyd.sheet import CydSheet
from systems.cyd.cyd_support import one_french_line, reload, texts

Make = Callable[..., Loaded[CydSheet]]
SECONDARY = "secondaires: {{sante: {sante}, psyche: {{max: 10, actuels: {psyche}}}, vitesse: 8}}\n"


def with_health(make: Make, name: str = "Rôdeuse", sante: str = "{max: 20, actuels: 20}",
                psyche: int = 10, **kw: Any) -> Loaded[CydSheet]:
    return make(name, extra=SECONDARY.format(sante=sante, psyche=psyche), **kw)


def run(kind: str, params: dict[str, Any], faces: list[int] | None = None, **kw: Any) -> Any:
    """One action through the core entry point, committed (sheets written) like `jdr` does."""
    ws = FileWorkspace()
    done = execute(ws, kind, params, FixedSource(faces) if faces is not None else None, **kw)
    commit(ws, done)
    return done


def rule(name: str, *sheets: Loaded[CydSheet], faces: list[int] | None = None,
         **opts: Any) -> Any:
    params = {"nom": name, "personnages": [str(s.doc.path) for s in sheets],
              "opt": [f"{k}={v}" for k, v in opts.items()]}
    return run("regle", params, faces)


def refused(call: Callable[[], Any], *words: str) -> str:
    with pytest.raises(JdrError) as info:
        call()
    line = one_french_line(info.value)
    for word in words:
        assert word in line, line
    return line


# ------------------------------------------------------------------ states (R003.02, D-ALL.02)


@pytest.mark.parametrize(("current", "state"), [(20, "debout"), (1, "debout"), (0, "mort"),
                                                (-4, "mort")])
def test_R003_02_a_spent_sante_kills(make_sheet: Make, current: int, state: str) -> None:
    doc = with_health(make_sheet, sante=f"{{max: 20, actuels: {current}}}")
    assert SYSTEM.state(doc) == state
    assert (SYSTEM.incapacity(doc) is None) is (state == "debout")
    assert SYSTEM.health(doc) == Health("pv", current, current, 20)


def test_R003_02_no_sante_on_the_sheet_no_state(make_sheet: Make) -> None:
    doc = make_sheet()
    assert SYSTEM.state(doc) == "debout" and SYSTEM.incapacity(doc) is None
    assert SYSTEM.health(doc) is None


def test_conditions_R003_04_R003_17_R003_02(make_sheet: Make) -> None:
    doc = with_health(make_sheet, psyche=4, predilections={"tir": "utilisee"},
                      competences={"tir": 3})
    assert SYSTEM.conditions(doc) == ("prédilection utilisée : tir", "psyché 4/10")
    failed = make_sheet(extra="echecs: {tir: 3}\n")
    assert SYSTEM.conditions(failed) == ("action échouée : tir",)


def dead(make_sheet: Make, name: str = "Mort") -> Loaded[CydSheet]:
    return with_health(make_sheet, name, sante="{max: 20, actuels: 0}")


def test_D_ALL_02_the_dead_cannot_act(make_sheet: Make) -> None:
    corpse, other = dead(make_sheet), with_health(make_sheet, "Vif")
    path = str(corpse.doc.path)
    before = Path(path).read_text(encoding="utf-8")
    check = {"personnage": path, "competence": "tir", "seuil": "5", "de": "d10"}
    line = refused(lambda: run("check", check, [5]), "Mort ne peut pas agir", "R003.02", "sans vie")
    assert line.count("Mort") == 1
    refused(lambda: rule("action_simple", corpse), "ne peut pas agir")
    refused(lambda: rule("cooperation", corpse, other, competence="tir", de="d10", faces=[5]),
            "ne peut pas agir")
    refused(lambda: run("duel", {"personnages": [str(other.doc.path), path],
                                 "opt": ["competence=tir", "de=d10"]}, [5, 5]), "Mort")
    assert Path(path).read_text(encoding="utf-8") == before
    odds = execute(FileWorkspace(), "odds", {**check, "de": "d10"}).result  # not an action
    assert isinstance(odds, Odds)


@pytest.mark.parametrize("mode", ["active", "passive"])
def test_D_ALL_02_a_dead_opponent_stays_a_target_and_opposes_passively(make_sheet: Make, mode: str
                                                                       ) -> None:
    """docs/campagne.md: one who cannot act stays the opponent of an opposed roll; he rolls no
    die, his Capacité is the threshold (A003.03's passive opposition, D-ALL.02)."""
    corpse, actor = dead(make_sheet), with_health(make_sheet, "Vif")
    params = {"personnage": str(actor.doc.path), "competence": "tir", "de": "d10",
              "contre": str(corpse.doc.path), "opt": [f"opposition={mode}"]}
    from jdr.render.text import to_text

    text = to_text(run("check", params, [5]).result)  # the actor's die only
    assert "Mort ne peut pas s'opposer" in text and "opposition passive" in text, text


def test_D_ALL_02_the_dead_are_refused_through_the_cli(make_sheet: Make) -> None:
    corpse = dead(make_sheet)
    result = cli("check", corpse.doc.path, "tir", "--seuil", "5", "--de", "d10", "--des", "5")
    assert result.code == 2 and "ne peut pas agir" in result.err and "R003.02" in result.err
    assert cli("regle", "encaisser", corpse.doc.path, "--opt", "sante=1").code == 2


# ------------------------------------------------------------------ encaisser, recuperer


def test_R003_02_encaisser_down_to_death(make_sheet: Make) -> None:
    doc = with_health(make_sheet)
    done = rule("encaisser", doc, sante="8", psyche="3")
    assert isinstance(done.result, Notes)
    assert texts(done.result.lines)[:2] == ["Santé : 20 → 12 (-8, maximum 20)",
                                            "Psyché : 10 → 7 (-3, maximum 10)"]
    assert [(c["path"], c["before"], c["after"]) for c in done.rec.changes] == [
        (["secondaires", "sante", "actuels"], 20, 12),
        (["secondaires", "psyche", "actuels"], 10, 7)]
    doc = reload(doc)
    assert SYSTEM.state(doc) == "debout" and SYSTEM.health(doc) == Health("pv", 12, 12, 20)
    last = rule("encaisser", doc, sante="12")
    assert "état : debout → sans vie (la Santé est épuisée)" in texts(last.result.lines)
    doc = reload(doc)
    assert SYSTEM.state(doc) == "mort"
    assert "# commentaire de la personne" in doc.doc.path.read_text(encoding="utf-8")


def test_R003_02_a_bare_sante_becomes_a_pool(make_sheet: Make) -> None:
    doc = with_health(make_sheet, sante="15")
    rule("encaisser", doc, sante="20")
    doc = reload(doc)
    assert SYSTEM.health(doc) == Health("pv", -5, -5, 15) and SYSTEM.state(doc) == "mort"


def test_R003_02_encaisser_needs_an_amount_and_a_pool(make_sheet: Make) -> None:
    refused(lambda: rule("encaisser", with_health(make_sheet)), "--opt sante=N")
    refused(lambda: rule("encaisser", make_sheet(), sante="3"), "pas de Santé",
            "secondaires.sante")
    refused(lambda: rule("encaisser", with_health(make_sheet), sante="1001"), "de 0 à 1\u202f000")


def test_R003_02_recuperer_up_to_the_maximum_not_the_dead(make_sheet: Make) -> None:
    doc = with_health(make_sheet, sante="{max: 20, actuels: 5}", psyche=9)
    done = rule("recuperer", doc, sante="30", psyche="1")
    assert texts(done.result.lines)[:2] == ["Santé : 5 → 20 (+15, maximum 20)",
                                            "Psyché : 9 → 10 (+1, maximum 10)"]
    refused(lambda: rule("recuperer", dead(make_sheet), sante="5"), "ne peut pas agir")


# ------------------------------------------------------------------ other rules


def test_A003_08_simple_action_succeeds_without_a_roll(make_sheet: Make) -> None:
    done = rule("action_simple", make_sheet(), action="ouvrir la porte")
    assert isinstance(done.result, Notes) and done.rec.dice == []
    assert done.result.title == "Rôdeuse : action simple (ouvrir la porte), réussite automatique"
    assert done.result.lines[0].rule == "A003.08"


@pytest.mark.parametrize(("opts", "line"), [
    ({"tours": "3"}, "3 tour(s) : 24 m, en 18 s"),
    ({"distance": "30"}, "30 m : 4 tour(s), en 24 s (32 m au plus)"),
    ({"tours": "20"}, "20 tour(s) : 160 m, en 120 s (2 min)"),
])
def test_R003_02_R003_23_moving(make_sheet: Make, opts: dict[str, Any], line: str) -> None:
    done = rule("deplacement", with_health(make_sheet), **opts)
    assert texts(done.result.lines) == ["Vitesse 8 m par tour de jeu de 6 secondes", line]


def test_R003_23_moving_needs_a_speed_and_one_measure(make_sheet: Make) -> None:
    refused(lambda: rule("deplacement", make_sheet(), tours="2"), "Vitesse")
    refused(lambda: rule("deplacement", with_health(make_sheet)), "tours=N ou")
    refused(lambda: rule("deplacement", with_health(make_sheet), tours="1", distance="3"),
            "tours=N ou")


# ------------------------------------------------------------------ cooperation (R003.18)


def team(make_sheet: Make) -> tuple[Loaded[CydSheet], ...]:
    return (make_sheet("Meneuse", competences={"tir": 3}),
            make_sheet("Bob", competences={"tir": 5}),
            make_sheet("Zoé", competences={"vol": 2}))


def test_R003_18_cooperation_reads_each_helper_skill(make_sheet: Make) -> None:
    leader, bob, zoe = team(make_sheet)
    done = rule("cooperation", leader, bob, zoe, faces=[4], competence="tir", seuil="15",
                de="d10", table_cooperation="0:1,5:2")
    result = done.result
    assert isinstance(result, CheckResult) and result.total == 8 + 4 + 2 + 1
    assert texts(result.notes)[0] == "meneur : Meneuse ; aides : Bob (tir 5), Zoé (sans la " \
                                     "compétence : 0)"
    assert result.success is True


def test_A003_09_cooperation_without_a_table_gives_no_bonus(make_sheet: Make) -> None:
    leader, bob, _ = team(make_sheet)
    result = rule("cooperation", leader, bob, faces=[4], competence="tir", seuil="15",
                  de="d10").result
    assert result.total == 12 and result.success is False
    assert any("table de bonus manque" in n for n in texts(result.notes))
    assert reload(leader).model.failures == {"tir": 3}  # D-003.16 applies to the leader


def test_R003_18_cooperation_refusals(make_sheet: Make) -> None:
    leader, bob, _ = team(make_sheet)
    refused(lambda: rule("cooperation", leader, competence="tir", de="d10"), "au moins une aide")
    refused(lambda: rule("cooperation", leader, bob, competence="tir"), "--opt de=d10|d20")
    refused(lambda: rule("cooperation", leader, bob, de="d10"), "compétence")
    refused(lambda: rule("cooperation", leader, bob, bob, faces=[1], competence="tir", de="d10"),
            "deux fois")
    corpse = dead(make_sheet)
    refused(lambda: rule("cooperation", leader, corpse, faces=[1], competence="tir", de="d10"),
            "Mort ne peut pas aider", "D-ALL.02")


def _coop(sheets: tuple[Loaded[CydSheet], ...], **opts: str) -> RuleRequest[CydSheet]:
    return RuleRequest(sheets, options(SYSTEM, "cooperation", opts))


@pytest.mark.parametrize("die", ["d10", "d20"])
def test_R003_18_cooperation_exact_odds(make_sheet: Make, die: str) -> None:
    """The odds of `regle cooperation --chances` are those of the very roll, enumerated."""
    sheets = team(make_sheet)
    request = _coop(sheets, competence="tir", seuil="15", de=die, table_cooperation="1:1,5:3",
                    retente="ignorer")

    def once(src: Any) -> tuple[bool, str | None]:
        result = SYSTEM.rule("cooperation", request, src).result
        assert isinstance(result, CheckResult)
        return bool(result.success), result.critical

    rolled = enumerate_outcomes(once)
    odds = SYSTEM.rule_odds("cooperation", request)

    def p(test: Callable[[bool, str | None], bool]) -> Fraction:
        return sum((q for (ok, c), q in rolled.items() if test(ok, c)), Fraction(0))

    assert odds.success == p(lambda ok, _: ok)
    assert odds.critical_success == p(lambda _, c: c == "success")
    assert odds.critical_failure == p(lambda _, c: c == "failure")
    via = execute(FileWorkspace(), "regle", {"nom": "cooperation", "chances": True,
                                             "personnages": [str(s.doc.path) for s in sheets],
                                             "opt": ["competence=tir", "seuil=15", f"de={die}",
                                                     "table_cooperation=1:1,5:3"]})
    assert via.result.success == odds.success and not via.journal


def test_rule_odds_only_for_rolls(make_sheet: Make) -> None:
    request = RuleRequest((make_sheet(),), options(SYSTEM, "action_simple", {}))
    with pytest.raises(RuleError, match="ne lance pas de dés"):
        SYSTEM.rule_odds("action_simple", request)
