"""The CLI on maitrise sheets, and golden outputs (text, forum, JSON) with fixed `--des`."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import cli, golden, ok

BRETTEUSE = """\
systeme: maitrise
nom: Bretteuse
caracteristiques:
  intelligence: 10
  adresse: 12
  force: 14
  charisme: 9
  volonte: 10
  constitution: 12
competences:
  epee: 25
  arc: 0
armes:
  - {nom: Épée longue, competence: epee}
armure: 2
pv: {max: 20, actuels: 20}
xp: 30
or: 0
faces_critiques: {}
"""

MAITRE = """\
systeme: maitrise
nom: Maître d'armes
caracteristiques: {intelligence: 12, adresse: 12, force: 12, charisme: 10, volonte: 12,
  constitution: 13}
competences: {epee: 85}
armes: [{nom: Rapière, competence: epee}]
armure: 1
pv: {max: 24, actuels: 24}
"""

FORMATS = {"txt": [], "forum.txt": ["--format", "forum"], "json": ["--json"]}


@pytest.fixture
def sheets(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "bretteuse.yaml", tmp_path / "maitre.yaml"
    a.write_text(BRETTEUSE, encoding="utf-8")
    b.write_text(MAITRE, encoding="utf-8")
    return a, b


def _all_formats(name: str, *args: str | Path) -> None:
    for suffix, extra in FORMATS.items():
        golden(f"maitrise/{name}.{suffix}", ok(*args, *extra).out)


def test_golden_check(sheets: tuple[Path, Path]) -> None:
    a, _ = sheets
    _all_formats("check", "check", a, "epee", "--des", "12")


def test_golden_check_contre_alone(sheets: tuple[Path, Path]) -> None:
    a, b = sheets
    _all_formats("check_contre", "check", a, "epee", "--contre", b, "--des", "15,3")


def test_golden_odds(sheets: tuple[Path, Path]) -> None:
    a, b = sheets
    _all_formats("odds", "odds", a, "epee", "--seuil", "20")
    _all_formats("odds_contre", "odds", a, "epee", "--contre", f"{b}:epee")


def test_golden_attack(sheets: tuple[Path, Path]) -> None:
    a, b = sheets
    _all_formats("attack", "attack", b, a, "--des", "19,20,6,4", "--dry-run",
                 "--opt", "critique_defense=resister")
    _all_formats("attack_critical", "attack", a, b, "--des", "20,3,4,7", "--critique", "degats",
                 "--dry-run")


def test_golden_initiative(sheets: tuple[Path, Path]) -> None:
    a, b = sheets
    _all_formats("initiative", "initiative", a, b, "--des", "5,5,7,2")


def test_golden_sheet_show(sheets: tuple[Path, Path]) -> None:
    a, _ = sheets
    _all_formats("sheet_show", "sheet", "show", a)


def test_golden_xp(sheets: tuple[Path, Path]) -> None:
    a, _ = sheets
    _all_formats("xp", "xp", a, "--competence", "epee", "--dry-run")


def test_golden_demo() -> None:
    _all_formats("demo", "demo", "maitrise", "--seed", "7")


def test_attack_writes_the_defender_sheet(sheets: tuple[Path, Path]) -> None:
    a, b = sheets
    ok("attack", b, a, "--des", "19,20,6,4", "--opt", "critique_defense=resister")
    assert "pv: {max: 20, actuels: 17}" in a.read_text(encoding="utf-8")


def test_unknown_option_is_refused(sheets: tuple[Path, Path]) -> None:
    a, b = sheets
    run = cli("attack", a, b, "--des", "12,3", "--opt", "critique_defence=rapidite")
    assert run.code == 2 and "critique_defense" in run.err
    run = cli("check", a, "epee", "--des", "12", "--opt", "surprise=oui")
    assert run.code == 2 and "aucune option" in run.err


def test_named_threshold_is_explained(sheets: tuple[Path, Path]) -> None:
    a, _ = sheets
    run = cli("check", a, "epee", "--des", "12", "--seuil", "difficile")
    assert run.code == 2 and "marge minimale" in run.err


def test_systems_lists_maitrise_actions() -> None:
    out = ok("systems", "--json").json()
    row = next(r for r in out if r["id"] == "maitrise")
    assert row["actions"] == ["attack", "check", "initiative", "odds", "surprise", "xp"]


def test_aide_maitrise() -> None:
    text = ok("aide", "maitrise").out
    assert "critique_defense" in text and "Adresse" in text and "ordre des dés" in text
