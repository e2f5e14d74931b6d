"""The simulator's engines agree: the vectorised one (compiled tables, numpy) with the engine's
loop (the systems' own code, fight after fight), and an exact duel with its Monte Carlo."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from jdr.core.registry import get_system
from jdr.core.sheet import SheetDocument
from jdr.core.usecase import load
from jdr.errors import JdrError, RuleError
from jdr.sim.fight import roster
from jdr.sim.run import play, scalar, simulate
from sim.fighters import sheets

TACTICS = ("faible", "faible")


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1 / n) / n)


@pytest.mark.parametrize(("system_id", "chance", "n_scalar"), [
    ("deuxdes", 1, 200), ("maitrise", 1, 80), ("dd35", 1, 80), ("cydonia", 1, 100),
    ("felins", 1, 100), ("felins", 2, 100), ("felins", 3, 100)])
def test_vectorised_agrees_with_the_engine_loop(system_id: str, chance: int, n_scalar: int
                                                ) -> None:
    """Win probability and mean rounds within 4 standard errors (fixed seeds); compiled for
    every system (Cydonia's and Félins' attacks from the laws of their parts; Félins' hero
    rolls as many d10 as its Chance)."""
    system, hero, goblin = sheets(system_id, hero_chance=chance)
    fighters = roster(system, [[hero], [goblin, goblin]])
    vector = play(fighters, TACTICS, 4000, seed=1)
    engine = scalar(fighters, TACTICS, n_scalar, seed=2)
    assert vector.compiled and not engine.notes
    se = math.hypot(_se(vector.win[0], 4000), _se(engine.win[0], n_scalar))
    assert abs(vector.win[0] - engine.win[0]) < 4 * se
    spread = max(1.0, sum((r - engine.rounds_mean) ** 2 * p for r, p in engine.rounds.items()))
    assert abs(vector.rounds_mean - engine.rounds_mean) < 4 * math.sqrt(spread / n_scalar)
    assert 0 < vector.win[0] < 1 and sum(engine.rounds.values()) == pytest.approx(1)


@pytest.mark.parametrize("system_id", ["deuxdes", "maitrise"])
def test_exact_duel_agrees_with_its_monte_carlo(system_id: str) -> None:
    system, hero, goblin = sheets(system_id)
    exact = simulate(system, [[hero], [goblin]], 20_000, seed=3)
    drawn = simulate(system, [[hero], [goblin]], 20_000, seed=3, exact=False)
    assert exact.exact and not drawn.exact
    assert exact.win[0] + exact.win[1] + exact.draw == pytest.approx(1)
    assert abs(drawn.win[0] - exact.win[0]) < 4 * _se(exact.win[0], 20_000)
    assert abs(drawn.rounds_mean - exact.rounds_mean) < 0.05
    for mine, theirs in zip(exact.characters, drawn.characters, strict=True):
        assert abs(mine.fall - theirs.fall) < 4 * _se(mine.fall, 20_000)


def test_two_identical_sheets_win_half_the_time() -> None:
    system, hero, _ = sheets("maitrise")
    exact = simulate(system, [[hero], [hero]], 10_000, seed=4)
    assert exact.exact and exact.win[0] == pytest.approx(exact.win[1])
    assert exact.win[0] == pytest.approx((1 - exact.draw) / 2)
    drawn = simulate(system, [[hero], [hero]], 10_000, seed=4, exact=False)
    assert abs(drawn.win[0] - 0.5 * (1 - drawn.draw)) < 4 * _se(0.5, 10_000)
    assert [c.name for c in drawn.characters] == ["Bretteur", "Bretteur 2"]


def test_a_system_that_does_not_compile_is_played_by_the_engine_and_says_so() -> None:
    """A Cydonia weapon whose damage explodes (dice without end) has no table: the engine's
    loop plays every fight, the same figures as the scalar engine for the seed."""
    system = get_system("cydonia")
    nain_text, _, gobelin_text = system.demo_sheets()
    nain = load(system, SheetDocument.from_text(nain_text.replace('"PHY+3+1d10"', '"PHY+1d6!"'),
                                                Path("nain.yaml")))
    gobelin = load(system, SheetDocument.from_text(gobelin_text, Path("gobelin.yaml")))
    fighters = roster(system, [[nain], [gobelin, gobelin]])
    played = play(fighters, TACTICS, 12, seed=5)
    assert not played.compiled and "ne se compile pas" in played.notes[0]
    assert played.to_json() == scalar(fighters, TACTICS, 12, seed=5, why="l'attaque (plus de 2000 "
                                      "suites de dés, ou des dés sans fin)").to_json()
    with pytest.raises(JdrError, match="1000 combats au plus ici"):
        simulate(system, [[nain], [gobelin]], 2000, seed=5, scalar_max=1000)


def test_round_start_is_played_sheet_by_sheet() -> None:
    """dd35's `round_start` ends a surprise after the first round (A002.21): the compiled
    start-of-round table takes a surprised sheet to the same sheet, not surprised, and the
    vectorised fights agree with the engine's on a surprised hero (caught flat-footed, its
    Dextérité 18 lost to its armour class)."""
    from jdr.sim.tables import compiled

    system, hero, goblin = sheets("dd35")
    text = hero.doc.plain()
    surprised = {**text, "caracteristiques": {**text["caracteristiques"], "dexterite": 18},
                 "etat": {"surpris": True}}
    tables = compiled(system)
    state = tables.state(surprised)
    _, after, _ = tables.hooks["round"].tables[tables.hook_id("round", state, 0)]
    unnamed = {k: v for k, v in surprised.items() if k != "nom"}
    assert [tables.plains[int(s)] for s in after] == [{**unnamed, "etat": {"surpris": False}}]
    hero = load(system, SheetDocument(Path("heros.yaml"), surprised))
    fighters = roster(system, [[hero], [goblin, goblin]])
    vector, engine = play(fighters, TACTICS, 4000, seed=1), scalar(fighters, TACTICS, 80, seed=2)
    se = math.hypot(_se(vector.win[0], 4000), _se(engine.win[0], 80))
    assert vector.compiled and abs(vector.win[0] - engine.win[0]) < 4 * se


def test_a_lost_turn_ends_at_the_next_turn_of_another() -> None:
    """Cydonia's `turn_start` ends a paralysis (R000.27) once the paralysed character has lost
    its turn, as the next character's turn begins — a change to another sheet: the simulator
    compiles it as a table of its own (what the start of another's turn does to a character),
    so the vectorised fights follow the engine's."""
    import numpy as np

    from jdr.sim.tables import compiled

    system, _, goblin = sheets("cydonia")
    tables = compiled(system)
    state = tables.state({**goblin.doc.plain(), "etat": {"paralyse": True}})
    _, kept, lost = tables.hooks["tour"].tables[tables.hook_id("tour", state, 0)]
    assert list(kept) == [state] and int(lost[0]) != 0  # its own turn: lost, remembered
    ids = tables.other_ids(np.array([state, state]), np.array([int(lost[0]), 0]))
    assert ids[1] == -1  # not yet: another's turn before its own lost turn changes nothing
    _, released, forgotten = tables.hooks["autre"].tables[int(ids[0])]
    assert tables.plains[int(released[0])]["etat"] == {"paralyse": False}
    assert list(forgotten) == [0]


def test_refusals_are_french() -> None:
    system, hero, _ = sheets("deuxdes")
    with pytest.raises(JdrError, match="le camp 2 est vide"):
        simulate(system, [[hero], []], 10)
    with pytest.raises(JdrError, match="de 1 à 1 000 000"):
        simulate(system, [[hero], [hero]], 0)
    with pytest.raises(JdrError, match="tactique"):
        simulate(system, [[hero], [hero]], 10, tactics=["bourrin"])
    cyd = get_system("cyd")
    with pytest.raises(RuleError, match="pas de règle d'attaque"):
        roster(cyd, [[hero], [hero]])
