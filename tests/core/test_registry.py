"""The registry: the shipped systems without scanning entry points, others through them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from jdr.core import registry
from jdr.core.system import GameSystem
from jdr.errors import JdrError

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_shipped_packages_match_the_declared_entry_points() -> None:
    """The convention (`jdr.systems.<id>`) the registry uses without scanning is exactly what
    pyproject.toml declares."""
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["entry-points"][registry.GROUP]
    packages = Path(registry.__file__).parents[1] / "systems"
    ids = sorted(p.name for p in packages.iterdir() if (p / "__init__.py").is_file())
    assert {i: registry.shipped(i) for i in ids} == declared
    assert registry.shipped("inconnu") is None and registry.shipped("__init__") is None


def test_shipped_systems_are_among_the_installed_entry_points() -> None:
    registry._entry_points.cache_clear()
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["entry-points"][registry.GROUP]
    installed = registry._entry_points()
    assert {k: v for k, v in installed.items() if k in declared} == declared


def test_every_system_loads_by_any_spelling() -> None:
    for system_id in registry.available():
        system = registry.get_system(system_id.upper())
        assert isinstance(system, GameSystem) and system.id == system_id


def test_unknown_system_suggests() -> None:
    with pytest.raises(JdrError, match="vouliez-vous dire : cydonia"):
        registry.get_system("cydonai")
