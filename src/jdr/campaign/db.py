"""Where a campaign lives and how we talk to it: a SQLite file (default) or a PostgreSQL URL.

- `find_target`: `--campagne` (a file or a URL), then `JDR_CAMPAGNE`, then the only `*.jdr` file
  of the current folder.
- `database_for`: the run-time handle (`jdr.campaign.sql.Database`, the DB-API: `sqlite3` or
  `psycopg`, never SQLAlchemy), with writers serialised per campaign: SQLite `BEGIN IMMEDIATE`
  (WAL, busy timeout), PostgreSQL a row lock on the campaign (see `store.py`).
- `engine_for` / `migrate`: SQLAlchemy and Alembic, the schema's definition and its migrations,
  run only on creation, at a server's start and by `jdr campagne migrer`; opening a campaign
  costs one query for the schema version (no Alembic, no SQLAlchemy). A file that is not a
  campaign (identified read-only first, `jdr.campaign.identity`), or a campaign of a newer
  schema, is a clear French error.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jdr.campaign.identity import APPLICATION_ID, SQLITE_MAGIC, VERSION_TABLE, CampaignError
from jdr.campaign.identity import head as _head
from jdr.campaign.identity import revisions as _revisions
from jdr.core.place import SUFFIX as SUFFIX  # where it is decided without this layer
from jdr.core.place import campaign_files

if TYPE_CHECKING:
    from jdr.campaign.sql import Database

__all__ = ["SQLITE_MAGIC", "VERSION_TABLE", "CampaignError"]


def is_url(target: str) -> bool:
    return "://" in target


def find_target(explicit: str | None, folder: Path | None = None) -> str:
    """The campaign asked for: `--campagne`, then `JDR_CAMPAGNE`, then the only `*.jdr` here."""
    if explicit:
        return explicit
    env = os.environ.get("JDR_CAMPAGNE")
    if env:
        return env
    found = campaign_files(folder)
    if len(found) == 1:
        return str(found[0])
    if not found:
        raise CampaignError("aucune campagne : donnez --campagne FICHIER|URL, ou JDR_CAMPAGNE, "
                            f"ou placez-vous dans le dossier d'un fichier {SUFFIX}")
    names = ", ".join(p.name for p in found)
    raise CampaignError(f"plusieurs campagnes dans ce dossier ({names}) : choisissez avec --campagne")


def split_target(target: str) -> tuple[str, str | None]:
    """`URL#NOM` names one campaign of a database holding several."""
    if is_url(target) and "#" in target:
        url, name = target.rsplit("#", 1)
        return url, name or None
    return target, None


def _sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"


def check_sqlite_file(path: Path, must_exist: bool, integrity: bool | None = None) -> str | None:
    """A campaign file must be one of ours, identified read-only (`identity.identify`) before
    anything writes to it; say so in French otherwise. Its schema revision (None: no file yet)."""
    if not path.exists():
        if must_exist:
            raise CampaignError(f"campagne introuvable : {path}")
        folder = path.resolve().parent
        if not folder.is_dir():
            raise CampaignError(f"dossier introuvable pour la campagne : {folder}")
        if not os.access(folder, os.W_OK):
            raise CampaignError(f"dossier en lecture seule : {folder}")
        return None
    from jdr.campaign.identity import identify

    return identify(path, integrity)


def database_for(target: str, must_exist: bool = True, integrity: bool | None = None) -> Database:
    """The run-time handle of a campaign file (identified first) or URL: the DB-API only."""
    from jdr.campaign.sql import Database, sqlite_path

    if is_url(target):
        if not target.startswith(("postgresql", "sqlite")):
            raise CampaignError("base non prise en charge : postgresql+psycopg://… ou un fichier .jdr")
        if target.startswith("sqlite"):
            path = sqlite_path(target)
            if path in ("", ":memory:"):
                raise CampaignError("base non prise en charge : une campagne SQLite est un fichier")
            db = Database("sqlite", str(Path(path).resolve()), target)
            db.revision = check_sqlite_file(Path(path), must_exist, integrity)  # identified first
            return db
        scheme = target.split("://", 1)[0]
        if scheme not in ("postgresql", "postgresql+psycopg"):
            raise CampaignError("adresse de base invalide : postgresql+psycopg://UTILISATEUR@HÔTE/BASE")
        return Database.of(target)
    file = Path(target)
    revision = check_sqlite_file(file, must_exist, integrity)
    db = Database("sqlite", str(file.resolve()), target)
    db.revision = revision
    return db


def engine_for(target: str, must_exist: bool = True, integrity: bool | None = None) -> Any:
    """A SQLAlchemy engine for a campaign file (identified first) or URL: only for the
    migrations (creation, `jdr campagne migrer`, a server's start) and the tests."""
    from sqlalchemy import create_engine, event

    if is_url(target):
        if not target.startswith(("postgresql", "sqlite")):
            raise CampaignError("base non prise en charge : postgresql+psycopg://… ou un fichier .jdr")
        try:
            engine = create_engine(target, pool_pre_ping=True)
        except Exception as exc:  # bad URL syntax, unknown driver
            raise CampaignError(f"adresse de base invalide ({type(exc).__name__})") from None
        if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            check_sqlite_file(Path(engine.url.database), must_exist, integrity)  # identified first
        return engine
    path = Path(target)
    check_sqlite_file(path, must_exist, integrity)
    engine = create_engine(_sqlite_url(path), connect_args={"timeout": 60})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _alembic_config(connection: Any) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    return _head()


def current_revision(connection: Any) -> str | None:
    from alembic.runtime.migration import MigrationContext

    ctx = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
    return ctx.get_current_revision()


def known_revisions() -> set[str]:
    return set(_revisions())


def migrate(base: Any, revision: str = "head") -> None:
    """Create or upgrade the schema (Alembic), refusing a schema newer than this jdr. `base`:
    a SQLAlchemy engine, or a run-time `Database` (an engine is made for the migration only)."""
    from alembic import command

    from jdr.campaign.sql import Database

    if isinstance(base, Database):
        engine = engine_for(base.target if base.dialect == "postgresql" else base.path,
                            must_exist=False, integrity=False)
        try:
            migrate(engine, revision)
        finally:
            engine.dispose()
        return
    engine = base
    with engine.begin() as connection:
        current = current_revision(connection)
        if current is not None and current not in known_revisions():
            raise CampaignError(
                f"cette campagne a un schéma plus récent ({current}) que ce jdr ne connaît : "
                "mettez jdr à jour")
        command.upgrade(_alembic_config(connection), revision)
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")


def schema_revision(db: Database) -> str:
    """The schema revision of an existing campaign base (one query), or a French error."""
    from jdr.campaign.identity import check_revision

    try:
        with db.begin(write=False) as connection:
            revision = connection.scalar(f"SELECT version_num FROM {VERSION_TABLE}")
    except Exception as exc:
        if _driver_error(exc) is None:
            raise
        text = str(exc)
        if VERSION_TABLE in text or "no such table" in text or "does not exist" in text:
            raise CampaignError("cette base n'est pas une campagne jdr (aucune table jdr) : "
                                "créez-la avec jdr campagne nouvelle") from None
        raise
    return check_revision(revision)


def check_schema(db: Database) -> None:
    """An existing campaign: the current schema, or a French error (an older one asks for
    `jdr campagne migrer`, a newer one for a newer jdr). SQLite: the revision `identify` read
    when the base was opened (read-only, without taking the write lock), or read again."""
    from jdr.campaign.identity import identify, require_head

    if db.dialect == "sqlite":
        require_head(db.revision if db.revision is not None else identify(Path(db.path)))
        return
    require_head(schema_revision(db))


def _driver_error(exc: BaseException) -> str | None:
    """« operational », « database » or None: what a DB-API error of `sqlite3` or `psycopg`
    (or SQLAlchemy's wrapping of one, during a migration) is."""
    kind = type(exc)
    module = kind.__module__.split(".", 1)[0]
    if module not in ("sqlite3", "psycopg", "sqlalchemy"):
        return None
    names = {k.__name__ for k in kind.__mro__}
    if "OperationalError" in names:
        return "operational"
    if "DatabaseError" in names:
        return "database"
    return None


@contextmanager
def translated_errors() -> Iterator[None]:
    """Database errors a person can meet, in French (connection refused, locked, ...)."""
    try:
        yield
    except Exception as exc:
        kind = _driver_error(exc)
        if kind is None:
            raise
        orig = getattr(exc, "orig", None)
        text = str(orig) if orig is not None else str(exc)
        if kind == "database":
            if "file is not a database" in text:
                raise CampaignError("ce fichier n'est pas une campagne jdr (base SQLite illisible)") from None
            if "malformed" in text:
                raise CampaignError("campagne endommagée (base SQLite corrompue) : restaurez une "
                                    "sauvegarde (jdr campagne restaurer)") from None
            raise
        if "file is not a database" in text or "file is encrypted" in text:
            raise CampaignError("ce fichier n'est pas une campagne jdr (base SQLite illisible)") from None
        if "malformed" in text:
            raise CampaignError("campagne endommagée (base SQLite corrompue) : restaurez une "
                                "sauvegarde (jdr campagne restaurer)") from None
        if "database is locked" in text:
            raise CampaignError("campagne occupée par un autre processus depuis trop longtemps ; "
                                "réessayez") from None
        if "readonly" in text or "read-only" in text:
            raise CampaignError("campagne en lecture seule : impossible d'écrire") from None
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        raise CampaignError(f"base de données injoignable ou refusée ({first[:160]})") from None


def _revision_or_none(db: Database) -> str | None:
    """The schema revision of a PostgreSQL base (one query); None when it has no jdr tables yet."""
    try:
        return schema_revision(db)
    except CampaignError:
        return None


def open_for_server(target: str) -> tuple[Database, int | None]:
    """A `jdr servir`'s base: identified and wholly checked (`quick_check`) if it exists, locked
    for the server's life (a second server on one SQLite file is refused), migrated to the
    current schema (created if absent). Returns the base and the lock's fd (SQLite only).
    A base already at the current schema (a restart, a second server) costs one query, no
    Alembic (about 0.4 s of CPU at a server's start)."""
    import os as _os

    from jdr.campaign.identity import server_lock

    if is_url(target):
        db = database_for(target, must_exist=False)
        current = db.revision if db.dialect == "sqlite" else _revision_or_none(db)
        if current != head_revision():
            migrate(db)
        return db, None
    path = Path(target)
    existed = path.exists()
    lock = None
    if existed:
        check_sqlite_file(path, must_exist=True, integrity=True)
        lock = server_lock(path)
    try:
        db = database_for(target, must_exist=False)
        if db.revision != head_revision():  # read by `identify`; None: a new file
            migrate(db)
        if lock is None:
            lock = server_lock(path)
    except BaseException:
        if lock is not None:
            _os.close(lock)
        raise
    return db, lock
