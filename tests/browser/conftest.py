"""Browser tests: Playwright for Python driving Debian's chromium (see `browser_support`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.append(str(Path(__file__).parent))

from browser_support import ARGS, CHROMIUM, Site, new_site
from web_support import live_server


@pytest.fixture(scope="session")  # one per worker; tests/conftest.py keeps it off async tests
def browser() -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)  # a loaded machine; a timing that is the rule says its own

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"chromium introuvable ({CHROMIUM}) : apt-get install -y chromium-headless-shell")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")  # one per worker, shared: each test makes its own table
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("pages") / "tables.jdr"
    with live_server(str(db)) as live:
        yield live.url


@pytest.fixture
def site(server: str) -> Site:
    return new_site(server)
