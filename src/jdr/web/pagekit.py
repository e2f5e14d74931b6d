"""What the pages share: templates, the session cookie, forms, French errors as HTML.

A person enters a table through an invitation link `/table/{id}#jeton=…`: a tiny script reads the
fragment (never sent to the server in a URL), POSTs it to `/entrer`, which checks it exactly like
the API (`Server.authenticate`) and sets it in an HttpOnly, SameSite=Strict cookie `jdr_{id}`;
every later page and the live channel read the cookie. Forms are sent URL-encoded (htmx's
default) and read here without any extra dependency.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import parse_qs

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from jdr.errors import JdrError, SheetError
from jdr.web.auth import Caller
from jdr.web.errors import ApiError, from_jdr
from jdr.web.state import Server

COOKIE_AGE = 60 * 60 * 24 * 90
ROLE_TEXT = {"mj": "MJ", "joueur": "joueur", "spectateur": "spectateur"}


def shown_number(value: int) -> str:
    """A number as a page shows it: thousands grouped, and a true minus sign (« −1 000 »), where
    the command line writes the hyphen it reads back."""
    from jdr.core.french import number

    return number(value).replace("-", "\u2212")


@cache
def environment() -> Any:
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(loader=PackageLoader("jdr.web", "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["pourcent"] = percent
    env.filters["de_avant"] = de_before
    env.filters["plie"] = fold_text
    env.filters["trois_parts"] = three_shares
    env.filters["nombre"] = shown_number
    env.globals["ROLE_TEXT"] = ROLE_TEXT
    return env


def three_shares(odds: dict[str, Any]) -> list[dict[str, Any]]:
    """An opposed roll's odds as three parts that add up to exactly 100,0 % (largest remainder
    at a tenth of a percent): the actor wins, nobody (a draw that stays one), the opponent wins."""
    parts = [("gagne", "vous l'emportez", odds.get("success") or 0.0),
             ("nul", "égalité (personne ne l'emporte)", odds.get("nobody") or 0.0),
             ("perd", "l'adversaire l'emporte", odds.get("opponent_wins") or 0.0)]
    total = sum(p for _, _, p in parts) or 1.0
    raw = [1000 * p / total for _, _, p in parts]
    tenths = [int(r) for r in raw]
    for i in sorted(range(3), key=lambda i: raw[i] - tenths[i], reverse=True)[:1000 - sum(tenths)]:
        tenths[i] += 1
    return [{"classe": c, "texte": label, "part": t / 10,
             "pourcent": f"{t / 10:.1f} %".replace(".", ",")}
            for (c, label, _), t in zip(parts, tenths, strict=True)]


def fold_text(text: Any) -> str:
    """A result's text for the page: long dice lists folded, dropped dice without raw tildes
    (`~3~` → `3 écarté`)."""
    import re

    from jdr.render.discord import fold_dice

    return re.sub(r"~(\d+!?)~", r"\1 écarté", fold_dice(str(text)))


def de_before(name: Any) -> str:
    """« de » or « d' » before a name (« tour d'Orque 3 »), for a template that wraps the name."""
    from jdr.core.french import elides

    return "d'" if elides(str(name)) else "de "


def percent(value: Any) -> str:
    if value is None:
        return "—"
    return f"{float(value) * 100:.1f} %".replace(".", ",")


def render(name: str, status: int = 200, headers: dict[str, str] | None = None,
           **context: Any) -> HTMLResponse:
    html = environment().get_template(name).render(**context)
    return HTMLResponse(html, status_code=status, headers=headers)


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def cookie_name(table_id: int) -> str:
    return f"jdr_{table_id}"


def set_session(response: Response, request: Request, table_id: int, token: str) -> None:
    response.set_cookie(cookie_name(table_id), token, max_age=COOKIE_AGE, path="/", httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")


def caller_from_cookie(request: Request, table_id: int) -> Caller:
    """The member behind this table's cookie (401 without one), checked like the API's token."""
    token = request.cookies.get(cookie_name(table_id))
    if not token:
        raise ApiError(401, "vous n'êtes pas entré à cette table : ouvrez votre lien d'invitation")
    return server_of(request).authenticate(token, table_id)


async def form_of(request: Request) -> dict[str, list[str]]:
    """The URL-encoded form of a request (the body limit is the API's: 64 KB)."""
    body = (await request.body()).decode("utf-8", "replace")
    return parse_qs(body, keep_blank_values=True, max_num_fields=500)


def one(form: dict[str, list[str]], key: str, default: str = "") -> str:
    values = form.get(key)
    return values[0].strip() if values else default


def failure(exc: Exception) -> ApiError:
    """Any refusal as an `ApiError` (its French message, its problems for a sheet)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, JdrError):
        return from_jdr(exc)
    raise exc


def problems_of(exc: Exception) -> list[str]:
    if isinstance(exc, SheetError):
        return list(exc.problems)
    if isinstance(exc, ApiError):
        return [str(p) for p in exc.extra.get("problemes", [])]
    return []


def message(text: str, kind: str = "erreur", headers: dict[str, str] | None = None) -> HTMLResponse:
    """A one-line answer to an htmx call (200: htmx swaps it in)."""
    return render("_message.html", headers=headers, texte=text, genre=kind)


def refreshed(text: str) -> HTMLResponse:
    """Success of a journaled action: the journal and the panels refresh at once."""
    return message(text, "ok", {"HX-Trigger": "jdr-journal"})


def error_page(request: Request, exc: ApiError) -> HTMLResponse:
    return render("erreur.html", status=exc.status, titre="Refusé", message=exc.message,
                  request=request)


def csrf_of(request: Request, table_id: int) -> str:
    """The CSRF token of this table's session (`jdr.web.origin`), for the page's `<meta>`."""
    from jdr.web.origin import csrf_token

    token = request.cookies.get(cookie_name(table_id))
    return csrf_token(token) if token else ""


def page_context(request: Request, caller: Caller, active: str) -> dict[str, Any]:
    campaign = caller.campaign
    return {"request": request, "caller": caller, "table": campaign, "active": active,
            "systeme": campaign.system_id, "systeme_nom": campaign.system.short_title,
            "systeme_titre": campaign.system.title, "csrf": csrf_of(request, campaign.id)}
