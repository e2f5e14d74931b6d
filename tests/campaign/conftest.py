"""Campaign tests run against both databases, for real: a SQLite file and PostgreSQL.

PostgreSQL is expected at 127.0.0.1:5432 (trust auth, database `test`; override with
`JDR_TEST_PG`). Each test gets its own schema, dropped afterwards. If the server is down the
tests fail (they never skip): start it with
`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

PG = os.environ.get("JDR_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _pg_admin() -> str:
    return PG.replace("postgresql+psycopg://", "postgresql://")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where to create a campaign: a `.jdr` file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "essai.jdr")
        return
    import psycopg

    schema = f"jdr_t_{secrets.token_hex(6)}"
    with psycopg.connect(_pg_admin(), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(_pg_admin(), autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
