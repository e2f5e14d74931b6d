"""dd35 through the command line: golden outputs (text, forum, JSON) with fixed `--des`, the
unified behaviours (`--opt` refused or typed by the core, `--contre FICHE` alone, one tie rule for
`check` and `odds`), and sheets written only when the rules change them."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import cli, golden, ok

ALDRIC = """\
systeme: dd35
nom: Aldric
caracteristiques: {force: 16, dexterite: 14, constitution: 14, intelligence: 12, sagesse: 12, charisme: 8}
classes: {guerrier: 6, roublard: 2}
armure: {nom: Harnois}
competences: {social: 2, nature: 3}
sauvegardes: {reflexes: 3, vigueur: 6, volonte: 2}
armes:
  - {nom: Épée longue, degats: 1d8, zone_critique: 19, multiplicateur: 2}
  - {nom: Arc long, degats: 1d8, multiplicateur: 3, portee: distance, projectile: true}
"""

BRUNHILD = """\
systeme: dd35
nom: Brunhild
caracteristiques: {force: 18, dexterite: 12, constitution: 16, intelligence: 10, sagesse: 10, charisme: 10}
classes: {barbare: 5}
pv: {max: 55, actuels: 55}   # notée à la main
armure: {nom: Cotte de mailles}
dons: {rd: 1}
armes:
  - {nom: Grande hache, degats: 1d12, multiplicateur: 3}
"""

CASSIA = BRUNHILD.replace("Brunhild", "Cassia").replace("dexterite: 12", "dexterite: 14")

FORMATS = {"txt": [], "forum.txt": ["--format", "forum"], "json": ["--json"]}


@pytest.fixture
def sheets(tmp_path: Path) -> tuple[Path, Path, Path]:
    paths = []
    for name, text in (("aldric", ALDRIC), ("brunhild", BRUNHILD), ("cassia", CASSIA)):
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], paths[2]


def _goldens(name: str, *args: str | Path) -> None:
    for suffix, extra in FORMATS.items():
        golden(f"dd35/{name}.{suffix}", ok(*args, *extra).out)


def test_golden_check_attack_against_ac(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    _goldens("check", "check", a, "épée longue", "--contre", b, "--des", "19")


def test_golden_check_contest_tie(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    # Aldric 7 + 8 = 15 equals Brunhild's Passive Perception 15: the roll meets the difficulty
    _goldens("check_contest", "check", a, "embuscade", "--contre", f"{b}:perception_passive",
             "--des", "7")


def test_golden_odds(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    _goldens("odds", "odds", a, "épée longue", "--contre", b)
    _goldens("odds_contest", "odds", a, "force", "--contre", b, "--bonus", "-4")


def test_golden_attack(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    _goldens("attack", "attack", a, b, "--complete", "--des", "19,5,3", "--dry-run")
    _goldens("attack_critical", "attack", b, a, "--des", "20,7,2", "--dry-run")


def test_golden_initiative(sheets: tuple[Path, Path, Path]) -> None:
    # all three at 12; Aldric and Cassia share Dex +2: roll-offs 7 / 7, then 3 / 9
    _goldens("initiative", "initiative", *sheets, "--des", "10,11,10,7,7,3,9")


def test_golden_sheet_show(sheets: tuple[Path, Path, Path]) -> None:
    _goldens("sheet_show", "sheet", "show", sheets[0])


def test_one_tie_rule_for_check_and_odds(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    # Force +3 −4 = −1 against Force +4: odds 105/400, ties to the higher bonus (the opponent)
    odds = ok("odds", a, "force", "--contre", b, "--bonus", "-4", "--json").json()
    assert odds["success"] == pytest.approx(0.2625)
    assert odds["tie"] == pytest.approx(15 / 400)
    tie = ok("check", a, "force", "--contre", b, "--bonus", "-4", "--des", "10,5", "--json").json()
    assert tie["actor"]["total"] == tie["opponent"]["total"] == 9
    assert tie["winner"] == "opponent" and tie["tie"] is True


def test_contre_alone_on_an_attack_is_the_ac(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    out = ok("check", a, "Épée longue", "--contre", b, "--des", "6", "--json").json()
    assert out["threshold"] == 16 and out["total"] == 16 and out["success"] is True
    flat = ok("check", a, "épée longue", "--contre", b, "--opt", "depourvu=o", "--des", "6",
              "--json").json()
    assert flat["threshold"] == 15


def test_options_come_from_the_core(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    run = cli("check", a, "embuscade", "--seuil", "15", "--opt", "surprise=oui", "--des", "3")
    assert run.code == 2 and "option « surprise » introuvable" in run.err
    run = cli("attack", a, b, "--opt", "magique=peut-etre", "--des", "3")
    assert run.code == 2 and "valeur oui/non attendue" in run.err
    run = cli("duel", a, b)
    assert run.code == 2 and "ne joue pas l'action « duel »" in run.err
    aide = ok("aide", "dd35").out
    assert "naturel_1_rate — Un 1 naturel rate (oui/non, défaut oui)" in aide and "ordre des dés" in aide


def test_attack_updates_the_defender_and_keeps_comments(sheets: tuple[Path, Path, Path]) -> None:
    a, b, _ = sheets
    ok("attack", a, b, "--des", "15,6", "--dry-run")
    assert "actuels: 55" in b.read_text(encoding="utf-8")
    out = ok("attack", a, b, "--des", "15,6", "--json").json()
    assert out["damage"]["suffered"] == 6 + 3 - 6   # DR 5/Magie + 1 of feats
    text = b.read_text(encoding="utf-8")
    assert "actuels: 52" in text and "# notée à la main" in text


def test_level_up_writes_the_sheet(sheets: tuple[Path, Path, Path]) -> None:
    a, _, _ = sheets
    out = ok("xp", a, "--pv", "--opt", "classe=Guerrier", "--json").json()
    assert out["type"] == "purchase" and (out["before"], out["after"]) == (6, 7)
    assert any(n["text"] == "PV max 78 → 88" for n in out["notes"])
    text = a.read_text(encoding="utf-8")
    assert "guerrier: 7" in text and "pv:" not in text   # omitted HP stay computed (R002.02)


def test_demo_scene() -> None:
    out = ok("demo", "dd35", "--seed", "3", "--json").json()
    assert out["type"] == "report"
    assert [p["type"] for p in out["parts"]] == ["order", "contest", "attack", "attack", "odds"]
    assert "Barbare" in ok("demo", "dd35", "--seed", "3").out
