"""What a slow, greedy or hostile client may hold: timeouts, connection caps, a rate of actions.

Every number has a default, documented in `docs/api.md` (« Limites »), and an environment
variable read by `jdr serve` (`Limits.from_env`):

| limit | default | variable |
|---|---|---|
| the request head (line and headers), from its first byte or the connection | 10 s | `JDR_DELAI_ENTETES` |
| the request body, once the head is in | 30 s | `JDR_DELAI_CORPS` |
| an idle kept-alive connection | 5 s | `JDR_DELAI_INACTIF` |
| open connections (HTTP and WebSocket), in all | 500 | `JDR_CONNEXIONS_MAX` |
| open connections from one client address | 40 | `JDR_CONNEXIONS_PAR_ADRESSE` |
| WebSocket: a ping every … | 20 s | `JDR_WS_PING` |
| WebSocket: closed when the pong is later than … | 20 s | `JDR_WS_PONG` |
| requests that change something, per token: burst … | 30 | `JDR_ACTIONS_RAFALE` |
| … then per second | 2 | `JDR_ACTIONS_PAR_SECONDE` |

The timeouts and the caps live in the HTTP protocol (`protocols`, a small subclass of uvicorn's
h11 protocol and of its WebSocket protocol): a head or a body still incomplete when its time is up
gets `408` and the connection is closed; a connection beyond a cap gets `503` (in all) or `429`
(one address) with `Retry-After` and is closed before anything is read. The rate of actions is an
ASGI middleware (`ActionRate`): a token bucket per token (the `Bearer` of the API, the cookie of
the pages), `429` with `Retry-After` and a French message.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, fields
from http.cookies import SimpleCookie
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from jdr.errors import RuleError


@dataclass(frozen=True)
class Limits:
    head_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive: float = 5.0
    max_connections: int = 500
    per_address: int = 40
    ws_ping: float = 20.0
    ws_pong: float = 20.0
    actions_burst: int = 30
    actions_per_second: float = 2.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """The limits, each overridden by its variable (a French error for a bad value)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            name, low, high = ENV[f.name]
            raw = env.get(name)
            if raw is None or not raw.strip():
                continue
            values[f.name] = _number(raw, name, low, high, integer=f.type in ("int", int))
        return cls(**values)


ENV: dict[str, tuple[str, float, float]] = {
    "head_timeout": ("JDR_DELAI_ENTETES", 0.1, 3600),
    "body_timeout": ("JDR_DELAI_CORPS", 0.1, 3600),
    "keep_alive": ("JDR_DELAI_INACTIF", 0.1, 3600),
    "max_connections": ("JDR_CONNEXIONS_MAX", 1, 100_000),
    "per_address": ("JDR_CONNEXIONS_PAR_ADRESSE", 1, 100_000),
    "ws_ping": ("JDR_WS_PING", 0.1, 3600),
    "ws_pong": ("JDR_WS_PONG", 0.1, 3600),
    "actions_burst": ("JDR_ACTIONS_RAFALE", 1, 100_000),
    "actions_per_second": ("JDR_ACTIONS_PAR_SECONDE", 0.01, 10_000),
}


def _number(raw: str, name: str, low: float, high: float, integer: bool) -> float:
    text = raw.strip().replace(",", ".")
    pattern = r"\d{1,9}" if integer else r"\d{1,9}(\.\d{1,6})?"
    if not re.fullmatch(pattern, text):
        kind = "un nombre entier" if integer else "un nombre (secondes, ex. 10 ou 0,5)"
        raise RuleError(f"{name} : « {raw.strip()[:40]} » n'est pas {kind}")
    value = int(text) if integer else float(text)
    if not low <= value <= high:
        shown = (f"{low:g} à {high:g}").replace(".", ",")
        raise RuleError(f"{name} : {text.replace('.', ',')} hors limites (autorisé : {shown})")
    return value


# ------------------------------------------------------------------ the rate of actions per token

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TABLE_PATH = re.compile(r"^/tables/(\d{1,9})(?:/|$)")
MAX_BUCKETS = 10_000


