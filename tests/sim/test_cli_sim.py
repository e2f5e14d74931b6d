"""`jdr simuler`: text, JSON valid against the schema, French errors (exit 2), the chart, a
campaign's NPC group by its model, and the sweep (local and on Dask: the same figures)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import cli, ok
from jdr.sim.sweep import on_dask, play_point, seeds
from sim.fighters import SHEETS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    hero, goblin = tmp_path / "aldo.yaml", tmp_path / "gobelin.yaml"
    hero.write_text(SHEETS["deuxdes"][0], encoding="utf-8")
    goblin.write_text(SHEETS["deuxdes"][1], encoding="utf-8")
    return hero, goblin


def _valid(data: object) -> None:
    from test_docs import assert_valid

    schema = json.loads((ROOT / "docs" / "schema" / "resultat.schema.json").read_text("utf-8"))
    assert_valid(schema, data)


def test_text_report(files: tuple[Path, Path]) -> None:
    hero, goblin = files
    run = ok("simuler", hero, "contre", f"{goblin}*2", "--n", "2000", "--seed", "1")
    assert "Simulation (2 000 combats simulés) : Aldo contre Gobelin et Gobelin 2" in run.out
    assert "Camp 1 (Aldo, tactique « faible ») : victoire " in run.out
    assert "intervalle à 95 %" in run.out and "Match nul : " in run.out
    assert "Gobelin 2 (camp 2) : tombe " in run.out
    assert run.out == ok("simuler", hero, "contre", goblin, goblin, "--n", "2000", "--seed",
                         "1").out  # a file named twice: two copies, the same fight


def test_json_matches_the_schema(files: tuple[Path, Path]) -> None:
    hero, goblin = files
    data = ok("simuler", hero, "contre", f"{goblin}×3", "--n", "500", "--seed", "2", "--json",
              "--tactique", "prudente", "--tactique", "hasard").json()
    _valid(data)
    assert data["type"] == "simulation" and data["n"] == 500 and not data["exact"]
    assert [s["tactic"] for s in data["sides"]] == ["prudente", "hasard"]
    assert sum(s["win"] for s in data["sides"]) + data["draw"] == pytest.approx(1)
    assert [c["name"] for c in data["characters"]] == ["Aldo", "Gobelin", "Gobelin 2", "Gobelin 3"]
    duel = ok("simuler", hero, "contre", goblin, "--json").json()
    _valid(duel)
    assert duel["exact"] and duel["sides"][0]["ci95"] == [duel["sides"][0]["win"]] * 2


@pytest.mark.parametrize(("args", "message"), [
    (["{h}", "contre", "inconnu.yaml"], "fiche introuvable"),
    (["{h}", "contre"], "le camp 2 est vide"),
    (["{h}", "{g}"], "le mot « contre »"),
    (["{h}", "contre", "{g}", "--n", "0"], "--n : 0 hors limites (autorisé : de 1 à 1\u202f000\u202f000)"),
    (["{h}", "contre", "{g}", "--n", "2000000"], "hors limites"),
    (["{h}", "contre", "{g}", "--tactique", "bourrin"], "tactique"),
    (["{h}", "contre", "{g}", "--graphique", "x.pdf"], "un fichier .png ou .svg"),
    (["{h}", "contre", "{g}", "--balayer", "gobelin"], "NOM=DEBUT..FIN"),
    (["{h}", "contre", "{g}*99"], "de 1 à 50 copies"),
])
def test_french_errors_exit_2(files: tuple[Path, Path], args: list[str], message: str) -> None:
    hero, goblin = files
    run = cli("simuler", *[a.format(h=hero, g=goblin) for a in args])
    assert run.code == 2 and message in run.err, run.err


@pytest.mark.parametrize(("suffix", "head"), [(".png", b"\x89PNG\r\n"), (".svg", b"<?xml")])
def test_chart_written(files: tuple[Path, Path], tmp_path: Path, suffix: str, head: bytes) -> None:
    hero, goblin = files
    chart = tmp_path / f"graphique{suffix}"
    ok("simuler", hero, "contre", f"{goblin}*2", "--n", "300", "--seed", "3", "--graphique", chart)
    assert chart.read_bytes().startswith(head)
    if suffix == ".svg":
        assert b"<svg" in chart.read_bytes()[:2000]


def test_campaign_group_by_its_model(files: tuple[Path, Path], tmp_path: Path) -> None:
    hero, goblin = files
    where = tmp_path / "essai.jdr"
    ok("campagne", "nouvelle", "essai", "--systeme", "deuxdes", "--db", where)
    ok("campagne", "importer", hero, "--campagne", where)
    ok("campagne", "importer", goblin, "--pnj", "--nombre", "3", "--campagne", where)
    data = ok("simuler", "Aldo", "contre", "gobelin×2", "--n", "300", "--seed", "4", "--json",
              "--campagne", where).json()
    assert data["sides"][1]["names"] == ["Gobelin 1", "Gobelin 1 2"]
    unknown = cli("simuler", "Aldo", "contre", "orque×2", "--campagne", where)
    assert unknown.code == 2 and "orque" in unknown.err


def test_sweep_local_and_dask_give_the_same_figures(files: tuple[Path, Path]) -> None:
    hero, goblin = files
    data = ok("simuler", hero, "contre", goblin, "--n", "300", "--seed", "5", "--json",
              "--balayer", "gobelin=1..2").json()
    _valid(data)
    assert [p["value"] for p in data["points"]] == [1, 2]
    assert data["points"][0]["simulation"]["exact"]
    wins = [p["simulation"]["sides"][0]["win"] for p in data["points"]]
    assert wins[0] > wins[1]
    from jdr.core.sheet import SheetDocument

    plains = [SheetDocument.load(p).plain() for p in (hero, goblin)]
    tasks = [("deuxdes", [[plains[0]], [plains[1]] * k], 300, s, ("faible", "faible"))
             for k, s in zip((1, 2), seeds(5, 2), strict=True)]
    local = [play_point(t) for t in tasks]
    assert local == [p["simulation"] for p in data["points"]]  # the CLI's points: these tasks
    assert on_dask(tasks, None, processes=False) == local


def test_help_of_n_seed_and_tactics_comes_from_the_declaration() -> None:
    """`--n` and `--seed` are « simuler »'s declared `n` and `graine` (help, range, thousands
    grouped); `--n` goes up to the engine's bound, the table stays at the declared one; the
    tactics are the declared choices."""
    from jdr.core.declare import ACTIONS
    from jdr.sim.run import MAX_N

    declared = ACTIONS["simuler"]
    n, graine = declared.param("n"), declared.param("graine")
    assert n is not None and graine is not None and n.hi == 20_000 and MAX_N == 1_000_000
    text = re.sub(r"[ \n]+", " ", ok("simuler", "--help").out)  # not the narrow spaces
    assert f"Nombre de combats : {n.help}, de 1 à 1\u202f000\u202f000." in text
    assert "10\u202f000 par défaut" in n.help
    assert f"Graine : {graine.help}, de 0 à 999\u202f999\u202f999." in text
    tactics = [value for value, _ in declared.param("tactique1").choices]  # type: ignore[union-attr]
    assert "faible, hasard ou prudente ;" in text and tactics == ["faible", "hasard", "prudente"]
