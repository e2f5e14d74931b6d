"""A roll compiled into its exact outcomes, through the production code (the simulator's tables).

`compile_outcomes(fn, docs)` enumerates every sequence of faces `fn(source)` can ask for
(`jdr.dice.enumerate`) and keeps, for each, what the rules do to the sheets: the changes the
`Outcome` carries, each tied to the sheet it changes by its position in `docs` (0: the
attacker, 1: the defender). Equal effects add up their probabilities. A roll asking for more
than `max_paths` face sequences, or dice without end (an explosion past `MAX_DICE` dice), is not
compiled: None, and the simulator plays it die by die.

A system whose attack chains several rolls (attack, location, damage, a resistance roll…) gives
the same table faster from the laws of its parts (`GameSystem.attack_outcomes`): each step's
exact law (`check_law`: a `Check`'s own outcomes, the ones its odds count; `expression_law`: a
dice expression's), followed by the next step on each of its values (`then`), equal values
merged at every step so the work grows with the values that matter, not with the face
sequences. `effect_from` turns the changes a branch writes into the same `Effect` as the
enumeration keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from jdr.errors import DiceLimitError

if TYPE_CHECKING:
    from jdr.core.check import Check, CheckResult
    from jdr.core.sheet import SheetDocument
    from jdr.core.system import Outcome, SheetChange
    from jdr.dice.source import DiceSource

# One change: (index of the sheet in `docs`, path, value as JSON, whether it is a pool's current).
Change = tuple[int, tuple[str, ...], str, bool]
Effect = tuple[Change, ...]

MAX_PATHS = 2_000
MAX_DICE = 24

A = TypeVar("A", bound=Hashable)
B = TypeVar("B", bound=Hashable)
Law = dict[A, Fraction]  # each value a step can take, with its exact probability


class NotCompiled(Exception):
    """The outcome touches a sheet outside `docs`: it cannot be replayed from a table."""


def effect_of(outcome: Outcome | None, docs: Sequence[SheetDocument]) -> Effect:
    """The sheet changes of one outcome, each tied to its sheet's position in `docs`."""
    if outcome is None:
        return ()
    return effect_from(outcome.changes, docs)


def effect_from(changes: Iterable[SheetChange], docs: Sequence[SheetDocument]) -> Effect:
    """Sheet changes, each tied to its sheet's position in `docs` (what `effect_of` keeps)."""
    import json

    out: list[Change] = []
    for change in changes:
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


# ------------------------------------------------------------------ laws of the parts


def law(pairs: Iterable[tuple[A, Fraction]]) -> Law[A]:
    """Values with their probabilities, equal values merged."""
    out: Law[A] = {}
    for value, p in pairs:
        out[value] = out.get(value, Fraction(0)) + p
    return out


@lru_cache(maxsize=4096)
def check_outcomes(check: Check) -> tuple[tuple[CheckResult, Fraction], ...]:
    """A check's own outcomes with their exact probabilities (`Check.outcomes`, the law its odds
    count), kept per check: the same check comes back in table after table."""
    return tuple(check.outcomes())


def check_law(check: Check, key: Callable[[CheckResult], A]) -> Law[A]:
    """What the rules read of a check (`key` of each outcome), with its exact probability."""
    return law((key(result), p) for result, p in check_outcomes(check))


def then(first: Mapping[A, Fraction], step: Callable[[A], Mapping[B, Fraction]]) -> Law[B]:
    """Each value of `first` followed by `step` (the law of what comes next, from that value):
    the law of the chain, equal results merged."""
    out: Law[B] = {}
    for value, p in first.items():
        for after, q in step(value).items():
            out[after] = out.get(after, Fraction(0)) + p * q
    return out


def expression_law(expression: str, variables: Mapping[str, int] | None = None
                   ) -> Mapping[int, Fraction] | None:
    """The exact law of a dice expression's total (the odds `jdr chances` gives: same syntax
    tree as the roll), or None when part of it is not computed (explosions without end) or it
    is rolled several times (`3x…`)."""
    return _expression_law(expression, tuple(sorted((variables or {}).items())))


@lru_cache(maxsize=1024)
def _expression_law(expression: str, variables: tuple[tuple[str, int], ...]) -> Law[int] | None:
    from jdr.dice.odds import odds

    found = odds(expression, dict(variables))
    if found.truncated or found.repeat != 1:
        return None
    return dict(found.distribution)
