"""Output first (issue 16.3): every writing command writes its whole output, then commits.

Each writing command (sheet files and campaign) runs with its stdout on `/dev/full`, on a pipe
whose reader is gone, and on an ASCII-only stream: the first two leave the sheets and the
campaign exactly as they were (and say so in French, no traceback); the ASCII run works, its
characters degraded, and commits. Those runs are in process (the real `main`, real streams,
real files); a few real subprocesses check the same through a shell's eyes (`> /dev/full`, a
closed pipe, `PYTHONIOENCODING=ascii`, `LC_ALL=C`). A commit that fails after the output was
written (a trigger refuses the journal entry) says that nothing was recorded.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from helpers import ok
from sheets_data import ELFE_YAML, NAIN_YAML

BROKEN = "rien n'a été enregistré"


def _stream(mode: str) -> IO[str]:
    if mode == "plein":
        return open("/dev/full", "w", encoding="utf-8")
    if mode == "tube":
        read, write = os.pipe()
        os.close(read)
        return os.fdopen(write, "w", encoding="utf-8")
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")


def run_on(mode: str, *args: str | Path) -> tuple[int, str, str]:
    """`jdr ARGS` in process with stdout on a full disk, a closed pipe or an ASCII stream."""
    from jdr.cli.main import main

    stream = _stream(mode)
    err = io.StringIO()
    saved = sys.stdout
    sys.stdout = stream
    try:
        with contextlib.redirect_stderr(err):
            code = main([str(a) for a in args])
        text = ""
        if mode == "ascii":
            stream.flush()
            text = stream.buffer.getvalue().decode("ascii")  # type: ignore[attr-defined]
    finally:
        sys.stdout = saved
        with contextlib.suppress(OSError):
            stream.close()
    return code, text, err.getvalue()


def digest(folder: Path) -> dict[str, Any]:
    """Everything a command may change: sheet files' bytes, the campaign's rows."""
    state: dict[str, Any] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".yaml", ".sauvegarde"):
            state[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        if path.suffix == ".jdr" and path.is_file():
            conn = sqlite3.connect(path)
            state[str(path)] = [conn.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()
                                for t in ("jdr_characters", "jdr_journal", "jdr_encounters")]
            conn.close()
    return state


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JDR_CAMPAGNE", raising=False)
    (tmp_path / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    (tmp_path / "elfe.yaml").write_text(ELFE_YAML, encoding="utf-8")
    return tmp_path


def _campaign(folder: Path) -> None:
    ok("campagne", "new", "Essai", "--systeme", "cydonia")
    ok("campagne", "import", "nain.yaml", "elfe.yaml")


def _fight(folder: Path) -> None:
    _campaign(folder)
    ok("check", "nain a", "hache", "--seuil", "10", "--seed", "1")


def _saved(folder: Path) -> None:
    _fight(folder)
    ok("campagne", "sauvegarde", "--sortie", "copie.sauvegarde")


COMMANDS: dict[str, tuple[Callable[[Path], None] | None, list[str]]] = {
    "attack (fichiers)": (None, ["attack", "nain.yaml", "elfe.yaml", "--des", "8,1,8,7"]),
    "sante (fichiers)": (None, ["sante", "nain.yaml", "12"]),
    "sheet new --sortie": (None, ["sheet", "new", "felins", "--sortie", "neuve.yaml"]),
    "campagne new": (None, ["campagne", "new", "Neuve", "--systeme", "cyd"]),
    "campagne import": (_campaign, ["campagne", "import", "--pnj", "--nombre", "2", "nain.yaml"]),
    "check (campagne)": (_campaign, ["check", "nain a", "hache", "--seuil", "10", "--seed", "1"]),
    "sante (campagne)": (_campaign, ["sante", "elfe b", "12"]),
    "combat start": (_campaign, ["combat", "start", "nain a", "elfe b", "--seed", "2"]),
    "annuler": (_fight, ["annuler"]),
    "campagne export --dossier": (_campaign, ["campagne", "export", "--dossier", "."]),
    "campagne sauvegarde": (_campaign, ["campagne", "sauvegarde", "--sortie", "s.sauvegarde"]),
    "campagne restaurer": (_saved, ["campagne", "restaurer", "copie.sauvegarde"]),
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_writing_command_commits_only_a_whole_output(name: str, folder: Path) -> None:
    setup, args = COMMANDS[name]
    if setup is not None:
        setup(folder)
    if name == "campagne restaurer":
        ok("check", "nain a", "hache", "--seuil", "10", "--seed", "2")  # the backup is older
    if name == "campagne export --dossier":
        (folder / "nain.yaml").unlink()
        (folder / "elfe.yaml").unlink()
    before = digest(folder)
    files = sorted(p.name for p in folder.iterdir())
    for mode in ("plein", "tube"):
        code, _, err = run_on(mode, *args)
        assert code != 0 and BROKEN in err and "Traceback" not in err, (mode, err)
        assert digest(folder) == before, f"{name} : {mode} a écrit"
        assert sorted(p.name for p in folder.iterdir()) == files, f"{name} : {mode} a laissé un fichier"
    code, text, err = run_on("ascii", *args)
    assert code == 0, err
    assert text.strip() and text.isascii()
    assert digest(folder) != before or sorted(p.name for p in folder.iterdir()) != files


def test_ascii_output_degrades_characters(folder: Path) -> None:
    code, text, _ = run_on("ascii", "check", "nain.yaml", "hache", "--seuil", "10", "--des", "2")
    assert code == 0
    assert "Nain A - Hache (Dexterite) : des [2]" in text and "-> REUSSITE, marge" in text


def test_commit_failing_after_the_output_says_nothing_was_recorded(folder: Path) -> None:
    """The journal refuses the entry (a trigger) once the result is printed: the person is told
    that it does not count; the campaign is unchanged."""
    _campaign(folder)
    conn = sqlite3.connect(folder / "Essai.jdr")
    conn.execute("CREATE TRIGGER refus BEFORE INSERT ON jdr_journal BEGIN SELECT RAISE(ABORT, 'non'); END")
    conn.commit()
    conn.close()
    before = digest(folder)
    from helpers import cli

    for extra in ([], ["--json"]):
        run = cli("sante", "nain a", "12", *extra)
        assert run.code == 2 and "Nain A" in run.out  # the output came first
        assert run.err.startswith("Erreur : enregistrement impossible") and BROKEN in run.err
        assert "ne compte pas" in run.err
    assert digest(folder) == before


# ------------------------------------------------------------------ real processes


def jdr(*args: str, env: dict[str, str] | None = None, stdout: Any = subprocess.PIPE,
        cwd: Path) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "JDR_CAMPAGNE"} | (env or {})
    return subprocess.run([sys.executable, "-m", "jdr.cli.main", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=full, cwd=cwd, timeout=120, check=False)


@contextlib.contextmanager
def closed_pipe() -> Iterator[int]:
    read, write = os.pipe()
    os.close(read)
    try:
        yield write
    finally:
        os.close(write)


ATTACK = ["attack", "nain.yaml", "elfe.yaml", "--des", "8,1,8,7"]


def test_shell_full_disk_and_closed_pipe_write_nothing(folder: Path) -> None:
    before = digest(folder)
    with open("/dev/full", "w") as full:
        proc = jdr(*ATTACK, stdout=full, cwd=folder)
    assert proc.returncode == 2 and proc.stderr == "Erreur : sortie impossible (disque plein) : " \
        "rien n'a été enregistré\n"
    with closed_pipe() as fd:
        proc = jdr(*ATTACK, stdout=fd, cwd=folder)
    assert proc.returncode == 141 and "tube rompu" in proc.stderr and "Exception" not in proc.stderr
    assert digest(folder) == before


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C"}])
def test_shell_ascii_and_c_locale_work(folder: Path, env: dict[str, str]) -> None:
    proc = jdr("roll", "1d6", "--des", "4", env=env, cwd=folder)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("= 4"), proc.stderr
    before = digest(folder)
    proc = jdr(*ATTACK, env=env, cwd=folder)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "Elfe B" in proc.stdout and digest(folder) != before
    if "PYTHONIOENCODING" in env:
        assert proc.stdout.isascii() and "->" in proc.stdout
