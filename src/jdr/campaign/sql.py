"""How a campaign talks to its database at run time: the DB-API, without SQLAlchemy.

SQLAlchemy and Alembic define the schema and migrate it (`jdr.campaign.schema`, the migrations,
`jdr campagne migrer`, a server's start); importing them costs more than a whole command may
(issue 18). Every command and every request talks to the base through this module:

- `Database(target)`: a SQLite file (`sqlite3`, standard library) or a PostgreSQL URL
  (`psycopg` 3, imported only for such a URL). A few idle connections are kept for reuse.
  SQLite: WAL, foreign keys, `synchronous=FULL`, a 60 s busy timeout, and every writing
  transaction opened with `BEGIN IMMEDIATE` (writers serialised, never a lost update);
  PostgreSQL: its default isolation (read committed), the campaign row locked `FOR UPDATE`.
- One parameter style everywhere, named `:x` (turned into `%(x)s` for psycopg).
- Values as SQLAlchemy stored them, so that either side reads the other's rows: JSON as text on
  SQLite (`json` on PostgreSQL), moments as `YYYY-MM-DD HH:MM:SS.ffffff` on SQLite (read back
  without time zone, as before; `timestamptz` on PostgreSQL), booleans as 0/1 on SQLite.
- `Record` and `Session`: rows as objects whose changed columns are written back before the
  next query and at the commit (what the code did with SQLAlchemy's ORM), one object per row in
  a transaction.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext, suppress
from datetime import datetime
from typing import Any, ClassVar, TypeVar

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
MAX_IDLE = 8
PING_AFTER = 30.0  # seconds: a PostgreSQL connection idle longer is checked before reuse
SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"

R = TypeVar("R", bound="Record")


def pg_conninfo(url: str) -> str:
    """The libpq address of a `postgresql[+driver]://…` URL (its query kept: `options=…`)."""
    scheme, sep, rest = url.partition("://")
    if not sep or not scheme.startswith("postgresql"):
        raise ValueError(url)
    return f"postgresql://{rest}"


def sqlite_path(url: str) -> str:
    """The file of a `sqlite:///…` URL (`sqlite:////abs` or `sqlite:///rel`)."""
    scheme, sep, rest = url.partition("://")
    if not sep or not scheme.startswith("sqlite"):
        raise ValueError(url)
    path = rest[1:] if rest.startswith("/") else rest
    return path.split("?", 1)[0]


class Database:
    """One campaign base: how to open a connection, and the connections kept idle."""

    def __init__(self, dialect: str, address: str, target: str) -> None:
        self.dialect = dialect  # "sqlite" | "postgresql"
        self.address = address  # the file (SQLite) or the libpq address
        self.target = target
        self.revision: str | None = None  # the schema revision read when it was identified
        self._idle: list[Connection] = []
        self._lock = threading.Lock()
        self._writers: dict[object, threading.RLock] = {}

    @classmethod
    def of(cls, target: str) -> Database:
        """A database for a campaign file, a `sqlite:///` URL or a `postgresql://` URL."""
        if "://" not in target:
            return cls("sqlite", target, target)
        if target.startswith("sqlite"):
            return cls("sqlite", sqlite_path(target), target)
        return cls("postgresql", pg_conninfo(target), target)

    @property
    def path(self) -> str:
        return self.address

    def _open(self) -> Connection:
        if self.dialect == "sqlite":
            import sqlite3

            raw = sqlite3.connect(self.address, timeout=60, isolation_level=None,
                                  check_same_thread=False)
            for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=60000",
                           "synchronous=FULL"):
                raw.execute(f"PRAGMA {pragma}")
            return SqliteConnection(raw)
        import psycopg

        return PgConnection(psycopg.connect(self.address, autocommit=False))

    def _checkout(self) -> Connection:
        while True:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                return self._open()
            if conn.usable() and conn.alive():
                return conn
            conn.close()

    def _checkin(self, conn: Connection) -> None:
        conn.released = time.monotonic()
        if conn.usable():
            with self._lock:
                if len(self._idle) < MAX_IDLE:
                    self._idle.append(conn)
                    return
        conn.close()

    def writer(self, key: object = None) -> threading.RLock | None:
        """The lock that writers of this process take before their transaction, or None.

        SQLite serialises every writer of a file (`BEGIN IMMEDIATE`): a second one waits in
        SQLite's busy handler, which sleeps 1 to 100 ms between tries, so that 16 concurrent
        writers spent most of their time asleep (p99 850 ms). Waiting on a lock of the process
        instead wakes the next writer as soon as the first commits; writers of other processes
        are still kept out by `BEGIN IMMEDIATE`. PostgreSQL: one lock per campaign (`key`), so
        that a campaign's writers queue here rather than each holding a connection blocked on
        `FOR UPDATE`; other campaigns are not held up."""
        if self.dialect == "sqlite":
            key = None
        elif key is None:
            return None
        with self._lock:
            found = self._writers.get(key)
            if found is None:
                found = self._writers[key] = threading.RLock()
            return found

    @contextmanager
    def begin(self, write: bool = True, key: object = None) -> Iterator[Connection]:
        """One transaction: committed at the end (rolled back on any error, or always when
        `write` is False). SQLite: a writing transaction starts `BEGIN IMMEDIATE`. A writing
        transaction first takes the process's `writer(key)` lock."""
        lock = self.writer(key) if write else None
        with lock or nullcontext(), self._transaction(write) as conn:
            yield conn

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[Connection]:
        conn = self._checkout()
        try:
            conn.begin(write)
            try:
                yield conn
            except BaseException:
                with suppress(Exception):  # the error itself is what the caller must see
                    conn.rollback()
                raise
            if write:
                conn.commit()
            else:
                conn.rollback()
        except BaseException:
            conn.close()
            raise
        self._checkin(conn)

    def dispose(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


class Connection:
    """A DB-API connection with named `:x` parameters and SQLAlchemy's value forms."""

    dialect: ClassVar[str]

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.released = time.monotonic()

    def begin(self, write: bool) -> None:
        raise NotImplementedError

    def commit(self) -> None:
        self.raw.commit()

    def rollback(self) -> None:
        self.raw.rollback()

    def close(self) -> None:
        with suppress(Exception):  # a broken connection: nothing more to release
            self.raw.close()

    def usable(self) -> bool:
        return True

    def alive(self) -> bool:
        """Whether the connection still answers (checked only after a long idle time)."""
        return True

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        raise NotImplementedError

    def all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.execute(sql, params).fetchall()]

    def one(self, sql: str, params: Mapping[str, Any] | None = None) -> tuple[Any, ...] | None:
        row = self.execute(sql, params).fetchone()
        return None if row is None else tuple(row)

    def scalar(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        row = self.one(sql, params)
        return None if row is None else row[0]

    # values read back --------------------------------------------------------------

    def json(self, value: Any) -> Any:
        return value

    def moment(self, value: Any) -> Any:
        return value

    def boolean(self, value: Any) -> Any:
        return value

    @property
    def for_update(self) -> str:
        return ""


class SqliteConnection(Connection):
    dialect = "sqlite"

    def begin(self, write: bool) -> None:
        self.raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    def commit(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("COMMIT")

    def rollback(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("ROLLBACK")

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        if not params:
            return self.raw.execute(sql)
        return self.raw.execute(sql, {k: _sqlite_value(v) for k, v in params.items()})

    def json(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str | bytes) else value

    def moment(self, value: Any) -> Any:
        return datetime.fromisoformat(value) if isinstance(value, str) else value

    def boolean(self, value: Any) -> Any:
        return None if value is None else bool(value)


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value)
    if isinstance(value, datetime):
        return value.strftime(SQLITE_TIME)
    return value


class PgConnection(Connection):
    dialect = "postgresql"

    def begin(self, write: bool) -> None:
        pass  # psycopg opens the transaction at the first statement

    def usable(self) -> bool:
        from psycopg.pq import TransactionStatus

        return not self.raw.closed and self.raw.info.transaction_status == TransactionStatus.IDLE

    def alive(self) -> bool:
        if time.monotonic() - self.released < PING_AFTER:
            return True
        try:
            self.raw.execute("SELECT 1")
            self.raw.rollback()
        except Exception:  # the server went away meanwhile: a new connection
            return False
        return True

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        if not params:
            return self.raw.execute(sql)
        from psycopg.types.json import Json

        converted = {k: Json(v) if isinstance(v, dict | list) else v for k, v in params.items()}
        return self.raw.execute(_pg_sql(sql), converted)

    @property
    def for_update(self) -> str:
        return " FOR UPDATE"


_PG_CACHE: dict[str, str] = {}


def _pg_sql(sql: str) -> str:
    found = _PG_CACHE.get(sql)
    if found is None:
        found = _NAMED.sub(r"%(\1)s", sql.replace("%", "%%"))
        if len(_PG_CACHE) < 4096:
            _PG_CACHE[sql] = found
    return found


def in_list(prefix: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
    """`(:p0, :p1, …)` and its parameters, for `col IN …`."""
    names = {f"{prefix}{i}": v for i, v in enumerate(values)}
    return "(" + ", ".join(f":{n}" for n in names) + ")", names


# ------------------------------------------------------------------------ rows as objects


class Record:
    """A row of one table; columns set after loading are written back by its `Session`."""

    TABLE: ClassVar[str]
    COLUMNS: ClassVar[tuple[str, ...]]  # "id" first
    JSON: ClassVar[frozenset[str]] = frozenset()
    MOMENTS: ClassVar[frozenset[str]] = frozenset()
    BOOLEANS: ClassVar[frozenset[str]] = frozenset()
    id: int
    _dirty: set[str]

    def __init__(self, **values: Any) -> None:
        unknown = set(values) - set(self.COLUMNS)
        if unknown:
            raise TypeError(f"{type(self).__name__}: {sorted(unknown)}")
        for column in self.COLUMNS:
            object.__setattr__(self, column, values.get(column))
        object.__setattr__(self, "_session", None)
        object.__setattr__(self, "_dirty", set())

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        session: Session | None = self.__dict__.get("_session")
        if session is not None and name in self.COLUMNS:
            self._dirty.add(name)
            session._changed[id(self)] = self

    @classmethod
    def select(cls) -> str:
        return f"SELECT {cls.column_list()} FROM {cls.TABLE}"

    @classmethod
    def column_list(cls) -> str:
        return ", ".join(_quoted(c) for c in cls.COLUMNS)


def _quoted(column: str) -> str:
    return f'"{column}"' if column in ("keys", "open") else column


class Session:
    """One transaction's rows: one object per row, changes written before each query."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.dialect = conn.dialect
        self._rows: dict[tuple[type[Record], int], Record] = {}
        self._changed: dict[int, Record] = {}
        self.writes = 0  # counts what may have changed rows: a result read before stays valid
        # while it is the same (`jdr.campaign.choices.brief`)
        self.written: dict[str, int] = {}  # the same, per table written through rows
        self.raw_writes = 0  # statements of one's own (`execute`): any table may have changed

    def version(self, tables: tuple[str, ...] | None = None) -> Any:
        """What changes when a result read from `tables` (None: from any table) may change:
        equal before and after, the result still holds. The rows changed meanwhile are written
        first when they belong to one of `tables` (to any table when None)."""
        if tables is None:
            self.flush()
            return self.writes
        if any(row.TABLE in tables for row in self._changed.values()):
            self.flush()
        return (self.raw_writes, *(self.written.get(t, 0) for t in tables))

    def flush(self, table: str | None = None) -> None:
        """Write the changed rows back (only those of `table` when given)."""
        if table is not None:
            changed = [k for k, row in self._changed.items() if table == row.TABLE]
            rows = [self._changed.pop(k) for k in changed]
        else:
            rows, self._changed = list(self._changed.values()), {}
        if rows:
            self.writes += 1
        for row in rows:
            columns = sorted(row._dirty)
            row._dirty.clear()
            if not columns:
                continue
            self.written[row.TABLE] = self.written.get(row.TABLE, 0) + 1
            sets = ", ".join(f"{_quoted(c)} = :{c}" for c in columns)
            self.conn.execute(f"UPDATE {row.TABLE} SET {sets} WHERE id = :id",
                              {**{c: getattr(row, c) for c in columns}, "id": row.id})

    def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        self.flush()
        self.writes += 1
        self.raw_writes += 1
        return self.conn.execute(sql, params)

    def all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]:
        self.flush()
        return self.conn.all(sql, params)

    def scalar(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        self.flush()
        return self.conn.scalar(sql, params)

    def scalars(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Any]:
        return [r[0] for r in self.all(sql, params)]

    def rows(self, cls: type[R], where: str = "", params: Mapping[str, Any] | None = None,
             tail: str = "") -> list[R]:
        """The rows of `cls` matching `where` (SQL with `:x` parameters), then `tail`."""
        sql = cls.select() + (f" WHERE {where}" if where else "") + (f" {tail}" if tail else "")
        return [self._row(cls, raw) for raw in self.all(sql, params)]

    def first(self, cls: type[R], where: str = "", params: Mapping[str, Any] | None = None,
              tail: str = "") -> R | None:
        found = self.rows(cls, where, params, tail)
        return found[0] if found else None

    def get(self, cls: type[R], ident: int) -> R | None:
        known = self._rows.get((cls, ident))
        if known is not None:
            return known  # type: ignore[return-value]
        return self.first(cls, "id = :id", {"id": ident})

    def row_of(self, cls: type[R], raw: Sequence[Any]) -> R:
        """The object of a row read by a query of one's own (`cls.select()`'s columns first)."""
        self.flush()
        return self._row(cls, raw)

    def _row(self, cls: type[R], raw: Sequence[Any]) -> R:
        known = self._rows.get((cls, raw[0]))
        if known is not None:
            return known  # type: ignore[return-value]
        row = cls.__new__(cls)
        conn = self.conn
        for column, value in zip(cls.COLUMNS, raw, strict=True):
            if value is not None:
                if column in cls.JSON:
                    value = conn.json(value)
                elif column in cls.MOMENTS:
                    value = conn.moment(value)
                elif column in cls.BOOLEANS:
                    value = conn.boolean(value)
            object.__setattr__(row, column, value)
        object.__setattr__(row, "_dirty", set())
        object.__setattr__(row, "_session", self)
        self._rows[(cls, row.id)] = row
        return row

    def add(self, row: Record, also: str = "", params: Mapping[str, Any] | None = None) -> None:
        """Insert `row` now; its `id` is set. `also`: more to compute in the same statement
        (`, pg_notify(:channel, :payload)`), with its `params`. The changed rows of the same
        table are written first (a key freed by one of them may be the new row's); those of
        other tables wait for the next query or the commit (an action changes its campaign's
        row, a sheet, then inserts its entry: one write of each per batch of actions, not one
        per action — `jdr.web.batch`)."""
        self.flush(row.TABLE)
        self.writes += 1
        self.written[row.TABLE] = self.written.get(row.TABLE, 0) + 1
        columns = [c for c in row.COLUMNS if c != "id"]
        names = ", ".join(_quoted(c) for c in columns)
        values = ", ".join(f":{c}" for c in columns)
        ident = self.conn.scalar(
            f"INSERT INTO {row.TABLE} ({names}) VALUES ({values}) RETURNING id{also}",
            {**{c: getattr(row, c) for c in columns}, **(params or {})})
        object.__setattr__(row, "id", int(ident))
        object.__setattr__(row, "_session", self)
        self._rows[(type(row), row.id)] = row

    def delete(self, row: Record) -> None:
        self.flush()
        self.writes += 1
        self.written[row.TABLE] = self.written.get(row.TABLE, 0) + 1
        self.conn.execute(f"DELETE FROM {row.TABLE} WHERE id = :id", {"id": row.id})
        self._rows.pop((type(row), row.id), None)
        self._changed.pop(id(row), None)
        object.__setattr__(row, "_session", None)
