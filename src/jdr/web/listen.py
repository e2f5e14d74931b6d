"""PostgreSQL `LISTEN jdr_journal`: one connection per process wakes the local hubs.

Every journal commit made through the server sends `NOTIFY jdr_journal, '<table>:<seq>'` in its
own transaction (delivered at commit). This process's listener wakes the hub of that table, which
reads the new entries from the database. When the connection drops, the listener reconnects every
second and, once listening again, wakes every hub (whatever was committed meanwhile is read);
while it listens, the safety poll of `jdr.web.live` wakes every hub only every 30 s.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from jdr.campaign.store import NOTIFY_CHANNEL as CHANNEL

if TYPE_CHECKING:
    from jdr.web.live import Hubs

LOG = logging.getLogger("jdr.web")


def conninfo(target: str) -> str:
    """libpq address of a campaign URL (`postgresql+psycopg://…?options=…`, `#NOM` dropped)."""
    from jdr.campaign.db import split_target
    from jdr.campaign.sql import pg_conninfo

    return pg_conninfo(split_target(target)[0])


async def listen(hubs: Hubs) -> None:
    """Run until cancelled: listen, wake, reconnect after any failure."""
    import psycopg

    info = conninfo(hubs.server.target)
    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(info, autocommit=True)
            async with conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                hubs.listening = True  # the safety poll may slow down
                await hubs.poll()  # what was committed while not listening
                async for note in conn.notifies():
                    hubs.on_notify(note.payload)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            LOG.warning("écoute PostgreSQL interrompue (%s) : nouvel essai dans 1 s", type(exc).__name__)
        hubs.listening = False  # the safety poll every 2 s again, until listening again
        await asyncio.sleep(1)
