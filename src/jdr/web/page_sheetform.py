"""The sheet form: a new sheet or an existing one edited without YAML, from the system's declared
schema (`jdr.core.sheetform`; this module knows no system).

    GET  /tables/{id}/nouvelle-fiche      the form, filled with the system's template
    POST /tables/{id}/nouvelle-fiche      create (the API's `create_character`), creation rules
    POST /tables/{id}/f/fiche/enregistrer save an existing sheet (the API's versioned update)
    POST /tables/{id}/f/fiche/valider     every problem of the draft, beside its field (htmx
                                          out-of-band swaps: one place per field, emptied too)
    POST /tables/{id}/f/fiche/element     a new empty item of a list or a map

A draft is the stored YAML (or the template) with the form's values put in: comments, key order
and spelling are kept where keys survive, keys the form does not know stay as they were.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from jdr.core import sheetdraft, sheetform
from jdr.errors import JdrError
from jdr.web.auth import Caller
from jdr.web.deps import TableId
from jdr.web.errors import ApiError
from jdr.web.pagekit import (
    caller_from_cookie,
    failure,
    form_of,
    one,
    page_context,
    render,
    server_of,
)

router = APIRouter(include_in_schema=False)
Form = dict[str, list[str]]
REFUSED = "la fiche a des problèmes : corrigez les champs signalés"


def _system(caller: Caller) -> Any:
    from jdr.core.registry import get_system

    return get_system(caller.campaign.system_id)


def _players(request: Request, caller: Caller) -> list[str]:
    if not caller.is_mj:
        return []
    return [m["nom"] for m in server_of(request).members(caller)
            if m["role"] == "joueur" and not m["revoque"]]


def _base(caller: Caller, name: str) -> str:
    """The YAML a draft starts from: the stored sheet, or the system's template."""
    if not name:
        return str(_system(caller).template())
    from jdr.web.characters import get_character

    return str(get_character(name, caller, "yaml").body.decode("utf-8"))


def _context(request: Request, caller: Caller, root: sheetform.Node, name: str,
             version: str, **extra: Any) -> dict[str, Any]:
    table = caller.campaign.id
    action = (f"/tables/{table}/f/fiche/enregistrer" if name else f"/tables/{table}/nouvelle-fiche")
    return {**page_context(request, caller, "fiches"), "racine": root, "action": action,
            "personnage": name, "version": version, "joueurs": [] if name else
            _players(request, caller),
            "bouton": "Enregistrer" if name else "Créer le personnage", **extra}


def blank_form(request: Request, caller: Caller, name: str = "", version: str = "",
               text: str | None = None) -> dict[str, Any]:
    """The context of the form filled with the sheet `name` (its YAML `text` when read
    already; the template when there is no name)."""
    from pathlib import Path

    from jdr.core.sheet import SheetDocument

    schema = sheetform.schema_of(sheetform.form_data(_system(caller)))
    base = text if text is not None else _base(caller, name)
    data = SheetDocument.from_text(base, Path("fiche.yaml")).plain()
    return _context(request, caller, sheetform.nodes(schema, data), name, version)


def check(caller: Caller, form: Form) -> tuple[sheetform.Node, Any, list[str]]:
    """(the form's nodes with their problems, the draft's document, the problems placed
    nowhere)."""
    system = _system(caller)
    data = sheetform.form_data(system)
    name = one(form, "personnage")
    doc = sheetdraft.draft_document(data, _base(caller, name), form)
    problems = sheetdraft.document_problems(system, doc, creating=not name)
    root = sheetform.form_nodes(sheetform.schema_of(data), form)
    return root, doc, sheetform.place(root, problems)


def _refused(root: sheetform.Node, exc: Exception) -> tuple[str, list[str]]:
    """A refusal of the API path: its message, its problems beside their fields."""
    from jdr.errors import SheetError, locate

    error = failure(exc)
    lines = list(exc.problems) if isinstance(exc, SheetError) else \
        [str(p) for p in error.extra.get("problemes", [])]
    left = sheetform.place(root, [locate(p) for p in lines])
    return error.message, left


