"""Shared fixtures: the seed's characters as sheets; how the suite runs on both cores.

How a new test stays cheap (the whole `make test` must stay under 3 minutes on two cores):
- `make test` runs `pytest -n 2 --dist worksteal` (pytest-xdist): tests are shared between two
  worker processes and a worker that runs out steals from the other, so no long module is left
  alone at the end (measured on two idle cores: 150 s against 189 s with `--dist loadscope`). A
  module's fixtures may therefore start once in each worker: keep them cheap, and share what is
  costly at the session level (one Chromium, one server per worker). Use `tmp_path` (never a
  fixed path), `free_port()` (never a fixed port),
  `helpers.pg_schema` / the `db_target` fixtures (a fresh PostgreSQL schema per test),
  `monkeypatch` for the environment and the working folder.
- A page test takes the `browser` fixture (one Chromium per worker, for the whole run) and
  `server` or `site` (one `jdr servir` per worker, shared: make your own table with `new_site`).
  Wait with Playwright's `expect(...)` (it retries), never `time.sleep`; to prove something did
  NOT arrive, send something after it and wait for that (the live channel keeps the order).
- Calls to a real server over HTTP go through `web_support.http()` (one client per process):
  `httpx.get(url)` makes a client each time, which loads the CA certificates (20 ms of CPU).
- The folders run in the order of `FIRST` below (processes and browsers first, small tests
  last): put a test of several seconds in one of those folders, not among the rule tests.
- The web API in process (`web_support.in_process`) costs milliseconds; a real server
  (`live_server`) about a second. A test that needs a real process but not a fresh one (live
  channels, WebSockets) takes `shared_live` (tests/web/conftest.py: one server per database and
  worker; `make_table` gives each table a new name). Start your own only when the process is
  the point (signals, two processes, limits set by the environment).
- The CLI in process (`helpers.cli`) costs milliseconds; a subprocess of `jdr` about a second:
  spawn one only when the process is the point (exit code of the entry point, kill -9, closed
  stdout, locale).
- Long loops (hundreds of kills, thousands of hypothesis examples) go to `benchmarks/`.
- Check with `pytest --durations=20 tests/ton_module.py`: a test over a second needs a reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from sheets_data import ELFE_YAML, NAIN_YAML


@pytest.fixture
def nain() -> dict[str, Any]:
    from jdr.systems.cydonia.demo import NAIN_A

    return copy.deepcopy(NAIN_A)


@pytest.fixture
def elfe() -> dict[str, Any]:
    from jdr.systems.cydonia.demo import ELFE_B

    return copy.deepcopy(ELFE_B)


@pytest.fixture
def sheets(tmp_path: Path) -> tuple[Path, Path]:
    a = tmp_path / "nain.yaml"
    b = tmp_path / "elfe.yaml"
    a.write_text(NAIN_YAML, encoding="utf-8")
    b.write_text(ELFE_YAML, encoding="utf-8")
    return a, b


# The run's order, folder by folder: the tests that hold processes and browsers (seconds each)
# first, the thousand small rule tests last. `--dist worksteal` gives each worker half of this
# list and a worker that runs out takes the end of the other's: the run then ends on tests of a
# few milliseconds on both workers, never on a long one started late while the other waits.
FIRST = ("browser", "web", "cli", "campaign", "sim", "core")
TESTS = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        folder = item.path.relative_to(TESTS).parts[0]
        return FIRST.index(folder) if folder in FIRST else len(FIRST)

    items.sort(key=rank)  # stable: the order inside a folder (and a module) is kept


@contextlib.contextmanager
def _lifted(item: pytest.Item) -> Iterator[None]:
    """Playwright's sync API (one browser per worker, kept for the whole run) marks its event
    loop as running in this thread between its calls; a test that runs its own loop (anyio,
    `asyncio.run`) runs with that mark lifted, and it is put back afterwards for the browser."""
    if "browser" in getattr(item, "fixturenames", ()):
        yield
        return
    loop = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    with _lifted(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    with _lifted(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Generator[None, object, object]:
    """An async fixture (anyio) ends here, on its own loop too."""
    with _lifted(item):
        return (yield)

