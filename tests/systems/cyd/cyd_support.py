"""Helpers of the CYD tests: requests with options parsed by the core (as the CLI does), rolls
with hand-given faces that must all be used, and sheet changes applied like `jdr` applies them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from jdr.core.check import CheckResult
from jdr.core.contest import ContestResult
from jdr.core.results import Line
from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, GroupRequest, Loaded, Outcome
from jdr.core.usecase import apply_changes, load, options
from jdr.dice.source import FixedSource
from jdr.errors import JdrError, SheetError
from jdr.systems.cyd import SYSTEM, CydSystem
from jdr.systems.cyd.sheet import CydSheet

Sheet = Loaded[CydSheet]


def request(actor: Sheet, skill: str, opts: Mapping[str, str] | None = None,
            action: str = "check", **kw: Any) -> CheckRequest[CydSheet]:
    return CheckRequest(actor, skill, options=options(SYSTEM, action, opts or {}), **kw)


def group(sheets: tuple[Sheet, ...], action: str, opts: Mapping[str, str] | None = None
          ) -> GroupRequest[CydSheet]:
    return GroupRequest(sheets, options(SYSTEM, action, opts or {}))


def roll(actor: Sheet, skill: str, faces: list[int], opts: Mapping[str, str] | None = None,
         system: CydSystem = SYSTEM, **kw: Any) -> Outcome:
    """`jdr check` with `--des`: every face must be used, no more."""
    source = FixedSource(faces)
    outcome = system.check(request(actor, skill, opts, **kw), source)
    source.finish()
    return outcome


def single(actor: Sheet, skill: str, faces: list[int], opts: Mapping[str, str] | None = None,
           **kw: Any) -> CheckResult:
    result = roll(actor, skill, faces, opts, **kw).result
    assert isinstance(result, CheckResult)
    return result


def opposed(actor: Sheet, skill: str, faces: list[int], opts: Mapping[str, str] | None = None,
            **kw: Any) -> ContestResult:
    result = roll(actor, skill, faces, opts, **kw).result
    assert isinstance(result, ContestResult)
    return result


def stat(result: CheckResult, name: str) -> int:
    return dict(result.stats)[name]


def commit(outcome: Outcome) -> None:
    """Apply and write the changes as `jdr` does (each changed sheet validated again)."""
    docs, _ = apply_changes(SYSTEM, outcome.changes)
    for doc in docs:
        doc.save()


def reload(sheet: Sheet) -> Sheet:
    loaded: Sheet = load(SYSTEM, SheetDocument.load(sheet.doc.path))
    return loaded


def problems(doc: SheetDocument) -> list[str]:
    """What `jdr sheet check` lists for a sheet (empty when valid)."""
    try:
        SYSTEM.load(doc)
    except SheetError as exc:
        return exc.problems or [exc.message]
    return []


def one_french_line(exc: JdrError) -> str:
    lines = exc.problems if isinstance(exc, SheetError) and exc.problems else [exc.message]
    assert len(lines) == 1
    assert "\n" not in lines[0]
    return lines[0]


def texts(notes: Iterable[str | Line]) -> list[str]:
    """The French text of each note (notes are `Line(text, rule)` or plain text)."""
    return [n.text if isinstance(n, Line) else n for n in notes]


def rules(notes: Iterable[str | Line]) -> list[str]:
    """The rule id of each note ("" for plain text)."""
    return [n.rule if isinstance(n, Line) else "" for n in notes]
