"""Campaign tests run against both databases, for real: a SQLite file and PostgreSQL.

PostgreSQL is expected at 127.0.0.1:5432 (trust auth, database `test`; override with
`JDR_TEST_PG`). Each test gets its own schema, dropped afterwards. If the server is down the
tests fail (they never skip): start it with
`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import pg_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where to create a campaign: a `.jdr` file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield str(tmp_path / "essai.jdr")
        return
    with pg_schema("jdr_t") as url:
        yield url
