"""The pages of the online table (French, server-rendered, htmx for the partial updates).

    GET  /                          home: create a table (name, system)
    POST /creer                     the table is created: the MJ's link, shown once
    GET  /table/{id}                an invitation link `#jeton=…`: the script hands it to /entrer
    POST /entrer                    token → HttpOnly SameSite=Strict cookie (checked like the API)
    GET  /tables/{id}               la table: live journal and roll box
    GET  /tables/{id}/membres       (MJ) invitations: create, list, revoke
    GET  /tables/{id}/sortir        forget the cookie
    GET  /tables/{id}/f/journal     the entries after `depuis` the caller may see (HTML)
    WS   /tables/{id}/direct        the live channel, authenticated by the cookie

The sheets are in `page_sheets`, the roll box in `page_play`, the fight in `encounter`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from jdr.core.french import action_label
from jdr.errors import JdrError
from jdr.render.discord import forum_to_discord
from jdr.web import errors
from jdr.web.auth import same_secret
from jdr.web.deps import TableId
from jdr.web.dice_view import groups as dice_groups
from jdr.web.errors import ApiError
from jdr.web.models import MAX_ID
from jdr.web.pagekit import (
    caller_from_cookie,
    cookie_name,
    error_page,
    failure,
    form_of,
    message,
    one,
    page_context,
    render,
    server_of,
    set_session,
)

router = APIRouter(include_in_schema=False)
STATIC = Path(__file__).parent / "static"
SHOWN = 300
ACTION_TEXT = {
    "roll": "jet libre", "check": "test", "attack": "attaque", "xp": "dépense d'XP",
    "initiative": "initiative", "duel": "duel", "session": "séance", "sante": "santé (MJ)",
    "annuler": "annulation", "combat:start": "début du combat", "combat:suivant": "tour suivant",
    "combat:rejoindre": "arrivée au combat", "combat:quitter": "départ du combat",
    "combat:fin": "fin du combat", "message": "message", "reveler": "révélation",
    "demande": "demande de jet", "attente": "choix en attente",
    "seance:ouverture": "ouverture de séance", "seance:contribution": "contribution aux dés",
    "seance:revelation": "graine révélée",
}
LATEST = 30  # entries a page shows at first; older ones come on demand
SCAN = 2000  # rows read at most to find them (a page of mostly hidden entries stops there)
MODE_TEXT = {"prive": "privé", "aveugle": "aveugle", "moi": "pour moi seul", "mj": "secret MJ",
             "chuchote": "chuchoté"}
Since = Annotated[int, Query(ge=0, le=MAX_ID)]
MemberId = Annotated[int, PathParam(ge=1, le=MAX_ID)]


# ------------------------------------------------------------------ journal entries as HTML


def _verdict(result: dict[str, Any]) -> tuple[str | None, str | None]:
    """(« réussite » | « échec » | None, « critique » text | None) of a result."""
    success = result.get("hit") if result.get("type") == "attack" else result.get("success")
    outcome = None if success is None else ("réussite" if success else "échec")
    if result.get("type") == "attack" and success is not None:
        outcome = "touché" if success else "raté"
    critical = result.get("critical")
    crit = {"success": "réussite critique", "failure": "échec critique"}.get(str(critical)) \
        if critical else None
    return outcome, crit


def entry_view(entry: dict[str, Any]) -> dict[str, Any]:
    result = entry.get("result") or {}
    outcome, crit = _verdict(result)
    action = str(entry.get("action", ""))
    label = ACTION_TEXT.get(action) or action_label(action)
    return {"seq": entry["seq"], "actor": entry["actor"], "author": entry.get("author"),
            "action": label, "visibility": entry.get("visibility", "public"),
            "dice": [(d.get("sides"), d.get("face")) for d in entry.get("dice") or []
                     if isinstance(d, dict)],
            "groups": dice_groups(result), "forum": entry.get("forum", ""),
            "discord": forum_to_discord(str(entry.get("forum", ""))),
            "outcome": outcome, "critical": crit, "text": entry.get("text", ""),
            "undone": entry.get("undone_by"), "at": str(entry.get("at", ""))[11:16],
            "undoes": entry.get("undoes"), "message": _message(entry),
            "mode": MODE_TEXT.get(str(entry.get("visibility"))),
            "revealed": (entry.get("params") or {}).get("revele"),
            "reveals": (entry.get("params") or {}).get("seq") if action == "reveler" else None}


def _message(entry: dict[str, Any]) -> dict[str, Any] | None:
    """A message's parts (text, inline rolls) for its own rendering."""
    result = entry.get("result") or {}
    if entry.get("action") != "message" or result.get("type") != "message":
        return None
    return {"kind": result.get("kind"), "to": result.get("to"), "parts": result.get("parts", [])}


