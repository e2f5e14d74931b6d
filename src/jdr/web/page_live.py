"""`WS /tables/{id}/direct?depuis=N`: the live channel of the pages, authenticated by the cookie.

Exactly the API's channel (`jdr.web.live.serve_channel`: same hub, same filtering by
`Caller.may_see`, same backlog after `depuis`), except that the token comes from the HttpOnly
cookie set at the entry, never from the address. The page fetches the rendered entries when a
new seq arrives.
"""

from __future__ import annotations

from starlette.websockets import WebSocket

from jdr.web import live
from jdr.web.pagekit import cookie_name


def _cookie_token(websocket: WebSocket, table: int) -> str | None:
    return websocket.cookies.get(cookie_name(table))


async def direct(websocket: WebSocket) -> None:
    """The backlog after `depuis` the caller may see, then each new entry, as JSON."""
    await live.serve_channel(websocket, _cookie_token)
