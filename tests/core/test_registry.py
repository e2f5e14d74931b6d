"""The registry: the five shipped systems without scanning entry points, others through them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from jdr.core import registry
from jdr.core.system import GameSystem
from jdr.errors import JdrError

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_builtin_table_matches_the_declared_entry_points() -> None:
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["entry-points"][registry.GROUP]
    assert declared == registry.BUILTIN


def test_builtin_table_matches_the_installed_entry_points() -> None:
    registry._entry_points.cache_clear()
    assert registry._entry_points() == registry.BUILTIN


def test_every_system_loads_by_any_spelling() -> None:
    for system_id in registry.available():
        system = registry.get_system(system_id.upper())
        assert isinstance(system, GameSystem) and system.id == system_id


def test_unknown_system_suggests() -> None:
    with pytest.raises(JdrError, match="vouliez-vous dire : cydonia"):
        registry.get_system("cydonai")
