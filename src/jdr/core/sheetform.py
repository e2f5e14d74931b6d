"""The sheet form: a system's sheet model and its declared labels turned into a form.

A system declares its data in `systems/<id>/form.py` (`FORM = FormData(...)`): the pydantic model
of its sheet, the French label of every key, the lists of names (enumerations), the maps whose
keys are fixed (shown as one field per key). From it this module builds, with no knowledge of
any system:

- `schema_of(form)`: the form's description (`Schema`): groups, lists and maps one can add to and
  remove from, whole numbers with their range (`InRange`), choices, booleans, texts;
- `nodes(schema, data)`: that description filled with a sheet's values (`Node`: names, ids,
  labels, problems beside each field);
- `form_nodes(schema, form)`: the same from what a browser sent; `place(root, problems)` puts
  each problem beside its field.

`jdr.core.sheetdraft` reads a submitted form back into the sheet's YAML and checks it.

Patterns name the keys of a schema: `caracteristiques.dexterite`, `armes.*.nom` (a list's items),
`competences.*` (a map's values); in `choices`, a map's own pattern lists its keys' names.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from jdr.core.frozen import frozen
from jdr.core.sheet import Bounded, Pool
from jdr.errors import Problem, RuleError
from jdr.names import normalize

if TYPE_CHECKING:
    from jdr.core.system import GameSystem

Choice = tuple[str, str]  # (value written in the sheet, French label)
ROOT = "f"
SYSTEM_KEY = "systeme"  # SHEETS.md: every sheet names its system; the form never edits it
POOL_LABELS = {"max": "Maximum", "actuels": "Actuels"}  # the fields of `core.sheet.Pool`
# fields every sheet has, declared by core (`core.sheet.GenreField`): their labels and choices
COMMON_LABELS = {"genre": "Genre (accord des messages)"}
COMMON_CHOICES: dict[str, tuple[Choice, ...]] = {"genre": (("f", "féminin"), ("m", "masculin"))}
COMMON_EMPTY = {"genre": "— neutre (sans accord) —"}  # what leaving the list empty means


@frozen
class FormData:
    """What a system declares about its sheet form (`systems/<id>/form.py`, `FORM`)."""

    model: type[BaseModel]
    labels: Mapping[str, str] = field(default_factory=dict)
    choices: Mapping[str, Sequence[Choice]] = field(default_factory=dict)
    suggested: frozenset[str] = frozenset()  # choices that are suggestions: any text allowed
    fixed: Mapping[str, Sequence[Choice]] = field(default_factory=dict)  # map → its fixed keys
    adds: Mapping[str, str] = field(default_factory=dict)  # list or map → its add button's text
    keys: Mapping[str, str] = field(default_factory=dict)  # map → the label of its keys
    folded: frozenset[str] = frozenset()  # groups shown folded (what the engine keeps)
    help: Mapping[str, str] = field(default_factory=dict)
    aliases: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # group → {DEX: …}


@frozen
class Schema:
    """One field of the form, before any value: its kind, French label, range or choices."""

    pattern: str
    kind: str  # group, list, map, int, bool, text, select
    label: str
    required: bool = False
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Choice, ...] = ()
    suggested: bool = False
    fields: tuple[tuple[str, Schema], ...] = ()
    item: Schema | None = None  # a list's items, a map's values
    key: Schema | None = None  # a map's keys
    pool: bool = False  # `pv: 30` and `{max: 30, actuels: 30}` are the same value
    add: str = ""
    folded: bool = False
    help: str = ""
    aliases: tuple[tuple[str, str], ...] = ()  # other spellings of a group's keys (`dex`)
    empty: str = ""  # the words of a list's empty choice, when they mean something


def form_data(system: GameSystem[Any]) -> FormData:
    """The `FORM` of the system's package (`form` module beside its system class)."""
    module = sys.modules[type(system).__module__]
    package = module.__package__ or module.__name__
    try:
        found = import_module(f"{package}.form")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.form":
            raise
        raise RuleError(f"le système « {system.id} » ne décrit pas le formulaire de sa fiche "
                        "(module form)") from None
    data = getattr(found, "FORM", None)
    if not isinstance(data, FormData):
        raise RuleError(f"le système « {system.id} » : form.FORM n'est pas un FormData")
    return data