def journal_views(caller: Any, since: int = 0) -> list[dict[str, Any]]:
    from jdr.web.play import journal

    return [entry_view(e) for e in journal(caller, since)][-SHOWN:]


def latest_views(caller: Any, before: int | None = None) -> tuple[list[dict[str, Any]], int | None]:
    """The last `LATEST` entries the caller may see (before seq `before`), oldest first, and
    the seq to ask older ones from (None: there are none). Read newest first, a page at a time:
    the cost does not grow with the journal."""
    from jdr.web.live import owners, seen

    found: list[dict[str, Any]] = []
    cursor, scanned, more = before, 0, False
    with caller.campaign.reading() as tx:
        while not more:
            size = LATEST * 5 // 4 if scanned == 0 else LATEST
            page = tx.entries_before(cursor, size)
            scanned += len(page)
            for entry, owner in owners(tx, page):
                if len(found) == LATEST:
                    more = True  # an entry older than the ones shown
                    break
                shown = seen(caller, entry, owner)
                cursor = entry.seq
                if shown is not None:
                    found.append(shown)
            if len(page) < size:
                break
            more = more or scanned >= SCAN
        from jdr.web.visibility import entries_for

        found = entries_for(caller, tx, found)  # a fight's values hidden as the table decides
    views = [entry_view(e) for e in reversed(found)]
    return views, (cursor if more and cursor is not None else None)


# ------------------------------------------------------------------ home and entry


def _systems() -> list[Any]:
    """The installed systems, as the list of the home page shows them (value: the id)."""
    from jdr.core.registry import available, get_system

    return [get_system(sid) for sid in available()]


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    server = server_of(request)
    return render("accueil.html", request=request, systemes=_systems(), admin=not server.loopback)


@router.post("/creer", response_class=HTMLResponse)
async def create(request: Request) -> HTMLResponse:
    from jdr.core.registry import available

    form = await form_of(request)
    server = server_of(request)
    name, system = one(form, "nom"), one(form, "systeme")
    try:
        if not server.loopback and not same_secret(one(form, "admin") or None, server.admin_token):
            raise ApiError(401, "jeton d'administration requis pour créer une table")
        if system not in available():
            raise ApiError(422, f"système inconnu : « {system[:40]} »")
        made = await run_in_threadpool(server.create_table, name, system)
    except (ApiError, JdrError) as exc:
        return render("accueil.html", status=failure(exc).status, request=request,
                      systemes=_systems(), admin=not server.loopback, erreur=failure(exc).message,
                      nom=name)
    link = f"{request.base_url}table/{made['id']}#jeton={made['jeton']}"
    response = render("creee.html", request=request, table=made, lien=link)
    set_session(response, request, made["id"], made["jeton"])
    return response


@router.get("/table/{id}", response_class=HTMLResponse)
def entry_page(id: TableId, request: Request) -> HTMLResponse:
    return render("entrer.html", request=request, table_id=id)


@router.post("/entrer")
async def enter(request: Request) -> Response:
    form = await form_of(request)
    raw_id, token = one(form, "table"), one(form, "jeton")
    if not (raw_id.isascii() and raw_id.isdigit()) or len(raw_id) > 9:
        return message("table introuvable")
    try:
        caller = await run_in_threadpool(server_of(request).authenticate, token, int(raw_id))
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    response = message(f"Bienvenue, {caller.name}.", "ok")
    set_session(response, request, int(raw_id), token)
    return response


@router.get("/tables/{id}/sortir")
def leave(id: TableId) -> RedirectResponse:
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(cookie_name(id), path="/")
    return response


# ------------------------------------------------------------------ the table


