"""The use case every front end calls: load → act → validate → (render) → commit.

1. `open_sheets` loads each sheet once into its system's typed model, and checks they all
   belong to one system.
2. `prepare` parses the action's options once (declared by the system), refuses an action the
   system does not declare, runs it with an injected dice source, refuses leftover or missing
   hand-given faces, applies the changes to the documents in memory and re-validates each changed
   sheet once. Nothing is written yet.
3. The front end renders the result, then calls `Pending.commit()` (all sheets or none are
   replaced, each atomically), then prints what it rendered: a failure to render never leaves a
   changed sheet behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jdr.core.frozen import frozen
from jdr.core.options import ActionSpec, Options, parse_options
from jdr.core.sheet import SheetDocument
from jdr.core.system import GameSystem, Loaded, Outcome, SheetChange
from jdr.dice.source import DiceSource, finish
from jdr.errors import JdrError, RuleError

AnySystem = GameSystem[Any]


def load(system: AnySystem, doc: SheetDocument) -> Loaded[Any]:
    """Validate once; the typed model travels with the document from here on."""
    model = system.load(doc)
    return Loaded(doc, model, system.name_of(model))


def open_sheets(paths: Sequence[str | Path]) -> tuple[AnySystem, list[Loaded[Any]]]:
    """Several sheet files, each read and validated once, all of one system."""
    from jdr.core.registry import get_system

    if not paths:
        raise JdrError("aucune fiche donnée")
    docs = [SheetDocument.load(p) for p in paths]
    system = get_system(docs[0].system_id)
    for doc in docs[1:]:
        other = doc.system_id
        if other != system.id:
            raise JdrError(f"les fiches ne sont pas du même système ({system.id} / {other})")
    return system, [load(system, doc) for doc in docs]


BUILTIN = {
    "show": ActionSpec("show", "affiche une fiche et ses valeurs dérivées", rolls=False),
    "sante": ActionSpec("sante", "dégâts ou soins à la main (MJ) : VALEUR = 12, +3 ou -5",
                        rolls=False, acts=False),
}


def action_spec(system: AnySystem, action: str) -> ActionSpec:
    spec = system.actions.get(action) or BUILTIN.get(action)
    if spec is None:
        supported = ", ".join(sorted(system.actions)) or "aucune"
        raise RuleError(f"le système « {system.id} » ne joue pas l'action « {action} » "
                        f"(actions : {supported})")
    return spec


def options(system: AnySystem, action: str, raw: Iterable[str] | Mapping[str, str] | None) -> Options:
    """`--opt` parsed once, against what the system declares for this action."""
    return parse_options(action_spec(system, action), raw or [], system.id)


@dataclass
class Pending:
    """An action done in memory: its outcome, and the validated sheets waiting to be written."""

    outcome: Outcome
    docs: tuple[SheetDocument, ...]
    before: tuple[tuple[SheetChange, Any], ...] = ()
    committed: bool = False
    # per change (by position): how many tables of its path it created (undo removes them)
    created: tuple[int, ...] = ()

    @property
    def result(self) -> Any:
        return self.outcome.result

    def commit(self) -> None:
        """Write every changed sheet (each atomically). Call after rendering succeeded."""
        if self.committed:
            raise JdrError("action déjà enregistrée")
        for doc in self.docs:
            doc.save()
        self.committed = True


def prepare(system: AnySystem, action: str, run: Callable[[DiceSource | None], Outcome],
            source: DiceSource | None = None, dry_run: bool = False) -> Pending:
    """Run one declared action and validate its changes; nothing is written (see `commit`)."""
    spec = action_spec(system, action)
    outcome = run(source if spec.rolls else None)
    if source is not None:
        finish(source.inner if isinstance(source, Recording) else source)
    if dry_run or not outcome.changes:
        return Pending(outcome, ())
    created: list[int] = []
    docs, before = apply_changes(system, outcome.changes, created)
    return Pending(outcome, docs, before, created=tuple(created))


def _missing_tables(change: SheetChange) -> int:
    """How many tables of the change's path (its leaf excluded) are absent from the sheet."""
    node: Any = change.doc.data
    parents = change.path[:-1] if not change.pool else ()
    for i, name in enumerate(parents):
        child = SheetChange.doc_get(node, name) if isinstance(node, Mapping) else None
        if not isinstance(child, Mapping):
            return len(parents) - i
        node = child
    return 0


