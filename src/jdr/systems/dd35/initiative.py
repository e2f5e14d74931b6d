"""Initiative in dd35 (R002.13, A002.04, A002.05): the roll, the order through the core's
`initiative.order` (score, then Dex bonus, then d20 roll-offs repeated while tied), and the
order through the rounds (+5 for whoever did not act, combat over when nobody acts)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from jdr.core.initiative import Entrant, Order, OrderRule, order
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.checks import initiative_check
from jdr.systems.dd35.tables import NOT_ACTING_INITIATIVE_BONUS

ORDER_RULE = OrderRule(rolloff_sides=20, max_rolloffs=20, rule="R002.13",
                       score_label="initiative")
"""A002.05: ties go to the higher Dex bonus, then to a d20 roll-off (3.5 convention)."""

DEX_TIEBREAK = "bonus de Dextérité"


def entrants(characters: Sequence[Character], source: DiceSource,
             circumstance: int = 0) -> list[Entrant]:
    """R002.13: each character rolls 1d20 + Dex + Dons + Magie + circonstance, in sheet order."""
    out: list[Entrant] = []
    for c in characters:
        rolled = initiative_check(c, circumstance).roll(source)
        out.append(Entrant(c.name, rolled.total, rolled,
                           ((DEX_TIEBREAK, c.mod("dexterite")),)))
    return out


def roll_initiative(characters: Sequence[Character], source: DiceSource,
                    circumstance: int = 0) -> Order:
    """R002.13 + A002.05: the order, roll-offs (d20) among those still tied, repeated."""
    return order(entrants(characters, source, circumstance), ORDER_RULE, source)


@dataclass(frozen=True)
class InitiativeEntry:
    """One character in the order: score, Dex bonus, the roll-off faces that placed it."""

    name: str
    score: int
    dex: int
    rolloffs: tuple[int, ...] = ()


def _sorted(entries: Iterable[InitiativeEntry]) -> tuple[InitiativeEntry, ...]:
    """A002.05: higher score, then higher Dex bonus, then the roll-offs already made."""
    return tuple(sorted(entries, key=lambda e: (-e.score, -e.dex, tuple(-f for f in e.rolloffs))))


@dataclass(frozen=True)
class InitiativeTracker:
    """The initiative order through the rounds (R002.13, A002.04): pure values."""

    entries: tuple[InitiativeEntry, ...]
    round: int = 1
    over: bool = False

    @classmethod
    def start(cls, rolled: Order) -> InitiativeTracker:
        """The tracker of a rolled order (`roll_initiative`)."""
        return cls(tuple(InitiativeEntry(e.name, e.score, dict(e.tiebreaks).get(DEX_TIEBREAK, 0),
                                         e.rolloffs) for e in rolled.entries))

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries)

    def score(self, name: str) -> int:
        for e in self.entries:
            if e.name == name:
                return e.score
        raise RuleError(f"« {name} » n'est pas dans l'ordre d'initiative")

    def join(self, entry: InitiativeEntry) -> InitiativeTracker:
        """R002.13: a newcomer rolls initiative and takes their place in the order."""
        return replace(self, entries=_sorted((*self.entries, entry)))

    def end_round(self, acted: Iterable[str]) -> InitiativeTracker:
        """R002.13 + A002.04: whoever did not act this round gains +5 initiative (cumulative,
        re-sorted); if nobody acted, the combat ends."""
        acted_set = set(acted)
        unknown = acted_set - set(self.order)
        if unknown:
            raise RuleError(f"inconnu(s) dans l'initiative : {', '.join(sorted(unknown))}")
        if not acted_set:
            return replace(self, over=True)
        entries = [e if e.name in acted_set
                   else replace(e, score=e.score + NOT_ACTING_INITIATIVE_BONUS)
                   for e in self.entries]
        return replace(self, entries=_sorted(entries), round=self.round + 1)
