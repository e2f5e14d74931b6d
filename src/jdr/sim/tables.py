"""The systems' rules compiled into exact outcome tables, cached by state.

A *state* is one content of a sheet (its name aside): every state met is loaded (validated)
once, and what the engines read of it (`fight.Look`: can act, dead, health left, low) is kept in
arrays. A table is compiled once per pair of states, from the same definitions that give the
odds:

- the attack of state `a` on state `d`: `GameSystem.attack_outcomes` (by default `attack` itself
  enumerated over every sequence of faces), each effect turned into the pair of states it leads
  to;
- the start of a turn (when the system has a `turn_start`): the hook enumerated on a state and
  the combatant's encounter data (waking counts…);
- the initiative of one character: the system's `initiative` on that character alone.

Whatever cannot be compiled raises `CannotCompile` (the run falls back to the scalar engine).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from jdr.core.compile import MAX_DICE, MAX_PATHS, Effect, NotCompiled, effect_of
from jdr.core.encounter import Combatant, EncounterState
from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, GameSystem, GroupRequest, Loaded, SheetChange, TurnRequest
from jdr.core.usecase import load
from jdr.errors import DiceLimitError, JdrError
from jdr.sim.fight import AnySystem, Look, health_top

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Table = tuple[Floats, Ints, Ints]  # cumulative probabilities, next state (or data) per outcome


HOOKS = {"tour": "le début de tour", "autre": "le début du tour d'un autre",
         "round": "le début de round"}
_UNKNOWN = -2
MAX_LOADED = 20_000  # sheets kept loaded (by state and name)
DENSE_CELLS = 1 << 23  # table numbers kept in an array indexed by both states (or state and
# data) while it holds at most this many cells (32 Mo); past it, found by sorting the pairs met
_SHIFT = 31  # a pair of numbers as one key: first << _SHIFT | second


class CannotCompile(Exception):
    """A rule of this system cannot be compiled here (`what`: in French)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Flat:
    """Tables laid end to end, for one vectorised draw over many tables at once: table `t`'s
    cumulative probabilities are stored as `t + cum` (so the segments are in increasing order),
    and a uniform `u` drawn for a row of table `t` is found by `searchsorted(flat, t + u)`."""

    def __init__(self) -> None:
        self.ids: dict[tuple[int, int], int] = {}
        self.tables: list[Table] = []
        # the tables laid so far and their arrays, replaced together (another thread may read)
        self._laid: tuple[int, tuple[Floats, Ints, Ints, Ints] | None] = (0, None)

    def add(self, key: tuple[int, int], table: Table) -> int:
        self.ids[key] = len(self.tables)
        self.tables.append(table)
        return self.ids[key]

    def arrays(self) -> tuple[Floats, Ints, Ints, Ints]:
        """(shifted cumulative probabilities, last index of each table, next first, next second);
        the tables added since the last call are laid after the others."""
        start, arrays = self._laid
        count = len(self.tables)
        if arrays is None or start < count:
            new = self.tables[start:count]
            offset = 0 if arrays is None else int(arrays[1][-1]) + 1
            parts: tuple[Any, ...] = (
                [t[0] + (start + i) for i, t in enumerate(new)],
                [offset + np.cumsum([len(t[0]) for t in new], dtype=np.int64) - 1],
                [t[1] for t in new], [t[2] for t in new])
            if arrays is not None:
                parts = tuple([old, *part] for old, part in zip(arrays, parts, strict=True))
            cum, last, first, second = (np.concatenate(part) for part in parts)
            arrays = (cum, last.astype(np.int64), first.astype(np.int64), second.astype(np.int64))
            self._laid = (count, arrays)
        return arrays

    def draw(self, ids: Ints, rng: np.random.Generator) -> tuple[Ints, Ints]:
        """One outcome per row (`ids`: each row's table): its two next values."""
        cum, last, first_next, second_next = self.arrays()
        picked = np.minimum(np.searchsorted(cum, ids + rng.random(len(ids)), side="right"),
                            last[ids])
        return first_next[picked], second_next[picked]


def _pairs(table: npt.NDArray[Any], first: Ints, second: Ints) -> npt.NDArray[Any]:
    """`table[first, second]`, read through its flat index (a third of the time)."""
    found: npt.NDArray[Any] = table.reshape(-1).take(first * table.shape[1] + second)
    return found


