"""Issue 10 in play: the critical options chosen after the dice inside one action (R001.18,
R001.19), the surprise rule (A001.24) with its exact odds, and a campaign encounter where a
character falls, has its turn passed and dies by the MJ's decision (D-001.30, D-ALL.02)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from maitrise_support import loaded

from helpers import golden
from jdr.campaign import encounter
from jdr.campaign.journal import undo
from jdr.campaign.store import Campaign
from jdr.campaign.workspace import CampaignWorkspace
from jdr.core.actions import commit, execute
from jdr.core.check import Odds
from jdr.core.options import parse_options
from jdr.core.results import Report
from jdr.core.sheet import SheetDocument
from jdr.core.system import Question, RuleRequest
from jdr.core.usecase import FileWorkspace
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import FixedSource
from jdr.errors import JdrError, RuleError
from jdr.render import render
from jdr.systems.maitrise import ACTIONS, SYSTEM


def _yaml(name: str, *, epee: int = 25, pv: int = 20, force: int = 14, adresse: int = 12,
          intelligence: int = 10, discretion: int = 0) -> str:
    return (f"systeme: maitrise\nnom: {name}\ncaracteristiques: {{intelligence: {intelligence}, "
            f"adresse: {adresse}, force: {force}, charisme: 9, volonte: 10, constitution: 12}}\n"
            f"competences: {{epee: {epee}, discretion: {discretion}}}\n"
            f"armes: [{{nom: Épée, competence: epee}}]\npv: {{max: 20, actuels: {pv}}}\n")


@pytest.fixture
def duo(tmp_path: Path) -> tuple[Path, Path]:
    a, d = tmp_path / "a.yaml", tmp_path / "d.yaml"
    a.write_text(_yaml("Bretteuse"), encoding="utf-8")
    d.write_text(_yaml("Garde", epee=25), encoding="utf-8")
    return a, d


class Asked:
    """A chooser that answers from a table and remembers every question."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.questions: list[Question] = []

    def __call__(self, question: Question) -> str:
        self.questions.append(question)
        return next((v for k, v in self.answers.items() if k in question.choices),
                    question.default)


def _pv(path: Path) -> str:
    return next(line for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith("pv:"))


# ------------------------------------------------------------------ R001.18 / R001.19 choices


def test_R001_18_degats_chosen_after_the_20_is_applied_once(duo: tuple[Path, Path]) -> None:
    a, d = duo
    asked = Asked({"degats": "degats"})
    source = FixedSource([20, 5, 4, 7])  # critical attack; parry 5 < 8 fails; 1d6 4; 1d10 7
    ws = FileWorkspace()
    done = execute(ws, "attack", {"attaquant": str(a), "defenseur": str(d)}, source,
                   chooser=asked)
    assert len(asked.questions) == 1 and source.position == 4
    question = asked.questions[0]
    shown: Any = question.shown
    assert question.default == "aucune" and shown is not None
    assert shown.natural == 20 and shown.critical == "success"
    assert done.result.damage[0].suffered == 4 + 5 + 7
    assert [c.path for c in done.pending.outcome.changes] == [("pv",)]
    assert _pv(d) == "pv: {max: 20, actuels: 20}"  # nothing written before the commit
    commit(ws, done)
    assert _pv(d) == "pv: {max: 20, actuels: 4}"
    with pytest.raises(JdrError, match="déjà enregistrée"):
        commit(ws, done)  # the same action never writes twice
    assert _pv(d) == "pv: {max: 20, actuels: 4}"


def test_R001_18_option_given_beforehand_is_not_asked(duo: tuple[Path, Path]) -> None:
    a, d = duo
    asked = Asked({"degats": "rapidite"})
    done = execute(FileWorkspace(), "attack", {"attaquant": str(a), "defenseur": str(d),
                                               "critique": "degats"},
                   FixedSource([20, 5, 4, 7]), chooser=asked)
    assert asked.questions == [] and done.result.damage[0].suffered == 16


def test_R001_18_rapidite_adds_ten_once(duo: tuple[Path, Path]) -> None:
    a, d = duo
    asked = Asked({"degats": "rapidite"})
    done = execute(FileWorkspace(), "attack", {"attaquant": str(a), "defenseur": str(d)},
                   FixedSource([20, 19, 3]), chooser=asked)
    exchange = done.result.steps[0]
    assert exchange.actor.margin == 22 + 10  # (20 + 25) / 2, then Rapidité once
    assert exchange.opponent.margin == 22 and done.result.hit  # parry 19 + 25: 22 < 32
    assert sum("Rapidité" in str(n) for n in exchange.actor.notes) == 1


