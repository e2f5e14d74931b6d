"""Séances on the table (issue 21): opened and closed by the MJ only, contributions from any
member, and — before the reveal — the seed in no response of the server: API, pages, fragments,
the journal file, errors and the live channel, for every role."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from web_support import NAIN_YAML, add_character, bearer, invite, live_server, make_table, receive_until
from websockets.asyncio.client import connect

from jdr.dice.verifiable import verify_journal

pytestmark = pytest.mark.anyio


def _seed_of(db: Path) -> str:
    from jdr.campaign.store import Campaign

    camp = Campaign.open(str(db))
    try:
        with camp.reading() as tx:
            seed: str = tx.session.scalar('SELECT seed FROM jdr_seances WHERE "open" = :yes',
                                          {"yes": True})
    finally:
        camp.dispose()
    return seed


async def test_the_seed_never_leaves_the_server_before_the_reveal(tmp_path: Path) -> None:
    db = tmp_path / "tables.jdr"
    seen: list[str] = []
    with live_server(str(db)) as live:
        async with httpx.AsyncClient(base_url=live.url, timeout=15) as client:
            table = await make_table(client)
            lise, _ = await invite(client, table, "joueur", "Lise")
            sam, _ = await invite(client, table, "spectateur", "Sam")
            await add_character(client, table, lise, NAIN_YAML)
            api = f"/api/tables/{table.id}"

            async def keep(r: httpx.Response) -> httpx.Response:
                seen.append(r.text)
                seen.append(json.dumps(dict(r.headers)))
                return r

            # only the MJ opens and closes
            assert (await keep(await client.post(f"{api}/seance/ouvrir", headers=bearer(lise)))
                    ).status_code == 403
            channels = [await connect(f"{live.ws}{api}/direct?token={t}") for t in (table.mj, lise, sam)]
            opened = await keep(await client.post(f"{api}/seance/ouvrir", headers=bearer(table.mj)))
            assert opened.status_code == 201, opened.text
            seed = _seed_of(db)
            assert len(seed) == 64
            again = await keep(await client.post(f"{api}/seance/ouvrir", headers=bearer(table.mj)))
            assert again.status_code == 422 and "déjà ouverte" in again.json()["error"]
            for token in (table.mj, lise, sam):
                await keep(await client.post(f"{api}/seance/contribution", headers=bearer(token),
                                             json={"valeur": "ab" * 32}))
            bad = await keep(await client.post(f"{api}/seance/contribution", headers=bearer(lise),
                                               json={"valeur": "pas hexadécimal"}))
            assert bad.status_code == 422
            for token, vis in ((table.mj, "mj"), (lise, "prive"), (lise, "public")):
                r = await keep(await client.post(f"{api}/actions", headers=bearer(token), json={
                    "type": "check", "params": {"personnage": "Nain A", "competence": "hache",
                                                "seuil": "difficile"}, "visibilite": vis}))
                assert r.status_code == 200, r.text
            last = r.json()["seq"]
            for token in (table.mj, lise, sam):
                await keep(await client.get(f"{api}/journal", headers=bearer(token)))
                await keep(await client.get(f"{api}/seance", headers=bearer(token)))
                await keep(await client.get(f"{api}/personnages/Nain%20A", headers=bearer(token)))
            await keep(await client.get("/api/openapi.json"))
            # the pages, with each role's cookie
            for token in (table.mj, lise, sam):
                page = httpx.Client(base_url=live.url, timeout=15)
                entered = page.post("/entrer", data={"table": str(table.id), "jeton": token})
                assert entered.status_code < 400, entered.text
                for path in (f"/tables/{table.id}", f"/tables/{table.id}/f/seance",
                             f"/tables/{table.id}/f/journal?depuis=0",
                             f"/tables/{table.id}/f/journal.json", f"/tables/{table.id}/combat",
                             "/verifier"):
                    r = page.get(path)
                    assert r.status_code == 200, (path, r.text)
                    seen.append(r.text)
                page.close()
            for ws in channels:
                for message in await receive_until(ws, last):
                    seen.append(json.dumps(message))
            assert not [text for text in seen if seed in text]
            # the reveal: now everyone reads the seed, and the journal verifies
            closed = await client.post(f"{api}/seance/fermer", headers=bearer(table.mj))
            assert closed.status_code == 200 and closed.json()["params"]["graine"] == seed
            for ws in channels:
                got = await receive_until(ws, closed.json()["seq"])
                assert any(seed in json.dumps(m) for m in got)
                await ws.close()
            for token, checked in ((table.mj, 3), (lise, 2), (sam, 1)):
                journal = (await client.get(f"{api}/journal", headers=bearer(token))).json()
                verdict = verify_journal(journal)
                assert verdict.ok, verdict.to_json()
                assert verdict.counts() == {"ok": checked}  # each sees (and checks) what it may see
            status = (await client.get(f"{api}/seance", headers=bearer(sam))).json()
            assert status["current"] is None and status["seances"][0]["graine"] == seed




async def test_one_seance_shared_by_two_processes_on_postgresql(pg_target: str) -> None:
    """Opened on process A, rolled and contributed on process B, closed on A: one seed, one
    verifiable journal."""
    with live_server(pg_target) as a, live_server(pg_target) as b:
        async with httpx.AsyncClient(base_url=a.url, timeout=15) as on_a, \
                httpx.AsyncClient(base_url=b.url, timeout=15) as on_b:
            table = await make_table(on_a)
            api = f"/api/tables/{table.id}"
            assert (await on_a.post(f"{api}/seance/ouvrir", headers=bearer(table.mj))).status_code == 201
            for client, expression in ((on_b, "3d6"), (on_a, "1d20"), (on_b, "2d10")):
                r = await client.post(f"{api}/actions", headers=bearer(table.mj),
                                      json={"type": "roll", "params": {"expression": expression}})
                assert r.status_code == 200, r.text
                if expression == "1d20":
                    c = await on_b.post(f"{api}/seance/contribution", headers=bearer(table.mj),
                                        json={"valeur": "cd" * 32})
                    assert c.status_code == 201, c.text
            assert (await on_a.post(f"{api}/seance/fermer", headers=bearer(table.mj))).status_code == 200
            journal = (await on_b.get(f"{api}/journal", headers=bearer(table.mj))).json()
    verdict = verify_journal(journal)
    assert verdict.ok and verdict.counts() == {"ok": 3}, verdict.to_json()
