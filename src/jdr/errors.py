"""Errors a person reads: one French line each, exit code 2 on the command line."""

from __future__ import annotations


class JdrError(Exception):
    """Base of every error meant for a person. The message is French and says what, where, why."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DiceError(JdrError):
    """A dice expression that cannot be read or rolled."""


class DiceLimitError(DiceError):
    """A dice expression beyond our hard limits (dice, length, nesting)."""


class FacesError(JdrError):
    """Faces given by hand (`--des`) that do not fit the roll."""


class SheetError(JdrError):
    """A sheet file that cannot be read, or that breaks the rules."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class RuleError(JdrError):
    """An action the rules forbid (not enough XP, an unknown skill, ...)."""