def test_R001_19_defence_option_asked_once_and_resists_once(duo: tuple[Path, Path]) -> None:
    a, d = duo
    master = d.parent / "m.yaml"
    master.write_text(_yaml("Maître", epee=85, force=12), encoding="utf-8")
    asked = Asked({"resister": "resister"})
    done = execute(FileWorkspace(), "attack", {"attaquant": str(master), "defenseur": str(a)},
                   FixedSource([19, 20, 6, 4]), chooser=asked)
    assert [q.choices for q in asked.questions] == [("rapidite", "appuis", "resister", "mj",
                                                     "aucune")]
    blow = done.result.damage[0]
    assert (blow.total, blow.protection, blow.suffered) == (6 + 3, 4, 5)


def test_R001_18_nobody_to_ask_takes_no_option(duo: tuple[Path, Path]) -> None:
    a, d = duo
    done = execute(FileWorkspace(), "attack", {"attaquant": str(a), "defenseur": str(d)},
                   FixedSource([20, 5, 4]))
    assert done.result.damage[0].suffered == 9
    assert any("option possible" in n.text for n in done.result.notes)


# ------------------------------------------------------------------ A001.24 surprise

SURPRISE_OPTS = ["competence=discretion", "resistance=intelligence"]


@pytest.fixture
def ambush(tmp_path: Path) -> list[Path]:
    out = []
    cast: tuple[tuple[str, dict[str, int]], ...] = (
        ("Ombre", {"discretion": 30}), ("Garde", {"intelligence": 10}),
        ("Sentinelle", {"intelligence": 14}), ("Blesse", {"pv": 0}))
    for name, kw in cast:
        path = tmp_path / f"{name.lower()}.yaml"
        path.write_text(_yaml(name, **kw), encoding="utf-8")
        out.append(path)
    return out


def surprise(paths: list[Path], faces: list[int], opts: list[str] | None = None,
             **params: Any) -> Any:
    return execute(FileWorkspace(), "regle",
                   {"nom": "surprise", "personnages": [str(p) for p in paths],
                    "opt": SURPRISE_OPTS if opts is None else opts, **params},
                   FixedSource(faces)).result  # Any: a Report


def test_A001_24_surprise_is_a_margin_contest(ambush: list[Path]) -> None:
    ombre, garde, sentinelle, blesse = ambush
    # Ombre 12 + 30 → 21; Garde 12 + 10 → 11 (≥ 10, success); Sentinelle 20 (critical) → 17;
    # Blessé (0 pv) rolls nothing.
    report = surprise([ombre, garde, sentinelle, blesse], [12, 12, 20])
    assert isinstance(report, Report) and report.rule == "R001.11, A001.24"
    parts: Any = report.parts
    assert [p.winner for p in parts] == ["actor", "actor", "actor"]
    assert parts[2].opponent.dice == () and not parts[2].opponent.rolled
    assert "Garde : surprise réussie ; l'effet en est laissé au MJ" in render(report)
    assert report.notes[0].text == "3 cible(s) surprise(s) sur 3"
    for suffix, fmt in (("txt", "texte"), ("forum.txt", "forum"), ("json", "json")):
        golden(f"maitrise/regle_surprise.{suffix}", render(report, fmt))


def test_A001_24_equal_margins_leave_the_target_unsurprised(ambush: list[Path]) -> None:
    ombre, garde = ambush[:2]
    by_sword = ["competence=discretion", "resistance=epee"]
    # Ombre 10 + 30 → 20; Garde's épée 25: 19 → 22 beats it, 15 → 20 ties (the status quo)
    assert surprise([ombre, garde], [10, 19], by_sword).parts[0].winner == "opponent"
    tie = surprise([ombre, garde], [10, 15], by_sword).parts[0]
    assert tie.winner == "opponent" and tie.tie
    assert surprise([ombre, garde], [10, 20]).parts[0].winner == "actor"  # critical 15 < 20
    both_fail = surprise([ombre, garde], [7, 5])
    assert both_fail.parts[0].winner == "nobody"
    assert "pas de surprise" in render(both_fail)


def test_A001_24_surprise_needs_the_mj_s_skills(ambush: list[Path]) -> None:
    with pytest.raises(RuleError, match="--opt competence=COMPETENCE"):
        surprise(ambush[:2], [10, 10], ["resistance=intelligence"])
    with pytest.raises(RuleError, match="--opt resistance=COMPETENCE"):
        surprise(ambush[:2], [10, 10], ["competence=discretion"])
    with pytest.raises(RuleError, match="au moins une cible"):
        surprise(ambush[:1], [10])
    with pytest.raises(RuleError, match="compétence"):
        surprise(ambush[:2], [10, 10], ["competence=vol", "resistance=intelligence"])


def _request(paths: list[Path], opts: list[str]) -> RuleRequest[Any]:
    sheets = tuple(loaded(SheetDocument.load(p)) for p in paths)
    return RuleRequest(sheets, parse_options(ACTIONS["surprise"], opts, "maitrise"))


