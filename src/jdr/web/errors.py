"""Every error a client meets: `{"error": "…"}` in French, with the right status, never a trace.

- `ApiError(status, message)` is what the routes raise; `JdrError` and its kinds are mapped
  (a sheet or a rule refused: 422; bad input, dice: 400; the database unreachable: 503).
- FastAPI's own validation errors are translated field by field (malformed JSON: 400, a bad path
  parameter: 404, anything else: 422); unknown routes and methods are answered in French.
- `BodyLimit` refuses a request body over 64 KB (413): by its `Content-Length`, and by counting
  the bytes really received (a chunked body has no length).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError, WebSocketRequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jdr.errors import JdrError, RuleError, SheetError

MAX_BODY = 64 * 1024
LOG = logging.getLogger("jdr.web")


class ApiError(Exception):
    """An answer other than success: its status and its French message."""

    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra or {}


def from_jdr(exc: JdrError) -> ApiError:
    """The status of an error of the rules, the sheets or the campaign layer, and its message as
    the pages and the API say it (`JdrError.pages`: options by their label, never `--opt`)."""
    from jdr.campaign.db import CampaignError

    if isinstance(exc, SheetError):
        return ApiError(422, exc.pages, {"problemes": list(exc.problems)})
    if isinstance(exc, CampaignError):
        if "existe déjà" in exc.message:
            return ApiError(409, exc.pages)
        return ApiError(503, exc.pages)
    if isinstance(exc, RuleError):
        return ApiError(422, exc.pages)
    return ApiError(400, exc.pages)


class FrenchJSON(JSONResponse):
    """UTF-8 JSON; text that cannot be encoded as UTF-8 is escaped rather than failing."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False).encode("ascii")


def error_response(status: int, message: str, extra: dict[str, Any] | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return FrenchJSON({"error": message, **(extra or {})}, status_code=status, headers=headers)


STATUS_TEXT = {
    400: "requête invalide", 401: "authentification requise", 403: "accès refusé",
    404: "route inconnue", 405: "méthode non permise sur cette route", 409: "conflit",
    413: "corps de requête trop grand (64 Ko au plus)", 415: "type de contenu non pris en charge",
    422: "données invalides", 429: "trop de requêtes", 503: "service indisponible",
}

FIELD_TEXT = {
    "missing": "manquant",
    "extra_forbidden": "inconnu",
    "string_type": "texte attendu",
    "int_type": "nombre entier attendu",
    "int_parsing": "nombre entier attendu",
    "int_from_float": "nombre entier attendu",
    "dict_type": "objet JSON attendu",
    "model_attributes_type": "objet JSON attendu",
    "model_type": "objet JSON attendu",
    "list_type": "liste attendue",
    "bool_type": "oui ou non attendu",
    "string_too_short": "ne peut pas être vide",
    "string_pattern_mismatch": "format invalide",
}


def _where(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) if parts else "corps"


def _one(error: dict[str, Any]) -> str:
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    where = f"« {_where(error.get('loc', ()))} »"
    if kind in FIELD_TEXT:
        return f"{where} : {FIELD_TEXT[kind]}"
    if kind == "string_too_long":
        return f"{where} : {ctx.get('max_length')} caractères au plus"
    if kind == "too_long":
        return f"{where} : {ctx.get('max_length')} éléments au plus"
    if kind in ("greater_than_equal", "greater_than"):
        return f"{where} : au moins {ctx.get('ge', ctx.get('gt'))}"
    if kind in ("less_than_equal", "less_than"):
        return f"{where} : au plus {ctx.get('le', ctx.get('lt'))}"
    if kind == "value_error":
        return f"{where} : {ctx.get('error', 'valeur invalide')}"
    if kind in ("literal_error", "enum"):
        return f"{where} : valeur non permise (permis : {ctx.get('expected', '?')})"
    return f"{where} : valeur invalide"


def validation_message(errors: Sequence[Any]) -> tuple[int, str]:
    """FastAPI's validation errors, in French: (status, message)."""
    items = [e for e in errors if isinstance(e, dict)]
    if any(e.get("type") == "json_invalid" for e in items):
        return 400, "corps JSON invalide"
    if any((e.get("loc") or ("",))[0] == "path" for e in items):
        return 404, "ressource introuvable (identifiant invalide)"
    if any(e.get("type") == "missing" and tuple(e.get("loc") or ()) == ("body",) for e in items):
        return 422, "corps de requête manquant (JSON attendu)"
    shown = [_one(e) for e in items[:5]]
    more = f" (et {len(items) - 5} autre(s))" if len(items) > 5 else ""
    return 422, "données invalides : " + " ; ".join(shown) + more


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
    return error_response(exc.status, exc.message, exc.extra, headers)


async def _jdr_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, JdrError)
    return await _api_error(request, from_jdr(exc))


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    text = STATUS_TEXT.get(status, "erreur")
    return error_response(status, text, headers=dict(exc.headers or {}) or None)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    status, message = validation_message(exc.errors())
    return error_response(status, message)


async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    LOG.error("erreur interne sur %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "erreur interne du serveur (rien n'a été enregistré)")


def install(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(JdrError, _jdr_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(WebSocketRequestValidationError, _ws_validation_error)
    app.add_exception_handler(Exception, _internal_error)


async def _ws_validation_error(_websocket: Any, _exc: Exception) -> None:
    """A live channel with a malformed address: closed (no route parameter is ever trusted)."""
    from starlette.websockets import WebSocket

    if isinstance(_websocket, WebSocket):
        await _websocket.close(code=4404, reason="adresse invalide")


class BodyLimit:
    """ASGI middleware: a request body over `limit` bytes gets 413 before any route runs."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await _refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await _refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 19 else None
    return None


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    response = error_response(413, STATUS_TEXT[413], headers={"Connection": "close"})
    await response(scope, receive, send)
