"""Errors a person reads: one French line each, exit code 2 on the command line."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from jdr.core.frozen import frozen

if TYPE_CHECKING:
    from jdr.core.messages import Message


class JdrError(Exception):
    """Base of every error meant for a person. The message is French and says what, where, why."""

    exit_code = 2

    def __init__(self, message: Message) -> None:
        """`message`: plain French, or a `jdr.core.messages.Text` naming options, parameters or
        commands, which the command line (`message`) and the pages (`pages`) each name their way."""
        cli = message if isinstance(message, str) else message.cli
        super().__init__(cli)
        self.message = cli
        self.pages = message if isinstance(message, str) else message.web


class DiceError(JdrError):
    """A dice expression that cannot be read or rolled."""


class DiceLimitError(DiceError):
    """A dice expression beyond our hard limits (dice, length, nesting)."""


class FacesError(JdrError):
    """Faces given by hand (`--des`) that do not fit the roll."""


@frozen
class Problem:
    """One problem of a sheet: where (the path of keys and list indexes, normalized: `("armes",
    "0", "competence")`, `()` for the whole sheet) and the French reason, without the path."""

    path: tuple[str, ...]
    message: str


_LOCATED = re.compile(r"([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*)(?: = .*?)? : (.+)", re.DOTALL)


def locate(line: str) -> Problem:
    """A problem line as the loaders write it (`caracteristiques.chance = 5 : la Chance …`,
    `expertes : un Nain …`) read back into its path and its reason."""
    found = _LOCATED.fullmatch(line.strip())
    if found is None:
        return Problem((), line.strip())
    return Problem(tuple(found.group(1).split(".")), found.group(2))


class SheetError(JdrError):
    """A sheet file that cannot be read, or that breaks the rules. `problems` are the French
    lines the CLI prints; `details` the same problems, each with the path of its field."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []
        self.details = [locate(p) for p in self.problems]


class RuleError(JdrError):
    """An action the rules forbid (not enough XP, an unknown skill, ...)."""
