"""Web tests run against both databases, for real: a SQLite file and PostgreSQL.

PostgreSQL is expected at 127.0.0.1:5432 (trust auth, database `test`; override with
`JDR_TEST_PG`). Each test gets its own schema, dropped afterwards. If the server is down the
tests fail (they never skip): start it with
`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).parent))

PG = os.environ.get("JDR_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _pg_admin() -> str:
    return PG.replace("postgresql+psycopg://", "postgresql://")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped afterwards: its SQLAlchemy URL."""
    import psycopg

    schema = f"jdr_w_{secrets.token_hex(6)}"
    with psycopg.connect(_pg_admin(), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(_pg_admin(), autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where the server keeps its tables: a `.jdr` file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "tables.jdr")
        return
    with pg_schema() as url:
        yield url


@pytest.fixture
def pg_target() -> Iterator[str]:
    """PostgreSQL only (several server processes share it)."""
    with pg_schema() as url:
        yield url
