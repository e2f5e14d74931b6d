"""A small duel solved exactly (placeholder)."""

from __future__ import annotations

from collections.abc import Sequence

from jdr.sim.fight import Roster
from jdr.sim.summary import Simulation


def solve_duel(fighters: Roster, tactics: Sequence[str], n: int, max_rounds: int
               ) -> Simulation | None:
    return None
