"""Only the table's own pages act with its cookie: `Origin`, `Sec-Fetch-Site` and a CSRF token.

The pages are authenticated by a cookie (`jdr_{id}`, SameSite=Strict), which a browser also sends
from a sibling site (another port of the same host, a sibling sub-domain). So `OriginGuard`, an
ASGI middleware in front of the whole application, checks every request outside `/api` that may
change something (any method but GET, HEAD, OPTIONS) and every WebSocket outside `/api`:

- `Sec-Fetch-Site`, when the browser sends it, must be `same-origin` or `none`;
- `Origin`, when sent, must be the table's own origin: by default the one the request is addressed
  to (its scheme and `Host`), or, behind a reverse proxy, one of those given (`jdr serve --origine
  https://table.example.org`, several allowed);
- a request to `/tables/{id}/…` carrying that table's cookie must also carry the session's CSRF
  token: the header `X-JDR-CSRF` (set on every htmx request and page fetch by `static/csrf.js`) or,
  for a plain form, the field `_csrf` (added by the same script when the form is sent).

The token is derived from the session's own token (`csrf_token`): it changes with the session,
survives a restart, and cannot be computed without the HttpOnly cookie. A refusal is `403` with a
French message (a WebSocket is refused before its handshake completes). The API (`/api/…`) is
not concerned: it is authenticated by a `Bearer` token that no other site can send.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME = frozenset({"same-origin", "none"})
HEADER = "x-jdr-csrf"
FIELD = "_csrf"
TABLE_PATH = re.compile(r"^/tables/(\d{1,9})(?:/|$)")
MAX_FORM = 64 * 1024
FOREIGN = "requête refusée : elle ne vient pas des pages de cette table (origine {origin})"
NO_TOKEN = ("requête refusée : jeton de formulaire absent ou périmé ; rechargez la page de la "
            "table")


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: derived from its token, useless without it."""
    digest = hashlib.sha256(b"jdr-csrf:" + session_token.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:32]


def normalize_origin(origin: str) -> str:
    """`https://Table.Example.org/` → `https://table.example.org` (default ports dropped)."""
    text = origin.strip().rstrip("/").lower()
    for scheme, port in (("http://", ":80"), ("https://", ":443")):
        if text.startswith(scheme) and text.endswith(port):
            text = text[: -len(port)]
    return text


def check_origin_option(origin: str) -> str:
    """An `--origine` value, or a French error naming what is expected."""
    text = normalize_origin(origin)
    rest = text.partition("://")[2]
    if not text.startswith(("http://", "https://")) or not rest or "/" in rest or " " in rest:
        from jdr.errors import RuleError

        raise RuleError(f"--origine « {origin} » : une origine comme https://table.exemple.org "
                         "(schéma, nom et port éventuel, sans chemin)")
    return text


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers") or []:
        out.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
    return out


class OriginGuard:
    """The ASGI middleware: refuses what comes from another origin, or without the CSRF token."""

    def __init__(self, app: ASGIApp, origins: Sequence[str] = ()) -> None:
        self.app = app
        self.origins = frozenset(normalize_origin(o) for o in origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        path = str(scope.get("path", ""))
        if kind not in ("http", "websocket") or path.startswith("/api/") or path == "/api":
            await self.app(scope, receive, send)
            return
        if kind == "http" and scope.get("method", "GET") in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal = self._foreign(scope, headers)
        if refusal is None and kind == "http":
            refusal, receive = await self._token(scope, headers, receive)
        if refusal is None:
            await self.app(scope, receive, send)
        elif kind == "websocket":
            await _deny_websocket(scope, receive, send, refusal)
        else:
            await _deny_http(send, refusal, bool(headers.get("hx-request")))

    def _own_origins(self, scope: Scope, headers: dict[str, str]) -> frozenset[str]:
        if self.origins:
            return self.origins
        scheme = str(scope.get("scheme", "http"))
        scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
        host = headers.get("host", "")
        return frozenset({normalize_origin(f"{scheme}://{host}")}) if host else frozenset()

    def _foreign(self, scope: Scope, headers: dict[str, str]) -> str | None:
        site = headers.get("sec-fetch-site")
        origin = headers.get("origin")
        if site is not None and site.strip().lower() not in SAME:
            return FOREIGN.format(origin=_shown(origin) if origin else f"« {site[:40]} »")
        if origin is not None and normalize_origin(origin) not in self._own_origins(scope, headers):
            return FOREIGN.format(origin=_shown(origin))
        return None

    async def _token(self, scope: Scope, headers: dict[str, str], receive: Receive
                     ) -> tuple[str | None, Receive]:
        match = TABLE_PATH.match(str(scope.get("path", "")))
        if match is None:
            return None, receive
        session = _cookie(headers.get("cookie", ""), f"jdr_{int(match.group(1))}")
        if not session:
            return None, receive  # no session: the route answers 401 by itself
        expected = csrf_token(session)
        given = headers.get(HEADER)
        if given is None and headers.get("content-type", "").startswith(
                "application/x-www-form-urlencoded"):
            body, receive = await _buffer(receive)
            values = parse_qs(body.decode("utf-8", "replace"), max_num_fields=500).get(FIELD)
            given = values[0] if values else None
        if given is None or not hmac.compare_digest(given.encode("utf-8", "replace"),
                                                    expected.encode()):
            return NO_TOKEN, receive
        return None, receive


def _shown(origin: str) -> str:
    return f"« {origin[:80]} »"


def _cookie(header: str, name: str) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # a malformed Cookie header: no session
        return None
    morsel = jar.get(name)
    return morsel.value if morsel is not None else None


async def _buffer(receive: Receive) -> tuple[bytes, Receive]:
    """The body read ahead (at most `MAX_FORM` bytes kept for the token), then replayed as is."""
    messages: list[Message] = []
    body = b""
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        if len(body) <= MAX_FORM:
            body += message.get("body", b"")
        if not message.get("more_body", False):
            break

    async def replay() -> Message:
        if messages:
            return messages.pop(0)
        return await receive()

    return body[:MAX_FORM], replay


async def _deny_http(send: Send, text: str, htmx: bool) -> None:
    from html import escape

    if htmx:
        body = f'<p class="message erreur" role="alert">{escape(text)}</p>'
    else:
        body = ('<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Refusé — '
                'table en ligne</title><link rel="stylesheet" href="/static/style.css"></head>'
                f'<body><main><section class="carte"><h1>Refusé</h1><p class="message erreur">'
                f'{escape(text)}</p></section></main></body></html>')
    data = body.encode("utf-8")
    await send({"type": "http.response.start", "status": 403, "headers": [
        (b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(data)).encode()),
        (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": data})


async def _deny_websocket(scope: Scope, receive: Receive, send: Send, text: str) -> None:
    """Refuse the handshake: HTTP 403 with the French message when the server can say it."""
    import json

    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in (scope.get("extensions") or {}):
        data = json.dumps({"error": text}, ensure_ascii=False).encode("utf-8")
        await send({"type": "websocket.http.response.start", "status": 403, "headers": [
            (b"content-type", b"application/json; charset=utf-8"),
            (b"content-length", str(len(data)).encode())]})
        await send({"type": "websocket.http.response.body", "body": data})
    else:
        await send({"type": "websocket.close", "code": 4403, "reason": "403"})
