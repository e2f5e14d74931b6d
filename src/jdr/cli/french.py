"""typer's and click's own words in French: help pages and usage errors.

Why not a gettext catalogue: typer 0.29 vendors click as `typer._click` with click's `_()`
calls removed, so its messages are plain f-strings ("Missing argument …", "Option … requires
an argument.", "Usage: "); only a few headings in `typer.core` still go through gettext. A
catalogue would reach those few and miss the rest, and rewriting the vendored functions would
break with each typer release. So we translate at the only two places a person reads them:

- **help pages**: `install(command)` gives every command of the tree a `FrenchContext` (click's
  documented hook: `Command.context_class`), whose `formatter_class` is `FrenchFormatter`. That
  `HelpFormatter` subclass rewrites, from one table each, the usage prefix, the section headings,
  the help option's text, the `[default: …]` / `[required]` notes and the type labels;
- **usage errors**: `usage_message(exc)` rebuilds one French line from the exception's
  structured fields (the parameter and its name, the option name, the close matches), so every
  error names its argument. A click message we do not know becomes a generic French line: no
  English reaches the person, whatever the typer version.

Nothing global is patched: only our own commands use these classes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from typer import _click
from typer._click import exceptions as cx

from jdr.render.safe import clean

USAGE = "Utilisation : "
HEADINGS = {"Options": "Options", "Arguments": "Arguments", "Commands": "Commandes"}
HELP_OPTION = {"Show this message and exit.": "Affiche cette aide et quitte."}
USAGE_PIECES = {"OPTIONS": "OPTIONS", "COMMAND": "COMMANDE", "ARGS": "ARGUMENTS"}
# Patterns stay strings: compiled on first use (by `re`'s cache), not when `jdr lancer` starts.
_USAGE_PIECE = r"\b(" + "|".join(USAGE_PIECES) + r")\b"
TYPES = {"path": "chemin", "Path": "chemin", "str": "texte", "int": "entier", "bool": "oui/non",
         "list[Path]": "chemins", "list[path]": "chemins", "list[str]": "textes",
         "float": "nombre", "int range": "entier"}
NOTES = (
    (r"(?s)^default: (.*)$", "défaut : {0}"),
    (r"^required$", "obligatoire"),
    (r"(?s)^env var: (.*)$", "variable d'environnement : {0}"),
    (r"^\(dynamic\)$", "(dynamique)"),
)
_NOTE = r"\[([^\[\]]*)\]$"
_TYPE = r" <([^<>]+)>$"


def _note(part: str) -> str:
    for pattern, french in NOTES:
        m = re.match(pattern, part)
        if m:
            return french.format(*m.groups())
    return part


def translate_help(text: str) -> str:
    """The second column of a help row: our French help, then click's own notes in brackets."""
    text = HELP_OPTION.get(text, text)
    m = re.search(_NOTE, text)
    if m is None:
        return text
    notes = "; ".join(_note(p.strip()) for p in m.group(1).split(";"))
    return f"{text[: m.start()]}[{notes}]"


def translate_name(text: str) -> str:
    """The first column of a help row: `fiche <path>` → `fiche <chemin>`."""
    m = re.search(_TYPE, text)
    if m is None or m.group(1) not in TYPES:
        return text
    return f"{text[: m.start()]} <{TYPES[m.group(1)]}>"


class FrenchFormatter(_click.HelpFormatter):
    """click's help formatter with click's own words in French (ours are French already)."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        args = re.sub(_USAGE_PIECE, lambda m: USAGE_PIECES[m.group(1)], args)
        super().write_usage(prog, args, USAGE if prefix is None else prefix)

    def write_heading(self, heading: str) -> None:
        """`Options :`, with the space French typography puts before a colon."""
        self.write(f"{'':>{self.current_indent}}{HEADINGS.get(heading, heading)} :\n")

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        french = [(translate_name(a), translate_help(b)) for a, b in rows]
        super().write_dl(french, col_max, col_spacing)


class FrenchContext(_click.Context):
    formatter_class = FrenchFormatter


def commands(command: Any) -> Iterable[Any]:
    """The command and every subcommand below it."""
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from commands(sub)


def install(command: Any) -> Any:
    """Give every command of the tree the French help formatter (idempotent); returns it."""
    for cmd in commands(command):
        cmd.context_class = FrenchContext
    return command


# ------------------------------------------------------------------ usage errors

_NO_COMMAND = r"(?s)^No such command (?P<name>.+?)\.(?: Did you mean (?P<close>.+)\?)?$"
_EXTRA = r"(?s)^Got unexpected extra argument(?:\(s\)|s)? \((?P<args>.*)\)$"
_REQUIRES = r"requires (?:an argument|(?P<n>\d+) arguments)\.$"
_TAKES = r"(?s)^Argument (?P<name>.+) takes (?P<n>\d+) values\.$"
_KNOWN = {
    "Missing command.": "commande manquante",
    "Value must be an iterable.": "plusieurs valeurs attendues",
}


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def param_name(param: Any) -> str:
    """How a person types the parameter: `--seuil` for an option, `FICHE` for an argument."""
    if param is None:
        return "?"
    if getattr(param, "param_type_name", "") == "option":
        opts = [o for o in getattr(param, "opts", []) if o.startswith("--")] or list(param.opts)
        return " / ".join(opts)
    return str(getattr(param, "metavar", None) or param.name or "?").upper()


def _close(names: Iterable[str]) -> str:
    shown = ", ".join(clean(_unquote(n)) for n in names if n)
    return f" ; vouliez-vous dire {shown} ?" if shown else ""


def usage_message(exc: BaseException) -> str | None:
    """A click usage error as one French line naming the argument, or None if not one."""
    if not isinstance(exc, cx.ClickException):
        return None
    ctx = getattr(exc, "ctx", None)
    text = _message(exc)
    if ctx is not None:
        text += f" (aide : {clean(ctx.command_path)} --help)"
    return text


def _message(exc: cx.ClickException) -> str:
    if isinstance(exc, cx.MissingParameter):
        kind = exc.param_type or getattr(exc.param, "param_type_name", "argument")
        name = param_name(exc.param)
        if kind == "option":
            return f"option {name} obligatoire absente"
        return f"argument {name} manquant"
    if isinstance(exc, cx.BadParameter):
        detail = _KNOWN.get(exc.message, "valeur refusée")
        return f"valeur invalide pour {param_name(exc.param)} : {detail}"
    if isinstance(exc, cx.NoSuchOption):
        return f"option inconnue : {clean(exc.option_name)}" + _close(sorted(exc.possibilities or ()))
    if isinstance(exc, cx.BadOptionUsage):
        name = clean(exc.option_name)
        m = re.search(_REQUIRES, exc.message)
        if m:
            n = m.group("n")
            return f"l'option {name} attend " + (f"{n} valeurs" if n else "une valeur")
        if "does not take a value" in exc.message:
            return f"l'option {name} ne prend pas de valeur"
        return f"option {name} mal employée"
    message = exc.message if isinstance(exc.message, str) else str(exc.message)
    if message in _KNOWN:
        return _KNOWN[message]
    m = re.match(_NO_COMMAND, message)
    if m:
        close = m.group("close")
        return (f"commande inconnue : « {clean(_unquote(m.group('name')))} »"
                + (_close(close.split(", ")) if close else ""))
    m = re.match(_EXTRA, message)
    if m:
        return f"argument(s) en trop : {clean(m.group('args'))}"
    m = re.match(_TAKES, message)
    if m:
        return f"l'argument {clean(_unquote(m.group('name'))).upper()} attend {m.group('n')} valeurs"
    return "commande mal formée"