class ActionRate:
    """ASGI middleware: every request that may change something, per token, as a token bucket."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.burst = float(limits.actions_burst)
        self.rate = float(limits.actions_per_second)
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method", "GET") in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        key = _token_of(scope)
        wait = self.take(key) if key is not None else 0.0
        if wait <= 0:
            await self.app(scope, receive, send)
            return
        await _too_many(scope, send, wait, self)

    def take(self, key: str, now: float | None = None) -> float:
        """0 when the request may go; else the seconds until it may."""
        now = time.monotonic() if now is None else now
        level, since = self.buckets.pop(key, (self.burst, now))
        level = min(self.burst, level + (now - since) * self.rate)
        if level >= 1:
            self.buckets[key] = (level - 1, now)
            wait = 0.0
        else:
            self.buckets[key] = (level, now)
            wait = (1 - level) / self.rate
        while len(self.buckets) > MAX_BUCKETS:
            self.buckets.popitem(last=False)
        return wait


def _token_of(scope: Scope) -> str | None:
    """Whose request: the hash of its `Bearer` token, or of its table's cookie."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    token: str | None = None
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        token = auth[7:].strip()
    else:
        match = TABLE_PATH.match(str(scope.get("path", "")))
        if match is not None and "cookie" in headers:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(headers["cookie"])
            except Exception:
                return None
            morsel = jar.get(f"jdr_{int(match.group(1))}")
            token = morsel.value if morsel is not None else None
    if not token:
        return None
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


async def _too_many(scope: Scope, send: Send, wait: float, rate: ActionRate) -> None:
    from html import escape

    seconds = max(1, math.ceil(wait))
    per_second = f"{rate.rate:g}".replace(".", ",")
    text = (f"trop d'actions : réessayez dans {seconds} s (au plus {int(rate.burst)} d'affilée, "
            f"puis {per_second} par seconde)")
    if str(scope.get("path", "")).startswith("/api"):
        data = json.dumps({"error": text}, ensure_ascii=False).encode("utf-8")
        kind = b"application/json"
    else:
        data = f'<p class="message erreur" role="alert">{escape(text)}</p>'.encode()
        kind = b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", kind), (b"content-length", str(len(data)).encode()),
        (b"retry-after", str(seconds).encode())]})
    await send({"type": "http.response.body", "body": data})


# ------------------------------------------------------------------ timeouts and connection caps


def raw_response(status: int, text: str, retry_after: int | None = None) -> bytes:
    reason = {408: "Request Timeout", 429: "Too Many Requests",
              503: "Service Unavailable"}.get(status, "Error")
    data = json.dumps({"error": text}, ensure_ascii=False).encode("utf-8")
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(data)}", "connection: close"]
    if retry_after is not None:
        head.append(f"retry-after: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + data


class Connections:
    """The open connections (HTTP, then WebSocket after an upgrade), by client address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_address: dict[str, int] = {}
        self.open: dict[int, str] = {}

    def admit(self, transport: Any) -> bytes | None:
        """None when the connection may stay; else the answer to send before closing it."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if len(self.open) >= self.limits.max_connections:
            return raw_response(503, f"serveur plein : {self.limits.max_connections} connexions "
                                 "ouvertes au plus ; réessayez dans un instant", 5)
        if self.by_address.get(address, 0) >= self.limits.per_address:
            return raw_response(429, f"trop de connexions depuis votre adresse (au plus "
                                 f"{self.limits.per_address}) ; fermez des onglets ou réessayez", 5)
        self.open[id(transport)] = address
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return None

    def release(self, transport: Any) -> None:
        address = self.open.pop(id(transport), None)
        if address is None:
            return
        left = self.by_address.get(address, 1) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)


def protocols(limits: Limits) -> tuple[type[Any], type[Any]]:
    """(HTTP, WebSocket) protocol classes for uvicorn, enforcing `limits` (`jdr.web.protocols`)."""
    from jdr.web.protocols import GuardedH11, GuardedWebSocket

    shared = {"limits": limits, "registry": Connections(limits)}
    return type("GuardedH11", (GuardedH11,), shared), type("GuardedWebSocket", (GuardedWebSocket,),
                                                            shared)


def uvicorn_options(limits: Limits) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run` that enforce `limits`."""
    http, ws = protocols(limits)
    return {"http": http, "ws": ws, "timeout_keep_alive": limits.keep_alive,
            "ws_ping_interval": limits.ws_ping, "ws_ping_timeout": limits.ws_pong,
            "h11_max_incomplete_event_size": 16 * 1024}
