"""Shared fixtures: the seed's characters as sheets."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from sheets_data import ELFE_YAML, NAIN_YAML


@pytest.fixture
def nain() -> dict[str, Any]:
    from jdr.systems.cydonia.demo import NAIN_A

    return copy.deepcopy(NAIN_A)


@pytest.fixture
def elfe() -> dict[str, Any]:
    from jdr.systems.cydonia.demo import ELFE_B

    return copy.deepcopy(ELFE_B)


@pytest.fixture
def sheets(tmp_path: Path) -> tuple[Path, Path]:
    a = tmp_path / "nain.yaml"
    b = tmp_path / "elfe.yaml"
    a.write_text(NAIN_YAML, encoding="utf-8")
    b.write_text(ELFE_YAML, encoding="utf-8")
    return a, b
