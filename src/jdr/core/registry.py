"""Game systems are found by id: a new system is a package.

The five systems this distribution ships are listed here (`BUILTIN`, the same targets as the
`jdr.systems` entry points in pyproject.toml, which a test keeps equal): finding one of them
imports only that system's package. Any other id is looked up in the `jdr.systems` entry-point
group, which is scanned only then (and by `available()`): importing `importlib.metadata` and
reading every installed distribution's metadata costs more than a whole `jdr lancer`.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from jdr.errors import JdrError
from jdr.names import normalize, unknown_name_message

if TYPE_CHECKING:
    from jdr.core.system import GameSystem

GROUP = "jdr.systems"

BUILTIN: dict[str, str] = {
    "cydonia": "jdr.systems.cydonia:SYSTEM",
    "maitrise": "jdr.systems.maitrise:SYSTEM",
    "dd35": "jdr.systems.dd35:SYSTEM",
    "cyd": "jdr.systems.cyd:SYSTEM",
    "felins": "jdr.systems.felins:SYSTEM",
}


@cache
def _entry_points() -> dict[str, str]:
    """Installed `jdr.systems` entry points: normalized id → `module:attribute`."""
    from importlib.metadata import entry_points

    return {normalize(ep.name): ep.value for ep in entry_points(group=GROUP)}


def available() -> list[str]:
    """The ids of the installed systems (nothing is imported)."""
    return sorted(set(BUILTIN) | set(_entry_points()))


def _target(key: str, name: str) -> str:
    if key in BUILTIN:
        return BUILTIN[key]
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
