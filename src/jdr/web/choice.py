"""Rolls waiting for a player's choice, at the table (issue 17.4; `jdr.campaign.choices`).

    POST   /api/tables/{id}/actions                 202: the action waits for a choice
    GET    /api/tables/{id}/attentes                the waiting rolls the caller may see
    POST   /api/tables/{id}/attentes/{seq}/choix    answer the question (the roller, or the MJ)
    POST   /api/tables/{id}/attentes/{seq}/defaut   (MJ) the defaults, at once
    DELETE /api/tables/{id}/attentes/{seq}          (MJ) abandon a roll (nothing changes)

A waiting roll is named by its notice's number in the journal (`seq`). Its roller and the MJ see
it — the notice on the live channel, the list here, the buttons on the page; nobody else sees
anything until it completes (then its entry is journaled with the roll's mode). The answers:
`200` with the completed entry (as `/actions` gives it), or `202` with the notice and the next
question (`attente`) when the rules ask again.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response
from starlette.concurrency import run_in_threadpool

from jdr.web.auth import Caller
from jdr.web.deps import CallerDep, ServerDep
from jdr.web.errors import ApiError
from jdr.web.models import MAX_ID, ChoiceBody

router = APIRouter(prefix="/api/tables/{id}", tags=["jeu"])
Seq = Annotated[int, Path(ge=1, le=MAX_ID, description="Numéro de l'avis d'attente au journal.")]
WAITS: dict[int | str, dict[str, Any]] = {202: {"description": (
    "Le jet attend encore un choix : l'avis (entrée `attente` du journal) et la question, dans "
    "`attente`.")}}


def sight(caller: Caller, row: Any) -> bool:
    """Whether the caller sees this waiting roll (as it sees its notice)."""
    from jdr.campaign.choices import NOTICE_SIGHT

    mode = str(row.request.get("visibilite", "public"))
    return caller.sight(NOTICE_SIGHT.get(mode, "prive"), row.author) is not None


def may_answer(caller: Caller, row: Any) -> bool:
    from jdr.campaign.choices import answered_by

    return caller.is_mj or (answered_by(row) == "lanceur" and caller.is_named(row.author))


def waiting_json(caller: Caller, row: Any) -> dict[str, Any]:
    """A waiting roll as the API and the pages show it."""
    from jdr.campaign.choices import aware

    return {"seq": row.seq, "acteur": row.actor, "auteur": row.author,
            "type": row.request.get("type"), "mode": row.request.get("visibilite"),
            **row.question, "peut_repondre": may_answer(caller, row),
            "des": [{"sides": s, "face": f} for s, f in row.faces],
            "expire": aware(row.expires_at).isoformat()}


def pending(caller: Caller) -> tuple[list[dict[str, Any]], bool]:
    """The caller's waiting rolls (every one for the MJ), and whether some whose delay was over
    took their defaults first (the journal changed)."""
    from jdr.campaign.choices import brief, expired, rows, settle_expired

    with caller.campaign.reading() as tx:
        if not brief(tx):  # almost always: one light query
            return [], False
        found = rows(tx)
        if not any(expired(r) for r in found):
            return [waiting_json(caller, r) for r in found if sight(caller, r)], False
    with caller.campaign.transaction() as tx:
        settle_expired(tx)
        return [waiting_json(caller, r) for r in rows(tx) if sight(caller, r)], True


def waited(tx: Any, caller: Caller, entry: Any, row: Any) -> dict[str, Any]:
    """The notice as the caller sees it, with the question (`attente`)."""
    from jdr.web.live import seen

    shown = seen(caller, entry, entry.author) or {"seq": entry.seq}
    return {**shown, "attente": waiting_json(caller, row)}


def _row(tx: Any, caller: Caller, seq: int) -> Any:
    from jdr.campaign.choices import row_of

    row = row_of(tx, seq)
    if row is None or not sight(caller, row):
        raise ApiError(404, f"aucun jet n° {seq} n'attend de choix")
    return row


def run_choice(caller: Caller, seq: int, choice: str | None, settle: bool = False
               ) -> dict[str, Any]:
    """Answer (or settle with the defaults, MJ): the completed entry, or the next question."""
    from jdr.campaign.choices import answer
    from jdr.web.live import seen

    caller.require_player()
    with caller.campaign.transaction() as tx:
        row = _row(tx, caller, seq)
        if settle:
            caller.require_mj()
        elif not may_answer(caller, row):
            raise ApiError(403, "ce choix revient au MJ" if caller.is_named(row.author) else
                           "ce choix revient à son lanceur ou au MJ")
        entry, again = answer(tx, row, choice, settle)  # a refused answer: 422, in French
        if again is not None:
            (notice,) = tx.entries(since=again.seq - 1, limit=1)
            return waited(tx, caller, notice, again)
        assert entry is not None
        shown = seen(caller, entry, entry.author)
        return shown if shown is not None else {"seq": entry.seq, "masked": True}


def run_abandon(caller: Caller, seq: int) -> dict[str, Any]:
    from jdr.campaign.choices import abandon

    caller.require_mj()
    with caller.campaign.transaction() as tx:
        entry = abandon(tx, _row(tx, caller, seq), "le MJ l'abandonne", caller.name)
        return entry.to_json()


@router.get("/attentes", summary="Les jets qui attendent un choix, que l'appelant voit")
def waiting(caller: CallerDep, server: ServerDep) -> list[dict[str, Any]]:
    found, settled = pending(caller)
    if settled:
        server.hubs.wake(caller.campaign.id)
    return found


def _answered(answer: dict[str, Any], response: Response, caller: Caller, server: Any
              ) -> dict[str, Any]:
    if "attente" in answer:
        response.status_code = 202
    server.hubs.wake(caller.campaign.id)
    return answer


@router.post("/attentes/{seq}/choix", responses=WAITS,
             summary="Répond à la question d'un jet en attente (son lanceur, ou le MJ)")
async def choose(seq: Seq, body: ChoiceBody, response: Response, caller: CallerDep,
                 server: ServerDep) -> dict[str, Any]:
    answer = await run_in_threadpool(run_choice, caller, seq, body.choix)
    return _answered(answer, response, caller, server)


@router.post("/attentes/{seq}/defaut", summary="(MJ) Règle un jet en attente : les choix par défaut")
async def by_default(seq: Seq, response: Response, caller: CallerDep, server: ServerDep
                     ) -> dict[str, Any]:
    answer = await run_in_threadpool(run_choice, caller, seq, None, True)
    return _answered(answer, response, caller, server)


@router.delete("/attentes/{seq}", summary="(MJ) Abandonne un jet en attente : rien ne change")
async def drop(seq: Seq, caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    answer = await run_in_threadpool(run_abandon, caller, seq)
    server.hubs.wake(caller.campaign.id)
    return answer
