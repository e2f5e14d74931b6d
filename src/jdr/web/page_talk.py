"""The table page's talk and notices: the message box, the MJ's reveal and roll requests, and the
notices (« c'est ton tour », rolls asked for) — the API's functions (`jdr.web.talk`) behind forms.

    POST /tables/{id}/f/message               a message (text, /me, /w NOM, /r, [[1d20+5]])
    POST /tables/{id}/f/reveler/{seq}         (MJ) show a hidden roll to everyone
    POST /tables/{id}/f/demande               (MJ) ask a player for a check
    POST /tables/{id}/f/demande/{seq}/lancer  roll what was asked (one click)
    GET  /tables/{id}/f/attente/{seq}         a roll waiting for a choice: its block, or « réglé »
    POST /tables/{id}/f/attente/{seq}/choix   answer it (one click)
    POST /tables/{id}/f/attente/{seq}/defaut  (MJ) settle it with the defaults
    POST /tables/{id}/f/attente/{seq}/abandon (MJ) abandon it
    GET  /tables/{id}/f/avis                  the notices: whose turn, rolls asked for with their
                                              odds, rolls waiting for the caller's choice
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from jdr.errors import JdrError
from jdr.web.auth import Caller
from jdr.web.deps import TableId
from jdr.web.errors import ApiError, validation_message
from jdr.web.models import MAX_ID
from jdr.web.pagekit import caller_from_cookie, failure, form_of, message, one, refreshed, render, server_of

router = APIRouter(include_in_schema=False)
Seq = Annotated[int, Path(ge=1, le=MAX_ID)]


def _model(kind: Any, data: dict[str, Any]) -> Any:
    try:
        return kind.model_validate(data)
    except ValidationError as exc:
        raise ApiError(422, validation_message(exc.errors())[1]) from None


async def _run(request: Request, id: int, run: Any, done: Any) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    server = server_of(request)
    try:
        answer = await run_in_threadpool(run, server, caller, form)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    server.hubs.wake(id)
    return refreshed(done(answer))


def _message(server: Any, caller: Caller, form: dict[str, list[str]]) -> dict[str, Any]:
    from jdr.web.models import Message
    from jdr.web.talk import run_message

    return run_message(server, caller, _model(Message, {"texte": one(form, "texte")}))


@router.post("/tables/{id}/f/message", response_class=HTMLResponse)
async def say(id: TableId, request: Request) -> HTMLResponse:
    return await _run(request, id, _message, lambda a: "Envoyé." if a["visibility"] == "public"
                      else "Chuchoté.")


@router.post("/tables/{id}/f/reveler/{seq}", response_class=HTMLResponse)
async def reveal(id: TableId, seq: Seq, request: Request) -> HTMLResponse:
    from jdr.web.talk import run_reveal

    return await _run(request, id, lambda _s, c, _f: run_reveal(c, seq),
                      lambda a: f"Révélé à tous (n° {a['seq']}).")


def _ask(server: Any, caller: Caller, form: dict[str, list[str]]) -> dict[str, Any]:
    from jdr.web.models import RollRequest
    from jdr.web.talk import run_request

    data: dict[str, Any] = {"personnage": one(form, "personnage"),
                            "competence": one(form, "competence"),
                            "visibilite": one(form, "visibilite", "public")}
    if one(form, "seuil"):
        data["seuil"] = one(form, "seuil")
    return run_request(server, caller, _model(RollRequest, data))


@router.post("/tables/{id}/f/demande", response_class=HTMLResponse)
async def ask(id: TableId, request: Request) -> HTMLResponse:
    return await _run(request, id, _ask, lambda a: f"Demande envoyée (n° {a['seq']}).")


def _answer(server: Any, caller: Caller, form: dict[str, list[str]], seq: int) -> dict[str, Any]:
    from jdr.web.models import Answer
    from jdr.web.page_play import hand_dice
    from jdr.web.talk import run_answer

    return run_answer(server, caller, seq, _model(Answer, {"des": hand_dice(one(form, "des"))}))


@router.post("/tables/{id}/f/demande/{seq}/lancer", response_class=HTMLResponse)
async def answer(id: TableId, seq: Seq, request: Request) -> HTMLResponse:
    return await _run(request, id, lambda s, c, f: _answer(s, c, f, seq),
                      lambda a: f"Jet n° {a['seq']} : {a['text'].splitlines()[0][:160]}")


def notices(server: Any, caller: Caller) -> dict[str, Any]:
    """Whose turn it is, and the rolls the MJ asked the caller for, each with its odds."""
    from jdr.web.models import Action
    from jdr.web.page_play import _odds_part
    from jdr.web.play import run_action
    from jdr.web.talk import pending, turn_of, turn_text

    asked = []
    for wanted in pending(caller)[-5:]:
        params = {k: wanted[k] for k in ("personnage", "competence", "seuil", "bonus") if wanted[k]}
        try:
            odds = _odds_part(run_action(server, caller, Action(type="odds", params=params))["result"])
        except (ApiError, JdrError):
            odds = None
        asked.append({**wanted, "chances": odds})
    turn = turn_of(caller)
    return {"tour": turn, "tour_de": turn_text(turn), "demandes": asked, "caller": caller,
            "attentes": waiting_views(server, caller)}


def waiting_view(waiting: dict[str, Any]) -> dict[str, Any]:
    """A waiting roll for its block (`_attente.html`): its dice chips, when its wait ends."""
    from datetime import UTC, datetime

    from jdr.web.dice_view import groups

    left = datetime.fromisoformat(waiting["expire"]) - datetime.now(UTC)
    minutes = max(1, -(-int(left.total_seconds()) // 60))
    chips = groups({"type": "attente", "resultat": waiting.get("resultat") or {}})
    return {**waiting, "groupes": chips,
            "delai": f"sera pris dans {minutes} minute{'s' if minutes > 1 else ''}"}


def waiting_views(server: Any, caller: Caller) -> list[dict[str, Any]]:
    from jdr.web.choice import pending

    found, settled = pending(caller)
    if settled:
        server.hubs.wake(caller.campaign.id)
    return [waiting_view(w) for w in found]


def _choice(seq: int, what: str) -> Any:
    def run(server: Any, caller: Caller, form: dict[str, list[str]]) -> dict[str, Any]:
        from jdr.web.choice import run_abandon, run_choice

        if what == "abandon":
            return run_abandon(caller, seq)
        if what == "defaut":
            return run_choice(caller, seq, None, True)
        choice = one(form, "choix")
        if not choice:
            raise ApiError(422, "choix : choisissez l'un des boutons")
        return run_choice(caller, seq, choice[:40])

    return run


async def _chosen(request: Request, id: int, seq: int, what: str) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    server = server_of(request)
    try:
        answer = await run_in_threadpool(_choice(seq, what), server, caller, form)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    server.hubs.wake(id)
    if "attente" in answer:  # the rules ask again
        return render("_attente.html", a=waiting_view(answer["attente"]), caller=caller,
                      headers={"HX-Trigger": "jdr-journal"})
    return refreshed(f"N° {answer['seq']} : {str(answer.get('text', '')).splitlines()[0][:160]}"
                     if answer.get("text") else f"N° {answer['seq']}.")


def _one_waiting(server: Any, caller: Caller, seq: int) -> dict[str, Any] | None:
    return next((w for w in waiting_views(server, caller) if w["seq"] == seq), None)


@router.get("/tables/{id}/f/attente/{seq}", response_class=HTMLResponse)
async def waiting_block(id: TableId, seq: Seq, request: Request) -> HTMLResponse:
    """The block again (the roll box keeps it up to date): the question, or that it is over."""
    caller = caller_from_cookie(request, id)
    found = await run_in_threadpool(_one_waiting, server_of(request), caller, seq)
    if found is None:
        return message(f"Choix fait : le jet n° {seq} est au journal.", "info")
    follow = request.query_params.get("suivi") == "1"
    return render("_attente.html", a=found, caller=caller, suivi=follow,
                  suffixe="-jet" if follow else "")


@router.post("/tables/{id}/f/attente/{seq}/choix", response_class=HTMLResponse)
async def choose(id: TableId, seq: Seq, request: Request) -> HTMLResponse:
    return await _chosen(request, id, seq, "choix")


@router.post("/tables/{id}/f/attente/{seq}/defaut", response_class=HTMLResponse)
async def by_default(id: TableId, seq: Seq, request: Request) -> HTMLResponse:
    return await _chosen(request, id, seq, "defaut")


@router.post("/tables/{id}/f/attente/{seq}/abandon", response_class=HTMLResponse)
async def drop(id: TableId, seq: Seq, request: Request) -> HTMLResponse:
    return await _chosen(request, id, seq, "abandon")


@router.get("/tables/{id}/f/avis", response_class=HTMLResponse)
async def notice(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    view = await run_in_threadpool(notices, server_of(request), caller)
    return render("_avis.html", **view)
