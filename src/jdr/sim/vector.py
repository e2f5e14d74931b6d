"""N fights at once with numpy, drawing from the compiled tables (`jdr.sim.tables`).

Each character is a line of the arrays and each fight a column: a cell holds the character's
state id (and, for a system with a `turn_start`, the id of its encounter data), and what the
tactics read of that state (can act, health left), changed with it. The turns are played as the
scalar engine plays them — the order of initiative (each character's score drawn from its
compiled initiative, ties broken at random), the start of each turn, then the attack of whoever
can act on the target its side's tactic picks — but for every fight at once: the fights that
meet the same pair of states draw their outcome indices together (every table laid end to end:
one `searchsorted` for all the fights of a turn, `tables.Flat`). Each numpy operation of a turn
runs along the fights (thousands of cells), never across the few characters of one fight. One generator
(`numpy.random.Generator`, seeded by `--seed`) gives every draw, fight after fight in their
order, so that a seed gives the same figures however the arrays are laid out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from jdr.sim.fight import MAX_ROUNDS, Roster
from jdr.sim.tables import Compiled, Table, compiled

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]
Progress = Callable[[int], None]  # fights finished so far


@dataclass
class Batch:
    """The raw figures of N fights: winner (0, 1; −1 a draw), round it ended in, and per
    character (columns) whether it fell, died, and its health left."""

    winner: Ints
    rounds: Ints
    fell: Bools
    dead: Bools
    health: Floats


def _draw(table: Table, rng: np.random.Generator, size: int) -> Ints:
    cum = table[0]
    picked = np.searchsorted(cum, rng.random(size), side="right")
    return np.minimum(picked, len(cum) - 1)


def initial_order(tables: Compiled, start: Ints, n: int, rng: np.random.Generator) -> Ints:
    """Per fight, the columns in the order of play: each score drawn from the character's own
    initiative, higher first, ties at random (an order drawn at random for a system without one)."""
    columns = len(start)
    if "initiative" not in tables.system.actions:
        return np.argsort(rng.random((n, columns)), axis=1)
    scores = np.empty((n, columns), dtype=np.float64)
    for c in range(columns):
        values, cum = tables.initiative(int(start[c]))
        scores[:, c] = values[_draw((cum, values, values), rng, n)]
    return np.argsort(-scores + 0.5 * rng.random((n, columns)), axis=1)


def _least(keys: Floats, columns: Sequence[int]) -> tuple[Ints, Floats]:
    """Per fight, the first of `columns` whose key is least, and that key (a loop over the few
    columns: numpy reduces fast along the fights, slowly across a handful of columns)."""
    best = keys[columns[0]]
    pick = np.full(best.shape, columns[0], dtype=np.int64)
    for c in columns[1:]:
        better = keys[c] < best
        best = np.where(better, keys[c], best)
        pick = np.where(better, c, pick)
    return pick, best


class _Run:
    """The arrays of one batch in play: one line per character (its state, its encounter data,
    what the tactics read of it), one column per fight. The fights that end keep their column,
    left as they are (`active` false), until at most half the columns are still on: those are
    then moved together, keeping their order. Every draw is made for the fights still on, in
    their order, as when each fight is a row and the rows of the fights that end are removed."""

    def __init__(self, roster: Roster, tactics: Sequence[str], n: int,
                 rng: np.random.Generator) -> None:
        self.tables = compiled(roster.system)
        self.rng = rng
        start = np.array([self.tables.state(p) for p in roster.plains()], dtype=np.int64)
        self.states = np.repeat(start[:, None], n, axis=1)
        self.datas = np.zeros_like(self.states)
        self.order = np.ascontiguousarray(initial_order(self.tables, start, n, rng).T)
        self.fights = np.arange(n)  # the fight of each column
        self.active = np.ones(n, dtype=bool)
        self.live = n
        self.sides = np.array(roster.sides, dtype=np.int64)
        self.members = [[int(c) for c in np.flatnonzero(self.sides == side)] for side in (0, 1)]
        self.prudent = [t == "prudente" for t in tactics]
        self.random = np.array([t == "hasard" for t in tactics], dtype=bool)
        self.winner = np.full(n, -1, dtype=np.int64)
        self.rounds = np.full(n, 0, dtype=np.int64)
        self.last = np.empty_like(self.states)  # the states each fight ended with
        self.fell_at_end = np.zeros_like(self.states, dtype=bool)
        self._source: object = None
        self.refresh()
        self.fell = ~self.able

    @property
    def width(self) -> int:
        return len(self.fights)

    def looks(self) -> tuple[Bools, Floats, Floats, Bools]:
        """Per state: able, health left (infinite when it cannot act), the same infinite when
        low too, low."""
        arrays = self.tables.arrays()
        if arrays is not self._source:
            able, health, low, _ = arrays
            self._looks = (able, np.where(able, health, np.inf),
                           np.where(able & ~low, health, np.inf), low)
            self._source = arrays
        return self._looks

    def refresh(self) -> None:
        """Every cell's look, from its state."""
        able, health, strong, _ = self.looks()
        self.able, self.health = able[self.states], health[self.states]
        self.strong = strong[self.states] if any(self.prudent) else self.health

    def put(self, cells: Ints, states: Ints) -> None:
        """New states in some cells (flat indices, each cell once), and their looks."""
        able, health, strong, _ = self.looks()
        self.states.reshape(-1)[cells] = states
        self.able.reshape(-1)[cells] = able[states]
        self.health.reshape(-1)[cells] = health[states]
        if any(self.prudent):
            self.strong.reshape(-1)[cells] = strong[states]

    def on(self) -> Ints:
        """The columns of the fights still on."""
        return np.arange(self.width) if self.live == self.width else np.flatnonzero(self.active)

    def turn_start(self, actor: Ints, cell: Ints) -> None:
        """What the start of the actor's turn does to the others (a lost turn that ends…),
        then to the actor (`cell`: per column, the actor's flat index)."""
        on, width = self.on(), self.width
        states, datas = ((self.states, self.datas) if self.live == width
                         else (self.states.take(on, axis=1), self.datas.take(on, axis=1)))
        ids = self.tables.other_ids(states, datas)
        ids[actor[on], np.arange(len(on))] = -1
        found, characters = np.nonzero(ids.T >= 0)  # fight by fight, each in its columns' order
        if found.size:
            cells = characters * width + on[found]
            new, self.datas.reshape(-1)[cells] = self.tables.hooks["autre"].draw(
                ids[characters, found], self.rng)
            self.put(cells, new)
        cells = cell[on]
        ids = self.tables.hook_ids("tour", self.states.reshape(-1)[cells],
                                   self.datas.reshape(-1)[cells])
        new, self.datas.reshape(-1)[cells] = self.tables.hooks["tour"].draw(ids, self.rng)
        self.put(cells, new)

    def round_start(self) -> None:
        """Every character of the fights still on: what `round_start` does to its sheet."""
        on = self.on()
        states, datas = self.states[:, on].T, self.datas[:, on].T  # fight by fight
        ids = self.tables.hook_ids("round", states.ravel(), datas.ravel())
        new, data = self.tables.hooks["round"].draw(ids, self.rng)
        self.states[:, on], self.datas[:, on] = new.reshape(states.shape).T, \
            data.reshape(states.shape).T
        self.refresh()

    def targets(self, actor: Ints, cell: Ints) -> tuple[Bools, Ints]:
        """Who attacks (can act, has a target, does not stand back) and whom: per side of the
        actor, the first enemy of least health (or of least random key, « hasard ») among those
        it may attack."""
        mine = self.sides[actor]
        keys = None
        if self.random.any():
            chance = self.random[mine] & self.active
            if chance.any():
                keys = np.zeros(self.states.shape, dtype=np.float64)
                keys[:, chance] = self.rng.random((int(chance.sum()), len(self.sides))).T
        picked, found, back = [], [], []
        for side in (0, 1):
            enemies = self.members[1 - side]
            health = self.health
            if self.prudent[1 - side]:  # its low characters out of reach while a strong one stands
                stands = self.strong[enemies].min(axis=0) < np.inf
                health = np.where(stands, self.strong, self.health)
            if keys is not None and self.random[side]:
                health = np.where(health < np.inf, keys, np.inf)
            pick, best = _least(health, enemies)
            picked.append(pick)
            found.append(best < np.inf)
            if self.prudent[side]:  # low, it stands back while a strong ally stands
                low = self.looks()[3][self.states.reshape(-1)[cell]]
                back.append(low & (self.strong[self.members[side]].min(axis=0) < np.inf))
        first = mine == 0
        acting = self.able.reshape(-1)[cell] & np.where(first, found[0], found[1]) & self.active
        if len(back) == 2:
            acting &= ~np.where(first, back[0], back[1])
        elif back:
            acting &= ~((first if self.prudent[0] else ~first) & back[0])
        return acting, np.where(first, picked[0], picked[1])

    def attack(self, actor: Ints) -> None:
        width = self.width
        cell = actor * width + np.arange(width)
        if self.tables.turn_hook:
            self.turn_start(actor, cell)
        acting, target = self.targets(actor, cell)
        rows = np.flatnonzero(acting)
        attackers, defenders = cell[rows], target[rows] * width + rows
        flat = self.states.reshape(-1)
        ids = self.tables.attack_ids(flat[attackers], flat[defenders])
        attacker, defender = self.tables.attacks.draw(ids, self.rng)
        self.put(attackers, attacker)
        self.put(defenders, defender)

    def settle(self, rnd: int) -> None:
        """Who fell; the fights where a side can no longer act end (a draw if both)."""
        self.fell |= ~self.able
        first: Bools = np.logical_or.reduce(self.able[self.members[0]], axis=0)
        second: Bools = np.logical_or.reduce(self.able[self.members[1]], axis=0)
        over = self.active & ~(first & second)
        ended = np.flatnonzero(over)
        if not ended.size:
            return
        fights = self.fights[ended]
        self.winner[fights] = np.where(first[ended], 0, np.where(second[ended], 1, -1))
        self.rounds[fights] = rnd
        self.active[ended] = False
        self.live -= len(ended)
        if 2 * self.live <= self.width:
            self.compact()

    def compact(self) -> None:
        """The fights that ended leave their figures and their columns."""
        gone, on = np.flatnonzero(~self.active), np.flatnonzero(self.active)
        self.last[:, self.fights[gone]] = self.states[:, gone]
        self.fell_at_end[:, self.fights[gone]] = self.fell[:, gone]
        self.fights, self.active = self.fights[on], self.active[on]
        self.states, self.datas, self.order = (
            a.take(on, axis=1) for a in (self.states, self.datas, self.order))
        self.fell, self.able = self.fell.take(on, axis=1), self.able.take(on, axis=1)
        self.health = self.health.take(on, axis=1)
        self.strong = self.strong.take(on, axis=1) if any(self.prudent) else self.health

    def batch(self, max_rounds: int) -> Batch:
        """The figures; the fights still on after the last round are draws."""
        self.rounds[self.fights[self.active]] = max_rounds
        self.last[:, self.fights] = self.states
        self.fell_at_end[:, self.fights] = self.fell
        _, health, _, dead = self.tables.arrays()
        last = self.last.T
        return Batch(self.winner, self.rounds, np.ascontiguousarray(self.fell_at_end.T),
                     np.ascontiguousarray(dead[last]), np.ascontiguousarray(health[last]))


def play_vector(roster: Roster, tactics: Sequence[str], n: int, rng: np.random.Generator,
                max_rounds: int = MAX_ROUNDS, progress: Progress | None = None) -> Batch:
    """`n` fights at once (raises `CannotCompile` when a rule of the system cannot be)."""
    run = _Run(roster, tactics, n, rng)
    run.settle(1)
    columns = len(roster.fighters)
    for rnd in range(1, max_rounds + 1):
        for pos in range(columns):
            if not run.live:
                break
            run.attack(run.order[pos])
            run.settle(rnd)
        if progress is not None:
            progress(n - run.live)
        if not run.live:
            break
        if run.tables.round_hook and rnd < max_rounds:
            run.round_start()
    return run.batch(max_rounds)
