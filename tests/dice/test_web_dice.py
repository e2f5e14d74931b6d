"""The odds of a free expression at the table: the API's JSON and the roll box's fragment."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from jdr.web.app import create_app
from jdr.web.origin import csrf_token
from jdr.web.pagekit import cookie_name

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_dice_odds_api_and_fragment(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "table.jdr"), None, True)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://jdr.test") as client:
        r = await client.post("/api/tables", json={"nom": "La Marche", "systeme": "cydonia"})
        table, token = r.json()["id"], r.json()["jeton"]
        auth = {"Authorization": f"Bearer {token}"}
        url = f"/api/tables/{table}/chances-des"
        r = await client.post(url, json={"expression": "10d10cs>=7"}, headers=auth)
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["type"] == "dice_odds" and data["mean"] == 4.0
        assert data["meaning"] == ["10d10cs>=7 : succès : dés ≥ 7"]
        r = await client.post(url, json={"expression": "1d6+"}, headers=auth)
        assert r.status_code == 422 and "incomplète" in r.json()["error"]
        r = await client.post(url, json={"expression": "1d6"})
        assert r.status_code == 401

        fragment = f"/tables/{table}/f/chances-des"
        client.cookies.set(cookie_name(table), token)
        client.headers["X-JDR-CSRF"] = csrf_token(token)  # the pages' form token (issue 16)
        r = await client.post(fragment, data={"expression": "1d20+5>=15"})
        assert r.status_code == 200 and "<b>55,0 %</b>" in r.text and "moyenne <b>15,50</b>" in r.text
        r = await client.post(fragment, data={"expression": "1d6!!!"})
        assert "une seule explosion" in r.text
        page = await client.post(f"/tables/{table}/f/formulaire", data={"type": "roll"})  # the roll box's
        assert f'hx-post="/tables/{table}/f/chances-des"' in page.text  # free-notation form (issue 15)
        assert 'hx-trigger="keyup changed delay:300ms"' in page.text
    app.state.server.dispose()
