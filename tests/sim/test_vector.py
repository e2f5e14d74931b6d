"""The vectorised simulator's own layout: the table numbers read in an array indexed by both
states or found by sorting the pairs give the same fights for a seed; the tactic « faible »
attacks the first in roster order at equal health, as the engine's loop does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jdr.sim import tables
from jdr.sim.fight import roster
from jdr.sim.run import play, scalar
from sim.fighters import sheets


@pytest.fixture
def fresh_tables() -> Iterator[None]:
    """Every system's tables compiled anew in the test, and again after it."""
    kept = dict(tables._CACHE)
    tables._CACHE.clear()
    yield
    tables._CACHE.clear()
    tables._CACHE.update(kept)


@pytest.mark.parametrize(("system_id", "tactics"), [
    ("deuxdes", ("faible", "hasard")),
    ("dd35", ("prudente", "faible")),       # start of each round (the surprise)
    ("cydonia", ("hasard", "prudente")),    # start of each turn, of another's turn
])
def test_table_numbers_sorted_or_read_in_an_array_give_the_same_fights(
        fresh_tables: None, system_id: str, tactics: tuple[str, str]) -> None:
    system, hero, goblin = sheets(system_id)
    fighters = roster(system, [[hero, hero], [goblin, goblin, goblin]])
    read = play(fighters, tactics, 1500, seed=7).to_json()
    tables._CACHE.clear()
    tables.compiled(system).dense_cells = 0  # every pair found by sorting
    sorted_out = play(fighters, tactics, 1500, seed=7).to_json()
    assert not tables.compiled(system)._dense
    assert sorted_out == read
    assert 0 < read["sides"][0]["win"] < 1


def test_at_equal_health_the_first_in_roster_order_is_attacked() -> None:
    """One round of a hero against three goblins that one blow cannot fell: only the first
    goblin is hurt, in the vectorised fights as in the engine's."""
    system, hero, goblin = sheets("deuxdes")
    fighters = roster(system, [[hero], [goblin, goblin, goblin]])
    for figures in (play(fighters, ("faible", "faible"), 2000, seed=8, max_rounds=1),
                    scalar(fighters, ("faible", "faible"), 60, seed=8, max_rounds=1)):
        left = [c.health_left_mean for c in figures.characters[1:]]
        assert left[0] < 5 and left[1:] == [5, 5], figures.characters
