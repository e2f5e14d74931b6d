"""N fights at once with numpy, drawing from the compiled tables (`jdr.sim.tables`).

Each fight is a row; each character a column holding its state id (and, for a system with a
`turn_start`, the id of its encounter data). The turns are played as the scalar engine plays
them — the order of initiative (each character's score drawn from its compiled initiative, ties
broken at random), the start of each turn, then the attack of whoever can act on the target its
side's tactic picks — but for every fight at once: the fights that meet the same pair of states
draw their outcome indices together (every table laid end to end: one `searchsorted` for all
the fights of a turn, `tables.Flat`). One generator
(`numpy.random.Generator`, seeded by `--seed`) gives every draw.
"""

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


class _Run:
    """The arrays of one batch in play."""

    def __init__(self, roster: Roster, tactics: Sequence[str], n: int,
                 rng: np.random.Generator) -> None:
        self.tables = compiled(roster.system)
        self.rng = rng
        start = np.array([self.tables.state(p) for p in roster.plains()], dtype=np.int64)
        self.states = np.tile(start, (n, 1))
        self.datas = np.zeros_like(self.states)
        self.order = initial_order(self.tables, start, n, rng)
        self.sides = np.array(roster.sides, dtype=np.int64)
        self.prudent = np.array([t == "prudente" for t in tactics], dtype=bool)
        self.random = np.array([t == "hasard" for t in tactics], dtype=bool)
        self.fell = ~self.tables.arrays()[0][self.states]
        self.winner = np.full(n, -1, dtype=np.int64)
        self.rounds = np.full(n, 0, dtype=np.int64)
        self.active = np.ones(n, dtype=bool)

    def turn_start(self, idx: Ints, actor: Ints) -> None:
        """What the start of the actor's turn does to the others (a lost turn that ends…),
        then to the actor."""
        ids = self.tables.other_ids(self.states[idx], self.datas[idx])
        ids[np.arange(len(idx)), actor] = -1
        rows, columns = np.nonzero(ids >= 0)
        if rows.size:
            self.states[idx[rows], columns], self.datas[idx[rows], columns] = \
                self.tables.hooks["autre"].draw(ids[rows, columns], self.rng)
        self.states[idx, actor], self.datas[idx, actor] = self._hooks(
            self.states[idx, actor], self.datas[idx, actor], "tour")

    def round_start(self, idx: Ints) -> None:
        """Every character of the fights still on: what `round_start` does to its sheet."""
        shape = self.states[idx].shape
        states, datas = self._hooks(self.states[idx].ravel(), self.datas[idx].ravel(), "round")
        self.states[idx], self.datas[idx] = states.reshape(shape), datas.reshape(shape)

    def _hooks(self, states: Ints, datas: Ints, mode: str) -> tuple[Ints, Ints]:
        keys = states * (1 << 20) + datas
        uniq, inverse = np.unique(keys, return_inverse=True)
        ids = np.array([self.tables.hook_id(mode, int(k) >> 20, int(k) & ((1 << 20) - 1))
                        for k in uniq], dtype=np.int64)
        return self.tables.hooks[mode].draw(ids[inverse], self.rng)

    def targets(self, idx: Ints, actor: Ints) -> tuple[Bools, Ints]:
        """Who attacks (can act, has a target, does not stand back) and whom."""
        able, health, low, _ = self.tables.arrays()
        st = self.states[idx]
        rows = np.arange(len(idx))
        a, lo = able[st], low[st]
        mine = self.sides[actor]
        enemy = self.sides[None, :] != mine[:, None]
        eligible = enemy & a
        strong = eligible & ~lo
        shield = self.prudent[1 - mine] & strong.any(axis=1)
        eligible = np.where(shield[:, None], strong, eligible)
        others = ~enemy & a & ~lo
        others[rows, actor] = False
        back = self.prudent[mine] & lo[rows, actor] & others.any(axis=1)
        acting = a[rows, actor] & ~back & eligible.any(axis=1)
        key = np.where(eligible, health[st], np.inf)
        chance = self.random[mine]
        if chance.any():
            key[chance] = np.where(eligible[chance], self.rng.random((int(chance.sum()), st.shape[1])),
                                   np.inf)
        return acting, np.argmin(key, axis=1)

    def attack(self, idx: Ints, actor: Ints) -> None:
        acting, target = self.targets(idx, actor)
        idx, actor, target = idx[acting], actor[acting], target[acting]
        keys = self.states[idx, actor] * (1 << 31) + self.states[idx, target]
        uniq, inverse = np.unique(keys, return_inverse=True)
        ids = np.array([self.tables.attack_id(int(k) >> 31, int(k) & ((1 << 31) - 1))
                        for k in uniq], dtype=np.int64)
        attacker, defender = self.tables.attacks.draw(ids[inverse], self.rng)
        self.states[idx, actor] = attacker
        self.states[idx, target] = defender

    def settle(self, idx: Ints, rnd: int) -> None:
        """Who fell; the fights where a side can no longer act end (a draw if both)."""
        able = self.tables.arrays()[0][self.states[idx]]
        self.fell[idx] |= ~able
        standing = [(able & (self.sides == side)[None, :]).any(axis=1) for side in (0, 1)]
        over = ~(standing[0] & standing[1])
        ended = idx[over]
        self.winner[ended] = np.where(standing[0][over], 0, np.where(standing[1][over], 1, -1))
        self.rounds[ended] = rnd
        self.active[ended] = False

    def batch(self) -> Batch:
        _, health, _, dead = self.tables.arrays()
        return Batch(self.winner, self.rounds, self.fell, dead[self.states], health[self.states])


def play_vector(roster: Roster, tactics: Sequence[str], n: int, rng: np.random.Generator,
                max_rounds: int = MAX_ROUNDS, progress: Progress | None = None) -> Batch:
    """`n` fights at once (raises `CannotCompile` when a rule of the system cannot be)."""
    run = _Run(roster, tactics, n, rng)
    run.settle(np.arange(n), 1)
    columns = len(roster.fighters)
    for rnd in range(1, max_rounds + 1):
        for pos in range(columns):
            idx = np.flatnonzero(run.active)
            if idx.size == 0:
                break
            actor = run.order[idx, pos]
            if run.tables.turn_hook:
                run.turn_start(idx, actor)
            run.attack(idx, actor)
            run.settle(idx, rnd)
        if progress is not None:
            progress(n - int(run.active.sum()))
        if not run.active.any():
            break
        if run.tables.round_hook and rnd < max_rounds:
            run.round_start(np.flatnonzero(run.active))
    run.rounds[run.active] = max_rounds  # no winner after the last round: a draw
    return run.batch()
