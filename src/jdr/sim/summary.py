"""The figures of a simulation: per side the chance of winning (95 % Wilson interval), the draw,
the rounds (mean and distribution), per character the chance of falling and of dying and the
mean health left — from N fights played, or from an exact duel."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import field
from typing import Any

import numpy as np

from jdr.core.frozen import frozen
from jdr.sim.fight import FightResult, Roster
from jdr.sim.vector import Batch

Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@frozen
class Character:
    name: str
    side: int
    fall: float
    death: float
    health_left_mean: float


@frozen
class Simulation:
    """What `jdr simuler` reports (`to_json`: docs/json.md, « simulation »)."""

    system: str
    n: int
    sides: tuple[tuple[str, ...], tuple[str, ...]]
    tactics: tuple[str, str]
    win: tuple[float, float]
    ci95: tuple[tuple[float, float], tuple[float, float]]
    draw: float
    rounds_mean: float
    rounds: dict[int, float]
    characters: tuple[Character, ...]
    exact: bool = False
    compiled: bool = True
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "simulation", "system": self.system, "n": self.n,
            "sides": [{"names": list(names), "tactic": self.tactics[i], "win": self.win[i],
                       "ci95": list(self.ci95[i])} for i, names in enumerate(self.sides)],
            "draw": self.draw,
            "rounds": {"mean": self.rounds_mean,
                       "distribution": {str(k): v for k, v in sorted(self.rounds.items())}},
            "characters": [{"name": c.name, "side": c.side + 1, "fall": c.fall, "death": c.death,
                            "health_left_mean": c.health_left_mean} for c in self.characters],
            "exact": self.exact, "compiled": self.compiled, "notes": list(self.notes),
        }


def batch_of(results: Sequence[FightResult]) -> Batch:
    """The scalar engine's fights as the arrays the vectorised one gives."""
    return Batch(np.array([-1 if r.winner is None else r.winner for r in results], dtype=np.int64),
                 np.array([r.rounds for r in results], dtype=np.int64),
                 np.array([r.fell for r in results], dtype=bool),
                 np.array([r.dead for r in results], dtype=bool),
                 np.array([r.health for r in results], dtype=np.float64))


def summarize(roster: Roster, tactics: Sequence[str], batch: Batch, compiled: bool,
              notes: Sequence[str] = ()) -> Simulation:
    n = len(batch.winner)
    wins = (float((batch.winner == 0).sum()), float((batch.winner == 1).sum()))
    values, counts = np.unique(batch.rounds, return_counts=True)
    characters = tuple(
        Character(f.name, roster.sides[c], float(batch.fell[:, c].mean()),
                  float(batch.dead[:, c].mean()), float(batch.health[:, c].mean()))
        for c, f in enumerate(roster.fighters))
    return Simulation(
        roster.system.id, n, (tuple(roster.side_names(0)), tuple(roster.side_names(1))),
        (tactics[0], tactics[1]), (wins[0] / n, wins[1] / n),
        (wilson(wins[0], n), wilson(wins[1], n)), float((batch.winner == -1).mean()),
        float(batch.rounds.mean()), {int(v): int(k) / n for v, k in zip(values, counts, strict=True)},
        characters, False, compiled, tuple(notes))
