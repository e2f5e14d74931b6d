"""typer's and click's own messages in French (help headers, usage errors, suggestions).

TODO(cli helper): complete translation table; see tests/cli.
"""

from __future__ import annotations


def install() -> None:
    """Install the French messages into typer's click (idempotent)."""


def usage_message(exc: Exception) -> str | None:
    """A click usage error as one French line naming the argument, or None if not one."""
    if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
        return None
    return f"utilisation incorrecte : {exc.format_message()}"
