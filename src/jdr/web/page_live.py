"""`WS /tables/{id}/direct?depuis=N`: the live channel of the pages, authenticated by the cookie.

Exactly the API's channel (`jdr.web.live.serve_channel`: same hub, same filtering by
`Caller.may_see`, same backlog after `depuis`), except that the token comes from the HttpOnly
cookie set at the entry, never from the address. Each entry arrives ready to show:
`{"seq": N, "html": "<li …>"}`, rendered once per entry and role by the hub (`html_frame`), so no
browser fetches it again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from jdr.web import live
from jdr.web.pagekit import cookie_name

if TYPE_CHECKING:
    from jdr.web.auth import Caller


def _cookie_token(websocket: WebSocket, table: int) -> str | None:
    return websocket.cookies.get(cookie_name(table))


def html_frame(entry: dict[str, Any], caller: Caller) -> str:
    """The page channel's frame: the entry's journal item, as the journal fragment renders it."""
    import json

    from jdr.web.pagekit import environment
    from jdr.web.pages import entry_view

    html = environment().get_template("_journal.html").render(
        entrees=[entry_view(entry)], caller=caller)
    return json.dumps({"seq": entry["seq"], "html": html}, ensure_ascii=False)


async def direct(websocket: WebSocket) -> None:
    """The backlog after `depuis` the caller may see, then each new entry, ready to show."""
    await live.serve_channel(websocket, _cookie_token, html_frame)
