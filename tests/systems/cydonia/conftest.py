"""Cydonia's rule tests: an Ork on disk (the seed's Nain A and Elfe B come from tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from systems.cydonia.cydonia_support import ORK_YAML, write


@pytest.fixture
def ork(tmp_path: Path) -> Path:
    return write(tmp_path, "ork.yaml", ORK_YAML)
