"""The action commands, derived from their declarations (`jdr.core.declare.ACTIONS`).

Each command is a `Shape`: a French name, the action it plays, and only what the command line
adds (a parameter shown differently, a flag for the action's odds, options of its own). Its
arguments and options are the declaration's parameters, in order:

- a parameter whose `cli` is a word (`FICHE`) is an argument, one named `--carac` an option;
  `characters` is a repeated argument, `options` a repeated option, `flag` a flag;
- the help is the declaration's label and help (« Seuil : un nombre ou un nom de l'échelle »),
  with the range of a number (« de -1000 à 1000 ») and, for several characters, their count;
- the common options are declared once here (`COMMON`) and attached according to the
  declaration: `--des` and `--seed` when the action rolls, `--dry-run` when it is journaled,
  `--mj` (the MJ's override of the turn rules) when a player's journaled action names
  characters, and `--campagne`, `--json`, `--format`, `--detail` on every action.

typer reads a command's parameters with `inspect.signature`, which honours `__signature__`: a
`Derived` command builds its signature from the declaration the first time typer asks for it,
so `jdr lancer` builds only its own (the declarations are read then, not at import). A
declaration that gains a parameter gains its option here, with no line of `cli/` changed.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Annotated, Any

from jdr.cli.output import Output, output_first

if TYPE_CHECKING:
    from jdr.core.declare import ActionDef, Param
    from jdr.core.usecase import Workspace

SEED_MAX = 999_999_999
SEED_SHOWN = f"{SEED_MAX:,}".replace(",", "\u202f")  # thousands as `jdr.core.french.number` shows them
KW = inspect.Parameter.KEYWORD_ONLY
Values = dict[str, Any]


# ------------------------------------------------------------------ the common options


MJ_HELP = ("Dérogation du MJ aux règles du tour (hors de son tour, action de trop) ; elle est "
           "écrite au journal.")
# the Python name typer passes → (option, metavar: "" for a flag, help); `--format` defaults to
# texte, the other values to None (a flag to False). Plain tuples: nothing to build at start-up.
COMMON: dict[str, tuple[str, str, str]] = {
    "des": ("--des", "FACES", "Faces lancées à la main, dans l'ordre des règles (ex. 8,6 ; 0 vaut "
            "10 sur un d10 ; voir jdr aide)."),
    "seed": ("--seed", "GRAINE", f"Graine (entier de 0 à {SEED_SHOWN}) : jets reproductibles."),
    "dry_run": ("--dry-run", "", "N'enregistre rien : ni fiche, ni journal."),
    "mj": ("--mj", "", MJ_HELP),
    "campagne": ("--campagne", "CAMPAGNE", "Campagne (fichier .jdr ou adresse "
                 "postgresql+psycopg://…) : les personnages sont alors des noms. Sinon "
                 "JDR_CAMPAGNE, ou le seul fichier .jdr du dossier."),
    "as_json": ("--json", "", "Sortie JSON (pour les scripts)."),
    "fmt": ("--format", "FORMAT", "texte, forum, discord ou json."),
    "detail": ("--detail", "", "Montre les numéros de règle."),
}
DEFAULTS = {"fmt": "texte"}


def common(name: str) -> inspect.Parameter:
    """One common option as typer reads it."""
    import typer

    option, shown, text = COMMON[name]
    info = typer.Option(option, help=text, metavar=shown or None)
    if not shown:
        return inspect.Parameter(name, KW, default=False, annotation=Annotated[bool, info])
    default = DEFAULTS.get(name)
    kind: Any = str if default is not None else str | None
    return inspect.Parameter(name, KW, default=default, annotation=Annotated[kind, info])


def common_names(action: ActionDef) -> list[str]:
    """The common options of an action, from its declaration."""
    names = ["des", "seed"] if action.rolls else []
    if action.journaled:
        names.append("dry_run")
        characters = any(p.kind in ("character", "characters") for p in action.params)
        if action.who == "joueur" and characters:
            names.append("mj")
    return [*names, "campagne", "as_json", "fmt", "detail"]


# ------------------------------------------------------------------ one parameter


def sentence(label: str, text: str) -> str:
    """« Seuil : un nombre… » — or the help alone when it names the label already (« Fiche ou
    nom de l'attaquant », not « Attaquant : fiche ou nom de l'attaquant »)."""
    if not text:
        return label
    words = "".join(c if c.isalnum() else " " for c in text.lower())
    if f" {label.lower()} " in f" {words} ":
        return text[0].upper() + text[1:]
    return f"{label} : {text}"


def _end(text: str) -> str:
    return text if text.endswith((".", "…", "!", "?")) else text + "."


def param_help(p: Param) -> str:
    """The help of one parameter, from the declaration: its label and help, its range, how many
    characters it takes."""
    out = sentence(p.label, p.help)
    if p.kind == "int" and p.lo is not None and p.hi is not None:
        from jdr.core.french import number

        out += f", de {number(p.lo)} à {number(p.hi)}"
    if p.kind == "characters" and p.lo is not None and p.lo == p.hi:
        out += f" ({p.lo} exactement)"
    if p.kind == "options":
        out += " (répétable ; voir jdr aide SYSTEME)"
    return _end(out)


def metavar(p: Param) -> str:
    if p.metavar or p.positional:
        return p.metavar or p.cli
    return "N" if p.kind == "int" else p.cli.lstrip("-").upper()


def parameter(p: Param) -> inspect.Parameter:
    """The typer argument or option of one declared parameter."""
    import typer

    many = p.kind in ("characters", "options")
    kind: Any = list[str] if many else str
    if p.kind == "flag":
        info = typer.Option(p.cli, help=param_help(p))
        return inspect.Parameter(p.name, KW, default=False, annotation=Annotated[bool, info])
    if p.positional:
        info = typer.Argument(help=param_help(p), metavar=metavar(p), show_default=False)
    else:
        info = typer.Option(p.cli, help=param_help(p), metavar=metavar(p))
    if p.required and p.positional:
        return inspect.Parameter(p.name, KW, annotation=Annotated[kind, info])
    return inspect.Parameter(p.name, KW, default=None, annotation=Annotated[kind | None, info])


# ------------------------------------------------------------------ one command


class Shape:
    """How one command shows an action: only what the command line adds to the declaration."""

    __slots__ = ("before", "changes", "extra", "group", "kind", "name", "odds_flag", "summary")

    def __init__(self, name: str, kind: str, *, group: str = "", summary: str = "",
                 changes: Mapping[str, Mapping[str, Any]] | None = None, odds_flag: bool = False,
                 extra: Callable[[], list[inspect.Parameter]] | None = None,
                 before: Callable[[Values, Output, Values], bool] | None = None) -> None:
        self.name = name            # the French command name
        self.kind = kind            # the declared action it plays
        self.group = group          # "" (jdr NAME) or a group of commands (jdr fiche NAME)
        self.summary = summary      # the command's help when it does more than the action
        self.changes = changes or {}  # a parameter shown differently here
        self.odds_flag = odds_flag  # `--chances`: the action's exact odds instead (`odds`)
        self.extra = extra          # options of the command line alone
        self.before = before        # True: done by the command line, not the action

    def action(self) -> ActionDef:
        from jdr.core.declare import ACTIONS

        action = ACTIONS[self.kind]
        params = tuple(p._replace(**self.changes[p.name]) if p.name in self.changes else p
                       for p in action.params)
        return action._replace(params=params)

    def help(self) -> str:
        if self.summary:
            return self.summary
        action = self.action()
        return _end(sentence(action.label, action.help))


ODDS_HELP = "Chances exactes, sans rien lancer."


def signature(shape: Shape) -> inspect.Signature:
    """The command's parameters: the declaration's, the command line's, the common ones."""
    import typer

    action = shape.action()
    params = [parameter(p) for p in action.params]
    if shape.odds_flag:
        params.append(inspect.Parameter("chances", KW, default=False, annotation=Annotated[
            bool, typer.Option("--chances", help=ODDS_HELP)]))
    params += shape.extra() if shape.extra is not None else []
    params += [common(name) for name in common_names(action)]
    names = [p.name for p in params]
    assert len(names) == len(set(names)), f"{shape.name} : paramètre en double ({names})"
    return inspect.Signature(params)


