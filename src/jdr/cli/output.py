"""What the CLI prints: results (written and flushed before the commit), errors, help.

- Output first: a command writes and flushes its whole output, then commits (`output_first`).
  If the output cannot be written (`> /dev/full`, a closed pipe), nothing is committed; if the
  commit then fails, a French line on stderr says that nothing was recorded, exit code 2.
- Output never fails on encoding (`setup_streams`): where stdout or stderr cannot encode a
  character (`PYTHONIOENCODING=ascii`, an ASCII terminal), it degrades (`→` to `->`, `é` to
  `e`, `«` to `"`), else becomes `?`.

- A result goes to stdout: rich colours on a terminal, plain unwrapped lines when piped (one
  result line stays one line, whatever the width), or JSON / forum BBCode when asked.
- An error is one line `Erreur : …` on stderr (a sheet's problems follow, one per line), exit
  code 2; under `--json` (or `--format json`) it is `{"error": "…"}` on stdout instead. Text
  from users is shown, never obeyed (`jdr.render.safe.clean`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from itertools import pairwise
from typing import Any

from jdr.errors import JdrError, SheetError

FORMATS = ("texte", "forum", "discord", "json")


class Output:
    """What a command will print, decided before anything is committed."""

    def __init__(self, fmt: str, as_json: bool, detail: bool) -> None:
        if as_json:
            fmt = "json"
        if fmt == "text":
            fmt = "texte"
        if fmt not in FORMATS:
            from jdr.render.safe import clean

            raise JdrError(f"--format « {clean(fmt[:40])} » inconnu (autorisé : texte, forum, discord, json)")
        self.fmt = fmt
        self.detail = detail

    def render(self, result: Any, notice: str | None = None) -> Callable[[], None]:
        """Render now; return the printing step (called before the commit, see `output_first`),
        which prints `notice` after the result."""
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


class OutputFailed(JdrError):
    """stdout could not take the whole output: nothing was committed."""

    to_stderr = True


class NotRecorded(JdrError):
    """The output was written, then the commit failed: nothing was recorded."""

    to_stderr = True


def broken_stdout(exc: OSError) -> OutputFailed:
    """stdout is broken: point it to /dev/null (so that the interpreter's last flush at exit
    neither fails nor prints), and say in French why nothing was recorded."""
    import errno
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
        failed = OutputFailed("sortie fermée avant la fin (tube rompu) : rien n'a été enregistré")
        failed.exit_code = 141
        return failed
    from jdr.core.sheet import os_reason

    return OutputFailed(f"sortie impossible ({os_reason(exc)}) : rien n'a été enregistré")


def print_plain(text: str) -> None:
    """Write and flush `text` (and a newline) on stdout, or raise `OutputFailed`."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except OSError as exc:
        raise broken_stdout(exc) from None


def print_rich(lines: list[list[tuple[str, str]]]) -> None:
    from rich.console import Console
    from rich.text import Text

    try:
        console = Console(highlight=False, soft_wrap=True)
        for line in lines:
            text = Text()
            for part, style in line:
                text.append(part, style=style or None)
            console.print(text)
        sys.stdout.flush()
    except OSError as exc:
        raise broken_stdout(exc) from None


class Shown:
    """`shown(step)`: run a printing step; from then on, the output has been written."""

    def __init__(self) -> None:
        self.done = False

    def __call__(self, step: Callable[[], None]) -> None:
        step()
        self.done = True


@contextmanager
def output_first(write: bool = True) -> Iterator[Shown]:
    """Around a command that prints (through the yielded `Shown`) then commits: a failure after
    the output was written becomes `NotRecorded` (a French line: nothing was recorded)."""
    shown = Shown()
    try:
        yield shown
    except (OutputFailed, NotRecorded):
        raise
    except Exception as exc:
        if not (write and shown.done):
            raise
        raise not_recorded(exc) from None


def not_recorded(exc: BaseException) -> NotRecorded:
    if isinstance(exc, JdrError):
        reason = exc.message.split("\n", 1)[0]
    elif isinstance(exc, OSError):
        from jdr.core.sheet import os_reason

        reason = os_reason(exc)
    else:
        reason = f"erreur de la base : {type(exc).__name__}"
    return NotRecorded(f"enregistrement impossible ({reason}) : rien n'a été enregistré, "
                       "le résultat affiché ci-dessus ne compte pas")


_ASCII = {
    "→": "->", "←": "<-", "↔": "<->", "⇒": "=>", "«": '"', "»": '"', "“": '"', "”": '"',
    "„": '"', "‘": "'", "’": "'", "‹": "<", "›": ">", "—": "-", "–": "-", "‑": "-", "−": "-",
    "…": "...", "×": "x", "÷": "/", "≥": ">=", "≤": "<=", "≠": "!=", "±": "+/-", "·": ".",
    "•": "*", "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "ø": "o", "Ø": "O",
    "\u00a0": " ", "\u202f": " ", "\u2009": " ", "°": "o", "½": "1/2", "¼": "1/4", "¾": "3/4",
    "€": "EUR", "✓": "v", "✗": "x", "│": "|", "─": "-", "┃": "|", "━": "-",
}


def _degrade(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler `jdr-degrade`: the nearest characters the stream's encoding has."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    import unicodedata

    out = []
    for char in exc.object[exc.start:exc.end]:
        candidates = [_ASCII.get(char, ""), "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))]
        for candidate in candidates:
            try:
                if candidate:
                    candidate.encode(exc.encoding)
                    out.append(candidate)
                    break
            except UnicodeError:
                continue
        else:
            out.append("?")
    return "".join(out), exc.end


def _quiet_exit() -> None:
    """At exit, a stdout that can no longer be flushed (closed pipe, full disk) goes to
    /dev/null instead of printing « Exception ignored … » after our French line."""
    try:
        sys.stdout.flush()
    except OSError as exc:
        broken_stdout(exc)
    except ValueError:  # already closed
        pass


def setup_streams() -> None:
    """stdout and stderr degrade what their encoding cannot write (see the module docstring)."""
    import atexit
    import codecs

    atexit.unregister(_quiet_exit)
    atexit.register(_quiet_exit)

    try:
        codecs.lookup_error("jdr-degrade")
    except LookupError:
        codecs.register_error("jdr-degrade", _degrade)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        with suppress(OSError, ValueError):
            reconfigure(errors="jdr-degrade")


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
    if wants_json and not getattr(exc, "to_stderr", False):
        from jdr.render.json import error

        try:
            sys.stdout.write(error("\n".join(lines)) + "\n")
            sys.stdout.flush()
        except OSError as failed:
            broken_stdout(failed)
            return print_error(exc, False, code)
    else:
        try:
            sys.stderr.write("Erreur : " + "\n".join(lines) + "\n")
            sys.stderr.flush()
        except OSError:
            pass
    return code
