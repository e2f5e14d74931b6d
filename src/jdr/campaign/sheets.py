"""Sheets of a campaign, read without parsing them again and again.

A campaign keeps each sheet as YAML text; parsing that text (ruamel, round trip) is by far the
dearest step of an action. Three things avoid it:

- `LazyDocument`: the document of a stored sheet parses its text only when something reads or
  changes it (`data`); an action that only reads a sheet's model never parses it.
- `ModelCache`: the validated model of a sheet text, kept for the process (`jdr serve` serves
  many actions): keyed by the system and the exact text, so a sheet changed anywhere (another
  process, an undo) is a new key and is never served stale, and a rolled-back change costs
  nothing. Models are read-only by convention: the rules change a sheet through `SheetChange`
  on its document, never by assigning to the model.
- `DOCS`: the round-trip tree of a sheet text, kept the same way. Validation reads the kept tree
  itself (`LazyDocument.plain`: nothing copied, each text parsed once); a document to change gets
  a deep copy of it (its comments and layout included), never the kept tree itself.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from jdr.core.sheet import SheetDocument, to_plain

MAX_MODELS = 4096  # sheets kept per process (a sheet's model is a few kB)
MAX_CACHED_TEXT = 200_000  # longer sheets are validated each time, not kept


class LazyDocument(SheetDocument):
    """A stored sheet whose YAML is parsed on first use (see `SheetDocument.from_text`)."""

    def __init__(self, text: str, path: Path) -> None:  # no super(): the data is lazy
        from jdr.core.edits import Edits

        self.path = path
        self.text = text
        self.edits = Edits(text)
        self._data: Any = None

    @property
    def data(self) -> Any:
        if self._data is None:
            self._data = parsed_copy(self.text, self.path)
        return self._data

    @data.setter
    def data(self, value: Any) -> None:
        self._data = value

    @property
    def parsed(self) -> bool:
        return self._data is not None

    def plain(self) -> dict[str, Any]:
        """The sheet as plain data, for validation: read from the tree kept for this text (parsed
        now and kept if need be), without copying it; the document gets its own copy only when
        the action reads or changes it (`data`)."""
        if self._data is None:
            tree = shared_tree(self.text, self.path)
            if tree is not None:
                result = to_plain(tree)
                assert isinstance(result, dict)
                return result
        return super().plain()


def _parse_stored(text: str, path: Path) -> Any:
    """The YAML of a stored sheet. Its limits (depth, size, aliases, long numbers) were checked
    when it came in (`tx.add`: `SheetDocument.from_text`) and every later text is our own dump
    of a validated document: they are not walked again here (it was a third of the time)."""
    from collections.abc import Mapping

    from jdr.core.sheet import _yaml

    try:
        data = _yaml().load(text)
    except Exception:  # a database edited by hand: the full reading below says why, in French
        data = None
    if not isinstance(data, Mapping):
        return SheetDocument.from_text(text, path).data
    return data


class ModelCache:
    """(system id, sheet text) → (model, name), least recently used first out; thread-safe."""

    def __init__(self, size: int = MAX_MODELS) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, str], tuple[Any, str]] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, system_id: str, text: str) -> tuple[Any, str] | None:
        key = (system_id, text)
        with self.lock:
            found = self.items.get(key)
            if found is None:
                self.misses += 1
                return None
            self.items.move_to_end(key)
            self.hits += 1
            return found

    def put(self, system_id: str, text: str, model: Any, name: str) -> None:
        if len(text) > MAX_CACHED_TEXT:
            return
        with self.lock:
            self.items[(system_id, text)] = (model, name)
            self.items.move_to_end((system_id, text))
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.hits = self.misses = 0


MODELS = ModelCache()
DOCS = ModelCache(1024)  # ("yaml", text) -> the round-trip YAML tree of that text (never handed out)


def copy_tree(node: Any, memo: dict[int, Any] | None = None) -> Any:
    """A copy of a round-trip tree, as `copy.deepcopy` makes it (aliases stay shared, comments
    and layout copied) at about half its cost: tables and lists are rebuilt directly (ruamel's
    own copy of a list copies its attributes once per item), plain scalars are kept (immutable),
    and the line and column of each value are shared: they describe the text the tree was read
    from, and nothing changes them."""
    import copy

    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if memo is None:
        memo = {}
    kind = type(node)
    if node is None or kind in (int, str, bool, float):
        return node
    found = memo.get(id(node))
    if found is not None:
        return found
    new: Any
    if kind is CommentedMap:
        new = memo[id(node)] = CommentedMap()
        for key, value in node.items():
            new[key] = copy_tree(value, memo)
    elif kind is CommentedSeq:
        new = memo[id(node)] = CommentedSeq()
        for value in node:
            new.append(copy_tree(value, memo))
    else:
        return copy.deepcopy(node, memo)
    _copy_attributes(node, new, memo)
    return new


def _copy_attributes(node: Any, new: Any, memo: dict[int, Any]) -> None:
    """What ruamel keeps beside a table or a list (comments, style, anchor, tag, positions):
    the common empty forms rebuilt directly, the rest deep-copied, the positions shared."""
    import copy

    from ruamel.yaml.anchor import Anchor
    from ruamel.yaml.comments import Comment, Format
    from ruamel.yaml.tag import Tag

    for attrib in _ATTRIBUTES:
        if hasattr(node, attrib):
            value = getattr(node, attrib)
            if attrib == _LINE_COL:
                setattr(new, attrib, value)
            elif attrib == _FORMAT and type(value) is Format:  # one field, copied directly
                style = Format()
                style._flow_style = value._flow_style
                setattr(new, attrib, style)
            elif (attrib == _COMMENT and type(value) is Comment and value.comment is None
                  and not value._items and not value._post and not value._pre):
                # no comment at all (ruamel gives every node it writes out an empty one)
                setattr(new, attrib, Comment(old=value._pre is None))
            elif attrib == _ANCHOR and type(value) is Anchor:  # two plain fields
                anchor = Anchor()
                anchor.value, anchor.always_dump = value.value, value.always_dump
                setattr(new, attrib, anchor)
            elif attrib == _TAG and type(value) is Tag and not any(vars(value).values()):
                setattr(new, attrib, Tag())  # no tag (ruamel gives one to each node it writes)
            else:
                setattr(new, attrib, copy.deepcopy(value, memo))


_LINE_COL, _FORMAT, _COMMENT = "_yaml_line_col", "_yaml_format", "_yaml_comment"
_ANCHOR, _TAG = "_yaml_anchor", "_yaml_tag"
_ATTRIBUTES = (_COMMENT, _FORMAT, _LINE_COL, _ANCHOR, _TAG, "_yaml_merge")


def parsed_copy(text: str, path: Path) -> Any:
    """The round-trip YAML tree of a stored sheet, for one document to change: a copy of the
    tree kept for that exact text (ten times cheaper than parsing it again), or parsed now."""
    kept = DOCS.get("yaml", text)
    if kept is not None:
        return copy_tree(kept[0])
    data = _parse_stored(text, path)
    DOCS.put("yaml", text, copy_tree(data), "")
    return data


def shared_tree(text: str, path: Path) -> Any:
    """The round-trip YAML tree kept for this exact text, parsed and kept now if absent; `None`
    for a text too long to keep. Shared between documents and threads: to read, never to change
    (a document to change gets a copy: `parsed_copy`)."""
    kept = DOCS.get("yaml", text)
    if kept is not None:
        return kept[0]
    if len(text) > MAX_CACHED_TEXT:
        return None
    data = _parse_stored(text, path)
    DOCS.put("yaml", text, data, "")
    return data


def keep_tree(text: str, data: Any) -> None:
    """A sheet just written as `text` from the tree `data`: the next action that changes it
    starts from a copy of this tree instead of parsing the text."""
    DOCS.put("yaml", text, copy_tree(data), "")