class Derived:
    """A command typer builds like a function: its signature and help come from the declaration
    when typer asks for them (`__signature__`, `__doc__`), its call plays the action."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.__annotations__: dict[str, Any] = {}  # what typing.get_type_hints reads
        self.__name__ = self.__qualname__ = shape.name
        self._signature: inspect.Signature | None = None

    @property
    def __signature__(self) -> inspect.Signature:
        if self._signature is None:
            self._signature = signature(self.shape)
        return self._signature

    @property
    def __doc__(self) -> str:  # type: ignore[override]
        return self.shape.help()

    def __call__(self, **values: Any) -> None:
        out = Output(values.pop("fmt"), values.pop("as_json"), values.pop("detail"))
        common = {name: values.pop(name, None) for name in ("seed", "des", "dry_run", "campagne",
                                                             "mj")}
        if self.shape.before is not None and self.shape.before(values, out, common):
            return
        kind = self.shape.kind
        if self.shape.odds_flag and values.pop("chances"):
            from jdr.core.declare import ACTIONS

            kind = ACTIONS[kind].odds
        params = {name: None if value is False else value for name, value in values.items()}
        act(kind, params, out, common["seed"], common["des"], bool(common["dry_run"]),
            common["campagne"], bool(common["mj"]))


def register(targets: Mapping[str, Any], shapes: tuple[Shape, ...]) -> None:
    """Each shape's command on its typer (`targets[shape.group]`)."""
    for shape in shapes:
        targets[shape.group].command(shape.name)(Derived(shape))