def _form_answer(request: Request, caller: Caller, form: Form, root: sheetform.Node,
                 **extra: Any) -> HTMLResponse:
    context = _context(request, caller, root, one(form, "personnage"), one(form, "version"),
                       joueur=one(form, "joueur"), **extra)
    return render("_fiche_form.html", **context)


@router.get("/tables/{id}/nouvelle-fiche", response_class=HTMLResponse)
def new_sheet(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    caller.require_player()
    return render("fiche-nouvelle.html", **blank_form(request, caller))


@router.post("/tables/{id}/f/fiche/valider", response_class=HTMLResponse)
async def validate(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    try:
        root, _, left = await run_in_threadpool(check, caller, form)
    except (ApiError, JdrError) as exc:
        return render("_fiche_form.html", oob=True, racine=None, erreur=failure(exc).message)
    return render("_fiche_form.html", oob=True, racine=root, problemes=left, table=caller.campaign)


@router.post("/tables/{id}/f/fiche/element", response_class=HTMLResponse)
async def new_element(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    schema = sheetform.schema_of(sheetform.form_data(_system(caller)))
    item = sheetform.new_item(schema, form, one(form, "liste"))
    if item is None:
        raise ApiError(422, "liste : ce champ de la fiche n'est pas une liste")
    return render("_fiche_form.html", element_seul=item, table=caller.campaign)


def create(request: Request, caller: Caller, form: Form) -> tuple[sheetform.Node, Any]:
    """(nodes, the created character or the refusal: message and problems left)."""
    from jdr.web.characters import create_character
    from jdr.web.models import NewCharacter

    caller.require_player()
    root, doc, left = check(caller, form)
    if any(n.problems for n in root.all()) or left:
        return root, (REFUSED, left)
    try:
        body = NewCharacter(yaml=doc.dump(), joueur=one(form, "joueur") or None)
        return root, create_character(body, caller, server_of(request))
    except (ApiError, JdrError) as exc:
        return root, _refused(root, exc)


@router.post("/tables/{id}/nouvelle-fiche", response_class=HTMLResponse)
async def create_sheet(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    root, done = await run_in_threadpool(create, request, caller, form)
    if isinstance(done, tuple):
        return _form_answer(request, caller, form, root, erreur=done[0], problemes=done[1])
    server_of(request).hubs.wake(id)
    return _redirect(id, done["nom"])


def _redirect(table: int, name: str) -> HTMLResponse:
    url = f"/tables/{table}/fiches/{quote(name)}"
    return HTMLResponse(f'<p class="message ok">Fiche enregistrée : <a href="{url}">la voir</a></p>',
                        headers={"HX-Redirect": url})


def save(request: Request, caller: Caller, form: Form) -> tuple[sheetform.Node, Any]:
    from jdr.web.characters import update_character
    from jdr.web.models import CharacterUpdate

    caller.require_player()
    root, doc, left = check(caller, form)
    if any(n.problems for n in root.all()) or left:
        return root, (REFUSED, left)
    version = one(form, "version")
    try:
        body = CharacterUpdate(yaml=doc.dump(), version=int(version) if version.isdigit() else 1)
        return root, update_character(one(form, "personnage"), body, caller, server_of(request))
    except (ApiError, JdrError) as exc:
        return root, _refused(root, exc)


@router.post("/tables/{id}/f/fiche/enregistrer", response_class=HTMLResponse)
async def save_sheet(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    root, done = await run_in_threadpool(save, request, caller, form)
    if isinstance(done, tuple):
        return _form_answer(request, caller, form, root, erreur=done[0], problemes=done[1])
    server_of(request).hubs.wake(id)
    return _redirect(id, done["nom"])

