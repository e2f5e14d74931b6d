"""Rendering for the terminal: rich when the result offers it, else its French text."""

from __future__ import annotations

from typing import Any


def print_result(result: Any) -> None:
    from rich.console import Console

    console = Console(highlight=False)
    rich_view = getattr(result, "rich", None)
    if rich_view is not None:
        console.print(rich_view())
    else:
        console.print(result.render(), markup=False)
