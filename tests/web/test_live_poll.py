"""The safety poll (`jdr.web.live.Hubs.poll`): what another process committed or revoked, with no
notification, reaches this process's members; one query for all the hubs, and a hub whose table
did not move reads nothing. Two applications on one PostgreSQL schema stand for two processes;
this one's listener is stopped, as when a notification is lost."""

from __future__ import annotations

import httpx
import pytest
from web_support import UNLIMITED, bearer, invite, make_table, roll

from jdr.web.app import create_app
from jdr.web.state import Server

pytestmark = pytest.mark.anyio


def client_of(server_app: object) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=server_app),  # type: ignore[arg-type]
                             base_url="http://jdr.test", timeout=60)


async def settled(server: Server) -> None:
    """Until every hub woken has read and delivered."""
    for hub in list(server.hubs.hubs.values()):
        if hub.task is not None:
            await hub.task


async def test_the_poll_brings_what_another_process_committed_or_revoked(pg_target: str) -> None:
    db = pg_target
    here, there = create_app(db, None, True, limits=UNLIMITED), create_app(db, None, True, limits=UNLIMITED)
    server: Server = here.state.server
    try:
        async with client_of(here) as a, client_of(there) as b:
            moved, still = await make_table(a), await make_table(a)
            lise, lise_id = await invite(a, moved, "joueur", "Lise")
            watcher = server.authenticate(lise, moved.id)
            quiet = server.authenticate(still.mj, still.id)
            _, sub = await server.hubs.subscribe(watcher)
            still_hub, _ = await server.hubs.subscribe(quiet)
            await server.hubs.stop()  # no LISTEN, no background poll: only the poll called here

            posted = await roll(b, moved, moved.mj)  # the other process: no wake here
            await server.hubs.poll()
            await settled(server)
            assert [item[0] for item in sub.pending if item] == [posted["seq"]]
            assert still_hub.task is None  # its table did not move: never read

            r = await b.delete(f"/api/tables/{moved.id}/membres/{lise_id}", headers=bearer(moved.mj))
            assert r.status_code == 200
            await server.hubs.poll()
            await settled(server)
            assert sub.closing == (4401, "jeton révoqué")
            assert still_hub.task is None
    finally:
        await server.hubs.stop()
        server.dispose()
        there.state.server.dispose()
