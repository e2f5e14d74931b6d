"""Backups of a SQLite campaign: a consistent copy while the server runs, and its restoration.

- `backup(target, output)`: SQLite's online backup (`sqlite3.Connection.backup`) of the
  campaign into a hidden temporary file next to `output`, checked (`quick_check`), in rollback
  journal mode (one self-contained file); the context manager's body prints, then the copy gets
  its name (never over an existing file). Safe while `jdr servir` or other commands write: the
  backup API restarts on a change and gives the state of one instant.
- `restore(source, target)`: a file that is ours (identified, wholly checked) replaces the
  campaign `target` (or creates it); refused while a `jdr servir` holds the target. A damaged or
  truncated target may be replaced (that is what a backup is for), a foreign file never.

PostgreSQL: `pg_dump` / `pg_restore` (see `docs/campagne.md`).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path

from jdr.campaign.identity import CampaignError, check_header, identify, is_served, read_only

BACKUP_SUFFIX = ".sauvegarde"
PG_HINT = ("campagne PostgreSQL : sauvegardez avec pg_dump et restaurez avec pg_restore "
           "(voir docs/campagne.md)")


def default_output(path: Path) -> Path:
    """`NOM-AAAAMMJJ-HHMMSS.sauvegarde` next to the campaign (not `.jdr`: the folder keeps
    one campaign)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return path.with_name(f"{path.stem}-{stamp}{BACKUP_SUFFIX}")


def _temporary(final: Path) -> Path:
    return final.with_name(f".{final.name}.{secrets.token_hex(4)}.tmp")


def _copy(source: Path, destination: Path) -> int:
    """Online backup of `source` into the new file `destination`, checked; its journal size."""
    import sqlite3

    src = read_only(source)
    try:
        dst = sqlite3.connect(destination, isolation_level=None)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            problems = [r[0] for r in dst.execute("PRAGMA quick_check(5)")]
            if problems != ["ok"]:
                raise CampaignError(f"copie incohérente ({'; '.join(problems)[:200]}) : rien n'est écrit")
            entries = int(dst.execute("SELECT count(*) FROM jdr_journal").fetchone()[0])
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise CampaignError(f"copie impossible ({str(exc)[:160]}) : rien n'est écrit") from None
    finally:
        src.close()
    with open(destination, "rb") as handle:
        os.fsync(handle.fileno())
    return entries


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def backup(target: str, output: Path | None) -> Iterator[tuple[Path, int]]:
    """Copy campaign `target` (see the module docstring); yields (final path, journal entries)."""
    from jdr.campaign.db import is_url

    if is_url(target):
        raise CampaignError(PG_HINT)
    source = Path(target)
    if not source.exists():
        raise CampaignError(f"campagne introuvable : {source}")
    identify(source, integrity=True)
    final = output if output is not None else default_output(source)
    if final.exists():
        raise CampaignError(f"{final} existe déjà : je n'écrase pas une sauvegarde")
    if not final.parent.is_dir():
        raise CampaignError(f"dossier introuvable pour la sauvegarde : {final.parent}")
    temporary = _temporary(final)
    try:
        entries = _copy(source, temporary)
        yield final, entries
        try:
            os.link(temporary, final)  # never over an existing file
        except FileExistsError:
            raise CampaignError(f"{final} existe déjà : je n'écrase pas une sauvegarde") from None
        except OSError as exc:
            raise CampaignError(f"{final} : écriture impossible ({exc.strerror})") from None
        _fsync_folder(final.parent)
    finally:
        with suppress(OSError):
            temporary.unlink()


def _replaceable(target: Path) -> None:
    """The campaign to replace: one of ours (even damaged), never another application's file."""
    if not target.exists():
        if not target.parent.is_dir():
            raise CampaignError(f"dossier introuvable pour la campagne : {target.parent}")
        return
    check_header_ok = True
    try:
        check_header(target)
    except CampaignError as exc:
        if "endommagée" not in exc.message and "tronquée" not in exc.message:
            raise
        check_header_ok = False
    if check_header_ok:
        try:
            identify(target)
        except CampaignError as exc:
            if "endommagée" not in exc.message and "plus récent" not in exc.message:
                raise
    if is_served(target):
        raise CampaignError(f"{target} est servie par jdr servir : arrêtez le serveur avant de restaurer")


@contextmanager
def restore(source: Path, target: str) -> Iterator[int]:
    """Bring backup `source` back as campaign `target`; yields the journal size of the backup."""
    from jdr.campaign.db import is_url

    if is_url(target):
        raise CampaignError(PG_HINT)
    if not source.exists():
        raise CampaignError(f"sauvegarde introuvable : {source}")
    identify(source, integrity=True)
    destination = Path(target)
    _replaceable(destination)
    temporary = _temporary(destination)
    try:
        entries = _copy(source, temporary)
        yield entries
        for stale in (f"{destination}-wal", f"{destination}-shm", f"{destination}-journal"):
            with suppress(FileNotFoundError):
                os.unlink(stale)
        os.replace(temporary, destination)
        _fsync_folder(destination.resolve().parent)
    finally:
        with suppress(OSError):
            temporary.unlink()