def apply_changes(system: AnySystem, changes: Sequence[SheetChange], created: list[int] | None = None
                  ) -> tuple[tuple[SheetDocument, ...], tuple[tuple[SheetChange, Any], ...]]:
    """Apply in memory, recording each value before (and the tables a change creates, so that
    an undo restores the sheet exactly); validate every changed sheet once."""
    docs: dict[int, SheetDocument] = {}
    before: list[tuple[SheetChange, Any]] = []
    for change in changes:
        before.append((change, change.current()))
        if created is not None:
            created.append(_missing_tables(change))
        change.apply()
        docs[id(change.doc)] = change.doc
    for doc in docs.values():
        system.load(doc)
    return tuple(docs.values()), tuple(before)


def same_character(a: Loaded[Any], b: Loaded[Any]) -> bool:
    """Two handles on one sheet (same file, even through another path or a link)."""
    try:
        return Path(a.doc.path).resolve() == Path(b.doc.path).resolve()
    except OSError:
        return False


# ------------------------------------------------------------------ recording, stores


class Recording:
    """A dice source that remembers every face it gave (for the journal): random or by hand."""

    __slots__ = ("inner", "rolls")

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.rolls: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        face = self.inner.roll(sides)
        self.rolls.append((sides, face))
        return face

    def finish(self) -> None:
        finish(self.inner)

    def dice_json(self) -> list[dict[str, int]]:
        return [{"sides": s, "face": f} for s, f in self.rolls]


def changes_json(pending: Pending) -> list[dict[str, Any]]:
    """Each sheet change with its value before and after (journal, undo)."""
    out = []
    for i, (change, before) in enumerate(pending.before):
        item = {"character": _doc_name(change.doc), "path": list(change.path),
                "pool": change.pool, "before": _plain(before), "after": _plain(change.value)}
        if i < len(pending.created) and pending.created[i]:
            item["created"] = pending.created[i]
        out.append(item)
    return out


def _doc_name(doc: SheetDocument) -> str:
    value = doc.data.get("nom") if hasattr(doc.data, "get") else None
    return str(value) if value is not None else str(doc.path)


def _plain(value: Any) -> Any:
    from jdr.core.sheet import to_plain

    return to_plain(value)


@frozen
class Record:
    """What the journal keeps of one action."""

    actor: str
    action: str
    params: dict[str, Any]
    dice: list[dict[str, int]]
    result: dict[str, Any]
    text: str
    forum: str
    changes: list[dict[str, Any]]
    visibility: str = "public"
    author: str | None = None


def record(pending: Pending, actor: str, action: str, params: Mapping[str, Any],
           source: DiceSource | None, visibility: str = "public", author: str | None = None) -> Record:
    """Render the result three ways (JSON, French text, forum) for the journal."""
    from jdr.render.forum import to_forum
    from jdr.render.json import to_json
    from jdr.render.text import to_text

    result = pending.result
    dice = source.dice_json() if isinstance(source, Recording) else []
    return Record(actor, action, {k: v for k, v in params.items() if v is not None}, dice,
                  to_json(result), to_text(result), to_forum(result), changes_json(pending),
                  visibility, author)


class Workspace:
    """Where an action's sheets come from and go back to: loose YAML files, or a campaign."""

    journaled = False
    force = False  # the MJ overrides the turn rules (`jdr.core.turns`), and it is journaled

    def open(self, refs: Sequence[str]) -> tuple[AnySystem, list[Loaded[Any]]]:
        raise NotImplementedError

    def admit(self, system: AnySystem, act: Any) -> None:
        """The turn rules (`jdr.core.turns.TurnAct`): loose files have no encounter."""

    @property
    def override(self) -> str | None:
        """The MJ's override of the turn rules this action needed (journaled), if any."""
        return None

    def commit(self, pending: Pending, rec: Record | None) -> int | None:
        raise NotImplementedError


class FileWorkspace(Workspace):
    """Loose sheet files. For an action that writes, every sheet is locked before it is read
    and until it is written (`jdr.core.files.locked`): parallel commands on one sheet never lose
    an update."""

    def open(self, refs: Sequence[str]) -> tuple[AnySystem, list[Loaded[Any]]]:
        return open_sheets(refs)

    def commit(self, pending: Pending, rec: Record | None) -> int | None:
        pending.commit()
        return None


@contextmanager
def file_workspace(refs: Sequence[str], write: bool) -> Iterator[FileWorkspace]:
    from jdr.core.files import locked

    if not write:
        yield FileWorkspace()
        return
    with locked([Path(r) for r in refs]):
        yield FileWorkspace()
