"""Helpers of the browser tests: Playwright for Python driving Debian's chromium.

The server is the real one (`python -m jdr.web.serve` on a SQLite file, loopback port); the
browser is Debian's `/usr/bin/chromium-headless-shell` (the same Chromium without its window
code: about a quarter less CPU for these tests), else `/usr/bin/chromium`, or `JDR_CHROMIUM`.
Without one the tests FAIL: `make test` installs it (`apt-get install -y chromium-headless-shell`).
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).parents[1] / "web"))

from web_support import ELFE_YAML, GOBELIN_YAML, NAIN_YAML, http

SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("JDR_CHROMIUM", SHELL if Path(SHELL).is_file() else "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
ARTIFACTS = Path(__file__).parent / "artifacts"
COUNTER = itertools.count(1)


@dataclass
class Site:
    url: str
    table: int
    mj: str
    player: str
    player_name: str = "Lise"

    def api(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        headers = {"Authorization": f"Bearer {token or self.mj}"}
        r = http().request(method, f"{self.url}/api/tables/{self.table}{path}", headers=headers,
                          timeout=10, **kw)
        assert r.status_code < 300, r.text
        return r.json() if "json" in r.headers.get("content-type", "") else r.text

    def link(self, token: str) -> str:
        return f"{self.url}/table/{self.table}#jeton={token}"


def new_site(url: str) -> Site:
    """A Cydonia table: Lise plays Nain A; Elfe B and Gobelin are the MJ's."""
    r = http().post(f"{url}/api/tables", json={"nom": f"La Marche {next(COUNTER)}", "systeme": "cydonia"},
                   timeout=10)
    assert r.status_code == 201, r.text
    table, mj = r.json()["id"], r.json()["jeton"]
    site = Site(url, table, mj, "")
    site.player = site.api("POST", "/invitations", json={"role": "joueur", "nom": "Lise"})["jeton"]
    site.api("POST", "/personnages", json={"yaml": NAIN_YAML, "joueur": "Lise"})
    site.api("POST", "/personnages", json={"yaml": ELFE_YAML})
    site.api("POST", "/personnages", json={"yaml": GOBELIN_YAML})
    return site


def enter(browser: Any, site: Site, token: str, width: int = 1280) -> Any:
    """A new browser context entering the table by its invitation link; its page."""
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="fr-FR")
    page = context.new_page()
    page.goto(site.link(token))
    page.wait_for_url(f"{site.url}/tables/{site.table}")
    return page


def grown(site: Site, seq: int) -> None:
    """Wait until the journal has an entry after `seq` (the action clicked is committed); as
    long as Playwright's `expect` waits (a loaded machine)."""
    deadline = time.monotonic() + 20
    while site.api("GET", "/journal")[-1]["seq"] <= seq:
        assert time.monotonic() < deadline, "l'action n'a rien journalisé"
        time.sleep(0.05)
