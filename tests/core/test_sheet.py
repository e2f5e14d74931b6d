"""Sheet documents: round trip, atomic writes, names without case or accents."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jdr.core.sheet import SheetDocument, write_atomic
from jdr.errors import SheetError
from jdr.names import normalize


def test_D_ALL_01_names() -> None:
    assert normalize("Très difficile") == normalize("tres-difficile") == normalize("TRES_DIFFICILE")
    assert normalize("Dextérité") == "dexterite"
    assert normalize("Corps à Corps") == "corps_a_corps"


def test_round_trip_keeps_comments_and_order(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("systeme: cydonia  # sys\nnom: A\npv: 30 # court\nzzz: 1\n", encoding="utf-8")
    doc = SheetDocument.load(path)
    doc.set_pool("pv", 12)
    doc.set(("etat", "mourant"), True)
    doc.save()
    text = path.read_text(encoding="utf-8")
    assert "# sys" in text and "zzz: 1" in text
    assert "max: 30" in text and "actuels: 12" in text
    assert text.index("nom") < text.index("zzz")


def test_atomic_write_leaves_old_file_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("old\n", encoding="utf-8")

    def boom(*_: object) -> None:
        raise OSError("disque plein")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(SheetError, match="écriture impossible"):
        write_atomic(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["s.yaml"]


def test_missing_and_not_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(SheetError, match="introuvable"):
        SheetDocument.load(tmp_path / "absent.yaml")
    path = tmp_path / "list.yaml"
    path.write_text("- 1\n- 2\n", encoding="utf-8")
    with pytest.raises(SheetError, match="table"):
        SheetDocument.load(path)


@pytest.mark.parametrize("name, fragment", [
    ("x" * 300 + ".yaml", "trop long"),
    ("a\x00b.yaml", "caractère nul"),
])
def test_unreadable_paths_are_one_french_line(tmp_path: Path, name: str, fragment: str) -> None:
    with pytest.raises(SheetError, match=fragment) as info:
        SheetDocument.load(tmp_path / name)
    message = info.value.message
    assert "\n" not in message and "\x00" not in message and len(message) < 300


def test_folder_binary_and_too_big(tmp_path: Path) -> None:
    with pytest.raises(SheetError, match="dossier"):
        SheetDocument.load(tmp_path)
    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SheetError, match="UTF-8"):
        SheetDocument.load(binary)
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 1_000_001 + "\n", encoding="utf-8")
    with pytest.raises(SheetError, match="trop grande"):
        SheetDocument.load(big)


def test_control_characters_in_path_are_shown_not_obeyed(tmp_path: Path) -> None:
    with pytest.raises(SheetError) as info:
        SheetDocument.load(tmp_path / "\x1b[2J.yaml")
    assert "\x1b" not in info.value.message and "\\x1b" in info.value.message
