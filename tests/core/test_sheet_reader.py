"""Sheets are read with ruamel's reader whose set of refused characters is written short
(`jdr.core.sheet.NOT_ALLOWED`, issue 18): the same characters refused, the same French error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruamel.yaml.reader import Reader

from jdr.core.sheet import NOT_ALLOWED, SheetDocument
from jdr.errors import SheetError


def test_short_set_is_ruamel_s_over_every_code_point() -> None:
    every = "".join(map(chr, range(0x110000)))
    ours = [m.start() for m in re.finditer(NOT_ALLOWED, every)]
    theirs = [m.start() for m in Reader.NON_PRINTABLE.finditer(every)]
    assert ours == theirs and len(ours) == 2111


@pytest.mark.parametrize("bad", ["\x07", "\x85\x9f", "\ufffe"])
def test_a_refused_character_is_a_french_error(tmp_path: Path, bad: str) -> None:
    with pytest.raises(SheetError, match="YAML invalide"):
        SheetDocument.from_text(f"systeme: cydonia\nnom: A{bad}\n", tmp_path / "a.yaml")


def test_accents_and_tabs_are_read(tmp_path: Path) -> None:
    doc = SheetDocument.from_text('systeme: cydonia\nnom: "Hache\tde bûcheron"  # é, 𝄞\n',
                                  tmp_path / "a.yaml")
    assert doc.data["nom"] == "Hache\tde bûcheron"
