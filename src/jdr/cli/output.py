"""What the CLI prints: results (rendered before the commit, printed after), errors, help.

- A result goes to stdout: rich colours on a terminal, plain unwrapped lines when piped (one
  result line stays one line, whatever the width), or JSON / forum BBCode when asked.
- An error is one line `Erreur : …` on stderr (a sheet's problems follow, one per line), exit
  code 2; under `--json` (or `--format json`) it is `{"error": "…"}` on stdout instead. Text
  from users is shown, never obeyed (`jdr.render.safe.clean`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from itertools import pairwise
from typing import Annotated, Any

import typer

from jdr.errors import JdrError, SheetError

FORMATS = ("texte", "forum", "json")


MjOpt = Annotated[bool, typer.Option("--mj", help="Dérogation du MJ aux règles du tour (hors de son tour, "
                                     "action de trop) ; elle est écrite au journal.")]


class Output:
    """What a command will print, decided before anything is committed."""

    def __init__(self, fmt: str, as_json: bool, detail: bool) -> None:
        if as_json:
            fmt = "json"
        if fmt == "text":
            fmt = "texte"
        if fmt not in FORMATS:
            from jdr.render.safe import clean

            raise JdrError(f"--format « {clean(fmt[:40])} » inconnu (autorisé : texte, forum, json)")
        self.fmt = fmt
        self.detail = detail

    def render(self, result: Any, notice: str | None = None) -> Callable[[], None]:
        """Render now; return the printing step (called after the commit), which prints
        `notice` after the result."""
        if self.fmt == "texte" and sys.stdout.isatty():
            from jdr.render.text import styled

            lines = styled(result, self.detail)

            def show() -> None:
                print_rich(lines)
                self.notice(notice)
            return show
        from jdr.render import render

        text = render(result, self.fmt, self.detail)

        def plain() -> None:
            print_plain(text)
            self.notice(notice)
        return plain

    def notice(self, text: str | None) -> None:
        """A line after the result (the MJ's override…): on stderr when stdout is JSON."""
        if text is None:
            return
        if self.fmt == "json":
            sys.stderr.write(text + "\n")
        else:
            print_plain(text)


def print_plain(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def print_rich(lines: list[list[tuple[str, str]]]) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    for line in lines:
        text = Text()
        for part, style in line:
            text.append(part, style=style or None)
        console.print(text)


def wants_json_output(args: list[str]) -> bool:
    """Whether errors go out as JSON: `--json`, `--format json` or `--format=json` was given."""
    if "--json" in args or "--format=json" in args:
        return True
    return any(a == "--format" and b == "json" for a, b in pairwise(args))


def print_error(exc: JdrError, wants_json: bool, code: int) -> int:
    """Print the error (see the module docstring); return the exit code."""
    from jdr.render.safe import clean

    problems = exc.problems if isinstance(exc, SheetError) else []
    head = exc.message.split("\n", 1)[0] if problems else exc.message
    lines = [clean(head)] + [f"  - {clean(p)}" for p in problems]
    if wants_json:
        from jdr.render.json import error

        sys.stdout.write(error("\n".join(lines)) + "\n")
    else:
        sys.stderr.write("Erreur : " + "\n".join(lines) + "\n")
    return code
