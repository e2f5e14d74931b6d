"""A submitted sheet form back into the sheet (`jdr.core.sheetform` describes the form).

- `read(schema, form)`: the values a browser sent, as plain data (ABSENT where left empty);
- `merge(schema, yaml, value)`: those values put into the YAML document as the person wrote it
  (comments, key order and spelling kept where keys survive; keys the schema does not know stay;
  a new key left at its default is not written);
- `draft_document(form_data, base, form)`, `document_problems(system, doc, creating)`: a draft
  and every problem of it, each with the path of its field (creation rules at creation).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from jdr.core.sheet import SheetDocument
from jdr.core.sheetform import ROOT, FormData, Schema, first_value, indexes, schema_of, spelled
from jdr.errors import Problem, SheetError, locate
from jdr.names import normalize

if TYPE_CHECKING:
    from jdr.core.system import GameSystem

_WHOLE = re.compile(r"[-+]?[0-9]{1,12}")


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


def read(schema: Schema, form: Mapping[str, list[str]], name: str = ROOT) -> Any:
    """The plain value of a field from the submitted form; ABSENT when left empty."""
    if schema.kind == "group":
        out = {}
        for key, child in schema.fields:
            value = read(child, form, f"{name}/{key}")
            if value is not ABSENT:
                out[key] = value
        return out if out or schema.required else ABSENT
    if schema.kind in ("list", "map"):
        return _read_many(schema, form, name)
    if schema.kind == "bool":
        return name in form and first_value(form, name) != "non"
    text = first_value(form, name)
    if not text:
        return ABSENT
    if schema.kind == "int" and _WHOLE.fullmatch(text):
        return int(text)
    return text


def _read_many(schema: Schema, form: Mapping[str, list[str]], name: str) -> Any:
    assert schema.item is not None
    if schema.kind == "list":
        items = [read(schema.item, form, f"{name}/{i}") for i in indexes(form, name)]
        return [v for v in items if v is not ABSENT]
    out: dict[str, Any] = {}
    for i in indexes(form, name):
        key = first_value(form, f"{name}/{i}/cle")
        value = read(schema.item, form, f"{name}/{i}/valeur")
        if key:
            out[key] = None if value is ABSENT else value
    return out


# ------------------------------------------------------------------ writing into the YAML


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, Mapping) and isinstance(value, Mapping):
        return all(k not in value or _same(value[k], d) for k, d in default.items()) and \
            set(value) <= set(default)
    if default is None:
        return value is None or value is ABSENT
    return bool(value == default)


def defaults(schema: Schema) -> Any:
    """A group's value when every field keeps its default (nothing worth writing)."""
    if schema.kind != "group":
        return schema.default
    return {key: defaults(child) for key, child in schema.fields}


def _key(mapping: Any, name: str, aliases: Mapping[str, str] | None = None) -> str | None:
    wanted = normalize(name)
    return next((str(k) for k in mapping if spelled(k, aliases or {}) == wanted), None)


def merge(schema: Schema, target: Any, value: Mapping[str, Any]) -> None:
    """Put a group's values into a YAML table: changed keys replaced, emptied keys removed,
    new keys added after the others (their default left out), unknown keys kept."""
    aliases = dict(schema.aliases)
    for key, child in schema.fields:
        new = value.get(key, ABSENT)
        old_key = _key(target, key, aliases)
        if new is ABSENT:
            if old_key is not None:
                del target[old_key]
        elif old_key is not None:
            target[old_key] = _merged(child, target[old_key], new)
        elif child.required or not (_same(new, child.default) or _same(new, defaults(child))):
            target[key] = fresh(child, new)


def fresh(schema: Schema, value: Any, like: Any = None) -> Any:
    """A new value as written into the sheet: fields left at their default are left out; a new
    list item takes the flow style (`{nom: …}`) of the one before it."""
    from ruamel.yaml.comments import CommentedMap

    if schema.kind == "group" and isinstance(value, Mapping):
        out = CommentedMap()
        for key, child in schema.fields:
            if key in value and (child.required or not _same(value[key], child.default)):
                out[key] = fresh(child, value[key])
        for key in value:
            if key not in out and all(key != k for k, _ in schema.fields):
                out[key] = value[key]
        if isinstance(like, CommentedMap) and like.fa.flow_style():
            out.fa.set_flow_style()
        return out
    if schema.kind == "list" and isinstance(value, list) and schema.item is not None:
        return [fresh(schema.item, v) for v in value]
    if schema.kind == "map" and isinstance(value, Mapping) and schema.item is not None:
        return {k: fresh(schema.item, v) for k, v in value.items()}
    return value


def _merged(schema: Schema, old: Any, new: Any) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if schema.kind == "group" and isinstance(old, CommentedMap) and isinstance(new, Mapping):
        merge(schema, old, new)
        return old
    if schema.pool and isinstance(old, int) and new == {"max": old, "actuels": old}:
        return old
    if schema.kind in ("map", "list") and isinstance(old, (CommentedMap, CommentedSeq)) \
            and not old and new and all(not isinstance(v, (Mapping, list)) for v in
                                        (new.values() if isinstance(new, Mapping) else new)):
        old.fa.set_flow_style()  # `expertes: []` filled stays on its line: `[negociation]`
    if schema.kind == "map" and isinstance(old, CommentedMap) and isinstance(new, Mapping):
        assert schema.item is not None
        wanted = {normalize(k): (k, v) for k, v in new.items()}
        for k in [k for k in old if normalize(str(k)) not in wanted]:
            del old[k]
        for norm, (k, v) in wanted.items():
            found = _key(old, norm)
            if found is None:
                old[k] = fresh(schema.item, v)
            else:
                old[found] = _merged(schema.item, old[found], v)
        return old
    if schema.kind == "list" and isinstance(old, CommentedSeq) and isinstance(new, list):
        assert schema.item is not None
        for i, v in enumerate(new):
            if i < len(old):
                old[i] = _merged(schema.item, old[i], v)
            else:
                old.append(fresh(schema.item, v, like=old[0] if old else None))
        del old[len(new):]
        return old
    return old if old == new and type(old) is type(new) else new


def draft_document(form_data: FormData, base_text: str,
                   form: Mapping[str, list[str]]) -> SheetDocument:
    """The document of a draft: `base_text` (the stored sheet, or the system's template) with
    the form's values in."""
    from pathlib import Path

    doc = SheetDocument.from_text(base_text, Path("fiche.yaml"))
    schema = schema_of(form_data)
    merge(schema, doc.data, read(schema, form))
    return doc


def draft(form_data: FormData, base_text: str, form: Mapping[str, list[str]]) -> str:
    """The YAML of a draft (`draft_document`, written out)."""
    return draft_document(form_data, base_text, form).dump()


def draft_problems(system: GameSystem[Any], text: str, creating: bool) -> list[Problem]:
    """Every problem of a draft's YAML, with its path (`document_problems`)."""
    from pathlib import Path

    try:
        doc = SheetDocument.from_text(text, Path("fiche.yaml"))
    except SheetError as exc:
        return exc.details or [Problem((), exc.message)]
    return document_problems(system, doc, creating)


def document_problems(system: GameSystem[Any], doc: SheetDocument,
                      creating: bool) -> list[Problem]:
    """Every problem of a sheet, with its path: the sheet's rules, and at creation the
    creation rules (`creation_problems`: budgets, people ...)."""
    from jdr.core.system import Loaded

    try:
        model = system.load(doc)
    except SheetError as exc:
        return exc.details or [Problem((), exc.message)]
    if not creating:
        return []
    return [locate(p) for p in system.creation_problems(Loaded(doc, model, system.name_of(model)))]
