"""Messages that name an option, a parameter, a rule or a command, read right in every front end.

A system writes a refusal once; what it names (an option `pv`, the parameter `seuil`, the rule
`soin`) is a `Ref` that carries both ways of naming it: the command line's (`--opt pv=N`,
`--seuil`, `jdr regle soin PERSONNAGE --opt pv=N`, exactly as typed) and the pages' and the API's
(« PV rendus », « Seuil », la règle « soin »), where nobody types `--opt`. A `Text` is a sentence
made of plain words and refs; `JdrError` keeps both renderings (`message` for the terminal,
`pages` for the web), and each front end picks its own. The labels come from the declarations
(`OptionSpec.title`, the core's `Param.label`, `ActionDef.label`): declared once, read everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from jdr.core.options import ActionSpec, OptionSpec

PLACEHOLDERS = frozenset("N…")


class Ref(NamedTuple):
    """One thing a message names: how the command line types it, how the pages name it."""

    cli: str
    web: str


class Text(NamedTuple):
    """A sentence of plain words and refs, rendered for the command line or for the pages."""

    parts: tuple[str | Ref, ...]

    @property
    def cli(self) -> str:
        return "".join(p if isinstance(p, str) else p.cli for p in self.parts)

    @property
    def web(self) -> str:
        return "".join(p if isinstance(p, str) else p.web for p in self.parts)

    def __str__(self) -> str:
        return self.cli


Message = str | Ref | Text


def say(*parts: str | Ref | Text) -> Text:
    """A sentence: `say(opt(PV, "N"), " manquant : les PV rendus")`."""
    flat: list[str | Ref] = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, Text) else (part,))
    return Text(tuple(flat))


def _placeholder(value: str) -> bool:
    return not value or value.isupper() or set(value) <= PLACEHOLDERS or "|" in value \
        or value.endswith("…") or value.endswith("...")


def opt(spec: OptionSpec, value: str = "") -> Ref:
    """A system's option: `--opt pv=N` on the command line, « PV rendus » in the pages (with the
    value's label when the message names a real value: « Allure » (Triple galop))."""
    cli = f"--opt {spec.name}" + (f"={value}" if value else "")
    web = f"« {spec.title} »"
    if value in ("non", "false"):
        web += " (non)"
    elif not _placeholder(value) and value not in ("oui", "true"):  # yes: the label says it
        web += f" ({spec.shown(value)})"
    return Ref(cli, web)


def opt_in(actions: Iterable[ActionSpec], name: str, value: str = "") -> Ref:
    """An option of a system found by its name in the system's declarations (the first action
    declaring it gives its label): for a message written where no `Options` is at hand."""
    from jdr.core.options import OptionSpec

    for action in actions:
        spec = action.option(name)
        if spec is not None:
            return opt(spec, value)
    return opt(OptionSpec(name, "text", ""), value)


def arg(name: str, value: str = "", kind: str = "") -> Ref:
    """A core parameter (`jdr.core.declare`): `--seuil` / `--contre FICHE` on the command line,
    « Seuil » / « Contre un adversaire » in the pages (as the action `kind` declares it, if
    given; else its first declaration)."""
    from jdr.core.declare import ACTIONS, cli_name

    own = ACTIONS[kind].param(name) if kind in ACTIONS else None
    label = own.label if own is not None else next(
        (p.label for a in ACTIONS.values() for p in a.params if p.name == name), name)
    cli = (own.cli if own is not None and own.cli else cli_name(name)) + (f" {value}" if value else "")
    web = f"« {label} »"
    if not _placeholder(value):
        web += f" ({value})"
    return Ref(cli, web)


def given(name: str, value: str) -> Ref:
    """A value given to a core parameter: `--arme « Lance »` typed, arme « Lance » read."""
    named = arg(name)
    label = named.web.strip("« »")
    return Ref(f"{named.cli} « {value} »", f"{label[:1].lower()}{label[1:]} « {value} »")


def rule(name: str) -> Ref:
    """One of a system's own rules: `jdr regle fin_combat` on the command line, la règle « fin
    combat » in the pages (as the pages' list of actions names it)."""
    from jdr.core.options import title_of

    return Ref(f"jdr regle {name}", f"la règle « {title_of(name)} »")


def usage(text: str) -> Ref:
    """How one of a system's rules is played, from its usage (`kravkar LUTTEUR ADVERSAIRE
    [--opt gestes=…]`): the whole line on the command line, the rule and the characters it names
    in the pages (la règle « kravkar » demande : lutteur, adversaire)."""
    name, *words = text.split()
    roles = []
    for word in words:
        clean = word.strip("[]…").strip(".")
        if word.startswith("[--") or word.startswith("--") or "=" in word:
            continue
        if clean and clean.upper() == clean and any(c.isalpha() for c in clean):
            role = clean.lower().replace("_", " ")
            many, optional = "…" in word, word.startswith("[")
            role += (" (facultatifs)" if many and optional else " (un ou plusieurs)" if many
                     else " (facultatif)" if optional else "")
            roles.append(role)
    from jdr.core.options import title_of

    web = f"la règle « {title_of(name)} »"
    return Ref(f"jdr regle {text}", web + (" demande : " + ", ".join(roles) if roles else ""))


def command(kind: str, cli: str, web: str = "") -> Ref:
    """A core action as typed (`jdr attaque --opt monte=oui`) and as the pages name it: its
    label (« Attaque ») unless `web` says better."""
    from jdr.core.declare import ACTIONS

    action = ACTIONS.get(kind)
    return Ref(f"jdr {cli}", web or (f"l'action « {action.label} »" if action else kind))


def missing(spec: OptionSpec, why: str, usage: Ref | None = None, value: str = "N") -> Text:
    """A required option not given: `--opt pv=N manquant : why — jdr regle …` on the command line,
    « il manque « PV rendus » : why » in the pages."""
    cli = f"--opt {spec.name}={value} manquant : {why}" + (f" — {usage.cli}" if usage else "")
    web = f"il manque « {spec.title} »"
    if why[:len(spec.title)].lower() == spec.title.lower():  # the help repeats the label
        rest = why[len(spec.title):].strip()
        web += f" {rest}" if rest.startswith("(") else f" : {rest}" if rest else ""
    else:
        web += f" : {why}"
    return Text((Ref(cli, web),))
