"""Les fiches: each sheet as its system lays it out, a form built from the sheet, YAML import and
export, XP spending with its cost shown before confirming.

    GET  /tables/{id}/fiches                     the caller's characters, the import form
    POST /tables/{id}/fiches                     import a YAML sheet (the API's `create_character`)
    GET  /tables/{id}/fiches/{nom}               the sheet view, the edit form, XP
    POST /tables/{id}/fiches/{nom}               save the form (the API's `update_character`)
    GET  /tables/{id}/fiches/{nom}/yaml          export
    POST /tables/{id}/f/fiches/{nom}/xp          preview a purchase (dry run: nothing written)
    POST /tables/{id}/f/fiches/{nom}/xp/achat    buy it (the API's `run_action`, journaled)

The form has one input per value of the YAML (`f/` + the path of keys and list indexes); on
save the sheet is rebuilt from its stored YAML with the inputs' values, then validated by the API
path; each problem the system reports (`chemin.de.champ = valeur : raison`) goes beside its input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from jdr.errors import JdrError
from jdr.web.auth import Caller
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
XP_KINDS = {"competence": "compétence", "carac": "caractéristique", "pv": "points de vie"}


@dataclass
class Field:
    path: tuple[str, ...]
    value: str
    kind: str  # int, bool, list, text, none
    errors: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return PREFIX + "/".join(self.path)

    @property
    def label(self) -> str:
        return " › ".join(p if not p.isdigit() else f"n° {int(p) + 1}" for p in self.path)

    @property
    def ident(self) -> str:
        return "champ-" + "-".join(p.replace(" ", "_") for p in self.path)


def _kind(value: Any) -> tuple[str, str]:
    if isinstance(value, bool):
        return "bool", "oui" if value else "non"
    if isinstance(value, int):
        return "int", str(value)
    if isinstance(value, list):
        return "list", ", ".join(str(v) for v in value)
    if value is None:
        return "none", ""
    return "text", str(value)


def fields_of(data: Any, path: tuple[str, ...] = ()) -> list[Field]:
    """One field per value of the sheet: tables and lists of tables are walked through."""
    out: list[Field] = []
    if isinstance(data, dict):
        items: list[tuple[str, Any]] = [(str(k), v) for k, v in data.items()]
    elif isinstance(data, list) and any(isinstance(v, dict) for v in data):
        items = [(str(i), v) for i, v in enumerate(data)]
    else:
        kind, text = _kind(data)
        return [Field(path, text, kind)]
    for key, value in items:
        out += fields_of(value, (*path, key))
    return out


def _convert(kind: str, text: str) -> Any:
    """A form value back to YAML: what does not read as its kind is kept as text (the system's
    validation then says why, in French)."""
    number = text.lstrip("-").isdigit() and len(text) < 12
    if kind in ("int", "none") and number:
        return int(text)
    if kind == "bool":
        return {"oui": True, "non": False}.get(text.lower(), text)
    if kind == "list":
        items = [p.strip() for p in text.split(",") if p.strip()]
        return [int(p) if p.isdigit() and len(p) < 12 else p for p in items]
    if kind == "none" and not text:
        return None
    return text


def rebuild(text: str, form: dict[str, list[str]]) -> tuple[str, list[Field]]:
    """The stored YAML with the form's values put in (comments and spelling kept)."""
    from pathlib import Path

    from jdr.core.sheet import SheetDocument

    doc = SheetDocument.from_text(text, Path("fiche.yaml"))
    fields = fields_of(doc.plain())
    for f in fields:
        if f.name not in form:
            continue
        f.value = one(form, f.name)
        node: Any = doc.data
        for seg in f.path[:-1]:
            node = node[int(seg)] if isinstance(node, list) else node[seg]
        last = f.path[-1]
        node[int(last) if isinstance(node, list) else last] = _convert(f.kind, f.value)
    return doc.dump(), fields


def place_problems(fields: list[Field], problems: list[str]) -> list[str]:
    """Put each problem beside its input; the ones matching no input are returned."""
    from jdr.names import normalize

    keyed = {tuple(normalize(p) for p in f.path): f for f in fields}
    left = []
    for problem in problems:
        where = problem.split(" = ")[0].split(" : ")[0].strip()
        key = tuple(normalize(p) for p in where.split(".") if p)
        target = keyed.get(key) or next((f for k, f in keyed.items() if k[:len(key)] == key and key),
                                        None)
        if target is None:
            left.append(problem)
        else:
            target.errors.append(problem)
    return left


# ------------------------------------------------------------------ reading


def _sheet_data(caller: Caller, name: str) -> dict[str, Any]:
    from jdr.web.characters import get_character

    view = get_character(name, caller, "json")
    yaml = get_character(name, caller, "yaml").body.decode("utf-8")
    return {"info": view, "yaml": yaml}


def sheet_page(request: Request, caller: Caller, name: str, status: int = 200,
               fields: list[Field] | None = None, **extra: Any) -> HTMLResponse:
    from pathlib import Path

    from jdr.core.sheet import SheetDocument

    data = _sheet_data(caller, name)
    if fields is None:
        fields = fields_of(SheetDocument.from_text(data["yaml"], Path("fiche.yaml")).plain())
    info = data["info"]
    skills = [row["key"] for s in info["fiche"]["sections"] for row in s["rows"]]
    return render("fiche.html", status=status, **page_context(request, caller, "fiches"),
                  perso=info, champs=fields, achats=XP_KINDS, cles=skills, **extra)


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


def save(server: Any, caller: Caller, name: str, form: dict[str, list[str]]
         ) -> tuple[list[Field], str | None, list[str]]:
    """(fields, error, problems left): the API's update with the rebuilt sheet."""
    from jdr.web.characters import update_character
    from jdr.web.models import CharacterUpdate

    text = _sheet_data(caller, name)["yaml"]
    yaml, fields = rebuild(text, form)
    version = one(form, "version")
    try:
        body = CharacterUpdate(yaml=yaml, version=int(version) if version.isdigit() else 1)
        update_character(name, body, caller, server)
    except (ApiError, JdrError) as exc:
        left = place_problems(fields, problems_of(exc))
        return fields, failure(exc).message, left
    return fields, None, []


@router.post("/tables/{id}/fiches/{nom}", response_class=HTMLResponse)
async def save_sheet(id: TableId, nom: Name, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    fields, error, left = await run_in_threadpool(save, server_of(request), caller, nom, form)
    if error is not None:
        return sheet_page(request, caller, nom, 422, fields, erreur=error, problemes=left)
    server_of(request).hubs.wake(id)
    return sheet_page(request, caller, nom, info="Fiche enregistrée.")


# ------------------------------------------------------------------ XP


def xp_params(name: str, form: dict[str, list[str]]) -> dict[str, Any]:
    kind = one(form, "achat", "competence")
    if kind == "pv":
        return {"personnage": name, "pv": True}
    if kind not in ("competence", "carac"):
        raise ApiError(422, "achat : compétence, caractéristique ou points de vie")
    return {"personnage": name, kind: one(form, "cible")}


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
    return render("_xp.html", caller=caller, nom=nom, genre=one(form, "achat"),
                  cible=one(form, "cible"), **preview)


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
