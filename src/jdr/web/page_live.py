"""`WS /tables/{id}/direct?depuis=N`: the live channel of the pages, authenticated by the cookie.

Exactly the API's channel (`jdr.web.live`: same hub, same filtering by `Caller.may_see`, same
backlog after `depuis`), except that the token comes from the HttpOnly cookie set at the entry,
never from the address. The page fetches the rendered entries when a new seq arrives.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from jdr.errors import JdrError
from jdr.web import live
from jdr.web.auth import Caller
from jdr.web.errors import ApiError, from_jdr
from jdr.web.pagekit import cookie_name
from jdr.web.state import Server


async def _open(server: Server, websocket: WebSocket) -> tuple[Caller, int | None]:
    raw_id = str(websocket.path_params.get("id", ""))
    if not (raw_id.isascii() and raw_id.isdigit()) or len(raw_id) > 9:
        raise ApiError(404, "table introuvable")
    raw_since = websocket.query_params.get("depuis")
    since: int | None = None
    if raw_since is not None:
        if not (raw_since.isascii() and raw_since.isdigit()) or len(raw_since) > 9:
            raise ApiError(400, "depuis : nombre entier positif attendu")
        since = int(raw_since)
    token = websocket.cookies.get(cookie_name(int(raw_id)))
    try:
        caller = await run_in_threadpool(server.authenticate, token, int(raw_id))
    except JdrError as exc:
        raise from_jdr(exc) from None
    return caller, since


async def direct(websocket: WebSocket) -> None:
    """The backlog after `depuis` the caller may see, then each new entry, as JSON."""
    server: Server = websocket.app.state.server
    await websocket.accept()
    try:
        caller, since = await _open(server, websocket)
        hub, sub = await server.hubs.subscribe(caller)
    except ApiError as exc:
        await live._refuse(websocket, exc)
        return
    try:
        sent = await live._backlog(websocket, caller, since)
        await live._live(websocket, sub, sent)
    except Exception as exc:  # a client gone mid-send, the database gone: close, say why
        live.LOG.info("canal direct (pages) fermé (%s)", type(exc).__name__)
        await live._refuse(websocket, ApiError(503, "canal interrompu : reconnectez-vous"))
    finally:
        server.hubs.unsubscribe(hub, sub)
