"""A real server (uvicorn in a subprocess, loopback) and real WebSocket clients, on SQLite and
PostgreSQL; then two server processes on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from web_support import (
    ENTRIES,
    ROLES,
    SEES,
    STARTUP_SECONDS,
    Live,
    Table,
    bearer,
    build,
    invite,
    live_server,
    make_table,
    receive_for,
    receive_until,
    roll,
)
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

LOADED = STARTUP_SECONDS  # requests on a loaded machine: no timeout shorter than it needs

pytestmark = pytest.mark.anyio


def channel(ws_base: str, table: Table, token: str | None, depuis: int | None = None) -> Any:
    query = f"?token={token}" if token else "?"
    if depuis is not None:
        query += f"&depuis={depuis}"
    return connect(f"{ws_base}/api/tables/{table.id}/direct{query}")


async def until_closed(ws: Any) -> list[Any]:
    """Every message until the server closes the channel."""
    messages = []
    try:
        async with asyncio.timeout(10):
            while True:
                messages.append(json.loads(await ws.recv()))
    except ConnectionClosed:
        return messages


async def _people(client: httpx.AsyncClient) -> tuple[Table, dict[str, str]]:
    table = await make_table(client)
    lise, _ = await invite(client, table, "joueur", "Lise")
    paul, _ = await invite(client, table, "joueur", "Paul")
    sam, _ = await invite(client, table, "spectateur", "Sam")
    return table, {"mj": table.mj, "lise": lise, "paul": paul, "sam": sam}


async def test_rolls_reach_exactly_who_may_see_them(shared_live: Live) -> None:
    live = shared_live
    async with httpx.AsyncClient(base_url=live.url, timeout=LOADED) as client:
        table, tokens = await _people(client)
        sockets = {who: await channel(live.ws, table, token, 0) for who, token in tokens.items()}
        public = await roll(client, table, tokens["lise"])  # a joueur's roll
        secret = await roll(client, table, tokens["mj"], "mj")  # the MJ's secret roll
        private = await roll(client, table, tokens["lise"], "prive")
        marker = await roll(client, table, tokens["paul"])
        got = {who: [e["seq"] for e in await receive_until(ws, marker["seq"])]
               for who, ws in sockets.items()}
        for ws in sockets.values():
            await ws.close()
    p, s, v, m = public["seq"], secret["seq"], private["seq"], marker["seq"]
    assert got == {"mj": [p, s, v, m], "lise": [p, v, m], "paul": [p, m], "sam": [p, m]}


async def test_live_channel_matrix_by_role_and_entry(shared_live: Live) -> None:
    """The live backlog (depuis=0) of each of the 7 roles: the same audience as the journal."""
    live = shared_live
    async with httpx.AsyncClient(base_url=live.url, timeout=LOADED) as client:
        world = await build(client)
        sockets = {role: await channel(live.ws, world.table, world.tokens[role], 0) for role in ROLES}
        marker = await roll(client, world.table, world.table.mj)
        seen: dict[str, set[str]] = {}
        closed: dict[str, tuple[int | None, list[Any]]] = {}
        for role, ws in sockets.items():
            if role in SEES:
                seqs = {e["seq"] for e in await receive_until(ws, marker["seq"])}
                seen[role] = {k for k, seq in world.seqs.items() if seq in seqs}
                await ws.close()
            else:
                messages = await until_closed(ws)
                closed[role] = (ws.close_code, messages)
    assert seen == SEES and len(SEES) * len(ENTRIES) == 20
    assert {r: c[0] for r, c in closed.items()} == {"revoque": 4401, "sans": 4401, "etranger": 4404}
    assert all(len(c[1]) == 1 and set(c[1][0]) == {"error"} for c in closed.values())


async def test_reconnect_with_depuis_loses_nothing(shared_live: Live) -> None:
    live = shared_live
    async with httpx.AsyncClient(base_url=live.url, timeout=LOADED) as client:
        table, tokens = await _people(client)
        async with channel(live.ws, table, tokens["paul"], 0) as ws:
            first = await roll(client, table, tokens["mj"])
            seen = [e["seq"] for e in await receive_until(ws, first["seq"])]
        missed = [await roll(client, table, tokens[who], vis) for who, vis in
                  (("mj", "public"), ("mj", "mj"), ("paul", "prive"), ("lise", "prive"),
                   ("lise", "public"))]
        async with channel(live.ws, table, tokens["paul"], seen[-1]) as ws:
            back = await receive_until(ws, missed[-1]["seq"])
            later = await roll(client, table, tokens["mj"])
            after = await receive_until(ws, later["seq"])
        async with channel(live.ws, table, tokens["paul"]) as ws:  # no depuis: from now on
            await asyncio.sleep(1)
            newest = await roll(client, table, tokens["mj"])
            fresh = await receive_until(ws, newest["seq"])
    expected = [missed[i]["seq"] for i in (0, 2, 4)]
    assert [e["seq"] for e in back] == expected and [e["seq"] for e in after] == [later["seq"]]
    assert [e["seq"] for e in fresh] == [newest["seq"]]


async def test_reconnecting_under_fire_no_gap_no_duplicate(shared_live: Live) -> None:
    """Rolls keep coming while a client drops and reconnects with depuis, again and again."""
    live = shared_live
    async with httpx.AsyncClient(base_url=live.url, timeout=LOADED) as client:
        table, tokens = await _people(client)
        posted: list[int] = []

        async def post() -> None:
            for i in range(40):
                posted.append((await roll(client, table, tokens["lise"]))["seq"])
                await asyncio.sleep(0.005 * (i % 3))

        poster = asyncio.create_task(post())
        received: list[int] = []
        while not poster.done() or (received[-1:] or [0])[0] < (posted[-1:] or [0])[0]:
            async with channel(live.ws, table, tokens["sam"], received[-1] if received else 0) as ws:
                received += [e["seq"] for e in await receive_for(ws, 0.07)]
        await poster
    assert received == posted == list(range(1, 41))


async def test_revoked_member_is_cut_off_live(shared_live: Live) -> None:
    live = shared_live
    async with httpx.AsyncClient(base_url=live.url, timeout=LOADED) as client:
        table, tokens = await _people(client)
        members = (await client.get(f"/api/tables/{table.id}/membres", headers=bearer(table.mj))).json()
        lise_id = next(m["id"] for m in members if m["nom"] == "Lise")
        async with channel(live.ws, table, tokens["lise"], 0) as ws:
            first = await roll(client, table, tokens["mj"])
            await receive_until(ws, first["seq"])
            r = await client.delete(f"/api/tables/{table.id}/membres/{lise_id}", headers=bearer(table.mj))
            assert r.status_code == 200
            await roll(client, table, tokens["mj"])
            messages = await until_closed(ws)
            code = ws.close_code
    assert code == 4401 and messages == [{"error": "jeton révoqué"}]


async def test_two_processes_on_one_postgresql(pg_target: str) -> None:
    """A roll posted to process A reaches the clients of process B (LISTEN/NOTIFY), by audience."""
    with live_server(pg_target) as a, live_server(pg_target) as b:
        async with httpx.AsyncClient(base_url=a.url, timeout=LOADED) as client:
            table, tokens = await _people(client)
            on_b = {who: await channel(b.ws, table, tokens[who], 0) for who in ("mj", "paul")}
            public = await roll(client, table, tokens["lise"])
            secret = await roll(client, table, tokens["mj"], "mj")
            marker = await roll(client, table, tokens["lise"])
            got = {who: [e["seq"] for e in await receive_until(ws, marker["seq"], timeout=5)]
                   for who, ws in on_b.items()}
            for ws in on_b.values():
                await ws.close()
    assert got == {"mj": [public["seq"], secret["seq"], marker["seq"]],
                   "paul": [public["seq"], marker["seq"]]}


async def test_closed_channel_refuses_cleanly(shared_live: Live) -> None:
    live = shared_live
    async with httpx.AsyncClient(base_url=live.url, timeout=LOADED) as client:
        table, tokens = await _people(client)
    for path, code in ((f"/api/tables/{table.id}/direct?token={tokens['mj']}&depuis=abc", 4400),
                       (f"/api/tables/x/direct?token={tokens['mj']}", 4404)):
        async with connect(live.ws + path) as ws:
            messages = await until_closed(ws)
            assert ws.close_code == code and set(messages[0]) == {"error"}
