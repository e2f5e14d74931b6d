"""« Équilibrer la rencontre » on the table (MJ only): the form from the declaration beside the
combat panel, the figures and the chart; the API's JSON; a player gets 403 and never sees the
form; more fights than the bound are refused at once (422, in French)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from web_support import Table, add_character, bearer, in_process, invite, make_table

from jdr.web.origin import csrf_token
from sim.fighters import SHEETS

pytestmark = pytest.mark.anyio


async def _table(client: httpx.AsyncClient) -> tuple[Table, str]:
    table = await make_table(client, systeme="deuxdes")
    lise, _ = await invite(client, table, "joueur", "Lise")
    await add_character(client, table, table.mj, SHEETS["deuxdes"][0])
    await add_character(client, table, table.mj, SHEETS["deuxdes"][1])
    return table, lise


async def _page(client: httpx.AsyncClient, table: Table, token: str, method: str, path: str,
                data: dict[str, list[str] | str] | None = None) -> httpx.Response:
    client.cookies.set(f"jdr_{table.id}", token)
    try:
        if method == "GET":
            return await client.get(f"/tables/{table.id}{path}")
        return await client.post(f"/tables/{table.id}{path}", data=data or {},
                                 headers={"X-JDR-CSRF": csrf_token(token)})
    finally:
        client.cookies.clear()


async def test_mj_balances_the_encounter_players_are_refused(tmp_path: Path) -> None:
    async with in_process(f"sqlite:///{tmp_path / 'jdr.db'}") as client:
        table, lise = await _table(client)
        page = (await _page(client, table, table.mj, "GET", "/combat")).text
        assert "Équilibrer la rencontre" in page and 'name="camp1"' in page
        assert 'name="tactique2"' in page and "Nombre de combats" in page
        shown = await _page(client, table, table.mj, "POST", "/f/simulation", {
            "camp1": ["Aldo"], "camp2": ["Gobelin"], "n": "500", "graine": "7",
            "tactique1": "hasard"})
        assert shown.status_code == 200
        assert "calcul exact" in shown.text and "Camp 1 (Aldo, tactique « hasard ») : victoire" \
            in shown.text and "<svg" in shown.text
        data = (await client.post(f"/api/tables/{table.id}/simulation", headers=bearer(table.mj),
                                  json={"params": {"camp1": ["Aldo"], "camp2": ["Gobelin×2"],
                                                   "n": 400, "graine": 1}})).json()
        assert data["type"] == "simulation" and data["sides"][1]["names"] == ["Gobelin", "Gobelin 2"]
        player_page = (await _page(client, table, lise, "GET", "/combat")).text
        assert "Équilibrer la rencontre" not in player_page
        refused = await _page(client, table, lise, "POST", "/f/simulation",
                              {"camp1": ["Aldo"], "camp2": ["Gobelin"]})
        assert refused.status_code == 403 and "réservé au MJ" in refused.text
        api = await client.post(f"/api/tables/{table.id}/simulation", headers=bearer(lise),
                                json={"params": {"camp1": ["Aldo"], "camp2": ["Gobelin"]}})
        assert api.status_code == 403
        too_many = await client.post(f"/api/tables/{table.id}/simulation", headers=bearer(table.mj),
                                     json={"params": {"camp1": ["Aldo"], "camp2": ["Gobelin"],
                                                      "n": 20_001}})
        assert too_many.status_code in (400, 422)
        assert "20001 hors limites (autorisé : de 1 à 20\u202f000)" in too_many.text
        schema = (await client.get("/api/openapi.json")).json()
        body = schema["components"]["schemas"]["SimulationBody"]["properties"]["params"]
        assert set(body["properties"]) == {"camp1", "camp2", "n", "tactique1", "tactique2", "graine"}
