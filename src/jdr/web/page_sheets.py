"""Les fiches: each sheet as its system lays it out, the sheet form, YAML import and
export, XP spending with its cost shown before confirming.

    GET  /tables/{id}/fiches                     the caller's characters, the import form
    POST /tables/{id}/fiches                     import a YAML sheet (the API's `create_character`)
    GET  /tables/{id}/fiches/{nom}               the sheet view, the edit form, XP
    GET  /tables/{id}/fiches/{nom}/yaml          export
    POST /tables/{id}/f/fiches/{nom}/xp          preview a purchase (dry run: nothing written)
    POST /tables/{id}/f/fiches/{nom}/xp/achat    buy it (the API's `run_action`, journaled)

The form that edits the sheet (every key the system's schema declares, lists and maps one can
add to) is the one of `page_sheetform`, which also creates new sheets.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from jdr.errors import JdrError
from jdr.web.auth import SPECTATEUR, Caller
from jdr.web.deps import TableId
from jdr.web.errors import ApiError
from jdr.web.pagekit import (
    caller_from_cookie,
    failure,
    form_of,
    message,
    one,
    page_context,
    problems_of,
    refreshed,
    render,
    server_of,
)

router = APIRouter(include_in_schema=False)
Name = Annotated[str, PathParam(min_length=1, max_length=200)]
PREFIX = "f/"


# ------------------------------------------------------------------ reading


def _sheet_data(caller: Caller, name: str) -> dict[str, Any]:
    from jdr.web.characters import get_character

    view = get_character(name, caller, "json")
    yaml = get_character(name, caller, "yaml").body.decode("utf-8")
    return {"info": view, "yaml": yaml}


def sheet_page(request: Request, caller: Caller, name: str, status: int = 200,
               **extra: Any) -> HTMLResponse:
    """The sheet view, XP, and the sheet form (`page_sheetform`) filled with the stored sheet."""
    from jdr.web.page_sheetform import blank_form

    data = _sheet_data(caller, name)
    info = data["info"]
    context = blank_form(request, caller, info["nom"], str(info["version"]), data["yaml"])
    context.update(perso=info, xp=xp_form(caller, info["nom"]), **extra)
    return render("fiche.html", status=status, **context)


def xp_form(caller: Caller, name: str) -> Any:
    """The declaration's XP form for this sheet (None when the system spends no XP): the
    character is the page's own, its lists (skills, characteristics, options) the system's."""
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.declare import form

    system = caller.campaign.system
    if "xp" not in system.actions or caller.role == SPECTATEUR:
        return None
    with caller.campaign.reading() as tx:
        view = form(CampaignWorkspace(tx), "xp", {"personnage": name}, system, [name])
    view.fields = [f for f in view.fields if f.name != "personnage"]  # the page's own
    return view


@router.get("/tables/{id}/fiches", response_class=HTMLResponse)
def sheets(id: TableId, request: Request) -> HTMLResponse:
    return sheets_page(id, request)


def sheets_page(id: int, request: Request, **extra: Any) -> HTMLResponse:
    from jdr.web.characters import list_characters

    caller = caller_from_cookie(request, id)
    people = list_characters(caller)
    players = [m["nom"] for m in server_of(request).members(caller)
               if m["role"] == "joueur" and not m["revoque"]] if caller.is_mj else []
    return render("fiches.html", **page_context(request, caller, "fiches"), persos=people,
                  joueurs=players, **extra)


@router.post("/tables/{id}/fiches", response_class=HTMLResponse)
async def import_sheet(id: TableId, request: Request) -> HTMLResponse:
    from jdr.web.characters import create_character
    from jdr.web.models import NewCharacter

    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    try:
        body = NewCharacter(yaml=one(form, "yaml") or " ", joueur=one(form, "joueur") or None)
        made = await run_in_threadpool(create_character, body, caller, server_of(request))
    except (ApiError, JdrError) as exc:
        error = failure(exc)
        return sheets_page(id, request, erreur=error.message, problemes=problems_of(exc),
                           yaml=one(form, "yaml"))
    return sheets_page(id, request, info=f"« {made['nom']} » importé.")


@router.get("/tables/{id}/fiches/{nom}", response_class=HTMLResponse)
def sheet(id: TableId, nom: Name, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    return sheet_page(request, caller, nom)


@router.get("/tables/{id}/fiches/{nom}/yaml")
def export(id: TableId, nom: Name, request: Request) -> Response:
    from urllib.parse import quote

    from jdr.web.characters import get_character

    caller = caller_from_cookie(request, id)
    answer: Response = get_character(nom, caller, "yaml")
    answer.headers["Content-Disposition"] = f"attachment; filename*=UTF-8''{quote(nom)}.yaml"
    return answer


# ------------------------------------------------------------------ XP


def xp_params(name: str, form: dict[str, list[str]]) -> dict[str, Any]:
    """The declared XP form's fields as the action's `params`, for the page's character."""
    from jdr.core.declare import params_from_form

    return {**params_from_form("xp", form), "personnage": name}


def xp_preview(caller: Caller, name: str, params: dict[str, Any]) -> dict[str, Any]:
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.actions import execute
    from jdr.render.json import to_json
    from jdr.web.characters import find, readable

    caller.require_player()
    with caller.campaign.reading() as tx:
        readable(caller, find(tx, name))
        done = execute(CampaignWorkspace(tx), "xp", params, dry_run=True)
        return {"achat": to_json(done.result), "texte": done.rec.text}


@router.post("/tables/{id}/f/fiches/{nom}/xp", response_class=HTMLResponse)
async def xp_cost(id: TableId, nom: Name, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    try:
        params = xp_params(nom, form)
        preview = await run_in_threadpool(xp_preview, caller, nom, params)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    from jdr.core.declare import form_values

    return render("_xp.html", caller=caller, nom=nom, champs=form_values("xp", params),
                  **preview)


@router.post("/tables/{id}/f/fiches/{nom}/xp/achat", response_class=HTMLResponse)
async def xp_buy(id: TableId, nom: Name, request: Request) -> HTMLResponse:
    from jdr.web.models import Action
    from jdr.web.play import run_action

    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    server = server_of(request)
    try:
        body = Action(type="xp", params=xp_params(nom, form))
        answer = await run_in_threadpool(run_action, server, caller, body)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    server.hubs.wake(id)
    response = refreshed(f"Achat fait : {answer['text'].splitlines()[0]}")
    response.headers["HX-Refresh"] = "true"
    return response
