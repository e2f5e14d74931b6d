"""A small duel solved exactly: a Markov chain over the two characters' states.

The same compiled tables as the Monte Carlo (`jdr.sim.tables`) give each turn's transitions;
the chance of each order of play comes from the two compiled initiatives (ties at even odds,
as the vectorised simulator breaks them). The probability of every pair of states is carried
round after round, up to `MAX_ROUNDS` (a fight still going then is a draw, as in the Monte
Carlo). No draw is made: the figures are exact (to floating point). A duel whose chain has more
than `MAX_PAIRS` pairs of states, or whose rules do not compile (or have a start of turn or
of round), is left to the Monte Carlo (None).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from jdr.sim.fight import Roster
from jdr.sim.summary import Character, Simulation
from jdr.sim.tables import CannotCompile, Compiled, compiled

MAX_PAIRS = 5_000
Pair = tuple[int, int]


def _first(tables: Compiled, start: Sequence[int]) -> float:
    """The chance that the first character plays first."""
    if "initiative" not in tables.system.actions:
        return 0.5  # no initiative rule: the order is drawn at random
    (v0, c0), (v1, c1) = (tables.initiative(s) for s in start)
    p0, p1 = np.diff(c0, prepend=0.0), np.diff(c1, prepend=0.0)
    ahead = sum(float(a) * float(b) * (1.0 if x > y else 0.5 if x == y else 0.0)
                for x, a in zip(v0, p0, strict=True) for y, b in zip(v1, p1, strict=True))
    return ahead


class _Chain:
    def __init__(self, tables: Compiled, max_rounds: int) -> None:
        self.tables = tables
        self.max_rounds = max_rounds
        self.ends: dict[tuple[int, Pair], float] = defaultdict(float)  # (round, pair) → chance

    def able(self, state: int) -> bool:
        return bool(self.tables.arrays()[0][state])

    def turn(self, dist: dict[Pair, float], actor: int, rnd: int) -> dict[Pair, float]:
        out: dict[Pair, float] = defaultdict(float)
        for pair, p in dist.items():
            a, d = pair[actor], pair[1 - actor]
            cum, next_a, next_d = self.tables.attack(a, d)
            for prob, na, nd in zip(np.diff(cum, prepend=0.0), next_a, next_d, strict=True):
                new = (int(na), int(nd)) if actor == 0 else (int(nd), int(na))
                if self.able(new[0]) and self.able(new[1]):
                    out[new] += p * float(prob)
                else:
                    self.ends[(rnd, new)] += p * float(prob)
        if len(out) > MAX_PAIRS:
            raise CannotCompile("le duel exact (trop d'états)")
        return out

    def run(self, start: Pair, first: int, weight: float) -> None:
        dist: dict[Pair, float] = {start: weight}
        if not (self.able(start[0]) and self.able(start[1])):
            self.ends[(1, start)] += weight
            return
        for rnd in range(1, self.max_rounds + 1):
            dist = self.turn(dist, first, rnd)
            dist = self.turn(dist, 1 - first, rnd)
            if sum(dist.values()) < 1e-15:
                return
        for pair, p in dist.items():
            self.ends[(0, pair)] += p  # still fighting: a draw at the last round


def solve_duel(fighters: Roster, tactics: Sequence[str], n: int, max_rounds: int
               ) -> Simulation | None:
    """The exact figures of a one-against-one fight, or None (the Monte Carlo plays it)."""
    tables = compiled(fighters.system)
    if tables.turn_hook or tables.round_hook:
        return None
    start = (tables.state(fighters.plains()[0]), tables.state(fighters.plains()[1]))
    chain = _Chain(tables, max_rounds)
    try:
        first = _first(tables, start)
        for who, weight in ((0, first), (1, 1.0 - first)):
            if weight > 0:
                chain.run(start, who, weight)
    except CannotCompile:
        return None
    return _figures(fighters, tactics, n, tables, chain.ends, max_rounds)


def _figures(fighters: Roster, tactics: Sequence[str], n: int, tables: Compiled,
             ends: dict[tuple[int, Pair], float], max_rounds: int) -> Simulation:
    able, health, _, dead = tables.arrays()
    win = [0.0, 0.0]
    draw = 0.0
    rounds: dict[int, float] = defaultdict(float)
    fall, death, left = np.zeros(2), np.zeros(2), np.zeros(2)
    for (rnd, pair), p in ends.items():
        standing = [bool(able[s]) for s in pair]
        if rnd == 0 or standing == [False, False]:
            draw += p
        else:
            win[0 if standing[0] else 1] += p
        rounds[rnd or max_rounds] += p
        for i, s in enumerate(pair):
            fall[i] += p * (not able[s])
            death[i] += p * bool(dead[s])
            left[i] += p * float(health[s])
    names = fighters.names
    characters = tuple(Character(names[i], fighters.sides[i], float(fall[i]), float(death[i]),
                                 float(left[i])) for i in range(2))
    return Simulation(
        fighters.system.id, n, ((names[0],), (names[1],)), (tactics[0], tactics[1]),
        (win[0], win[1]), ((win[0], win[0]), (win[1], win[1])), draw,
        sum(r * p for r, p in rounds.items()), dict(sorted(rounds.items())), characters, True, True,
        ("duel calculé exactement (chaîne de Markov sur les états des deux fiches), sans tirage",))
