"""The interface every game system implements, and the requests the front ends send it.

A front end (CLI, later the web table) parses its input into a request, calls the system and
renders the result; the rules live only in the system.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from jdr.core.sheet import SheetDocument
from jdr.dice.source import DiceSource
from jdr.errors import RuleError


class Result(Protocol):
    """Every result is an immutable value that can render itself (French) and serialize."""

    def to_json(self) -> dict[str, Any]: ...

    def render(self) -> str: ...


@dataclass(frozen=True)
class SheetChange:
    """One update the rules make to a sheet (hit points after a blow, XP spent, ...)."""

    doc: SheetDocument
    path: tuple[str, ...]
    value: Any
    pool: bool = False

    def apply(self) -> None:
        if self.pool:
            self.doc.set_pool(self.path[0], int(self.value))
        else:
            self.doc.set(self.path, self.value)


@dataclass(frozen=True)
class CheckRequest:
    sheet: SheetDocument
    skill: str
    carac: str | None = None
    threshold: str | None = None
    opponent: SheetDocument | None = None
    opponent_skill: str | None = None
    bonus: int = 0
    choice: int | None = None
    die: str | None = None
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AttackRequest:
    attacker: SheetDocument
    defender: SheetDocument
    weapon: str | None = None
    defence: str | None = None
    aimed: str | None = None
    critical: str | None = None
    full: bool = False
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class XpRequest:
    sheet: SheetDocument
    skill: str | None = None
    carac: str | None = None
    hit_points: bool = False
    options: dict[str, str] = field(default_factory=dict)


class GameSystem:
    """Base of a game system. Each method a system does not support says so in French."""

    id: str = ""
    title: str = ""
    seed: str = ""

    def _unsupported(self, what: str) -> RuleError:
        return RuleError(f"le système « {self.id} » ne prend pas en charge {what}")

    # sheets
    def template(self) -> str:
        raise self._unsupported("les modèles de fiche")

    def load(self, doc: SheetDocument) -> Any:
        """Validate a sheet; raise SheetError listing every problem."""
        raise self._unsupported("les fiches")

    def check_sheet(self, doc: SheetDocument, creation: bool = False) -> list[str]:
        """Every problem of a sheet, as French lines (empty when the sheet is valid)."""
        from jdr.errors import SheetError

        try:
            self.load(doc)
        except SheetError as exc:
            return exc.problems or [exc.message]
        return []

    def show(self, doc: SheetDocument) -> Result:
        raise self._unsupported("l'affichage de fiche")

    # rules
    def check(self, request: CheckRequest, source: DiceSource) -> Result:
        raise self._unsupported("les jets")

    def odds(self, request: CheckRequest) -> Result:
        raise self._unsupported("le calcul des chances")

    def attack(self, request: AttackRequest, source: DiceSource) -> tuple[Result, list[SheetChange]]:
        raise self._unsupported("les attaques")

    def xp(self, request: XpRequest) -> tuple[Result, list[SheetChange]]:
        raise self._unsupported("la dépense d'XP")

    def initiative(self, docs: list[SheetDocument], source: DiceSource) -> Result:
        raise self._unsupported("l'initiative")

    def duel(self, a: SheetDocument, b: SheetDocument, source: DiceSource,
             options: dict[str, str]) -> tuple[Result, list[SheetChange]]:
        raise self._unsupported("les duels")

    def new_session(self, docs: list[SheetDocument]) -> tuple[Result, list[SheetChange]]:
        raise self._unsupported("les nouvelles sessions")