def _without_name(plain: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in plain.items() if k.lower() != "nom"}


def cumulative(probabilities: list[Fraction]) -> Floats:
    cum = np.cumsum(np.array([float(p) for p in probabilities], dtype=np.float64))
    cum[-1] = 1.0  # the last outcome takes whatever rounding left
    return cum


class Compiled:
    """The states met and the tables compiled for one system (kept for the whole process)."""

    def __init__(self, system: AnySystem) -> None:
        self.system = system
        self.keys: dict[str, int] = {}
        self.plains: list[dict[str, Any]] = []
        self.looks: list[Look] = []
        self.attacks = Flat()
        self.failed: dict[tuple[int, int], str] = {}  # what could not be compiled, and why
        self.moves: dict[tuple[int, Effect], int] = {}  # (state, its changes) -> state reached
        self.loaded: dict[tuple[int, str], Loaded[Any]] = {}
        self.hooks = {mode: Flat() for mode in HOOKS}
        self._others = np.full((0, 0), _UNKNOWN, dtype=np.int64)
        self._dense: dict[str, npt.NDArray[np.int32]] = {}  # "attaque", "tour", "round"
        self.dense_cells = DENSE_CELLS
        self.initiatives: dict[int, tuple[Ints, Floats]] = {}
        self.data_keys: dict[str, int] = {"{}": 0}
        self.datas: list[dict[str, Any]] = [{}]
        self._arrays: tuple[Any, ...] | None = None
        self.turn_hook = type(system).turn_start is not GameSystem.turn_start
        self.round_hook = type(system).round_start is not GameSystem.round_start
        from jdr.sim.relative import Relative

        self.relative = Relative(self) if system.attack_health_relative else None

    # ------------------------------------------------------------------ states

    def state(self, plain: dict[str, Any]) -> int:
        """The id of a sheet content (loaded and read once)."""
        body = _without_name(plain)
        key = json.dumps(body, sort_keys=True)
        found = self.keys.get(key)
        if found is not None:
            return found
        sheet = self.sheet_of(body, "Personnage")
        self.keys[key] = len(self.plains)
        self.plains.append(body)
        self.looks.append(Look.of(self.system, sheet, health_top(self.system, sheet)))
        self._arrays = None
        return self.keys[key]

    def sheet_of(self, body: dict[str, Any], name: str) -> Loaded[Any]:
        data = {"nom": name, **json.loads(json.dumps(body))}
        return load(self.system, SheetDocument(Path(f"{name}.yaml"), data))

    def doc_of(self, state: int) -> SheetDocument:
        """A copy of the state's sheet, to change (under a neutral name)."""
        data = {"nom": "Personnage", **json.loads(json.dumps(self.plains[state]))}
        return SheetDocument(Path("etat.yaml"), data)

    def fresh(self, state: int, name: str) -> Loaded[Any]:
        """The state's sheet, loaded once per name (the rules read it; changes go to a copy:
        `doc_of`)."""
        found = self.loaded.get((state, name))
        if found is None:
            if len(self.loaded) >= MAX_LOADED:
                self.loaded.clear()
            found = self.loaded[(state, name)] = self.sheet_of(self.plains[state], name)
        return found

    def arrays(self) -> tuple[Any, Floats, Any, Any]:
        """(able, health, low, dead) of every state, as numpy arrays indexed by state id."""
        if self._arrays is None:
            self._arrays = (np.array([k.able for k in self.looks], dtype=bool),
                            np.array([k.health for k in self.looks], dtype=np.float64),
                            np.array([k.low for k in self.looks], dtype=bool),
                            np.array([k.dead for k in self.looks], dtype=bool))
        return self._arrays

    def after(self, state: int, effect: Effect, role: int) -> int:
        """The state a sheet reaches once the effect's changes on `role` are applied (kept:
        the same change on the same state comes back from table to table)."""
        mine = tuple(c for c in effect if c[0] == role)
        if not mine:
            return state
        found = self.moves.get((state, mine))
        if found is None:
            doc = self.doc_of(state)
            for _, path, value, pool in mine:
                SheetChange(doc, path, json.loads(value), pool).apply()
            found = self.moves[(state, mine)] = self.state(doc.plain())
        return found

    # ------------------------------------------------------------------ tables

    def attack(self, a: int, d: int) -> Table:
        return self.attacks.tables[self.attack_id(a, d)]

    def attack_id(self, a: int, d: int) -> int:
        """The attack table of `a` on `d` (compiled once), by its number."""
        found = self.attacks.ids.get((a, d))
        if found is None:
            if (a, d) in self.failed:
                raise CannotCompile(self.failed[(a, d)])
            try:
                found = self.attacks.add((a, d), self._attack(a, d))
            except CannotCompile as exc:
                self.failed[(a, d)] = exc.what
                raise
        return found

    def attack_ids(self, attackers: Ints, defenders: Ints) -> Ints:
        """Per row, the number of the attack table of `attackers[i]` on `defenders[i]` (each
        pair compiled when first met, in the order of the pairs)."""
        return self._ids("attaque", attackers, defenders, len(self.plains), self.attack_id)

    def hook_ids(self, mode: str, states: Ints, datas: Ints) -> Ints:
        """Per row, the number of the table of a hook (`hook_id`) on `states[i]` with its
        encounter data `datas[i]`."""
        return self._ids(mode, states, datas, len(self.datas),
                         lambda state, data: self.hook_id(mode, state, data))

    def _ids(self, kind: str, first: Ints, second: Ints, width: int,
             compile_one: Callable[[int, int], int]) -> Ints:
        """The table numbers of pairs of numbers: read in an array indexed by both while it is
        small enough (grown as states come), the pairs never met compiled first, in increasing
        order of their key (as when every pair is sorted)."""
        rows = len(self.plains)
        dense = self._dense.get(kind)
        if dense is None or dense.shape[0] < rows or dense.shape[1] < width:
            shape = (rows + rows // 2 + 16, width + width // 2 + 16)
            if shape[0] * shape[1] > self.dense_cells:
                keys = first * (1 << _SHIFT) + second
                uniq, inverse = np.unique(keys, return_inverse=True)
                found = np.array([compile_one(int(k) >> _SHIFT, int(k) & ((1 << _SHIFT) - 1))
                                  for k in uniq], dtype=np.int64)
                return found[inverse]
            grown = np.full(shape, _UNKNOWN, dtype=np.int32)
            if dense is not None:
                grown[:dense.shape[0], :dense.shape[1]] = dense
            dense = self._dense[kind] = grown
        ids = _pairs(dense, first, second)
        unknown = ids == _UNKNOWN
        if unknown.any():
            for key in np.unique(first[unknown] * (1 << _SHIFT) + second[unknown]):
                a, b = int(key) >> _SHIFT, int(key) & ((1 << _SHIFT) - 1)
                dense[a, b] = compile_one(a, b)
            ids = _pairs(dense, first, second)
        return ids.astype(np.int64)

    def _outcomes(self, a: int, d: int) -> dict[Effect, Fraction]:
        attacker, defender = self.fresh(a, "Attaquant"), self.fresh(d, "Défenseur")
        try:
            outcomes = self.system.attack_outcomes(AttackRequest(attacker, defender))
        except JdrError as exc:
            raise CannotCompile(f"l'attaque ({exc})") from None
        if outcomes is None:
            raise CannotCompile(f"l'attaque (plus de {MAX_PATHS} suites de dés, ou des dés sans "
                                "fin)")
        return dict(outcomes)

    def _attack(self, a: int, d: int) -> Table:
        if self.relative is not None:
            return self.relative.table(a, d)
        outcomes = self._outcomes(a, d)
        effects = list(outcomes)
        return (cumulative([outcomes[e] for e in effects]),
                np.array([self.after(a, e, 0) for e in effects], dtype=np.int64),
                np.array([self.after(d, e, 1) for e in effects], dtype=np.int64))

    def hook_id(self, mode: str, state: int, data: int) -> int:
        """The table of a hook on a state and its encounter data (compiled once), by `mode`:
        `tour`, the start of its own turn (`turn_start`); `autre`, the start of another's turn
        (`turn_start` with no current character: what it does to the others, such as ending a
        lost turn); `round`, the start of a round (`round_start`, played on that sheet alone
        after a round where everyone had its turn)."""
        flat = self.hooks[mode]
        found = flat.ids.get((state, data))
        if found is None:
            found = flat.add((state, data), self._hook(state, data, mode))
        return found

    def other_ids(self, states: Ints, datas: Ints) -> Ints:
        """Per character (arrays of any shape), the table of what the start of another's turn
        does to it, or -1 when it does nothing (kept in an array indexed by state and data)."""
        if self._others.shape[0] < len(self.plains) or self._others.shape[1] < len(self.datas):
            grown = np.full((2 * len(self.plains), 2 * len(self.datas)), _UNKNOWN, dtype=np.int64)
            grown[:self._others.shape[0], :self._others.shape[1]] = self._others
            self._others = grown
        ids = _pairs(self._others, states, datas)
        unknown = ids == _UNKNOWN
        if not unknown.any():
            return ids
        for key in np.unique(states[unknown] * (1 << 20) + datas[unknown]):
            state, data = int(key) >> 20, int(key) & ((1 << 20) - 1)
            table = self._hook(state, data, "autre")
            still = len(table[0]) == 1 and table[1][0] == state and table[2][0] == data
            self._others[state, data] = -1 if still else self.hooks["autre"].add((state, data),
                                                                                 table)
        return _pairs(self._others, states, datas)

    def _hook(self, state: int, data: int, mode: str) -> Table:
        from jdr.dice.enumerate import enumerate_truncated

        sheet = self.fresh(state, "Personnage")
        hook = self.system.round_start if mode == "round" else self.system.turn_start
        what = HOOKS[mode]

        def play(source: Any) -> tuple[Effect, str]:
            kept = json.loads(json.dumps(self.datas[data]))
            encounter = EncounterState(order=[Combatant(sheet.name, 0, mode == "round",
                                                        data=kept)])
            outcome = hook(TurnRequest(encounter, sheet if mode == "tour" else None, (sheet,)),
                           source)
            if encounter.ended:
                raise NotCompiled
            return effect_of(outcome, (sheet.doc,)), json.dumps(kept, sort_keys=True)

        try:
            outcomes, cut = enumerate_truncated(play, MAX_DICE, MAX_PATHS)
        except (DiceLimitError, NotCompiled, JdrError):
            raise CannotCompile(what) from None
        if cut:
            raise CannotCompile(f"{what} (dés sans fin)")
        keys = list(outcomes)
        return (cumulative([outcomes[k] for k in keys]),
                np.array([self.after(state, e, 0) for e, _ in keys], dtype=np.int64),
                np.array([self._data(d) for _, d in keys], dtype=np.int64))

    def _data(self, key: str) -> int:
        if key not in self.data_keys:
            self.data_keys[key] = len(self.datas)
            self.datas.append(json.loads(key))
        return self.data_keys[key]

    def initiative(self, state: int) -> tuple[Ints, Floats]:
        """The scores one character's initiative can give, and their cumulative odds."""
        found = self.initiatives.get(state)
        if found is None:
            found = self.initiatives[state] = self._initiative(state)
        return found

    def _initiative(self, state: int) -> tuple[Ints, Floats]:
        from jdr.core.initiative import order_of
        from jdr.dice.enumerate import enumerate_truncated

        sheet = self.fresh(state, "Personnage")

        def score(source: Any) -> int:
            result = self.system.initiative(GroupRequest((sheet,)), source).result
            return order_of(result).entries[0].score

        try:
            odds, cut = enumerate_truncated(score, MAX_DICE, MAX_PATHS)
        except (DiceLimitError, JdrError):
            raise CannotCompile("l'initiative") from None
        if cut:
            raise CannotCompile("l'initiative (dés sans fin)")
        scores = sorted(odds)
        return np.array(scores, dtype=np.int64), cumulative([odds[s] for s in scores])


_CACHE: dict[str, Compiled] = {}
MAX_STATES = 200_000


def compiled(system: AnySystem) -> Compiled:
    """The process's tables for this system (emptied past MAX_STATES states)."""
    found = _CACHE.get(system.id)
    if found is None or found.system is not system or len(found.plains) > MAX_STATES:
        found = _CACHE[system.id] = Compiled(system)
    return found
