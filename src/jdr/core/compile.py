"""A roll compiled into its exact outcomes, through the production code (the simulator's tables).

`compile_outcomes(fn, docs)` enumerates every sequence of faces `fn(source)` can ask for
(`jdr.dice.enumerate`) and keeps, for each, what the rules do to the sheets: the changes the
`Outcome` carries, each tied to the sheet it changes by its position in `docs` (0: the
attacker, 1: the defender). Equal effects add up their probabilities. A roll asking for more
than `max_paths` face sequences, or dice without end (an explosion past `MAX_DICE` dice), is not
compiled: None, and the simulator plays it die by die.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from jdr.errors import DiceLimitError

if TYPE_CHECKING:
    from jdr.core.sheet import SheetDocument
    from jdr.core.system import Outcome
    from jdr.dice.source import DiceSource

# One change: (index of the sheet in `docs`, path, value as JSON, whether it is a pool's current).
Change = tuple[int, tuple[str, ...], str, bool]
Effect = tuple[Change, ...]

MAX_PATHS = 2_000
MAX_DICE = 24


class NotCompiled(Exception):
    """The outcome touches a sheet outside `docs`: it cannot be replayed from a table."""


def effect_of(outcome: Outcome | None, docs: Sequence[SheetDocument]) -> Effect:
    """The sheet changes of one outcome, each tied to its sheet's position in `docs`."""
    if outcome is None:
        return ()
    out: list[Change] = []
    for change in outcome.changes:
        role = next((i for i, doc in enumerate(docs) if doc is change.doc), None)
        if role is None:
            raise NotCompiled
        out.append((role, tuple(change.path), json.dumps(_plain(change.value), sort_keys=True),
                    change.pool))
    return tuple(out)


def _plain(value: Any) -> Any:
    from jdr.core.sheet import to_plain

    return to_plain(value)


def compile_outcomes(fn: Callable[[DiceSource], Outcome | None], docs: Sequence[SheetDocument],
                     max_paths: int = MAX_PATHS) -> dict[Effect, Fraction] | None:
    """Every effect `fn` can have on `docs`, with its exact probability; None when it cannot be
    compiled (too many face sequences, dice without end, a change elsewhere)."""
    from jdr.dice.enumerate import enumerate_truncated

    try:
        table, cut = enumerate_truncated(lambda source: effect_of(fn(source), docs), MAX_DICE,
                                         max_paths)
    except (DiceLimitError, NotCompiled):
        return None
    return table if cut == 0 else None
