"""Only our own databases (issue 16.4): a campaign is identified read-only before anything
touches it. A truncated file, random bytes, another application's SQLite base (with or without
its own application id), a campaign of a newer schema and a campaign with a damaged page are
each refused by every command family and by `jdr serve`: a French error, exit code 2, and the
file's bytes unchanged. Files of the previous jdr (no application id) still open."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import cli, ok
from sheets_data import ELFE_YAML, NAIN_YAML

FAMILIES = [
    ["roll", "1d20", "--seed", "1"],
    ["check", "nain a", "hache", "--seuil", "10", "--seed", "1"],
    ["odds", "nain a", "hache", "--seuil", "10"],
    ["attack", "nain a", "elfe b", "--seed", "1"],
    ["sante", "nain a", "12"],
    ["sheet", "show", "nain a"],
    ["session", "new", "nain a"],
    ["journal"],
    ["annuler"],
    ["campagne", "personnages"],
    ["campagne", "import", "nain.yaml", "--remplacer"],
    ["campagne", "export"],
    ["campagne", "sauvegarde", "--sortie", "copie.sauvegarde"],
    ["campagne", "migrer"],
    ["combat"],
    ["combat", "start", "nain a", "elfe b", "--seed", "1"],
    ["serve", "--db", "Essai.jdr", "--port", "1"],
]


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real campaign, with enough journal to span many pages."""
    folder = tmp_path_factory.mktemp("modele")
    (folder / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    (folder / "elfe.yaml").write_text(ELFE_YAML, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.delenv("JDR_CAMPAGNE", raising=False)
        ok("campagne", "new", "Essai", "--systeme", "cydonia")
        ok("campagne", "import", "nain.yaml", "elfe.yaml")
        for seed in range(8):
            ok("check", "nain a", "hache", "--seuil", "10", "--seed", str(seed))
    return folder / "Essai.jdr"


def truncated(path: Path, model: Path) -> None:
    data = model.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def random_bytes(path: Path, model: Path) -> None:
    path.write_bytes(hashlib.sha512(b"jdr").digest() * 200)


def other_app(path: Path, model: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, texte TEXT)")
    conn.execute("INSERT INTO notes (texte) VALUES ('à garder')")
    conn.commit()
    conn.close()


def other_app_stamped(path: Path, model: Path) -> None:
    """Another application's base that even has tables named like ours."""
    shutil.copy(model, path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1196444237")
    conn.commit()
    conn.close()


def newer_schema(path: Path, model: Path) -> None:
    shutil.copy(model, path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE jdr_alembic_version SET version_num = '9999_futur'")
    conn.commit()
    conn.close()


def damaged_page(path: Path, model: Path) -> None:
    data = bytearray(model.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    middle = (len(data) // page // 2) * page
    data[middle:middle + page] = hashlib.sha512(b"abime").digest() * (page // 64)
    path.write_bytes(bytes(data))


KINDS: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "tronquée": (truncated, "tronquée"),
    "octets au hasard": (random_bytes, "n'est pas une campagne jdr"),
    "autre application": (other_app, "n'est pas une campagne jdr"),
    "autre application marquée": (other_app_stamped, "autre application"),
    "schéma plus récent": (newer_schema, "schéma plus récent"),
    "page abîmée": (damaged_page, "endommagée"),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_damaged_or_foreign_base_refused_untouched(kind: str, model: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    make, expected = KINDS[kind]
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JDR_CAMPAGNE", raising=False)
    (tmp_path / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    base = tmp_path / "Essai.jdr"
    make(base, model)
    before = hashlib.sha256(base.read_bytes()).hexdigest()
    for args in FAMILIES:
        run = cli(*args)
        shown = " ".join(args)
        assert run.code == 2, f"{kind} / jdr {shown} : {run.code}\n{run.out}{run.err}"
        assert run.err.startswith("Erreur : ") and expected in run.err, f"{kind} / jdr {shown} : {run.err}"
        assert "Traceback" not in run.err and run.out == ""
        assert hashlib.sha256(base.read_bytes()).hexdigest() == before, f"{kind} / jdr {shown} a écrit"
    for args in (["journal", "--campagne", f"sqlite:///{base}"],
                 ["campagne", "new", "Autre", "--systeme", "cyd", "--db", f"sqlite:///{base}"]):
        run = cli(*args)
        assert run.code == 2 and expected in run.err and run.out == "", f"{kind} / {args} : {run.err}"
    assert hashlib.sha256(base.read_bytes()).hexdigest() == before
    assert not (tmp_path / "copie.sauvegarde").exists()


def test_previous_jdr_files_still_open(model: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign made before application ids (id 0) is accepted, and stamped on migration."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JDR_CAMPAGNE", raising=False)
    base = tmp_path / "Ancienne.jdr"
    shutil.copy(model, base)
    conn = sqlite3.connect(base)
    conn.execute("PRAGMA application_id = 0")
    conn.commit()
    conn.close()
    assert "Nain A" in ok("campagne", "personnages").out
    assert ok("check", "nain a", "hache", "--seuil", "10", "--seed", "1").code == 0
    ok("campagne", "migrer")
    conn = sqlite3.connect(base)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x4A445231
    conn.close()


def test_older_schema_asks_for_an_explicit_upgrade(model: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """No migration on an ordinary command: `jdr campagne migrer` does it, once."""
    from jdr.campaign.db import engine_for, migrate

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JDR_CAMPAGNE", raising=False)
    base = tmp_path / "Essai.jdr"
    engine = engine_for(str(base), must_exist=False)
    migrate(engine, "0001")
    engine.dispose()
    conn = sqlite3.connect(base)
    conn.execute("INSERT INTO jdr_campaigns (name, system, created_at, journal_seq) "
                 "VALUES ('Essai', 'cydonia', '2026-01-01 00:00:00', 0)")
    conn.commit()
    conn.close()
    run = cli("journal")
    assert run.code == 2 and "schéma plus ancien (0001" in run.err and "jdr campagne migrer" in run.err
    assert ok("campagne", "migrer").out.startswith("Schéma : 0001 → ")
    assert ok("journal").code == 0 and "Essai" in ok("campagne", "personnages").out


def test_revisions_read_from_the_files_match_alembic() -> None:
    """The schema version is known without Alembic: the same chain Alembic walks."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from jdr.campaign.identity import VERSIONS, head, revisions

    cfg = Config()
    cfg.set_main_option("script_location", str(VERSIONS.parent))
    script = ScriptDirectory.from_config(cfg)
    assert head() == script.get_current_head()
    assert list(revisions()) == [r.revision for r in reversed(list(script.walk_revisions()))]


def test_a_command_on_a_campaign_imports_no_alembic(model: Path) -> None:
    import subprocess
    import sys

    code = ("import sys; from jdr.cli.main import main; main(['journal', '--depuis', '1000']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=model.parent, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("[]"), proc.stdout + proc.stderr
