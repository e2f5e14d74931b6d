"""Game systems are found by id: a new system is a package.

Every system is declared in the `jdr.systems` entry-point group (pyproject.toml for the systems
this distribution ships, the system's own distribution for any other: `exemples/deuxdes`). A
system shipped here is the package `jdr.systems.<id>` (a test keeps this convention equal to the
declared entry points), so finding it imports only that package; any other id is looked up in
the entry points, which are scanned only then (and by `available()`): importing
`importlib.metadata` and reading every installed distribution's metadata costs more than a whole
`jdr lancer`. No system id is written here.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from jdr.errors import JdrError
from jdr.names import normalize, unknown_name_message

if TYPE_CHECKING:
    from jdr.core.system import GameSystem

GROUP = "jdr.systems"
PACKAGE = "jdr.systems"


def shipped(key: str) -> str | None:
    """`jdr.systems.<key>:SYSTEM` when this distribution ships that system (nothing imported
    but the package's spec)."""
    if not key.isidentifier() or key.startswith("_"):
        return None
    try:
        found = find_spec(f"{PACKAGE}.{key}")
    except (ImportError, ValueError):
        return None
    return f"{PACKAGE}.{key}:SYSTEM" if found is not None else None


@cache
def _entry_points() -> dict[str, str]:
    """Installed `jdr.systems` entry points: normalized id → `module:attribute`."""
    from importlib.metadata import entry_points

    return {normalize(ep.name): ep.value for ep in entry_points(group=GROUP)}


def available() -> list[str]:
    """The ids of the installed systems (nothing is imported)."""
    return sorted(_entry_points())


def _target(key: str, name: str) -> str:
    target = shipped(key)
    if target is not None:
        return target
    eps = _entry_points()
    if key not in eps:
        raise JdrError(unknown_name_message("système", name, available()))
    return eps[key]


@cache
def get_system(name: str) -> GameSystem[Any]:
    """Load one system by id (only that one is imported)."""
    from jdr.core.system import GameSystem

    key = normalize(name)
    module_name, _, attribute = _target(key, name).partition(":")
    try:
        system = getattr(import_module(module_name), attribute or "SYSTEM")
    except (ImportError, AttributeError) as exc:
        raise JdrError(f"le système « {key} » est installé mais ne se charge pas ({exc})") from None
    if not isinstance(system, GameSystem):
        raise JdrError(f"le système « {key} » n'est pas un GameSystem ({type(system).__name__})")
    return system
