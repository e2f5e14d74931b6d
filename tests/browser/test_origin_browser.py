"""Actions from another origin (issue 16, item 1), in a real Chromium: the MJ, entered at the
table, visits a page served on another port of 127.0.0.1 (the same site for the browser, so its
SameSite=Strict cookie goes along). That page tries the four attacks — change a character's
health, make a journaled roll, revoke a player's token, open the pages' live channel and read the
journal — and each is refused; the table's own pages still do all four."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import Site, enter
from playwright.sync_api import expect
from web_support import free_port

POST = """async ([url, body]) => {
  try {
    await fetch(url, {method: 'POST', credentials: 'include', mode: 'no-cors',
      headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: body});
  } catch (e) {}
}"""
READ_LIVE = """(url) => new Promise((done) => {
  const got = [];
  let ws;
  try { ws = new WebSocket(url); } catch (e) { done({opened: false, got: got}); return; }
  let opened = false;
  ws.onopen = () => { opened = true; };
  ws.onmessage = (e) => {  // the MJ's secret 3d7 read: enough
    got.push(e.data);
    if (e.data.includes('3d7')) { ws.close(); done({opened: opened, got: got}); }
  };
  ws.onclose = () => done({opened: opened, got: got});
  setTimeout(() => { try { ws.close(); } catch (e) {} done({opened: opened, got: got}); }, 1500);
})"""


@pytest.fixture(scope="module")
def foreign() -> Iterator[str]:
    """A page of another origin: another port of 127.0.0.1."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"<!doctype html><title>Ailleurs</title><p>Une autre page.</p>")

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def state(site: Site) -> tuple[str, int, bool]:
    """(the goblin's sheet, journal length, Lise revoked)."""
    goblin = json.dumps(site.api("GET", "/personnages/Gobelin"), sort_keys=True)
    members = site.api("GET", "/membres")
    return goblin, len(site.api("GET", "/journal")), any(
        m["nom"] == "Lise" and m["revoque"] for m in members)


def test_four_attacks_from_another_origin_refused_own_pages_do_all_four(
        browser: Any, site: Site, foreign: str) -> None:
    site.api("POST", "/actions", json={"type": "roll", "params": {"expression": "3d7"},
                                       "visibilite": "mj"})
    lise = next(m["id"] for m in site.api("GET", "/membres") if m["nom"] == "Lise")
    mj = enter(browser, site, site.mj)
    base = f"{site.url}/tables/{site.table}"
    live = f"{site.url.replace('http', 'ws')}/tables/{site.table}/direct?depuis=0"

    mj.goto(foreign)
    before = state(site)
    mj.evaluate(POST, [f"{base}/f/jet", "type=sante&personnage=Gobelin&valeur=-5"])
    mj.evaluate(POST, [f"{base}/f/jet", "type=roll&expression=1d6&visibilite=public"])
    mj.evaluate(POST, [f"{base}/membres/{lise}/revoquer", ""])
    read = mj.evaluate(READ_LIVE, live)
    assert state(site) == before
    assert read == {"opened": False, "got": []}
    # a plain form sent from there (a top-level navigation) gets the French refusal
    mj.set_content(f'<form method="post" action="{base}/f/jet"><input name="type" value="roll">'
                   '<input name="expression" value="1d6"><button>go</button></form>')
    mj.click("button")
    expect(mj.locator("body")).to_contain_text("ne vient pas des pages de cette table")
    assert state(site) == before

    # the table's own pages: the same four
    mj.goto(base)
    expect(mj.locator("#direct")).to_have_text("en direct")
    mj.select_option("#type", "roll")  # the roll box: free notation
    expect(mj.locator("#expression")).to_be_visible()
    mj.fill("#expression", "2d6")
    mj.click("#jets button[type=submit]")
    expect(mj.locator("#jet-resultat .ok")).to_be_visible()
    expect(mj.locator("#journal li.entree").last).to_contain_text("2d6")  # came by the channel
    status = mj.evaluate("""async (url) => (await fetch(url, {method: 'POST',
        headers: {'Content-Type': 'application/x-www-form-urlencoded', 'X-JDR-CSRF': window.jdrCsrf},
        body: 'type=sante&personnage=Gobelin&valeur=-5'})).status""", f"{base}/f/jet")
    assert status == 200
    own = mj.evaluate(READ_LIVE, live)
    assert own["opened"] and any("3d7" in m for m in own["got"])
    mj.goto(f"{base}/membres")
    mj.locator("table.membres tr", has_text="Lise").locator("button").click()
    expect(mj.locator(".message.ok")).to_contain_text("Lien révoqué")
    goblin, entries, revoked = state(site)
    assert goblin != before[0] and entries == before[1] + 2 and revoked
    mj.context.close()