_SCHEMAS: dict[int, tuple[FormData, Schema]] = {}


def schema_of(form: FormData) -> Schema:
    """The form's description (built once per declaration)."""
    cached = _SCHEMAS.get(id(form))
    if cached is None or cached[0] is not form:
        root = Schema("", "group", "", True, fields=_fields(form.model, "", form))
        cached = _SCHEMAS[id(form)] = (form, root)
    return cached[1]


# ------------------------------------------------------------------ description


def _human(key: str) -> str:
    return key.replace("_", " ").capitalize()


def label_of(form: FormData, pattern: str) -> str:
    """The declared label of a pattern, else of its last key, else the key itself."""
    last = pattern.rsplit(".", 1)[-1]
    if pattern in form.labels:
        return form.labels[pattern]
    if last != "*" and last in form.labels:
        return form.labels[last]
    if last in POOL_LABELS:
        return POOL_LABELS[last]
    if pattern in COMMON_LABELS:
        return COMMON_LABELS[pattern]
    return _human(last) if last != "*" else label_of(form, pattern.rsplit(".", 1)[0])


def _plain_default(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(by_alias=True)
    return value


def _fields(model: type[BaseModel], pattern: str, form: FormData) -> tuple[tuple[str, Schema], ...]:
    out: list[tuple[str, Schema]] = []
    for name, info in model.model_fields.items():
        key = info.alias or name
        if not pattern and key == SYSTEM_KEY:
            continue
        where = f"{pattern}.{key}" if pattern else key
        default = None if info.is_required() else _plain_default(
            info.get_default(call_default_factory=True))
        out.append((key, _schema(info.annotation, list(info.metadata), where, form,
                                 info.is_required(), default)))
    return tuple(out)


def _unwrap(tp: Any, meta: list[Any], required: bool) -> tuple[Any, list[Any], bool]:
    """Annotated[...] → its type and metadata; `X | None` → X, not required."""
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp, *extra = get_args(tp)
            meta = [*meta, *extra]
        elif origin in (Union, types.UnionType):
            args = [a for a in get_args(tp) if a is not type(None)]
            required = required and len(args) == len(get_args(tp))
            tp = args[0]
        else:
            return tp, meta, required


def _schema(tp: Any, meta: list[Any], pattern: str, form: FormData, required: bool,
            default: Any) -> Schema:
    tp, meta, required = _unwrap(tp, meta, required)
    origin = get_origin(tp)
    base = Schema(pattern, "text", label_of(form, pattern), required, default,
                  folded=pattern in form.folded, help=form.help.get(pattern, ""),
                  add=form.adds.get(pattern, ""),
                  aliases=tuple(form.aliases.get(pattern, {}).items()))
    if origin is dict and pattern in form.fixed:
        value_type = get_args(tp)[1]
        fields = tuple((key, _labelled(_schema(value_type, [], f"{pattern}.{key}", form, True,
                                               None), label))
                       for key, label in form.fixed[pattern])
        return _with(base, kind="group", fields=fields)
    if origin is dict or origin is list:
        return _container(tp, base, form)
    if origin is Literal:
        values = [str(v) for v in get_args(tp)]
        return _with(base, kind="select", choices=tuple(form.choices.get(pattern, ())) or
                     COMMON_CHOICES.get(pattern, ()) or tuple((v, v) for v in values),
                     empty=COMMON_EMPTY.get(pattern, ""))
    if tp is bool:
        return _with(base, kind="bool")
    if tp is int:
        bounds = next((m for m in meta if isinstance(m, Bounded)), None)
        return _with(base, kind="int", minimum=bounds.lo if bounds else None,
                     maximum=bounds.hi if bounds else None)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _with(base, kind="group", fields=_fields(tp, pattern, form), pool=tp is Pool)
    if pattern in form.choices:
        return _with(base, kind="select", choices=tuple(form.choices[pattern]),
                     suggested=pattern in form.suggested)
    return base


def _container(tp: Any, base: Schema, form: FormData) -> Schema:
    """A list (`armes.*`) or a map (`competences`: keys, `competences.*`: values)."""
    args = get_args(tp)
    pattern = base.pattern
    item = _schema(args[-1], [], f"{pattern}.*", form, True, None)
    if get_origin(tp) is list:
        return _with(base, kind="list", item=item)
    key_type, _, _ = _unwrap(args[0], [], True)
    key = Schema(pattern, "text", form.keys.get(pattern, "Nom"), True)
    if get_origin(key_type) is Literal:
        values = [str(v) for v in get_args(key_type)]
        key = _with(key, kind="select", choices=tuple(form.choices.get(pattern, ())) or
                    tuple((v, v) for v in values))
    elif pattern in form.choices:
        key = _with(key, kind="select", choices=tuple(form.choices[pattern]),
                    suggested=pattern in form.suggested)
    return _with(base, kind="map", item=item, key=key)


def _with(schema: Schema, **changes: Any) -> Schema:
    from dataclasses import replace

    return replace(schema, **changes)


def _labelled(schema: Schema, label: str) -> Schema:
    return _with(schema, label=label)


def walk(schema: Schema) -> list[Schema]:
    """Every field of a description, depth first (for tests and checks)."""
    out = [schema]
    for _, child in schema.fields:
        out += walk(child)
    for part in (schema.key, schema.item):
        if part is not None:
            out += walk(part)
    return out


# ------------------------------------------------------------------ with values


@dataclass
class Node:
    """A field with its value, as the page shows it: `name` in the form, `where` the path the
    problems name (normalized keys, list indexes), `problems` the French reasons beside it."""

    schema: Schema
    name: str
    where: tuple[str, ...]
    label: str
    kind: str
    value: str = ""
    checked: bool = False
    children: list[Node] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    index: int = 0
    slot: bool = True  # has its own place for problems (a map's key and value use the entry's)
    described_by: str = ""

    @property
    def ident(self) -> str:
        return "champ-" + re.sub(r"[^A-Za-z0-9_-]", "_",
                                 self.name[len(ROOT) + 1:].replace("/", "-"))

    @property
    def range_text(self) -> str:
        """The allowed range as a French person writes it: « 1 à 14 », « au moins 0 »."""
        lo, hi = self.schema.minimum, self.schema.maximum
        if self.kind != "int" or (lo is None and hi is None):
            return ""
        if hi is None:
            return f"au moins {french_number(lo)}"
        if lo is None:
            return f"au plus {french_number(hi)}"
        return f"{french_number(lo)} à {french_number(hi)}"

    @property
    def error_id(self) -> str:
        return self.described_by or f"{self.ident}-err"

    def options(self) -> list[Choice]:
        """The choices, and the current value first if the sheet holds another one."""
        known = list(self.schema.choices)
        if self.value and all(normalize(v) != normalize(self.value) for v, _ in known):
            known.insert(0, (self.value, self.value))
        return known

    def selected(self, value: str) -> bool:
        return normalize(value) == normalize(self.value)

    def all(self) -> list[Node]:
        out = [self]
        for child in self.children:
            out += child.all()
        return out


def french_number(value: int | None) -> str:
    """−1 000, 1 000 000: a narrow no-break space between thousands, a true minus sign."""
    text = f"{abs(value or 0):,}".replace(",", "\u202f")
    return f"−{text}" if (value or 0) < 0 else text


def spelled(key: Any, aliases: Mapping[str, str]) -> str:
    norm = normalize(str(key))
    return aliases.get(norm, norm)


def _get(data: Any, key: str, aliases: Mapping[str, str] | None = None) -> Any:
    if not isinstance(data, Mapping):
        return None
    wanted = normalize(key)
    return next((v for k, v in data.items() if spelled(k, aliases or {}) == wanted), None)


def _text(value: Any) -> str:
    if value is None or isinstance(value, (dict, list)):
        return ""
    return str(value)


def nodes(schema: Schema, data: Any, name: str = ROOT, where: tuple[str, ...] = (),
          label: str | None = None, index: int = 0) -> Node:
    """The description filled with the values of `data` (a sheet's plain data)."""
    node = Node(schema, name, where, label or schema.label, schema.kind, index=index)
    if schema.kind == "group":
        if schema.pool and isinstance(data, int) and not isinstance(data, bool):
            data = {"max": data, "actuels": data}
        aliases = dict(schema.aliases)
        node.children = [nodes(child, _get(data, key, aliases), f"{name}/{key}", (*where, key))
                         for key, child in schema.fields]
    elif schema.kind == "list":
        assert schema.item is not None
        items = data if isinstance(data, list) else []
        node.children = [nodes(schema.item, v, f"{name}/{i}", (*where, str(i)),
                               f"{schema.item.label} n° {i + 1}", i)
                         for i, v in enumerate(items)]
    elif schema.kind == "map":
        entries = data.items() if isinstance(data, Mapping) else []
        node.children = [_entry(schema, i, str(k), v, name, where) for i, (k, v) in
                         enumerate(entries)]
    elif schema.kind == "bool":
        node.checked = bool(data) if data is not None else bool(schema.default)
    else:
        node.value = _text(schema.default if data is None else data)
    return node


def _entry(schema: Schema, i: int, key: str, value: Any, name: str,
           where: tuple[str, ...]) -> Node:
    assert schema.key is not None and schema.item is not None
    at = (*where, normalize(key))
    entry = Node(schema, f"{name}/{i}", at, f"{_entry_noun(schema)} n° {i + 1}", "entry", index=i)
    key_node = Node(schema.key, f"{name}/{i}/cle", at, f"{schema.key.label} n° {i + 1}",
                    schema.key.kind, value=key)
    entry.children = [key_node, nodes(schema.item, value, f"{name}/{i}/valeur", at,
                                      f"{schema.item.label} n° {i + 1}")]
    return _tie(entry)


def _entry_noun(schema: Schema) -> str:
    """What one entry of a map is called: its value's name when it is a table (« Compagnon »),
    else its key's (« Compétence », « Zone »)."""
    assert schema.item is not None and schema.key is not None
    return schema.item.label if schema.item.kind == "group" else schema.key.label


def _tie(entry: Node) -> Node:
    """A map entry's key and scalar value show their problems in the entry's place."""
    key_node, value_node = entry.children
    key_node.slot, key_node.described_by = False, entry.error_id
    if value_node.kind in ("int", "text", "select", "bool"):
        value_node.slot, value_node.described_by = False, entry.error_id
    return entry


def form_nodes(schema: Schema, form: Mapping[str, list[str]], name: str = ROOT,
               where: tuple[str, ...] = (), label: str | None = None, index: int = 0) -> Node:
    """The nodes of a submitted form, named as the browser named them (a list's items keep
    their index in the page, their `where` is their place in the sheet), values as typed."""
    node = Node(schema, name, where, label or schema.label, schema.kind, index=index)
    if schema.kind == "group":
        node.children = [form_nodes(child, form, f"{name}/{key}", (*where, key))
                         for key, child in schema.fields]
    elif schema.kind == "list":
        assert schema.item is not None
        node.children = [form_nodes(schema.item, form, f"{name}/{i}", (*where, str(pos)),
                                    f"{schema.item.label} n° {pos + 1}", i)
                         for pos, i in enumerate(indexes(form, name))]
    elif schema.kind == "map":
        node.children = [_form_entry(schema, form, name, where, pos, i)
                         for pos, i in enumerate(indexes(form, name))]
    elif schema.kind == "bool":
        node.checked = name in form and first_value(form, name) != "non"
    else:
        node.value = first_value(form, name)
    return node


def _form_entry(schema: Schema, form: Mapping[str, list[str]], name: str,
                where: tuple[str, ...], pos: int, i: int) -> Node:
    assert schema.key is not None and schema.item is not None
    key = first_value(form, f"{name}/{i}/cle")
    at = (*where, normalize(key))
    entry = Node(schema, f"{name}/{i}", at, f"{_entry_noun(schema)} n° {pos + 1}", "entry",
                 index=i)
    key_node = Node(schema.key, f"{name}/{i}/cle", at, f"{schema.key.label} n° {pos + 1}",
                    schema.key.kind, value=key)
    entry.children = [key_node, form_nodes(schema.item, form, f"{name}/{i}/valeur", at,
                                           f"{schema.item.label} n° {pos + 1}")]
    return _tie(entry)


def schema_at(root: Schema, name: str) -> Schema | None:
    """The schema of a field by its name in the form (`f/armes`, `f/objets/0/bonus`)."""
    schema: Schema | None = root
    parts = name.split("/")[1:] if name.split("/")[0] == ROOT else None
    for part in parts or ():
        if schema is None:
            return None
        if schema.kind in ("list", "map") and part.isdigit():
            schema = schema.item if schema.kind == "list" else schema
        elif schema.kind == "map" and part == "valeur":
            schema = schema.item
        else:
            schema = dict(schema.fields).get(part)
    return schema if parts is not None else None


def new_item(root: Schema, form: Mapping[str, list[str]], name: str) -> Node | None:
    """A new empty item of the list or map `name`, after the ones the form already has."""
    schema = schema_at(root, name)
    if schema is None or schema.kind not in ("list", "map") or schema.item is None:
        return None
    i = max(indexes(form, name), default=-1) + 1
    where = tuple(p for p in name.split("/")[1:])
    if schema.kind == "list":
        return nodes(schema.item, blank(schema.item), f"{name}/{i}", (*where, str(i)),
                     f"{schema.item.label} n° {i + 1}", i)
    return _entry(schema, i, "", blank(schema.item), name, where)


def blank(schema: Schema) -> Any:
    """The plain value of a new item: its required fields empty, its defaults."""
    if schema.kind == "group":
        return {key: blank(child) for key, child in schema.fields if child.default is not None}
    return schema.default


def place(root: Node, problems: Sequence[Problem]) -> list[str]:
    """Each problem beside the deepest field its path names; the others are returned."""
    index: dict[tuple[str, ...], Node] = {}
    for node in root.all()[1:]:
        if node.where:
            index.setdefault(node.where, node)
    left: list[str] = []
    for problem in problems:
        path = tuple(normalize(p) for p in problem.path)
        target = next((index[path[:k]] for k in range(len(path), 0, -1) if path[:k] in index),
                      None)
        if target is None:
            left.append(problem.message if not problem.path else
                        f"{'.'.join(problem.path)} : {problem.message}")
        elif problem.message not in target.problems:
            target.problems.append(problem.message)
    return left


# ------------------------------------------------------------------ forms


def first_value(form: Mapping[str, list[str]], key: str) -> str:
    values = form.get(key)
    return values[0].strip() if values else ""


def indexes(form: Mapping[str, list[str]], name: str) -> list[int]:
    prefix = name + "/"
    found = {int(k[len(prefix):].split("/", 1)[0]) for k in form
             if k.startswith(prefix) and k[len(prefix):].split("/", 1)[0].isdigit()}
    return sorted(found)


def values_of(root: Node) -> dict[str, list[str]]:
    """What a browser sends for these nodes: every input with its value, and the marker of
    each list item and map entry (`…/3/_`, so that an item left empty is still there)."""
    out: dict[str, list[str]] = {}
    for node in root.all():
        if node.kind in ("list", "map"):
            for child in node.children:
                out[f"{child.name}/_"] = [""]
        if node.kind == "bool" and node.checked:
            out[node.name] = ["oui"]
        elif node.kind in ("int", "text", "select"):
            out[node.name] = [node.value]
    return out
