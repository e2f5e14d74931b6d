"""What each role sees of a fight (issue 16, item 2): the MJ's secret `sante -13` on the goblin
(25 → 12) never reaches a spectator or a joueur as `PV 12/25` — not by the API's journal, not by
the API's encounter view, not by the pages' fragments, not by the live channels; a joueur sees
its own character exactly; the others' health follows the MJ's choice for the table."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from web_support import (
    GOBELIN_YAML,
    NAIN_YAML,
    Live,
    Table,
    add_character,
    bearer,
    in_process,
    invite,
    make_table,
    receive_until,
)
from websockets.asyncio.client import connect

from jdr.web.origin import csrf_token

pytestmark = pytest.mark.anyio
GOBELIN_25 = GOBELIN_YAML.replace("pv: 12", "pv: 25")
SECRET = "PV 12/25"


async def page_post(client: httpx.AsyncClient, table: Table, token: str, path: str,
                    data: dict[str, str] | None = None) -> httpx.Response:
    client.cookies.set(f"jdr_{table.id}", token)
    try:
        return await client.post(f"/tables/{table.id}{path}", data=data or {},
                                 headers={"X-JDR-CSRF": csrf_token(token)})
    finally:
        client.cookies.clear()


async def page_get(client: httpx.AsyncClient, table: Table, token: str, path: str) -> str:
    client.cookies.set(f"jdr_{table.id}", token)
    try:
        r = await client.get(f"/tables/{table.id}{path}")
    finally:
        client.cookies.clear()
    assert r.status_code == 200, r.text
    return r.text


async def secret_fight(client: httpx.AsyncClient) -> tuple[Table, dict[str, str]]:
    """Nain A (Lise's) against the MJ's goblin; the MJ's secret -13 on the goblin and -4 on Nain
    A; then a public next turn (its entry shows the encounter)."""
    table = await make_table(client)
    lise, _ = await invite(client, table, "joueur", "Lise")
    sam, _ = await invite(client, table, "spectateur", "Sam")
    await add_character(client, table, lise, NAIN_YAML)
    await add_character(client, table, table.mj, GOBELIN_25)
    r = await page_post(client, table, table.mj, "/f/combat/debut",
                        {"personnages": ["Nain A", "Gobelin"]})  # type: ignore[dict-item]
    assert "commence" in r.text, r.text
    for name, value in (("Gobelin", "-13"), ("Nain A", "-4")):
        r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(table.mj), json={
            "type": "sante", "params": {"personnage": name, "valeur": value}, "visibilite": "mj"})
        assert r.status_code == 200, r.text
    r = await page_post(client, table, table.mj, "/f/combat/suivant")
    assert "Tour suivant" in r.text, r.text
    return table, {"mj": table.mj, "lise": lise, "sam": sam}


def rows(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in view["order"]}


async def test_secret_health_never_reaches_spectator_nor_player(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tok = await secret_fight(client)

        mj_view = (await client.get(f"/api/tables/{table.id}/combat", headers=bearer(tok["mj"]))
                   ).json()["rencontre"]
        assert rows(mj_view)["Gobelin"]["hit_points"] == {"unit": "pv", "current": 12, "max": 25}
        assert SECRET in await page_get(client, table, tok["mj"], "/f/combat")

        for who in ("lise", "sam"):
            view = (await client.get(f"/api/tables/{table.id}/combat", headers=bearer(tok[who]))
                    ).json()["rencontre"]
            goblin = rows(view)["Gobelin"]
            assert goblin["hit_points"] is None and goblin["sante"] == "etat"
            assert goblin["state"] == "debout"  # as it was before the secret blow
            journal = (await client.get(f"/api/tables/{table.id}/journal",
                                        headers=bearer(tok[who]))).json()
            fights = [e for e in journal if e["result"].get("type") == "encounter"]
            assert len(fights) == 2 and all(e["visibility"] == "public" for e in fights)
            for e in fights:
                assert rows(e["result"])["Gobelin"]["hit_points"] is None
            for text in (json.dumps(journal, ensure_ascii=False), json.dumps(view),
                         await page_get(client, table, tok[who], "/f/combat"),
                         await page_get(client, table, tok[who], "/combat"),
                         await page_get(client, table, tok[who], "/f/journal")):
                assert SECRET not in text and "12/25" not in text and '"current": 12' not in text

        # Lise sees her own Nain A exactly, the MJ's secret -4 included; Sam sees it as it was
        lise = rows((await client.get(f"/api/tables/{table.id}/combat",
                                      headers=bearer(tok["lise"]))).json()["rencontre"])
        assert lise["Nain A"]["hit_points"]["current"] == 26 and lise["Nain A"]["sante"] == "exacte"
        sam = rows((await client.get(f"/api/tables/{table.id}/combat",
                                     headers=bearer(tok["sam"]))).json()["rencontre"])
        assert sam["Nain A"]["hit_points"]["current"] == 30
        assert "PV 26/30" in await page_get(client, table, tok["lise"], "/f/combat")
        assert "PV 26/30" not in await page_get(client, table, tok["sam"], "/f/combat")


async def test_table_setting_exact_state_or_hidden(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tok = await secret_fight(client)
        url = f"/api/tables/{table.id}/reglages"
        assert (await client.get(url, headers=bearer(tok["sam"]))).json() == {
            "sante": {"pnj": "etat", "pj": "exacte"}}
        r = await client.put(url, headers=bearer(tok["lise"]), json={"pnj": "exacte"})
        assert r.status_code == 403 and "MJ" in r.json()["error"]
        r = await client.put(url, headers=bearer(tok["mj"]), json={"pnj": "tout"})
        assert r.status_code == 422

        r = await client.put(url, headers=bearer(tok["mj"]), json={"pnj": "exacte"})
        assert r.json() == {"sante": {"pnj": "exacte", "pj": "exacte"}}
        # a public blow after the secret one: the goblin stays as the spectator last knew it
        r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(tok["mj"]), json={
            "type": "sante", "params": {"personnage": "Gobelin", "valeur": "-2"}})
        assert r.status_code == 200
        sam = rows((await client.get(f"/api/tables/{table.id}/combat", headers=bearer(tok["sam"]))
                    ).json()["rencontre"])
        assert sam["Gobelin"]["hit_points"] == {"unit": "pv", "current": 25, "max": 25}
        assert "PV 25/25" in await page_get(client, table, tok["sam"], "/f/combat")
        mj = rows((await client.get(f"/api/tables/{table.id}/combat", headers=bearer(tok["mj"]))
                   ).json()["rencontre"])
        assert mj["Gobelin"]["hit_points"]["current"] == 10
        # the public blow's own entry: its values carry the secret one, so they are masked
        journal = (await client.get(f"/api/tables/{table.id}/journal", headers=bearer(tok["sam"]))
                   ).json()
        blow = journal[-1]
        assert blow["action"] == "sante" and blow["changes"][0]["after"] is None
        assert blow["text"].startswith("Gobelin : santé masquée")
        for value in ("12/25", "10/25", '"actuels": 12', '"actuels": 10'):
            assert value not in json.dumps(journal, ensure_ascii=False)
            assert value not in await page_get(client, table, tok["sam"], "/f/journal")
        mj_blow = (await client.get(f"/api/tables/{table.id}/journal?depuis={blow['seq'] - 1}",
                                    headers=bearer(tok["mj"]))).json()[0]
        assert mj_blow["text"].startswith("Gobelin : PV 12/25 → 10/25")

        # the MJ undoes the public blow, the next turn and the secret blows: nothing unseen left
        for _ in range(4):
            assert (await client.post(f"/api/tables/{table.id}/annuler",
                                      headers=bearer(tok["mj"]))).status_code == 200
        sam = rows((await client.get(f"/api/tables/{table.id}/combat", headers=bearer(tok["sam"]))
                    ).json()["rencontre"])
        assert sam["Gobelin"]["hit_points"]["current"] == 25  # nothing unseen left: exact again

        r = await page_post(client, table, tok["mj"], "/reglages", {"pnj": "cachee", "pj": "etat"})
        assert r.status_code == 303
        sam = rows((await client.get(f"/api/tables/{table.id}/combat", headers=bearer(tok["sam"]))
                    ).json()["rencontre"])
        assert sam["Gobelin"] == {**sam["Gobelin"], "state": "inconnu", "hit_points": None,
                                  "conditions": [], "sante": "cachee"}
        assert sam["Nain A"]["hit_points"] is None and sam["Nain A"]["state"] == "debout"
        lise = rows((await client.get(f"/api/tables/{table.id}/combat",
                                      headers=bearer(tok["lise"]))).json()["rencontre"])
        assert lise["Nain A"]["hit_points"]["current"] == 30 and lise["Nain A"]["sante"] == "exacte"


@pytest.mark.parametrize("shared_live", ["sqlite"], indirect=True)  # one base: the filter is above it
async def test_live_channels_never_carry_the_secret_value(shared_live: Live) -> None:
    live = shared_live
    async with httpx.AsyncClient(base_url=live.url, timeout=10) as client:
        table, tok = await secret_fight(client)
        last = (await client.get(f"/api/tables/{table.id}/journal", headers=bearer(tok["mj"]))
                ).json()[-1]["seq"]
        for who in ("lise", "sam"):
            api = f"{live.ws}/api/tables/{table.id}/direct?token={tok[who]}&depuis=0"
            page = f"{live.ws}/tables/{table.id}/direct?depuis=0"
            cookie = {"Cookie": f"jdr_{table.id}={tok[who]}"}
            async with connect(api) as a, connect(page, additional_headers=cookie) as p:
                backlog = [*await receive_until(a, last), *await receive_until(p, last)]
                r = await client.post(f"/api/tables/{table.id}/actions",
                                      headers=bearer(tok["mj"]), json={
                                          "type": "sante",
                                          "params": {"personnage": "Gobelin", "valeur": "-1"}})
                assert r.status_code == 200
                r = await page_post(client, table, tok["mj"], "/f/combat/suivant")
                last += 2
                pushed = [*await receive_until(a, last), *await receive_until(p, last)]
            text = json.dumps(backlog + pushed, ensure_ascii=False)
            assert '"type": "encounter"' in text and "Gobelin : santé masquée" in text
            for value in ('"current": 12', '"current": 11', "12/25", "11/25", '"actuels": 1'):
                assert value not in text, (who, value)
