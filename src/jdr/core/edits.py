"""Writing a changed sheet by rewriting, in the text it was read from, only the numbers (and
yes/no) its changes replaced (`Edits`, used by `jdr.core.sheet.SheetDocument`): ruamel's writer
was a fifth of a server's time per action (issue 18), and the person's layout is kept to the
character."""

from __future__ import annotations

from typing import Any


def _plain(tree: Any) -> Any:
    from jdr.core.sheet import to_plain

    return to_plain(tree)


# After a number rewritten in place, the rest of its line may hold only closing brackets, commas
# and a comment (after a blank): nothing whose position the tree keeps can move.
_LINE_TAIL = r"[ \t,}\]]*(?:(?<=[ \t])#.*)?"
_NOT_LINES = ("\r", "\x85", "\u2028", "\u2029", "\ufeff")  # line breaks other than \n, a BOM


def _written(value: Any) -> str | None:
    """How a whole number or a yes/no is written plainly, as ruamel writes it; None otherwise."""
    if type(value) is bool:
        return "true" if value else "false"
    return str(value) if type(value) is int else None


class Edits:
    """The numbers (and yes/no) a document's changes replaced, where its source writes them.

    `SheetDocument.set` and `set_pool` note each change here before making it. `text()` gives
    the source with those numbers rewritten, or None whenever that might differ from what the
    tree now holds: a change that is not a whole number replacing a whole number written plainly
    (`30`, not `+30`, `0x1E` or `3_0`) or a yes/no replacing one (`true`, `false`), a new key,
    a value followed on its line by something else than closing brackets or a comment, a
    source with other line breaks than `\n`; and in every case unless the tree, read as plain
    data, is exactly the tree read before the first change with the noted values put in (so a
    change made to the tree any other way is never lost)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.before: Any = None  # the tree as plain data before the first change
        # (line, column) of a value in the source -> its path, its text there, its new value
        self.numbers: dict[tuple[int, int], tuple[tuple[str, ...], str, Any]] = {}
        self.usable = True

    def note(self, tree: Any, node: Any, key: Any, path: tuple[str, ...], value: Any) -> None:
        """`node[key] = value` is about to happen; `path` is the keys from the top to `key`."""
        if not self.usable:
            return
        old = node.get(key)
        if type(old) is type(value) and type(value) in (int, bool, str) and old == value:
            return  # the same value again: nothing written changes
        spots = getattr(getattr(node, "lc", None), "data", None)  # None: a table made in code
        spot = spots.get(key) if spots else None
        written = _written(old)
        if spot is None or type(old) is not type(value) or written is None:
            self.usable = False
            return
        if self.before is None:
            self.before = _plain(tree)
        line, column = spot[2], spot[3]
        noted = self.numbers.get((line, column))
        self.numbers[(line, column)] = (path, noted[1] if noted else written, value)

    def text(self, tree: Any) -> str | None:
        """The source with the noted values rewritten, or None (the whole tree must be written)."""
        if not self.usable or not self.numbers or any(c in self.source for c in _NOT_LINES):
            return None
        import copy
        import re

        expected = copy.deepcopy(self.before)
        for path, _, value in self.numbers.values():
            node = expected
            for name in path[:-1]:
                node = node[name]
            node[path[-1]] = value
        if _plain(tree) != expected:
            return None
        lines = self.source.split("\n")
        tail = re.compile(_LINE_TAIL)
        for (line, column), (_, old, value) in self.numbers.items():
            if line >= len(lines):
                return None
            written = lines[line]
            rest = written[column + len(old):]
            if written[column:column + len(old)] != old or not tail.fullmatch(rest):
                return None
            lines[line] = written[:column] + str(_written(value)) + rest
        return "\n".join(lines)
