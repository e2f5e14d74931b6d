"""French command names with their English aliases, `--format discord`, and a played scenario
whose every printed line is scanned for internal identifiers (issue 17.6 / 17.7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import cli, golden

GOBELIN = """\
systeme: cydonia
nom: Orque 3
caracteristiques: {physique: 3, agilite: 5, dexterite: 4, sensoriel: 4, courage: 2, charisme: 1,
  mental: 2, chance: 3}
competences: {petite_lame: 3, esquive: 4}
pv: 12
"""
CAMILLE = GOBELIN.replace("nom: Orque 3", "nom: Camille\ngenre: f").replace(
    "pv: 12", "pv: 12\netat: {assomme: 12}")


@pytest.mark.parametrize("french, english", [
    (["lancer", "2d6+1"], ["roll", "2d6+1"]),
    (["test", "{nain}", "hache", "--seuil", "difficile"],
     ["check", "{nain}", "hache", "--seuil", "difficile"]),
    (["chances", "{nain}", "hache", "--seuil", "15"], ["odds", "{nain}", "hache", "--seuil", "15"]),
    (["attaque", "{nain}", "{elfe}", "--dry-run"], ["attack", "{nain}", "{elfe}", "--dry-run"]),
    (["fiche", "verifier", "{nain}"], ["sheet", "check", "{nain}"]),
    (["fiche", "voir", "{nain}"], ["sheet", "show", "{nain}"]),
    (["systemes"], ["systems"]),
])
def test_french_names_and_english_aliases(sheets: tuple[Path, Path], french: list[str],
                                          english: list[str]) -> None:
    nain, elfe = sheets
    runs = [cli(*[a.format(nain=nain, elfe=elfe) for a in args], *(["--seed", "4"] if args[0] in (
        "lancer", "roll", "test", "check", "attaque", "attack") else [])) for args in (french, english)]
    assert runs[0].code == 0, runs[0].err
    assert runs[0].out == runs[1].out and runs[1].code == 0


def test_help_shows_french_names_only() -> None:
    out = cli("--help").out
    for name in ("lancer", "test", "chances", "attaque", "fiche", "systemes", "servir"):
        assert re.search(rf"^  {name} ", out, re.M), name
    for name in ("roll", "check", "odds", "attack", "sheet", "systems", "serve"):
        assert not re.search(rf"^  {name} ", out, re.M), name
    assert "debut" in cli("combat", "--help").out and "nouvelle" in cli("fiche", "--help").out


def test_discord_format(sheets: tuple[Path, Path]) -> None:
    run = cli("lancer", "4d6kh3", "--des", "2,4,3,4", "--format", "discord")
    assert run.out.splitlines()[0] == "4d6kh3 → 4d6kh3 [~~2~~, 4, 3, 4] = **11**"
    assert "~~2~~" not in cli("lancer", "4d6kh3", "--des", "2,4,3,4", "--format", "forum").out
    assert "[s]2[/s]" in cli("lancer", "4d6kh3", "--des", "2,4,3,4", "--format", "forum").out
    many = cli("lancer", "1000d6", "--seed", "1", "--format", "discord").out
    assert "… (1000 dés)" in many and len(many) < 300
    bad = cli("lancer", "1d6", "--format", "bbcode")
    assert bad.code == 2 and "discord" in bad.err


IDENTIFIERS = re.compile(r"\b(assomme|tete|attack|check|odds|sante|combat:\w+|hors_de_combat|"
                         r"en_fuite|mourant_|debout_)\b|\{'|'max'|_la_")


def test_played_scenario_prints_no_identifier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "orque.yaml").write_text(GOBELIN, encoding="utf-8")
    (tmp_path / "camille.yaml").write_text(CAMILLE, encoding="utf-8")
    steps = [
        ["campagne", "nouvelle", "Marche", "--systeme", "cydonia"],
        ["campagne", "importer", "orque.yaml", "camille.yaml"],
        ["combat", "debut", "Orque 3", "Camille", "--ordre-donne"],
        ["combat"],
        ["attaque", "Orque 3", "Camille", "--des", "9,1"],
        ["sante", "Orque 3", "--", "-4"],
        ["annuler"],
        ["combat", "suivant", "--seed", "2"],
        ["journal"],
        ["journal", "--format", "discord"],
    ]
    printed = []
    for args in steps:
        run = cli(*args)
        assert run.code == 0, (args, run.err)
        printed.append(run.out + run.err)
    text = "\n".join(printed)
    assert "tour d'Orque 3" in text
    assert "Camille est assommée : elle perd ce tour" in text
    assert "Orque 3 : PV 8/12 → 12/12" in text
    leaks = sorted({m.group(0) for m in IDENTIFIERS.finditer(text)})
    assert not leaks, leaks


def test_discord_goldens(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    run = cli("attaque", nain, elfe, "--des", "8,3,10,6", "--dry-run", "--format", "discord")
    assert run.code == 0, run.err
    golden("cydonia/attaque_des.discord.md", run.out)


def test_owner_makes_a_new_mj_link_from_the_cli(tmp_path: Path) -> None:
    from jdr.web.errors import ApiError
    from jdr.web.state import Server

    db = str(tmp_path / "tables.jdr")
    server = Server(db, None, True)
    made = server.create_table("La Marche", "cydonia")
    server.dispose()  # SQLite: one server per file; the owner runs it with the server stopped
    run = cli("lien-mj", "--db", db, "--table", str(made["id"]), "--adresse", "https://jdr.example/")
    assert run.code == 0, run.err
    assert "l'ancien n'ouvre plus la table" in run.out
    new = run.out.strip().rsplit("#jeton=", 1)[1]
    assert run.out.strip().splitlines()[-1].startswith(f"https://jdr.example/table/{made['id']}#jeton=")
    server = Server(db, None, True)
    try:
        assert server.authenticate(new, made["id"]).role == "mj"
        with pytest.raises(ApiError, match="révoqué"):
            server.authenticate(made["jeton"], made["id"])
    finally:
        server.dispose()
    missing = cli("lien-mj", "--db", db, "--table", "99")
    assert missing.code == 2 and "table n° 99 introuvable" in missing.err
