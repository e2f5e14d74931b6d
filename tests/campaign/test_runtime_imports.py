"""A command in a campaign talks to its base through the DB-API (`jdr.campaign.sql`): no
SQLAlchemy, Alembic or Mako at run time, on SQLite and on PostgreSQL (issue 18). Migrations
(creation, `jdr campagne migrer`) are the only commands that import them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import cli

FORBIDDEN = ("sqlalchemy", "alembic", "mako")
SHEET = """\
systeme: cydonia
nom: {nom}
peuple: nain
caracteristiques: {{physique: 7, agilite: 4, dexterite: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}}
competences: {{hache: 6, esquive: 2}}
pv: {{max: 30, actuels: 30}}
"""
COMMANDS = (["lancer", "1d20"], ["test", "nain a", "hache", "--seuil", "15", "--seed", "3"],
            ["combat"])


@pytest.fixture
def campaign(db_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A campaign with two characters in an encounter (made in process: creation migrates)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JDR_CAMPAGNE", raising=False)
    for name in ("Nain A", "Nain B"):
        (tmp_path / f"{name[-1]}.yaml").write_text(SHEET.format(nom=name), encoding="utf-8")
    url = "://" in db_target
    args = ["--db", db_target] if url else []
    assert cli("campagne", "nouvelle", "Essai", "--systeme", "cydonia", *args).code == 0
    target = db_target if url else str(tmp_path / "Essai.jdr")
    monkeypatch.setenv("JDR_CAMPAGNE", target)
    assert cli("campagne", "importer", "A.yaml", "B.yaml").code == 0
    assert cli("combat", "debut", "nain a", "nain b", "--seed", "1").code == 0
    return target


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_campaign_command_imports_no_sqlalchemy(campaign: str, tmp_path: Path,
                                                  command: list[str]) -> None:
    code = ("import sys; from jdr.cli.main import main; main(sys.argv[1:]); "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})); "
            "print('psycopg' in sys.modules)")
    env = {**os.environ, "JDR_CAMPAGNE": campaign}
    proc = subprocess.run([sys.executable, "-c", code, *command], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    *_, imported, psycopg = proc.stdout.strip().splitlines()
    assert imported == "[]", proc.stdout
    assert psycopg == str("://" in campaign)  # the PostgreSQL driver only for a PostgreSQL base


def test_a_server_on_a_current_base_runs_no_migration(campaign: str, tmp_path: Path) -> None:
    """A `jdr servir` restarted (or a second one on PostgreSQL) finds the base at the current
    schema: one query, no Alembic (its import and the migration scripts cost about 0.4 s)."""
    code = ("import sys; from jdr.campaign.db import open_for_server; "
            "db, lock = open_for_server(sys.argv[1]); "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))")
    proc = subprocess.run([sys.executable, "-c", code, campaign], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout
