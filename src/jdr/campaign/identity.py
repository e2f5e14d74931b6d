"""Only our own databases: a SQLite file is identified, read-only, before anything touches it.

`identify(path)` reads the file's header (magic, page size, page count, application id) and then,
through a read-only `sqlite3` connection (no PRAGMA that writes, no journal-mode switch), the
schema table and the revision of jdr's schema. A truncated, damaged or foreign file (another
application's SQLite base), or a campaign of a newer schema, is a French error and its bytes are
left as they were. Files made by the previous version of jdr (application id 0, jdr's tables and
the `jdr_alembic_version` table) are accepted; `jdr campagne nouvelle` stamps `APPLICATION_ID`.

The schema revisions are read from the migration files themselves (`revision = "…"`, a few
lines each): knowing the schema version costs one query, never an import of Alembic.

`server_lock(path)`: the exclusive `flock` a `jdr servir` holds on its SQLite file for its whole
life (SQLite locks with `fcntl`, independent of `flock`): a second server on the same file is
refused, commands from the CLI are not.

Only the standard library here (the CLI's start-up pays for nothing else).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from jdr.errors import JdrError

APPLICATION_ID = 0x4A445231  # "JDR1": `PRAGMA application_id` of every campaign file
SQLITE_MAGIC = b"SQLite format 3\x00"
VERSION_TABLE = "jdr_alembic_version"
JDR_TABLES = (VERSION_TABLE, "jdr_campaigns")
VERSIONS = Path(__file__).parent / "migrations" / "versions"
RESTORE_HINT = "restaurez une sauvegarde (jdr campagne restaurer)"
CHECK_LIMIT = 32 * 1024 * 1024  # a command checks every page of a base up to this size


class CampaignError(JdrError):
    """A campaign that cannot be found, opened or written."""


_REVISION = re.compile(r"^revision\s*(?::[^=]*)?=\s*['\"]([^'\"]+)['\"]", re.M)
_DOWN = re.compile(r"^down_revision\s*(?::[^=]*)?=\s*(?:['\"]([^'\"]+)['\"]|None)", re.M)


@cache
def revisions() -> tuple[str, ...]:
    """jdr's schema revisions, first to head, read from the migration files (no Alembic)."""
    parent: dict[str | None, str] = {}
    for file in VERSIONS.glob("*.py"):
        text = file.read_text(encoding="utf-8")
        rev, down = _REVISION.search(text), _DOWN.search(text)
        if rev is not None and down is not None:
            parent[down.group(1)] = rev.group(1)
    chain: list[str] = []
    current = parent.get(None)
    while current is not None and current not in chain:
        chain.append(current)
        current = parent.get(current)
    return tuple(chain)


def head() -> str:
    return revisions()[-1]


def _header(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(100)
    except OSError as exc:
        raise CampaignError(f"{path} : lecture impossible ({exc.strerror})") from None


def check_header(path: Path) -> bool:
    """The file's first page says it is a whole SQLite base that may be ours; True if stamped."""
    if not path.is_file():
        raise CampaignError(f"{path} n'est pas un fichier de campagne")
    head_bytes = _header(path)
    if not head_bytes:
        raise CampaignError(f"{path} est un fichier vide : ce n'est pas une campagne jdr")
    if not head_bytes.startswith(SQLITE_MAGIC) or len(head_bytes) < 100:
        raise CampaignError(f"{path} n'est pas une campagne jdr (ce n'est pas une base SQLite)")
    page = int.from_bytes(head_bytes[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head_bytes[28:32], "big")
    valid = head_bytes[92:96] == head_bytes[24:28]
    wal = Path(f"{path}-wal")
    quiet = not wal.exists() or wal.stat().st_size == 0  # else the WAL may hold the last pages
    size = path.stat().st_size
    if page < 512 or page & (page - 1):
        raise CampaignError(f"{path} : base SQLite endommagée (taille de page {page}) ; {RESTORE_HINT}")
    if quiet and (size % page or (valid and pages and size < pages * page)):
        raise CampaignError(f"{path} : campagne tronquée ({size} octets au lieu de {pages * page}) ; "
                            f"{RESTORE_HINT}")
    app_id = int.from_bytes(head_bytes[68:72], "big")
    if app_id not in (0, APPLICATION_ID):
        raise CampaignError(f"{path} n'est pas une campagne jdr (base SQLite d'une autre application, "
                            f"n° {app_id:#x})")
    return app_id == APPLICATION_ID


def read_only(path: Path) -> Any:
    """A `sqlite3` connection that cannot write the file (nor switch its journal mode)."""
    import sqlite3
    from urllib.parse import quote

    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)


def _translate(path: Path, exc: Exception) -> CampaignError:
    text = str(exc)
    if "malformed" in text or "corrupt" in text:
        return CampaignError(f"{path} : campagne endommagée ({text}) ; {RESTORE_HINT}")
    if "not a database" in text or "encrypted" in text:
        return CampaignError(f"{path} n'est pas une campagne jdr (base SQLite illisible)")
    if "locked" in text or "busy" in text:
        return CampaignError(f"{path} : campagne occupée par un autre processus ; réessayez")
    return CampaignError(f"{path} : base SQLite illisible ({text[:160]})")


def identify(path: Path, integrity: bool | None = False) -> str:
    """The schema revision of campaign file `path`, or a French error; nothing is written.

    With `integrity`, the whole base is also checked (`PRAGMA quick_check`: every page read);
    `None` checks a base up to `CHECK_LIMIT` (a command's start stays short; above it, SQLite
    still refuses the damaged pages a command reads, and `jdr servir` checks everything)."""
    import sqlite3

    stamped = check_header(path)
    if integrity is None:
        integrity = path.stat().st_size <= CHECK_LIMIT
    try:
        conn = read_only(path)
    except sqlite3.Error as exc:
        raise _translate(path, exc) from None
    try:
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)", JDR_TABLES)}
        if set(JDR_TABLES) - tables:
            what = "campagne inachevée" if stamped else "base SQLite sans les tables de jdr"
            raise CampaignError(f"{path} n'est pas une campagne jdr ({what}) : "
                                "créez-la avec jdr campagne nouvelle")
        row = conn.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
        if integrity:
            problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
            if problems != ["ok"]:
                raise CampaignError(f"{path} : campagne endommagée ({'; '.join(problems)[:200]}) ; "
                                    f"{RESTORE_HINT}")
    except sqlite3.Error as exc:
        raise _translate(path, exc) from None
    finally:
        conn.close()
    return check_revision(row[0] if row else None)


def check_revision(revision: str | None) -> str:
    """A revision this jdr knows (head or older), or a French error."""
    if revision is None:
        raise CampaignError("cette base n'est pas une campagne jdr (version du schéma absente)")
    if revision not in revisions():
        raise CampaignError(f"cette campagne a un schéma plus récent ({str(revision)[:40]}) que ce jdr "
                            "ne connaît : mettez jdr à jour")
    return revision


def require_head(revision: str) -> None:
    """A command works on the current schema only; an older one asks for an explicit upgrade."""
    if revision != head():
        raise CampaignError(f"cette campagne a un schéma plus ancien ({revision}, actuel {head()}) : "
                            "mettez-la à jour avec jdr campagne migrer")


def server_lock(path: Path) -> int:
    """Take the exclusive server lock of a SQLite file (see the module docstring); its fd."""
    import fcntl

    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise CampaignError(f"{path} est déjà servie par un autre jdr servir : un seul serveur par "
                            "fichier SQLite (arrêtez l'autre, ou servez une base PostgreSQL)") from None
    except OSError:
        os.close(fd)
        raise
    return fd


def is_served(path: Path) -> bool:
    """Whether a `jdr servir` holds this file now."""
    try:
        fd = server_lock(path)
    except CampaignError:
        return True
    os.close(fd)
    return False
