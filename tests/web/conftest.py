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

from web_support import Live, live_server


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


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def shared_live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """A real server (`jdr servir` in its own process) on each database, one per xdist worker and
    shared by the tests that need a real process but not a fresh one: each makes its own table."""
    if request.param == "sqlite":
        with live_server(str(tmp_path_factory.mktemp("partage") / "tables.jdr")) as live:
            yield live
        return
    with pg_schema("jdr_w") as url, live_server(url) as live:
        yield live
