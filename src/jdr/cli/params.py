"""Command-line values converted without pydantic, one token per option.

typer 0.29 converts every parameter through a pydantic `TypeAdapter` (`typer._adapters`):
importing pydantic and building the adapters costs more than the rest of `jdr lancer`. Our
parameters are only text, paths, lists of them and flags (numbers are text parsed by
`jdr.core.options.parse_int`, with French errors and ASCII digits), so `install(command)`
gives each one a `PlainParam`: the lazily built runtime converter typer keeps on the parameter
(`_runtime_param`). A parameter of any other type keeps typer's own converter, and if a later
typer drops that attribute, typer's conversion simply runs (slower, same values).

One option, one token: a value that starts with `--` is refused (`--opt --des 12` must not
swallow `--des`), with a French line naming the option.
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin

from typer._coercion import RuntimeParam

from jdr.cli.french import commands, param_name
from jdr.core.frozen import frozen
from jdr.errors import JdrError
from jdr.render.safe import clean


def _kind(annotation: Any) -> str | None:
    """`str`, `path`, `bool`, `list[str]`, `list[path]` or None (typer converts it)."""
    origin = get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        inner = [a for a in get_args(annotation) if a is not type(None)]
        return _kind(inner[0]) if len(inner) == 1 else None
    if origin is list:
        (item,) = get_args(annotation) or (None,)
        kind = _kind(item)
        return f"list[{kind}]" if kind in ("str", "path") else None
    if annotation is str:
        return "str"
    if annotation is bool:
        return "bool"
    if annotation is Path:
        return "path"
    return None


def _one(value: Any, kind: str, param: Any) -> Any:
    if kind == "bool":  # a flag: click already gives True or False
        if not isinstance(value, bool):
            raise JdrError(f"{param_name(param)} ne prend pas de valeur")
        return value
    text = str(value)
    if getattr(param, "param_type_name", "") == "option" and text.startswith("--"):
        raise JdrError(f"{param_name(param)} attend une valeur, pas l'option « {clean(text[:40])} »")
    return Path(text) if kind == "path" else text


@frozen
class PlainParam(RuntimeParam):
    """Text or path, single or repeated, or a flag: no conversion beyond `Path(...)`."""

    kind: str = "str"

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        if self.kind.startswith("list["):
            item = self.kind[5:-1]
            return [_one(v, item, param) for v in value]
        return _one(value, self.kind, param)


def install(command: Any) -> Any:
    """Give every text, path or flag parameter of the tree a `PlainParam` (idempotent), the
    `--help` flag click adds included (made here, through click's public `get_help_option`)."""
    for cmd in commands(command):
        help_option = cmd.get_help_option(cmd.context_class(cmd, info_name=cmd.name))
        for param in [*cmd.params, *([help_option] if help_option is not None else [])]:
            if getattr(param, "_runtime_param", "absent") is not None:
                continue  # already set, or a typer without this hook
            descriptor = getattr(param, "type_descriptor", None)
            if descriptor is None:
                continue
            kind = _kind(descriptor.annotation)
            if kind is not None:
                param._runtime_param = PlainParam(descriptor.parameter_info, descriptor.annotation, kind)
    return command
