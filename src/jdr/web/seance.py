"""Séances and verifiable dice on the table (issue 21).

    GET  /api/tables/{id}/seance                  the séances: numbers, commitments, seeds once
                                                  revealed (never the open séance's seed)
    POST /api/tables/{id}/seance/ouvrir           (MJ) open a séance: seed drawn, commitment journaled
    POST /api/tables/{id}/seance/fermer           (MJ) close it: the seed is revealed in the journal
    POST /api/tables/{id}/seance/contribution     a member's random contribution ({"valeur": hex})
    GET  /tables/{id}/f/seance                    the séance panel of the table page (HTML)
    POST /tables/{id}/f/seance/ouvrir|fermer      the MJ's buttons
    POST /tables/{id}/f/seance/contribution       the browser's own contribution (JSON body)
    GET  /tables/{id}/f/journal.json              the journal the caller may see, to download
    GET  /verifier                                the « Vérifier » page: checks a journal file in
                                                  the browser (WebCrypto), trusting no server

The seed lives in `jdr_seances` until the séance closes; the séance's dice are derived from it by
the campaign layer (`jdr.campaign.seance`), so several server processes on one PostgreSQL share it.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from jdr.errors import JdrError
from jdr.web.auth import Caller
from jdr.web.deps import CallerDep, ServerDep, TableId
from jdr.web.errors import ApiError
from jdr.web.models import Body
from jdr.web.pagekit import caller_from_cookie, failure, message, refreshed, render, server_of

router = APIRouter(prefix="/api/tables/{id}", tags=["séances"])
pages = APIRouter(include_in_schema=False)


class Contribution(Body):
    valeur: str = Field(min_length=16, max_length=128, pattern="^[0-9a-fA-F]+$",
                        description="Contribution aléatoire du navigateur (hexadécimal).")


def _status(caller: Caller) -> dict[str, Any]:
    from jdr.campaign.seance import status

    with caller.campaign.reading() as tx:
        return status(tx)


def _open(caller: Caller) -> list[dict[str, Any]]:
    from jdr.campaign.seance import open_seance

    caller.require_mj()
    with caller.campaign.transaction() as tx:
        return [e.to_json() for e in open_seance(tx, caller.name)]


def _close(caller: Caller) -> dict[str, Any]:
    from jdr.campaign.seance import close_seance

    caller.require_mj()
    with caller.campaign.transaction() as tx:
        return close_seance(tx, caller.name).to_json()


def _contribute(caller: Caller, value: str) -> dict[str, Any]:
    from jdr.campaign.seance import contribute

    with caller.campaign.transaction() as tx:
        return contribute(tx, value, caller.name).to_json()


async def _run(server: Any, caller: Caller, fn: Any, *args: Any) -> Any:
    try:
        answer = await run_in_threadpool(fn, caller, *args)
    except JdrError as exc:
        raise failure(exc) from None
    server.hubs.wake(caller.campaign.id)
    return answer


@router.get("/seance", summary="Les séances : engagements, graines une fois révélées")
def seance_status(caller: CallerDep) -> dict[str, Any]:
    return _status(caller)


@router.post("/seance/ouvrir", status_code=201, summary="(MJ) Ouvre une séance : engagement publié")
async def seance_open(caller: CallerDep, server: ServerDep) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = await _run(server, caller, _open)
    return answer


@router.post("/seance/fermer", summary="(MJ) Ferme la séance : la graine est révélée")
async def seance_close(caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    answer: dict[str, Any] = await _run(server, caller, _close)
    return answer


@router.post("/seance/contribution", status_code=201,
             summary="Contribution aléatoire d'un membre aux dés de la séance")
async def seance_contribution(body: Contribution, caller: CallerDep, server: ServerDep
                              ) -> dict[str, Any]:
    answer: dict[str, Any] = await _run(server, caller, _contribute, body.valeur)
    return answer


# ------------------------------------------------------------------ pages


@pages.get("/tables/{id}/f/seance", response_class=HTMLResponse)
def seance_panel(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    data = _status(caller)
    return render("_seance.html", caller=caller, table=caller.campaign, seance=data["current"],
                  closed=[s for s in data["seances"] if not s["ouverte"]][-3:])


async def _page_step(request: Request, id: int, fn: Any, done: str) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    try:
        await _run(server_of(request), caller, fn)
    except ApiError as exc:
        return message(exc.message)
    return refreshed(done)


@pages.post("/tables/{id}/f/seance/ouvrir", response_class=HTMLResponse)
async def page_open(id: TableId, request: Request) -> HTMLResponse:
    return await _page_step(request, id, _open, "Séance ouverte : engagement publié au journal.")


@pages.post("/tables/{id}/f/seance/fermer", response_class=HTMLResponse)
async def page_close(id: TableId, request: Request) -> HTMLResponse:
    return await _page_step(request, id, _close, "Séance fermée : graine révélée au journal.")


@pages.post("/tables/{id}/f/seance/contribution")
async def page_contribution(id: TableId, request: Request) -> Response:
    caller = caller_from_cookie(request, id)
    try:
        body = Contribution.model_validate(json.loads(await request.body()))
    except ValueError:
        raise ApiError(422, "contribution : de 16 à 128 chiffres hexadécimaux attendus") from None
    answer = await _run(server_of(request), caller, _contribute, body.valeur)
    return Response(json.dumps({"seq": answer["seq"]}), status_code=201,
                    media_type="application/json")


@pages.get("/tables/{id}/f/journal.json")
def journal_file(id: TableId, request: Request) -> Response:
    caller = caller_from_cookie(request, id)
    entries = visible_journal(caller)
    headers = {"Content-Disposition": f'attachment; filename="journal-table-{id}.json"'}
    return Response(json.dumps(entries, ensure_ascii=False, indent=1), media_type="application/json",
                    headers=headers)


MAX_EXPORT = 200_000


def visible_journal(caller: Caller) -> list[dict[str, Any]]:
    """Every entry the caller may see, in order (what the verifier is fed)."""
    from jdr.web.live import PAGE, owners
    from jdr.web.visibility import entries_for

    out: list[dict[str, Any]] = []
    since = 0
    with caller.campaign.reading() as tx:
        while len(out) < MAX_EXPORT:
            page = owners(tx, tx.entries(since=since, limit=PAGE))
            out += [e.to_json() for e, owner in page if caller.may_see(e.visibility, owner)]
            if len(page) < PAGE:
                break
            since = page[-1][0].seq
        return entries_for(caller, tx, out[:MAX_EXPORT])  # a fight as the caller may see it


@pages.get("/verifier", response_class=HTMLResponse)
def verifier_page(request: Request) -> HTMLResponse:
    return render("verifier.html", request=request)


def install(app: Any) -> None:
    app.include_router(router)
    app.include_router(pages)
