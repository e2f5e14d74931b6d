"""Playing at the table: actions (exactly as the CLI, through `core.actions`), undo, the journal.

An action runs in one campaign transaction: `execute` with a `CampaignWorkspace`, then `commit`
(sheets and journal entry together), then `NOTIFY` (PostgreSQL) before the commit of the
transaction; the local hub is woken once it is committed. The actions of the API that reach a
table together share one transaction (`jdr.web.batch`): played one after the other, committed
once, each answered after that commit. Odds, sheet views and `regle` with
`chances` change nothing and are not journaled: the answer is the result alone (`seq` null).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from starlette.concurrency import run_in_threadpool

from jdr.web.auth import Caller
from jdr.web.batch import Job
from jdr.web.characters import find, readable
from jdr.web.deps import CallerDep, ServerDep
from jdr.web.errors import ApiError, FrenchJSON
from jdr.web.live import PAGE, owners, seen
from jdr.web.models import MAX_ID, Action
from jdr.web.state import Server
from jdr.web.visibility import entries_for

router = APIRouter(prefix="/api/tables/{id}", tags=["jeu"])
MAX_JOURNAL = 1000


def dice_source(body: Action) -> Any:
    """`des` (faces rolled by hand) wins over `graine`, as on the command line."""
    from jdr.dice.source import make_source

    if body.des is not None:
        return make_source(None, ",".join(str(face) for face in body.des))
    return make_source(body.graine)


def check_rights(caller: Caller, tx: Any, body: Action) -> None:
    """The declaration's rights (`jdr.core.declare`): a spectateur never acts; an action
    reserved to the MJ (`sante`…) is refused to a joueur, who acts only as its own characters,
    never in secret."""
    from jdr.core.actions import check_params
    from jdr.core.declare import ACTIONS

    caller.require_player()
    if caller.is_mj:
        return
    if body.visibilite == "mj":
        raise ApiError(403, "seul le MJ fait des jets secrets (visibilite « mj »)")
    if body.derogation:
        raise ApiError(403, "seul le MJ déroge aux règles du tour (derogation)")
    if body.graine is not None:
        raise ApiError(403, "seul le MJ fixe la graine des dés")
    check_params(body.type, body.params)
    action = ACTIONS[body.type]
    if action.who == "mj":
        raise ApiError(403, f"« {action.label} » est réservé au MJ de la table")
    for ref in action.acting(body.params):
        readable(caller, find(tx, ref))


def _unjournaled(done: Any) -> dict[str, Any]:
    rec = done.rec
    return {"seq": None, "actor": rec.actor, "action": rec.action, "params": rec.params,
            "dice": rec.dice, "result": rec.result, "text": rec.text, "forum": rec.forum,
            "changes": [], "visibility": rec.visibility, "author": rec.author}


def _chooser(body: Action) -> Any:
    """Ask the player after the dice (`jdr.core.choices`): the action waits for the answer;
    `choix: defaut`: the default at once."""
    from jdr.core.actions import journaled
    from jdr.core.choices import scripted
    from jdr.core.system import default_choice

    return scripted([]) if body.choix == "attendre" and journaled(body.type) else default_choice


def _waits(tx: Any, caller: Caller, body: Action, ws: Any, source: Any, waiting: Any,
           after: Callable[[Any, int], None] | None) -> dict[str, Any]:
    """The action stopped at a question: its notice and its row (`jdr.campaign.choices`)."""
    from jdr.campaign.choices import Request, start
    from jdr.web.choice import waited

    _, loaded = tx.load(ws.refs)
    names = [sheet.name for sheet in loaded]
    request = Request(body.type, body.params, body.visibilite, body.derogation, body.des,
                      body.graine)
    entry, row = start(tx, request, waiting, source.rolls, names, caller.name, names[0])
    if after is not None:
        after(tx, entry.seq)
    return waited(tx, caller, entry, row)


def run_action(server: Server, caller: Caller, body: Action,
               after: Callable[[Any, int], None] | None = None) -> dict[str, Any]:
    """One action in one transaction; `after(tx, seq)` runs in it once the entry is written
    (the notice's, when the action waits for a choice: the answer has `attente`)."""
    from jdr.core.actions import journaled

    campaign = caller.campaign
    context = campaign.transaction() if journaled(body.type) else campaign.reading()
    with context as tx:
        check_rights(caller, tx, body)
        return play(tx, caller, body, after)


def play(tx: Any, caller: Caller, body: Action,
         after: Callable[[Any, int], None] | None = None) -> dict[str, Any]:
    """The action in the transaction `tx`, its rights checked (`check_rights`)."""
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.actions import commit, execute, journaled
    from jdr.core.choices import Waiting
    from jdr.core.usecase import Recording

    campaign = caller.campaign
    source = dice_source(body)
    if journaled(body.type):
        from jdr.campaign.choices import settle_expired
        from jdr.campaign.seance import reason_of, use_seance

        settle_expired(tx)  # a roll whose wait is over takes its defaults first
        source = use_seance(tx, source, reason_of(body.graine, body.des))
    ws = CampaignWorkspace(tx, force=body.derogation)
    source = Recording(source)
    try:
        done = execute(ws, body.type, body.params, source, chooser=_chooser(body),
                       actor=caller.name if body.type == "roll" else None,
                       visibility=body.visibilite, author=caller.name, system=campaign.system)
    except Waiting as waiting:
        return _waits(tx, caller, body, ws, source, waiting, after)
    if not done.journal:
        return _unjournaled(done)
    if body.visibilite == "moi" and (done.rec.changes or ws.turn is not None):
        raise ApiError(422, "visibilite « moi » (pour moi seul) : cette action change une fiche "
                            "ou compte dans le tour, le MJ doit la voir (prive ou aveugle)")
    seq = commit(ws, done)
    assert seq is not None
    if after is not None:
        after(tx, seq)  # marks another row (a request answered), never this entry
    entry = tx.appended[seq]  # as written: not read back
    shown = seen(caller, entry, entry.author)  # a blind roll's roller gets it masked
    assert shown is not None
    return shown


def check_action(caller: Caller, tx: Any, body: Action) -> None:
    """What refuses an action before it is played (it only reads): its rights, dice given by
    hand that are not dice. In a batch, such a refusal leaves the other actions be."""
    check_rights(caller, tx, body)
    if body.des is not None:
        dice_source(body)


def action_job(server: Server, caller: Caller, body: Action) -> Job:
    """The action as a job of its table's batches (`jdr.web.batch`)."""
    return Job(partial(check_action, caller, body=body), partial(play, caller=caller, body=body),
               partial(run_action, server, caller, body))


@router.post("/actions", responses={202: {"description": "L'action attend le choix d'un joueur "
                                                      "(voir /attentes) : l'avis et la question, "
                                                      "dans `attente`."}},
             summary="Une action (roll, check, odds, attack, xp, …) comme en ligne de commande",
             response_model=dict[str, Any])
async def act(body: Action, caller: CallerDep, server: ServerDep) -> Response:
    from jdr.core.actions import journaled

    if journaled(body.type):  # written with the other actions waiting for this table
        answer = await server.batches.run(caller.campaign, action_job(server, caller, body))
    else:
        answer = await run_in_threadpool(run_action, server, caller, body)
    if answer["seq"] is not None:
        server.hubs.wake(caller.campaign.id)
    # the answer is JSON already (the entry as the journal gives it): written out as it is, not
    # walked again by the response's validation (a few % of a server's time per action)
    return FrenchJSON(answer, status_code=202 if "attente" in answer else 200)


def run_undo(server: Server, caller: Caller) -> dict[str, Any]:
    from jdr.campaign.journal import undo
    from jdr.errors import RuleError

    caller.require_mj()
    with caller.campaign.transaction() as tx:
        try:
            entry = undo(tx, caller.name)
        except RuleError as exc:
            raise ApiError(409, exc.message) from None
        return entry.to_json()


@router.post("/annuler", summary="Annule la dernière action (MJ)")
async def cancel(caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    answer = await run_in_threadpool(run_undo, server, caller)
    server.hubs.wake(caller.campaign.id)
    return answer


Since = Annotated[int, Query(ge=0, le=MAX_ID, description="Entrées après ce numéro.")]


@router.get("/journal", summary="Les entrées du journal que l'appelant peut voir, dans l'ordre")
def journal(caller: CallerDep, depuis: Since = 0) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    with caller.campaign.reading() as tx:
        while len(out) < MAX_JOURNAL:
            page = owners(tx, tx.entries(since=depuis, limit=PAGE))
            for entry, owner in page:
                shown = seen(caller, entry, owner)
                if shown is not None and len(out) < MAX_JOURNAL:
                    out.append(shown)
            if len(page) < PAGE:
                break
            depuis = page[-1][0].seq
        return entries_for(caller, tx, out)

