"""The small set of result types every system returns; `jdr.render` turns them into text,
forum BBCode or JSON. Results are data only: no system renders itself.

- `RollResult` (free dice notation, `jdr.dice.notation`)
- `CheckResult` / `Odds` (`jdr.core.check`), `ContestResult` (`jdr.core.contest`)
- `Order` (`jdr.core.initiative`)
- `AttackReport`, `SheetView`, `Purchase`, `Notes`, `Report` (here)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Union

from jdr.core.frozen import frozen
from jdr.dice.modifiers import Die

if TYPE_CHECKING:
    from jdr.core.check import CheckResult, Odds
    from jdr.core.contest import ContestResult
    from jdr.core.initiative import Order
    from jdr.dice.notation import RollResult

JsonScalar = str | int | bool | None


@frozen
class Line:
    """One line of notes: French text, optional rule id (shown in detail mode and JSON only)."""

    text: str
    rule: str = ""


@frozen
class Health:
    """A character's health pool before and after: `pv` (hit points) or `blessures` (wounds)."""

    unit: Literal["pv", "blessures"]
    before: int
    after: int
    max: int | None = None


@frozen
class StateChange:
    """The character's state before and after (`debout`, `assomme`, `mourant`, `mort`, ...)."""

    before: str
    after: str
    genre: Literal["f", "m"] | None = None  # the character's, for agreement (« assommée »)


@frozen
class Damage:
    """Damage of one blow: the dice and formula, the total, what protection stopped, what hurt."""

    formula: str
    dice: tuple[Die, ...]
    total: int
    protection: int = 0
    suffered: int = 0
    detail: tuple[Line, ...] = ()


@frozen
class Location:
    """Where a blow lands (location tables): the roll's total and the zone's name."""

    total: int | None  # None: a zone chosen, not rolled
    zone: str
    dice: tuple[Die, ...] = ()
    detail: tuple[Line, ...] = ()


Step = Union["CheckResult", "ContestResult", "RollResult"]


@frozen
class AttackReport:
    """One whole attack: the rolls in order, whether it hit, where, the damage, the defender's
    health and state. `steps` are the rolls (attack, defence, critical confirmation, ...)."""

    attacker: str
    defender: str
    hit: bool
    steps: tuple[Step, ...]
    damage: tuple[Damage, ...] = ()
    location: Location | None = None
    health: Health | None = None
    state: StateChange | None = None
    critical: Literal["success", "failure"] | None = None
    notes: tuple[Line, ...] = ()
    rule: str = ""
    weapon: str = ""


@frozen
class Row:
    """One line of a sheet view: a stable key (English), a French label, a value, its rule."""

    key: str
    label: str
    value: JsonScalar
    text: str = ""  # how the value reads (defaults to the value)
    rule: str = ""


@frozen
class Section:
    title: str
    rows: tuple[Row, ...]


@frozen
class SheetView:
    """`jdr fiche voir`: one shape for every system — sections of rows, derived values included."""

    system: str
    name: str
    sections: tuple[Section, ...]
    notes: tuple[Line, ...] = ()


@frozen
class Purchase:
    """An XP purchase: what was raised, from what to what, at what cost, the XP before and after."""

    name: str
    what: str
    before: int
    after: int
    cost: int
    xp_before: int
    xp_after: int
    notes: tuple[Line, ...] = ()
    rule: str = ""


@frozen
class Notes:
    """A titled list of French lines (new session, a rule's verdict without dice, ...)."""

    title: str
    lines: tuple[Line, ...] = ()
    rule: str = ""


@frozen
class Report:
    """A sequence of results under a title (a duel's rounds, a demo scene)."""

    title: str
    parts: tuple[Result, ...]
    notes: tuple[Line, ...] = ()
    rule: str = ""


@frozen
class CombatantView:
    """One line of the encounter table."""

    name: str
    score: int
    state: str
    health: Health | None = None  # `after` is the current value
    conditions: tuple[str, ...] = ()
    acted: bool = False
    genre: Literal["f", "m"] | None = None


@frozen
class EncounterView:
    """`jdr combat`: the order, the round, whose turn it is, everyone's health and state."""

    round: int
    current: str | None
    order: tuple[CombatantView, ...]
    ended: bool = False
    notes: tuple[Line, ...] = ()
    events: tuple[Result, ...] = ()  # what the rules did on this step (wake-up roll, ...)


Result = Union[
    "RollResult", "CheckResult", "ContestResult", "Odds", "Order", AttackReport, SheetView,
    Purchase, Notes, Report, EncounterView,
]
