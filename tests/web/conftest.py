"""Web tests run against both databases, for real: a SQLite file and PostgreSQL.

PostgreSQL is expected at 127.0.0.1:5432 (trust auth, database `test`; override with
`JDR_TEST_PG`). Each test gets its own schema, dropped afterwards. If the server is down the
tests fail (they never skip): start it with
`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import pg_schema

sys.path.append(str(Path(__file__).parent))

@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where the server keeps its tables: a `.jdr` file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "tables.jdr")
        return
    with pg_schema("jdr_w") as url:
        yield url


@pytest.fixture
def pg_target() -> Iterator[str]:
    """PostgreSQL only (several server processes share it)."""
    with pg_schema("jdr_w") as url:
        yield url