# ------------------------------------------------------------------ playing an action


def source_of(seed: str | None, des: str | None) -> Any:
    from jdr.dice.source import make_source

    if seed is None:
        return make_source(None, des)
    from jdr.core.options import parse_int

    return make_source(parse_int(seed, "--seed", 0, SEED_MAX), des)


def _chooser(out: Output) -> Any:
    """After the dice are shown, ask the player (on a terminal, text output); else the default."""
    from jdr.core.system import default_choice

    if out.fmt != "texte" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return default_choice

    def ask(question: Any) -> str:
        if question.shown is not None:
            out.render(question.shown)()
        choices = "/".join(question.choices)
        answer = input(f"{question.prompt} [{choices}] (défaut : {question.default}) ? ").strip()
        return answer if answer in question.choices else question.default

    return ask


def _campaign_in_use(campagne: str | None) -> bool:
    from jdr.core.place import campaign_named

    return campaign_named(campagne)


def _roll(expression: str, out: Output, seed: str | None, des: str | None) -> None:
    """A free roll outside any campaign: the dice parser alone (fast start)."""
    from jdr.dice.notation import roll
    from jdr.dice.source import finish

    source = source_of(seed, des)
    result = roll(expression, source)
    finish(source)
    out.render(result)()


def act(kind: str, params: dict[str, Any], out: Output, seed: str | None = None,
        des: str | None = None, dry_run: bool = False, campagne: str | None = None,
        mj: bool = False) -> None:
    """One action, files or campaign: load, act, validate, render, print, then commit."""
    if kind == "roll" and not _campaign_in_use(campagne):
        _roll(params["expression"], out, seed, des)  # nothing to load, nothing to journal
        return
    from jdr.core.actions import commit, execute, journaled, refs_of
    from jdr.core.actions import rolls as declared_rolls
    from jdr.core.place import on_files

    params = {k: v for k, v in params.items() if v is not None and v != []}
    rolls = declared_rolls(kind, params)  # the declaration says whether the action rolls
    source = source_of(seed, des) if rolls or des is not None else None
    write = journaled(kind) and not dry_run
    refs = refs_of(kind, params)
    opened: AbstractContextManager[Workspace]
    if on_files(refs, campagne):  # sheet files: the campaign layer is not even imported
        from jdr.core.usecase import file_workspace

        opened = file_workspace(refs, write)
    else:
        from jdr.campaign.workspace import workspace

        opened = workspace(refs, campagne, write, mj)
    with output_first(write) as shown, opened as ws:
        if source is not None and write and ws.journaled:
            from jdr.campaign.seance import reason_of, use_seance

            source = use_seance(ws.tx, source, reason_of(seed, des))  # type: ignore[attr-defined]
        done = execute(ws, kind, params, source, dry_run=dry_run, chooser=_chooser(out))
        shown(out.render(done.result, ws.override))  # and the MJ's override, as journaled
        commit(ws, done)