@router.get("/tables/{id}", response_class=HTMLResponse)
def table_page(id: TableId, request: Request) -> HTMLResponse:
    from jdr.web.page_play import roll_box

    caller = caller_from_cookie(request, id)
    entries, older = latest_views(caller)
    return render("table.html", **page_context(request, caller, "table"), entrees=entries,
                  dernier=entries[-1]["seq"] if entries else 0, plus_anciens=older,
                  jets=roll_box(caller))


@router.get("/tables/{id}/f/journal", response_class=HTMLResponse)
def journal_fragment(id: TableId, request: Request, depuis: Since = 0,
                     avant: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None) -> HTMLResponse:
    """The entries after `depuis` (the live refresh), or, with `avant`, the `LATEST` ones before
    it (older on demand; the list ends with the seq to ask next, `data-avant`)."""
    caller = caller_from_cookie(request, id)
    if avant is not None:
        entries, older = latest_views(caller, avant)
        return render("_journal.html", entrees=entries, caller=caller, plus_anciens=older,
                      fragment_ancien=True)
    return render("_journal.html", entrees=journal_views(caller, depuis), caller=caller)


# ------------------------------------------------------------------ members (MJ)


def _members_page(request: Request, caller: Any, **extra: Any) -> HTMLResponse:
    from jdr.web.visibility import table_settings

    members = server_of(request).members(caller)
    return render("membres.html", **page_context(request, caller, "membres"), membres=members,
                  reglages=table_settings(caller), **extra)


@router.get("/tables/{id}/membres", response_class=HTMLResponse)
def members_page(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    caller.require_mj()
    return _members_page(request, caller)


@router.post("/tables/{id}/membres", response_class=HTMLResponse)
async def invite(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    server = server_of(request)
    try:
        token, member = await run_in_threadpool(server.invite, caller, one(form, "role"),
                                                one(form, "nom"))
    except (ApiError, JdrError) as exc:
        if failure(exc).status == 403:
            raise
        return _members_page(request, caller, erreur=failure(exc).message)
    link = f"{request.base_url}table/{id}#jeton={token}"
    return _members_page(request, caller, nouveau={"membre": member, "lien": link})


@router.post("/tables/{id}/membres/lien-mj", response_class=HTMLResponse)
async def renew_mj_link(id: TableId, request: Request) -> HTMLResponse:
    """A new MJ link for this MJ; the old one is refused from now on (this browser keeps its
    session: its cookie gets the new token)."""
    caller = caller_from_cookie(request, id)
    caller.require_mj()
    server = server_of(request)
    token, member = await run_in_threadpool(server.renew_mj_link, id, caller.member_id)
    server.hubs.kick(id, caller.member_id)
    link = f"{request.base_url}table/{id}#jeton={token}"
    response = _members_page(request, caller, nouveau={"membre": member, "lien": link, "mj": True},
                             info="Nouveau lien MJ créé : l'ancien n'ouvre plus la table.")
    set_session(response, request, id, token)
    return response


@router.post("/tables/{id}/membres/{membre}/revoquer", response_class=HTMLResponse)
async def revoke(id: TableId, membre: MemberId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    server = server_of(request)
    try:
        await run_in_threadpool(server.revoke, caller, membre)
    except (ApiError, JdrError) as exc:
        if failure(exc).status == 403:
            raise
        return _members_page(request, caller, erreur=failure(exc).message)
    server.hubs.kick(id, membre)
    return _members_page(request, caller, info="Lien révoqué : il n'ouvre plus la table.")


# ------------------------------------------------------------------ errors and installation


async def _api_error(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith("/api"):
        return await errors._api_error(request, exc)
    assert isinstance(exc, ApiError)
    if request.headers.get("HX-Request"):
        return message(exc.message)
    return error_page(request, exc)


async def _jdr_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, JdrError)
    return await _api_error(request, errors.from_jdr(exc))


def install(app: FastAPI) -> None:
    """The pages' routers, their static files, and HTML errors outside `/api`."""
    from jdr.web import encounter, page_dice, page_play, page_sheetform, page_sheets, page_talk

    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(JdrError, _jdr_error)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(router)
    app.include_router(page_play.router)
    app.include_router(page_sheetform.router)
    app.include_router(page_talk.router)
    app.include_router(page_sheets.router)
    app.include_router(encounter.router)
    from jdr.web import simulate

    app.include_router(simulate.api)
    app.include_router(simulate.pages)
    app.include_router(page_dice.router)
    app.include_router(page_dice.api_router)