@pytest.mark.parametrize("who", [(0, 1), (0, 1, 2, 3)])
def test_A001_24_surprise_odds_are_exact(ambush: list[Path], who: tuple[int, ...]) -> None:
    """One target: the core contest odds; several (one of them down): all, and each one."""
    request = _request([ambush[i] for i in who], [*SURPRISE_OPTS, "bonus_resistance=3"])

    def winners(src: Any) -> tuple[str, ...]:
        report: Any = SYSTEM.rule("surprise", request, src).result
        return tuple(p.winner for p in report.parts)

    rolled = enumerate_outcomes(winners)
    odds = SYSTEM.rule_odds("surprise", request)
    everyone = sum((p for w, p in rolled.items() if all(x == "actor" for x in w)), Fraction(0))
    assert odds.success == everyone
    for i, (_, _, p) in enumerate(odds.extra):
        assert p == sum((q for w, q in rolled.items() if w[i] == "actor"), Fraction(0))
    assert len(odds.extra) == (0 if len(who) == 2 else len(who) - 1)


def test_A001_24_surprise_odds_through_execute(ambush: list[Path]) -> None:
    done = execute(FileWorkspace(), "regle", {"nom": "surprise", "chances": True,
                                              "personnages": [str(p) for p in ambush[:2]],
                                              "opt": SURPRISE_OPTS})
    assert isinstance(done.result, Odds) and not done.journal
    assert done.result.success == SYSTEM.rule_odds(
        "surprise", _request(ambush[:2], SURPRISE_OPTS)).success
    with pytest.raises(RuleError, match="règle"):
        SYSTEM.rule("duel", _request(ambush[:2], SURPRISE_OPTS), FixedSource([]))


# ------------------------------------------------------------------ an encounter (campaign)


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[Campaign]:
    made = Campaign.create(str(tmp_path / "essai.jdr"), "Duel", "maitrise")
    with made.transaction() as tx:
        for name, adresse in (("Bretteuse", 14), ("Garde", 12), ("Guetteur", 10)):
            tx.add(SheetDocument.from_text(_yaml(name, adresse=adresse, force=20),
                                           Path(f"{name}.yaml")))
    yield made
    made.dispose()


def act(campaign: Campaign, kind: str, params: dict[str, Any], *faces: int, force: bool = False
        ) -> Any:
    with campaign.transaction() as tx:
        ws = CampaignWorkspace(tx, force=force)  # force: the MJ's override of the turn rules
        done = execute(ws, kind, params, FixedSource(faces))
        commit(ws, done)
        return done.result


def test_D_001_30_encounter_passes_the_fallen_and_keeps_the_mj_s_death(campaign: Campaign
                                                                       ) -> None:
    with campaign.transaction() as tx:
        view, _ = encounter.start(tx, ["Garde", "Bretteuse", "Guetteur"], FixedSource([]))
    assert [r.name for r in view.order] == ["Bretteuse", "Garde", "Guetteur"]  # A001.25
    hit = act(campaign, "attack", {"attaquant": "Bretteuse", "defenseur": "Garde",
                                   "defense": "aucune"}, 12, 6)  # 6 + 11 = 17
    hit = act(campaign, "attack", {"attaquant": "Bretteuse", "defenseur": "Garde",  # a second
                                   "defense": "aucune"}, 12, 6, force=True)  # blow: the MJ's override
    assert hit.state.after == "hors_de_combat" and hit.health.after == 0
    with campaign.transaction() as tx:
        view, _ = encounter.next_turn(tx, FixedSource([]))
    assert view.current == "Guetteur"
    assert [r.state for r in view.order] == ["debout", "hors_de_combat", "debout"]
    assert any(n.text.startswith("Garde ne peut pas agir : hors de combat (0 pv)")
               and "D-001.30" in n.rule for n in view.notes)
    with pytest.raises(RuleError, match="Garde ne peut pas agir"):
        act(campaign, "attack", {"attaquant": "Garde", "defenseur": "Guetteur"}, 12, 3)
    dead = act(campaign, "attack", {"attaquant": "Guetteur", "defenseur": "Garde",
                                    "opt": ["mort=oui"]}, 12, 1)  # no defence roll
    assert (dead.state.before, dead.state.after) == ("hors_de_combat", "mort")
    with campaign.reading() as tx:
        assert SYSTEM.state(tx.load(["Garde"])[1][0]) == "mort"
        entry = tx.entries()[-1]
    # `created`: the `etat` table the change made, which an undo removes again (issue 15)
    assert {"character": "Garde", "path": ["etat", "mort"], "pool": False, "before": None,
            "after": True, "created": 1} in entry.changes
    with campaign.transaction() as tx:
        undo(tx)
    with campaign.reading() as tx:
        assert SYSTEM.state(tx.load(["Garde"])[1][0]) == "hors_de_combat"
