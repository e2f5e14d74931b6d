"""Fixtures for the maitrise tests: `sheet(...)` writes a sheet and loads it once."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from maitrise_support import Sheet, loaded, write_sheet


class SheetFactory:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def __call__(self, name: str = "Bretteuse", *, caracs: dict[str, int] | None = None,
                 skills: dict[str, int] | None = None, **top: Any) -> Sheet:
        self.count += 1
        return loaded(write_sheet(self.folder, self.count, name, caracs, skills, top))

    def doc(self, name: str = "Bretteuse", *, caracs: dict[str, int] | None = None,
            skills: dict[str, int] | None = None, **top: Any) -> Any:
        """A document that may be invalid (not loaded)."""
        self.count += 1
        return write_sheet(self.folder, self.count, name, caracs, skills, top)


@pytest.fixture
def sheet(tmp_path: Path) -> SheetFactory:
    return SheetFactory(tmp_path)
