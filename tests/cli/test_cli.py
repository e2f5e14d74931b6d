"""The command line end to end, in process (`tests/helpers.cli`): JSON contract, French errors,
exit code 2, sheets untouched. One test runs the real `jdr` entry point in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import jdr
from helpers import Run, cli, ok


def as_json(*args: str | Path) -> Any:
    return ok(*args, "--json").json()


def test_real_entry_point_runs(tmp_path: Path) -> None:
    """The installed `jdr` script (or `python -m jdr.cli.main`) in a subprocess: exit codes and
    streams as a shell sees them."""
    exe = shutil.which("jdr", path=str(Path(sys.executable).parent))
    command = [exe] if exe else [sys.executable, "-m", "jdr.cli.main"]
    proc = subprocess.run([*command, "roll", "2d10kh1+6", "--des", "8,3", "--json"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"] == 14
    proc = subprocess.run([*command, "roll", "1d6", "--des", "٣"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("Erreur : --des") and "Traceback" not in proc.stderr


def test_roll_json() -> None:
    out = as_json("roll", "2d10kh1+6", "--des", "8,3")
    assert out["type"] == "roll" and out["total"] == 14 and out["dice"] == [8, 3]


def test_version() -> None:
    run = ok("--version")
    assert run.out == f"jdr {jdr.__version__}\n"


def test_check_json_contract(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    out = as_json("check", nain, "Hache", "--seuil", "15", "--des", "8")
    assert out["type"] == "check" and out["actor"] == "Nain A"
    assert out["total"] == 18 and out["success"] is True and out["critical"] is None
    assert out["margin"] == 3 and out["dice"] == [8] and out["threshold"] == 15


def test_check_opposed_one_token(sheets: tuple[Path, Path]) -> None:
    """`--contre FICHE` takes one token: `--json` after it is read as `--json`."""
    nain, elfe = sheets
    out = as_json("check", nain, "hache", "--contre", elfe, "--des", "8,6")
    assert out["type"] == "contest" and out["total"] == 18 and out["success"] is True
    assert out["opponent"]["total"] == 15 and out["winner"] == "actor"
    run = cli("check", nain, "hache", "--des", "8,6", "--contre", elfe, "--json")
    assert run.code == 0 and run.json()["type"] == "contest"


def test_check_opposed_with_skill(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = as_json("check", nain, "hache", "--contre", f"{elfe}:esquive", "--des", "8,6")
    assert out["opponent"]["label"].startswith("Esquive")


def test_odds_json(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    out = as_json("odds", nain, "hache", "--seuil", "difficile")
    # 10 + d10 >= 20 only on a 10 (also a critical success)
    assert out["type"] == "odds" and out["threshold"] == 20
    assert out["success"] == pytest.approx(0.1)
    assert out["critical_failure"] == pytest.approx(0.1)
    assert sum(out["distribution"].values()) == pytest.approx(1.0)


def test_attack_updates_defender_and_keeps_comments(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    before_nain = nain.read_text(encoding="utf-8")
    out = as_json("attack", nain, elfe, "--des", "8,6,10,6")
    assert out["type"] == "attack" and out["hit"] is True and out["location"]["total"] == 13
    assert out["damage"]["suffered"] == 13 and out["state"] == "debout"
    assert out["health"] == {"unit": "pv", "before": 25, "after": 12, "max": 25}
    text = elfe.read_text(encoding="utf-8")
    assert "# forme courte" in text and "actuels: 12" in text
    assert nain.read_text(encoding="utf-8") == before_nain


def test_attack_dry_run_changes_nothing(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    before = elfe.read_text(encoding="utf-8")
    as_json("attack", nain, elfe, "--des", "8,6,10,6", "--dry-run")
    assert elfe.read_text(encoding="utf-8") == before


def test_xp_spends_and_refuses(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    out = as_json("xp", nain, "--competence", "hache")
    assert out["type"] == "purchase" and out["cost"] == 2
    assert out["xp_before"] == 10 and out["xp_after"] == 8 and out["after"] == 7
    text = nain.read_text(encoding="utf-8")
    assert "hache: 7" in text and "# le nain de l'exemple" in text
    assert cli("xp", nain, "--carac", "physique", "--opt", "x=1").code == 2


def test_initiative(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = as_json("initiative", nain, elfe)
    assert out["type"] == "order"
    assert [e["name"] for e in out["order"]] == ["Elfe B", "Nain A"]


def _one_error_line(run: Run, fragment: str) -> None:
    assert run.code == 2, run
    assert run.err.startswith("Erreur : ") and fragment in run.err, run.err
    assert len(run.err.strip().splitlines()) == 1 and run.out == ""


@pytest.mark.parametrize("args, fragment", [
    (["check", "{nain}", "hahce", "--seuil", "10"], "hache"),
    (["check", "{nain}", "hache", "--seuil", "introuvable"], "seuil"),
    (["check", "{nain}", "hache", "--des", "11"], "impossible"),
    (["check", "{nain}", "hache", "--des", "8,5"], "en trop"),
    (["check", "{nain}", "hache", "--des", ""], "--des"),
    (["check", "absent.yaml", "hache"], "introuvable"),
    (["check", "{nain}", "hache", "--opt", "--des", "12"], "--opt"),
    (["check", "{nain}", "hache", "--bonus", "9" * 4300], "--bonus"),
    (["check", "{long}", "hache"], "trop long"),
    (["roll", "1001d6"], "1000"),
    (["roll", "(" * 60 + "1" + ")" * 60], "50"),
    (["sheet", "new", "pathfinder"], "introuvable"),
])
def test_bad_input_french_exit_2(sheets: tuple[Path, Path], args: list[str], fragment: str) -> None:
    nain, elfe = sheets
    long = "x" * 300 + ".yaml"
    before = nain.read_text(encoding="utf-8")
    run = cli(*[a.format(nain=nain, elfe=elfe, long=long) for a in args])
    _one_error_line(run, fragment)
    assert nain.read_text(encoding="utf-8") == before


def test_error_under_json_is_json_on_stdout(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    for args in (["check", nain, "hahce", "--json"], ["roll", "1d6", "--des", "9", "--json"],
                 ["check", nain, "--json"], ["roll", "1d6", "--format", "json", "--seed", "x"]):
        run = cli(*args)
        assert run.code == 2 and run.err == ""
        assert list(run.json()) == ["error"] and run.json()["error"]


def test_piped_text_is_plain_and_unwrapped() -> None:
    """Not a terminal: no colour codes, and a long result stays on one line."""
    expression = "+".join(["1d6"] * 60)
    run = ok("roll", expression, "--seed", "3")
    assert len(run.out.splitlines()) == 1 and len(run.out) > 300
    assert "\x1b" not in run.out


def test_malformed_yaml(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("systeme: cydonia\nnom: [x\n", encoding="utf-8")
    run = cli("sheet", "check", bad)
    assert run.code == 2 and "YAML invalide" in run.err


def test_sheet_check_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "systeme: cydonia\nnom: X\npv: 10\ncaracteristiques: {physique: 0, agilite: 4, dexterite: 4,"
        " sensoriel: 3, courage: 5, charisme: 2, mental: 1, chance: 15}\n"
        "competences: {hache: 11}\n", encoding="utf-8")
    before = bad.read_text(encoding="utf-8")
    out = cli("sheet", "check", bad, "--json").json()
    assert out["valid"] is False
    joined = "\n".join(out["problems"])
    assert "caracteristiques.physique : 0 hors limites (autorisé : de 1 à 14)" in joined
    assert "caracteristiques.chance : 15 hors limites" in joined
    assert "competences.hache : 11 hors limites (autorisé : de 0 à 10)" in joined
    assert len(out["problems"]) == 3
    run = cli("sheet", "check", bad)
    assert run.code == 2 and len(run.err.splitlines()) == 4
    assert bad.read_text(encoding="utf-8") == before


def test_sheet_new_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "perso.yaml"
    assert cli("sheet", "new", "cydonia", "--sortie", path).code == 0
    assert cli("sheet", "check", path).code == 0
    shown = as_json("sheet", "show", path)
    assert shown["type"] == "sheet" and shown["system"] == "cydonia"
    assert isinstance(shown["values"]["initiative"], int)
    _one_error_line(cli("sheet", "new", "cydonia", "--sortie", path), "existe déjà")
    _one_error_line(cli("sheet", "new", "cydonia", "--sortie", tmp_path / ("y" * 300)), "trop long")


def test_systems_lists_every_system() -> None:
    ids = [s["id"] for s in as_json("systems")]
    # the five shipped systems, and the example system `make` installs (exemples/deuxdes)
    assert ids == ["cyd", "cydonia", "dd35", "deuxdes", "felins", "maitrise"]


def test_demo_runs_to_the_end() -> None:
    assert "l'emporte" in ok("demo", "--seed", "7").out
    assert as_json("demo", "cydonia", "--seed", "7")["type"] == "report"


@pytest.mark.parametrize("system", ["cydonia", "maitrise", "dd35", "cyd", "felins"])
def test_demo_and_aide_in_every_system(system: str) -> None:
    assert ok("demo", system, "--seed", "1").out.strip()
    assert ok("demo", system, "--seed", "1").out == ok("demo", system, "--seed", "1").out
    aide = ok("aide", system).out
    assert aide.startswith(f"{system} — ") and "Caractéristiques :" in aide
    data = as_json("aide", system)
    assert data["system"] == system and data["actions"]
