"""Game systems are found through the `jdr.systems` entry-point group: a new system is a package."""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from jdr.core.system import GameSystem
from jdr.errors import JdrError
from jdr.names import normalize, unknown_name_message

GROUP = "jdr.systems"


@cache
def _entry_points() -> dict[str, EntryPoint]:
    return {normalize(ep.name): ep for ep in entry_points(group=GROUP)}


def available() -> list[str]:
    """The ids of the installed systems (nothing is imported)."""
    return sorted(_entry_points())


@cache
def get_system(name: str) -> GameSystem[Any]:
    """Load one system by id (only that one is imported)."""
    eps = _entry_points()
    key = normalize(name)
    if key not in eps:
        raise JdrError(unknown_name_message("système", name, eps))
    try:
        system = eps[key].load()
    except (ImportError, AttributeError) as exc:
        raise JdrError(f"le système « {key} » est installé mais ne se charge pas ({exc})") from None
    if not isinstance(system, GameSystem):
        raise JdrError(f"le système « {name} » n'est pas un GameSystem ({type(system).__name__})")
    return system
