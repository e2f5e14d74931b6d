"""An encounter (la rencontre): the order, the round, whose turn it is — shared by every system.

The state is plain data (stored as JSON by the campaign). The system's rules plug in through
`GameSystem` hooks: who can act (`incapacity`), what happens at the start of a character's turn
(`turn_start`: a wake-up roll, ...) and at the start of a round (`round_start`: a bonus to
who did not act, end of combat when nobody acts, ...).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from jdr.errors import RuleError


@dataclass
class Combatant:
    name: str
    score: int
    acted: bool = False  # had its turn this round
    joined_round: int = 1
    data: dict[str, Any] = field(default_factory=dict)  # system-specific (turns since KO, ...)
    spent: dict[str, int] = field(default_factory=dict)  # this turn, per kind (`core.turns`)
    done: list[str] = field(default_factory=list)  # this turn's counted actions, in French

    def to_json(self) -> dict[str, Any]:
        """As `dataclasses.asdict`, written out: a thousand combatants are written at each step."""
        return {"name": self.name, "score": self.score, "acted": self.acted,
                "joined_round": self.joined_round,
                "data": copy.deepcopy(self.data) if self.data else {}, "spent": dict(self.spent),
                "done": list(self.done)}


@dataclass
class EncounterState:
    round: int = 1
    turn: int = 0  # index in `order` of whose turn it is
    order: list[Combatant] = field(default_factory=list)
    ended: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def current(self) -> Combatant | None:
        if self.ended or not self.order:
            return None
        return self.order[self.turn % len(self.order)]

    def names(self) -> list[str]:
        return [c.name for c in self.order]

    def find(self, name: str) -> Combatant:
        from jdr.names import normalize, unknown_name_message

        for c in self.order:
            if normalize(c.name) == normalize(name):
                return c
        raise RuleError(unknown_name_message("combattant", name, [c.name for c in self.order]))

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "turn": self.turn, "order": [c.to_json() for c in self.order],
                "ended": self.ended, "notes": list(self.notes)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EncounterState:
        order = [Combatant(**c) for c in data.get("order", [])]
        return cls(round=int(data.get("round", 1)), turn=int(data.get("turn", 0)), order=order,
                   ended=bool(data.get("ended", False)), notes=list(data.get("notes", [])))

    def advance(self) -> bool:
        """Next turn; True when a new round starts."""
        if self.ended:
            raise RuleError("la rencontre est terminée")
        current = self.current
        if current is not None:
            current.acted = True  # its turn has passed (a system reads waiting/incapacity itself)
        self.turn += 1
        new_round = self.turn >= len(self.order)
        if new_round:
            self.turn = 0
            self.round += 1
        following = self.current
        if following is not None:  # its turn begins: nothing of it is spent yet
            following.spent, following.done = {}, []
        return new_round

    def join(self, combatant: Combatant) -> None:
        """A newcomer takes its place by score (after equal scores already in the order)."""
        if any(c.name == combatant.name for c in self.order):
            raise RuleError(f"« {combatant.name} » est déjà dans la rencontre")
        current = self.current
        index = len(self.order)
        for i, c in enumerate(self.order):
            if combatant.score > c.score:
                index = i
                break
        self.order.insert(index, combatant)
        if current is not None and index <= self.turn:
            self.turn += 1

    def leave(self, name: str) -> None:
        target = self.find(name)
        index = self.order.index(target)
        was_current = target is self.current
        self.order.remove(target)
        if not self.order:
            self.ended = True
            return
        if index < self.turn:
            self.turn -= 1
        if self.turn >= len(self.order):
            self.turn = 0
            self.round += 1
        following = self.current
        if was_current and following is not None:
            following.spent, following.done = {}, []
