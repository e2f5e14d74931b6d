"""uvicorn's h11 and WebSocket protocols with the limits of `jdr.web.limits`: a time for the
request head, a time for its body, and the connection caps (HTTP, then WebSocket after an
upgrade: one connection counted from its opening to its end). `limits.protocols` gives each a
`limits` and a shared `registry`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

if TYPE_CHECKING:
    from jdr.web.limits import Connections, Limits

HEAD, BODY = "entetes", "corps"


class GuardedH11(H11Protocol):
    """A head still incomplete after `head_timeout` (from the connection or its first byte), a
    body after `body_timeout` (once the head is in): `408` and the connection closed."""

    limits: Limits
    registry: Connections
    timer: Any = None
    timing: str | None = None
    upgraded = False

    def connection_made(self, transport: Any) -> None:
        refusal = self.registry.admit(transport)
        super().connection_made(transport)
        if refusal is not None:
            transport.write(refusal)
            transport.close()
            return
        self._arm(HEAD)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if not self.upgraded:
            self.registry.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        self.upgraded = True
        super().handle_websocket_upgrade(event)

    def _watch(self) -> None:
        if self.upgraded or self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            self._arm(BODY)
        elif state is h11.IDLE and self.conn.trailing_data[0]:
            self._arm(HEAD)
        elif state is not h11.IDLE or self.timing != HEAD or self.cycle is not None:
            self._disarm()  # the app's turn, or an idle kept-alive connection (uvicorn's timer)

    def _arm(self, what: str) -> None:
        if self.timing == what:
            return
        self._disarm()
        delay = self.limits.head_timeout if what == HEAD else self.limits.body_timeout
        self.timing = what
        self.timer = self.loop.call_later(delay, self._expired, what)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer, self.timing = None, None

    def _expired(self, what: str) -> None:
        from jdr.web.limits import raw_response

        self.timer, self.timing = None, None
        if self.transport.is_closing() or self.upgraded:
            return
        delay = self.limits.head_timeout if what == HEAD else self.limits.body_timeout
        late = ("les en-têtes de la requête doivent" if what == HEAD
                else "le corps de la requête doit")
        shown = f"{delay:g}".replace(".", ",")
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE) and (
                self.cycle is None or not self.cycle.response_started):
            self.transport.write(raw_response(
                408, f"requête trop lente : {late} arriver en {shown} s au plus"))
        if self.cycle is not None:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, giving its connection back to the caps when it ends, and
    offering the live channel (`jdr.web.live`) to write a ready-made frame at once: the same
    bytes, built once, go to every member who may see an entry (`write_frame`, in the scope's
    extensions under `jdr.direct`)."""

    registry: Connections

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        from jdr.web.live import DIRECT

        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][DIRECT] = {"write": self.write_frame}

    def write_frame(self, frame: bytes) -> bool:
        """Write a whole WebSocket frame (unmasked, from the server, without extension) now:
        True when written; False when it must go the ordinary way (`send`): the handshake not
        done, the client reading slowly (the transport paused), the connection closing, or an
        extension negotiated (then the frame's bytes would differ from connection to connection)."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or not self.writable.is_set() or self.conn.state is not State.OPEN
                or self.conn.extensions or self.transport.is_closing()):
            return False
        self.transport.write(frame)
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self.registry.release(self.transport)
        super().connection_lost(exc)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            self.handshake_complete = True  # a refusal with its body is a finished handshake
