"""The pages' guard against other sites (issue 16, item 1), request by request: `Origin`,
`Sec-Fetch-Site`, the session's CSRF token; the API and the reads untouched; `--origine` behind a
reverse proxy. (The same attacks from a real browser are in tests/browser/test_origin_browser.py.)"""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest
from web_support import GOBELIN_YAML, UNLIMITED, add_character, bearer, in_process, make_table

from jdr.errors import RuleError
from jdr.web.app import create_app
from jdr.web.origin import check_origin_option, csrf_token

pytestmark = pytest.mark.anyio
FOREIGN = "requête refusée : elle ne vient pas des pages de cette table"


async def test_cookie_requests_need_own_origin_and_token(tmp_path: object) -> None:
    async with in_process(str(tmp_path) + "/t.jdr") as client:
        table = await make_table(client)
        await add_character(client, table, table.mj, GOBELIN_YAML)
        client.cookies.set(f"jdr_{table.id}", table.mj)
        url = f"/tables/{table.id}/f/jet"
        form = {"type": "roll", "expression": "1d6"}  # the declared roll box (issue 15)
        token = {"X-JDR-CSRF": csrf_token(table.mj)}
        cases = [
            ({"Origin": "http://127.0.0.1:9999", **token}, 403,
             FOREIGN + " (origine « http://127.0.0.1:9999 »)"),
            ({"Origin": "null", **token}, 403, FOREIGN),
            ({"Sec-Fetch-Site": "same-site", **token}, 403, FOREIGN),
            ({"Sec-Fetch-Site": "cross-site", "Origin": "http://jdr.test", **token}, 403, FOREIGN),
            ({"Origin": "http://jdr.test"}, 403, "jeton de formulaire absent ou périmé"),
            ({"Origin": "http://jdr.test", "X-JDR-CSRF": csrf_token("autre")}, 403, "périmé"),
            ({"Origin": "http://jdr.test", "Sec-Fetch-Site": "same-origin", **token}, 200, "N° 1 :"),
            ({"HX-Request": "true", **token}, 200, "N° 2 :"),
        ]
        for headers, status, text in cases:
            r = await client.post(url, data=form, headers=headers)
            assert (r.status_code, text in r.text) == (status, True), (headers, r.text)
            assert "text/html" in r.headers["content-type"]
        # a plain form: the token as the `_csrf` field; the refusal is a French page
        r = await client.post(url, data={**form, "_csrf": csrf_token(table.mj)})
        assert r.status_code == 200 and "N° 3 :" in r.text
        r = await client.post(url, data={**form, "_csrf": "faux"})
        assert r.status_code == 403 and "<h1>Refusé</h1>" in r.text
        # the page's own token is in its <meta>, reads need none
        page = await client.get(f"/tables/{table.id}", headers={"Sec-Fetch-Site": "cross-site"})
        assert f'<meta name="jdr-csrf" content="{csrf_token(table.mj)}">' in page.text
        client.cookies.clear()
        # without the cookie: no session to protect, the route's own 401 (and the origin checked)
        r = await client.post(url, data=form)
        assert r.status_code == 401
        r = await client.post("/entrer", data={"table": str(table.id), "jeton": table.mj},
                              headers={"Origin": "http://evil.test"})
        assert r.status_code == 403 and "set-cookie" not in r.headers
        # the API: a Bearer token, no origin check
        r = await client.post(f"/api/tables/{table.id}/actions", headers={
            **bearer(table.mj), "Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"},
            json={"type": "roll", "params": {"expression": "1d6"}})
        assert r.status_code == 200 and r.json()["seq"] == 4


async def test_reverse_proxy_origins(tmp_path: object) -> None:
    app = create_app(str(tmp_path) + "/t.jdr", None, True, ["https://table.exemple.org"],
                     UNLIMITED)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        table = await make_table(client)
        client.cookies.set(f"jdr_{table.id}", table.mj)
        token = {"X-JDR-CSRF": csrf_token(table.mj)}
        url = f"/tables/{table.id}/f/jet"
        form = {"type": "roll", "expression": "1d6"}  # the declared roll box (issue 15)
        r = await client.post(url, data=form, headers={"Origin": "https://Table.Exemple.org:443",
                                                        **token})
        assert r.status_code == 200
        r = await client.post(url, data=form, headers={"Origin": "http://127.0.0.1:8000", **token})
        assert r.status_code == 403  # only the public origin once it is given
    app.state.server.dispose()
    assert check_origin_option("HTTPS://Table.exemple.org/") == "https://table.exemple.org"
    with pytest.raises(RuleError, match="schéma, nom et port éventuel, sans chemin"):
        check_origin_option("table.exemple.org/jdr")


def test_serve_refuses_a_bad_origin_in_french(tmp_path: object) -> None:
    done = subprocess.run([sys.executable, "-m", "jdr.cli.main", "serve", "--db",
                           str(tmp_path) + "/t.jdr", "--port", "1", "--origine", "ftp://x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--origine « ftp://x »" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
