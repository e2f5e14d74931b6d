"""Initiative in dd35 (R002.13, A002.04, A002.05): the roll, the order through the core's
`initiative.order` (score, then Dex bonus, then d20 roll-offs repeated while tied), and the
order through the rounds of an encounter (`end_round`: +5 for whoever did not act, re-sorted;
the combat ends when nobody acted)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from jdr.core.encounter import Combatant, EncounterState
from jdr.core.frozen import frozen
from jdr.core.initiative import Entrant, Order, OrderRule, order
from jdr.core.results import Line
from jdr.dice.source import DiceSource
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


TURN = "tour"
"""Combatant data: the round in which its turn began (`turn_start`)."""
IDLE = "sans_action"
"""Combatant data: the round in which its turn began while it could not act (D-ALL.02)."""


@frozen
class RoundEnd:
    """What the end of a round did: who gained +5 (name, before, after), the new order's
    roll-offs (A002.05), whether the combat is over, French lines."""

    idle: tuple[tuple[str, int, int], ...]
    over: bool
    lines: tuple[Line, ...]


def took_no_action(c: Combatant, ended: int, waiting: frozenset[str]) -> bool | None:
    """A002.04: did `c` not act in round `ended`? True: it declared it waits (`attendre`) or
    could not act when its turn began; False: it acted; None: it joined during that round after
    its place in the order had passed (no turn yet: neither acted nor idle)."""
    if c.name in waiting or c.data.get(IDLE) == ended:
        return True
    if c.acted or c.data.get(TURN) == ended:
        return not c.acted
    return None if c.joined_round == ended else True


def end_round(state: EncounterState, waiting: frozenset[str], dex: Mapping[str, int],
              source: DiceSource) -> RoundEnd:
    """R002.13 + A002.04, on the round that just ended (`state.round` is already the next one):
    whoever did not act adds 5 to its initiative (cumulative) and the order is re-sorted
    (A002.05: score, Dex bonus, then a d20 roll-off for a tie this round created); if nobody
    acted (and no newcomer waits for its first turn), the combat ends."""
    ended = state.round - 1
    verdicts = {c.name: took_no_action(c, ended, waiting) for c in state.order}
    if state.order and all(v is True for v in verdicts.values()):
        state.ended = True
        return RoundEnd((), True, (Line(f"personne n'a agi pendant le round {ended} : le combat "
                                        "prend fin", "R002.13"),))
    before = {c.name: c.score for c in state.order}
    idle: list[tuple[str, int, int]] = []
    for c in state.order:
        if verdicts[c.name]:
            c.score += NOT_ACTING_INITIATIVE_BONUS
            idle.append((c.name, before[c.name], c.score))
    lines = [Line(f"{name} n'a pas agi au round {ended} : initiative {a} → {b}", "R002.13")
             for name, a, b in idle]
    state.order, rolloffs = resort(state.order, before, dex, source)
    lines += rolloffs
    lines.append(Line("ordre du round " + str(state.round) + " : "
                      + ", ".join(f"{c.name} {c.score}" for c in state.order), "R002.13"))
    return RoundEnd(tuple(idle), False, tuple(lines))


def resort(combatants: Sequence[Combatant], before: Mapping[str, int], dex: Mapping[str, int],
           source: DiceSource) -> tuple[list[Combatant], list[Line]]:
    """A002.05: higher score first, then higher Dex bonus; combatants still equal keep their
    order when they were already equal before this round (the roll-off that placed them
    stands), otherwise they roll off (d20, repeated while tied)."""
    ranked = sorted(combatants, key=lambda c: (-c.score, -dex.get(c.name, 0)))
    out: list[Combatant] = []
    lines: list[Line] = []
    i = 0
    while i < len(ranked):
        key = (ranked[i].score, dex.get(ranked[i].name, 0))
        group = [c for c in ranked[i:] if (c.score, dex.get(c.name, 0)) == key]
        i += len(group)
        if len(group) == 1 or len({before[c.name] for c in group}) == 1:
            out.extend(group)
            continue
        decided = order([Entrant(c.name, c.score) for c in group], ORDER_RULE, source)
        by_name = {c.name: c for c in group}
        out.extend(by_name[name] for name in decided.names)
        faces = ", ".join(f"{e.name} {'/'.join(map(str, e.rolloffs))}" for e in decided.entries)
        lines.append(Line(f"égalité à {key[0]} (même bonus de Dextérité) : départage au d20 "
                          f"({faces})", "A002.05"))
    return out, lines
