"""The command line end to end: JSON contract, French errors, exit code 2, sheets untouched."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def jdr(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jdr.cli.main", *args],
                          capture_output=True, text=True, timeout=60)


def as_json(*args: str) -> Any:
    proc = jdr(*args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_roll_json() -> None:
    out = as_json("roll", "2d10kh1+6", "--des", "8,3")
    assert out["total"] == 14


def test_check_json_contract(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    out = as_json("check", str(nain), "Hache", "--seuil", "15", "--des", "8")
    assert out["total"] == 18 and out["success"] is True and out["critical"] is None
    assert out["margin"] == 3 and out["dice"] == [8]


def test_check_opposed(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = as_json("check", str(nain), "hache", "--contre", str(elfe), "esquive", "--des", "8,6")
    assert out["total"] == 18 and out["success"] is True
    assert out["opponent"]["total"] == 15


def test_odds_json(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    out = as_json("odds", str(nain), "hache", "--seuil", "difficile")
    # 10 + d10 >= 20 only on a 10 (also a critical success)
    assert out["success"] == pytest.approx(0.1)
    assert out["critical_failure"] == pytest.approx(0.1)
    assert sum(out["distribution"].values()) == pytest.approx(1.0)


def test_attack_updates_defender_and_keeps_comments(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    before_nain = nain.read_text(encoding="utf-8")
    out = as_json("attack", str(nain), str(elfe), "--des", "8,6,10,6")
    assert out["hit"] is True and out["location"]["total"] == 13
    assert out["damage"]["suffered"] == 13 and out["state"] == "debout"
    text = elfe.read_text(encoding="utf-8")
    assert "# forme courte" in text and "actuels: 12" in text
    assert nain.read_text(encoding="utf-8") == before_nain


def test_attack_dry_run_changes_nothing(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    before = elfe.read_text(encoding="utf-8")
    as_json("attack", str(nain), str(elfe), "--des", "8,6,10,6", "--dry-run")
    assert elfe.read_text(encoding="utf-8") == before


def test_xp_spends_and_refuses(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    out = as_json("xp", str(nain), "--competence", "hache")
    assert out["cost"] == 2 and out["remaining"] == 8
    text = nain.read_text(encoding="utf-8")
    assert "hache: 7" in text and "# le nain de l'exemple" in text
    proc = jdr("xp", str(nain), "--carac", "physique", "--opt", "x=1")
    assert proc.returncode == 2


def test_initiative(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = as_json("initiative", str(nain), str(elfe))
    assert [e["name"] for e in out["order"]] == ["Elfe B", "Nain A"]


@pytest.mark.parametrize("args, fragment", [
    (["check", "{nain}", "hahce", "--seuil", "10"], "hache"),
    (["check", "{nain}", "hache", "--seuil", "introuvable"], "seuil"),
    (["check", "{nain}", "hache", "--des", "11"], "impossible"),
    (["check", "{nain}", "hache", "--des", "8,5"], "en trop"),
    (["check", "{nain}", "hache", "--des", ""], "--des"),
    (["check", "absent.yaml", "hache"], "introuvable"),
    (["roll", "1001d6"], "1000"),
    (["roll", "(" * 60 + "1" + ")" * 60], "50"),
    (["sheet", "new", "pathfinder"], "introuvable"),
])
def test_bad_input_french_exit_2(sheets: tuple[Path, Path], args: list[str], fragment: str) -> None:
    nain, elfe = sheets
    before = nain.read_text(encoding="utf-8")
    proc = jdr(*[a.format(nain=nain, elfe=elfe) for a in args])
    assert proc.returncode == 2
    assert proc.stderr.startswith("Erreur : ") and fragment in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr
    assert nain.read_text(encoding="utf-8") == before


def test_malformed_yaml(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("systeme: cydonia\nnom: [x\n", encoding="utf-8")
    proc = jdr("sheet", "check", str(bad))
    assert proc.returncode == 2 and "YAML invalide" in proc.stderr


def test_sheet_check_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "systeme: cydonia\nnom: X\npv: 10\ncaracteristiques: {physique: 0, agilite: 4, dexterite: 4,"
        " sensoriel: 3, courage: 5, charisme: 2, mental: 1, chance: 15}\n"
        "competences: {hache: 11}\n", encoding="utf-8")
    before = bad.read_text(encoding="utf-8")
    out = json.loads(jdr("sheet", "check", str(bad), "--json").stdout)
    assert out["valid"] is False
    joined = "\n".join(out["problems"])
    assert "caracteristiques.physique : 0 hors limites (autorisé : de 1 à 14)" in joined
    assert "caracteristiques.chance : 15 hors limites" in joined
    assert "competences.hache : 11 hors limites (autorisé : de 0 à 10)" in joined
    assert len(out["problems"]) == 3
    proc = jdr("sheet", "check", str(bad))
    assert proc.returncode == 2
    assert bad.read_text(encoding="utf-8") == before


def test_sheet_new_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "perso.yaml"
    assert jdr("sheet", "new", "cydonia", "--sortie", str(path)).returncode == 0
    assert jdr("sheet", "check", str(path)).returncode == 0
    shown = as_json("sheet", "show", str(path))
    assert shown["derived"]["Initiative"].startswith("10")
    assert jdr("sheet", "new", "cydonia", "--sortie", str(path)).returncode == 2


def test_systems_lists_cydonia() -> None:
    ids = [s["id"] for s in as_json("systems")]
    assert "cydonia" in ids


def test_demo_runs_to_the_end() -> None:
    out = as_json("demo", "--seed", "7")
    assert "l'emporte" in out["outcome"]
