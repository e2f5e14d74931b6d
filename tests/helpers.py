"""Test helpers: the CLI run in process, and golden outputs.

Golden files live in `tests/golden/<system>/<name>`; `JDR_UPDATE_GOLDEN=1 pytest` rewrites them
(then read the diff before committing it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent / "golden"

# PostgreSQL for the tests that run on both databases: 127.0.0.1:5432, trust auth, database
# `test` (override with JDR_TEST_PG). Down → those tests fail, never skip.
PG = os.environ.get("JDR_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@contextlib.contextmanager
def pg_schema(prefix: str = "jdr_t") -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped afterwards: its SQLAlchemy URL."""
    import secrets

    import psycopg

    admin = PG.replace("postgresql+psycopg://", "postgresql://")
    schema = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def cli(*args: str | Path) -> Run:
    """`jdr ARGS...` in this process (stdout is not a terminal: plain text)."""
    from jdr.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return Run(code, out.getvalue(), err.getvalue())


def ok(*args: str | Path) -> Run:
    run = cli(*args)
    assert run.code == 0, f"jdr {' '.join(map(str, args))} → {run.code}\n{run.err}{run.out}"
    return run


def golden(relative: str, actual: str) -> None:
    """Compare `actual` with the golden file (or write it under JDR_UPDATE_GOLDEN=1)."""
    path = GOLDEN / relative
    if os.environ.get("JDR_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"golden absent : {path} (JDR_UPDATE_GOLDEN=1 pour le créer)"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"sortie différente de {path}"
