"""`jdr serve` on a SQLite file (issue 16.4 and 16.6): one server per file (a lock held for the
server's life), another application's base refused untouched by the real process, and a backup
taken while the server runs restores the same journal."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from web_support import free_port, live_server

from helpers import cli, ok
from sheets_data import ELFE_YAML, NAIN_YAML


def test_second_server_on_one_file_refused(tmp_path: Path) -> None:
    from jdr.campaign.db import CampaignError
    from jdr.web.state import Server

    db = str(tmp_path / "table.db")
    first = Server(db, None, True)
    try:
        with pytest.raises(CampaignError, match="déjà servie par un autre jdr servir"):
            Server(db, None, True)
    finally:
        first.dispose()
    Server(db, None, True).dispose()  # the lock goes with the server


def test_real_serve_refuses_another_apps_base(tmp_path: Path) -> None:
    base = tmp_path / "notes.db"
    conn = sqlite3.connect(base)
    conn.execute("CREATE TABLE notes (texte TEXT)")
    conn.commit()
    conn.close()
    before = hashlib.sha256(base.read_bytes()).hexdigest()
    proc = subprocess.run([sys.executable, "-m", "jdr.cli.main", "serve", "--db", str(base), "--port",
                           str(free_port())], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2 and "n'est pas une campagne jdr" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert hashlib.sha256(base.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def test_backup_while_serving_restores_the_same_journal(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JDR_CAMPAGNE", raising=False)
    (tmp_path / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    (tmp_path / "elfe.yaml").write_text(ELFE_YAML, encoding="utf-8")
    ok("campagne", "new", "Essai", "--systeme", "cydonia")
    ok("campagne", "import", "nain.yaml", "elfe.yaml")
    with live_server(str(tmp_path / "Essai.jdr")) as live:
        for seed in range(3):  # the campaign keeps being played while served
            ok("check", "nain a", "hache", "--seuil", "10", "--seed", str(seed))
        ok("sante", "elfe b", "12")
        run = cli("campagne", "restaurer", "rien.sauvegarde")
        assert run.code == 2
        saved = ok("campagne", "sauvegarde", "--sortie", "copie.sauvegarde", "--json").json()
        journal = ok("journal", "--json").json()
        refused = cli("campagne", "restaurer", "copie.sauvegarde")
        assert refused.code == 2 and "servie par jdr servir" in refused.err
        assert live.process.poll() is None
    assert saved["entries"] == len(journal) == 4
    os.mkdir(tmp_path / "ailleurs")
    monkeypatch.chdir(tmp_path / "ailleurs")
    ok("campagne", "restaurer", "../copie.sauvegarde", "--campagne", "Essai.jdr")
    assert ok("journal", "--json").json() == journal
    ok("check", "nain a", "hache", "--seuil", "10", "--seed", "9")  # a working campaign
    assert json.loads(ok("campagne", "personnages", "--json").out)[1]["name"] == "Elfe B"
