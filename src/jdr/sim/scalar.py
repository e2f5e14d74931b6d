"""The engine's loop: one fight at a time, played by the systems' own code.

Each fight starts from in-memory copies of the roster's sheets; the order comes from the
system's `initiative` (or the order given, for a system without one); every turn runs the
system's `turn_start` (and `round_start` at each new round), then the current character, if it
can act, attacks the target its side's tactic chooses (`GameSystem.attack` with its defaults).
Every change the rules make is applied to the copies and the sheet validated again, as an action
does (`jdr.core.usecase.apply_changes`). All the dice come from the injected source (a random
target too). Nothing is written.

This is the reference the vectorised simulator is tested against, and the fallback for what
cannot be compiled.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jdr.core.encounter import Combatant, EncounterState
from jdr.core.initiative import order_of
from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, GroupRequest, Loaded, Outcome, TurnRequest
from jdr.core.usecase import load
from jdr.dice.source import DiceSource
from jdr.sim.fight import (
    MAX_ROUNDS,
    FightResult,
    Look,
    Roster,
    health_top,
    stands_back,
    targets,
    weakest,
    winner_of,
)


class _Fight:
    """One fight in progress: the sheets (copies), what each looks like, who fell."""

    def __init__(self, roster: Roster, tactics: Sequence[str], source: DiceSource) -> None:
        self.system = roster.system
        self.sides = roster.sides
        self.tactics = tactics
        self.source = source
        self.sheets: list[Loaded[Any]] = [
            load(self.system, SheetDocument(Path(f.doc.path), json.loads(json.dumps(f.doc.plain()))))
            for f in roster.fighters]
        self.index = {s.name: i for i, s in enumerate(self.sheets)}
        self.tops = [health_top(self.system, s) for s in self.sheets]
        self.looks = [Look.of(self.system, s, t) for s, t in zip(self.sheets, self.tops, strict=True)]
        self.fell = [not look.able for look in self.looks]

    def apply(self, outcome: Outcome | None) -> None:
        """The rules' changes, applied to the copies; each changed sheet validated again."""
        if outcome is None or not outcome.changes:
            return
        touched: dict[int, SheetDocument] = {}
        for change in outcome.changes:
            change.apply()
            touched[id(change.doc)] = change.doc
        for i, sheet in enumerate(self.sheets):
            if id(sheet.doc) in touched:
                self.sheets[i] = load(self.system, sheet.doc)
                self.looks[i] = Look.of(self.system, self.sheets[i], self.tops[i])
                self.fell[i] = self.fell[i] or not self.looks[i].able

    def order(self) -> EncounterState:
        system = self.system
        if "initiative" in system.actions:
            outcome = system.initiative(GroupRequest(tuple(self.sheets)), self.source)
            self.apply(outcome)
            entries = [(e.name, e.score) for e in order_of(outcome.result).entries]
        else:  # no initiative rule: an order drawn at random (Fisher–Yates, from the source)
            names = [s.name for s in self.sheets]
            for i in range(len(names) - 1, 0, -1):
                j = self.source.roll(i + 1) - 1
                names[i], names[j] = names[j], names[i]
            entries = [(name, len(names) - i) for i, name in enumerate(names)]
        return EncounterState(order=[Combatant(name, score) for name, score in entries])

    def act(self, actor: int) -> None:
        """The actor's turn: its attack on the target its side's tactic chooses."""
        if not self.looks[actor].able or stands_back(actor, self.sides, self.looks, self.tactics):
            return
        chosen = targets(actor, self.sides, self.looks, self.tactics)
        if not chosen:
            return
        if self.tactics[self.sides[actor]] == "hasard":
            target = chosen[self.source.roll(len(chosen)) - 1] if len(chosen) > 1 else chosen[0]
        else:
            target = weakest(chosen, self.looks)
        request = AttackRequest(self.sheets[actor], self.sheets[target])
        self.apply(self.system.attack(request, self.source))

    def result(self, winner: int | None, rounds: int) -> FightResult:
        return FightResult(winner, rounds, tuple(self.fell), tuple(look.dead for look in self.looks),
                           tuple(look.health for look in self.looks))


def _turn(fight: _Fight, state: EncounterState, hook: Callable[..., Outcome | None],
          current: Loaded[Any] | None) -> None:
    fight.apply(hook(TurnRequest(state, current, tuple(fight.sheets)), fight.source))


def play_fight(roster: Roster, tactics: Sequence[str], source: DiceSource,
               max_rounds: int = MAX_ROUNDS) -> FightResult:
    """One fight, from the roster's sheets, every die from `source`."""
    fight = _Fight(roster, tactics, source)
    system = fight.system
    state = fight.order()
    over, winner = winner_of(fight.sides, fight.looks)
    while not over:
        current = state.current
        assert current is not None
        actor = fight.index[current.name]
        _turn(fight, state, system.turn_start, fight.sheets[actor])
        fight.act(actor)
        over, winner = winner_of(fight.sides, fight.looks)
        if over:
            break
        if state.advance():
            if state.round > max_rounds:
                return fight.result(None, max_rounds)
            _turn(fight, state, system.round_start, None)
            if state.ended:
                return fight.result(None, state.round)
            for c in state.order:
                c.acted = False
    return fight.result(winner, state.round)


def play_many(roster: Roster, tactics: Sequence[str], n: int, source: DiceSource,
              max_rounds: int = MAX_ROUNDS) -> list[FightResult]:
    """`n` fights one after the other (the engine's loop), every die from one source."""
    return [play_fight(roster, tactics, source, max_rounds) for _ in range(n)]
