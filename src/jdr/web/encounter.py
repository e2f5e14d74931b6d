"""Le combat: the encounter of a table, seen by everyone, run by the MJ, fought turn by turn.

    GET  /tables/{id}/combat                  the page (panel + live journal)
    GET  /tables/{id}/f/combat                the state: round, order, whose turn, HP bars, states
    GET  /tables/{id}/f/combat/actions        the forms: attack, dice by hand, the MJ's steps
    POST /tables/{id}/f/combat/debut          (MJ) start: characters + NPC groups (template × count)
    POST /tables/{id}/f/combat/suivant        (MJ) next turn (the rules of each turn applied)
    POST /tables/{id}/f/combat/rejoindre      (MJ) characters join the encounter
    POST /tables/{id}/f/combat/quitter        (MJ) characters leave it
    POST /tables/{id}/f/combat/fin            (MJ) end the encounter
    POST /tables/{id}/f/combat/annuler        (MJ) undo the last action (the API's `run_undo`)

The attack and health-by-hand forms are the declarations' (`core.declare`), played through the
roll box's routes (`/f/formulaire`, `/f/chances`, `/f/jet`). Live events refresh the state only;
the forms are rendered again only when the turn or the combatants change (`data-cle`), so what
someone is typing stays, and a message stays until dismissed.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
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
    page_context,
    refreshed,
    render,
    server_of,
)

router = APIRouter(include_in_schema=False)


def _bar(hp: dict[str, Any] | None) -> dict[str, Any] | None:
    """An HP bar: the share left (PV), or the share of wounds not taken (blessures)."""
    if not hp:
        return None
    top, now = hp.get("max"), hp.get("current", 0)
    if not top:
        return {"texte": f"{now} {hp['unit']}", "part": 100, "niveau": "haut"}
    left = now / top if hp["unit"] == "pv" else 1 - now / top
    part = max(0, min(100, round(100 * left)))
    level = "haut" if part > 50 else "moyen" if part > 20 else "bas"
    unit = "PV" if hp["unit"] == "pv" else "blessures"
    return {"texte": f"{unit} {now}/{top}", "part": part, "niveau": level}


def panel_data(caller: Caller) -> dict[str, Any]:
    from jdr.campaign.encounter import view
    from jdr.render.json import to_json
    from jdr.web.visibility import known

    with caller.campaign.reading() as tx:
        infos = {i.name: i for i in tx.characters()}
        shown = to_json(view(tx)) if tx.encounter() is not None else None
        shown = known(caller, tx).encounter(shown) if shown is not None else None
    current = shown.get("current") if shown else None
    rows = [{**c, "barre": _bar(c.get("hit_points"))} for c in (shown or {}).get("order", [])]
    names = [r["name"] for r in rows]
    key = "" if shown is None else f"{shown.get('round')}|{current}|{'|'.join(names)}"
    return {"rencontre": shown, "lignes": rows, "courant": current, "cle": key,
            "combattants": names, "personnages": sorted(infos),
            "absents": [n for n in sorted(infos) if n not in names], "caller": caller}


def forms_data(caller: Caller) -> dict[str, Any]:
    """The forms of the panel, from the declarations: the attack of the current combatant (by
    default) on a combatant, and for the MJ health by hand."""
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.declare import form

    data = panel_data(caller)
    system = caller.campaign.system
    mine = [n for n in data["combattants"] if n in _mine(caller)]
    current = data["courant"]
    attack = None
    if data["rencontre"] and mine and caller.role != SPECTATEUR and "attack" in system.actions:
        first = current if current in mine else mine[0]
        with caller.campaign.reading() as tx:
            attack = form(CampaignWorkspace(tx), "attack", {"attaquant": first}, system,
                          data["combattants"], mine)
    health = None
    if caller.is_mj and data["rencontre"] and data["combattants"]:
        with caller.campaign.reading() as tx:
            health = form(CampaignWorkspace(tx), "sante", {"personnage": data["combattants"][0]},
                          system, data["combattants"])
    return {**data, "attaque": attack, "sante": health, "table": caller.campaign}


def _mine(caller: Caller) -> set[str]:
    with caller.campaign.reading() as tx:
        return {i.name for i in tx.characters() if caller.may_read_character(i.player)}


@router.get("/tables/{id}/combat", response_class=HTMLResponse)
def combat_page(id: TableId, request: Request) -> HTMLResponse:
    from jdr.web.pages import latest_views

    caller = caller_from_cookie(request, id)
    entries, older = latest_views(caller)
    from jdr.web.simulate import form_for

    context = {**forms_data(caller), **page_context(request, caller, "combat")}
    return render("combat.html", **context, equilibre=form_for(caller), entrees=entries,
                  plus_anciens=older,
                  dernier=entries[-1]["seq"] if entries else 0)


@router.get("/tables/{id}/f/combat", response_class=HTMLResponse)
def panel(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    return render("_combat_etat.html", **panel_data(caller))


@router.get("/tables/{id}/f/combat/actions", response_class=HTMLResponse)
def panel_forms(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    return render("_combat_actions.html", **forms_data(caller))


# ------------------------------------------------------------------ the MJ's steps


def _source(tx: Any) -> Any:
    """The step's dice: from the open séance's seed when there is one (issue 21)."""
    from jdr.campaign.seance import use_seance
    from jdr.core.usecase import Recording
    from jdr.dice.source import make_source

    return use_seance(tx, Recording(make_source(None)), None)


def _groups(form: dict[str, list[str]]) -> list[tuple[str, int, str]]:
    """(template, count, base name) of each NPC group of the start form."""
    out = []
    for template, count, base in zip(form.get("modele", []), form.get("nombre", []),
                                     form.get("groupe", []), strict=False):
        if template.strip() and count.strip():
            if not count.strip().isdigit():
                raise ApiError(422, "groupe de PNJ : un nombre de 1 à 100")
            out.append((template.strip(), int(count), base.strip() or template.strip()))
    return out


def start(caller: Caller, form: dict[str, list[str]]) -> None:
    from jdr.campaign.encounter import start as begin
    from jdr.core.sheet import SheetDocument

    caller.require_mj()
    names = [n for n in form.get("personnages", []) if n.strip()]
    with caller.campaign.transaction() as tx:
        for template, count, base in _groups(form):
            doc = tx.document(template)
            names += tx.add_group(SheetDocument.from_text(doc.dump(), doc.path), count, base)
        if not names:
            raise ApiError(422, "choisissez au moins un combattant")
        begin(tx, names, _source(tx), author=caller.name)


def step(caller: Caller, what: str, form: dict[str, list[str]] | None = None) -> None:
    """One step of the encounter, as its declaration says (`combat:…`, MJ only)."""
    from jdr.campaign.encounter import end, join, leave, next_turn
    from jdr.core.declare import ACTIONS

    action = ACTIONS[f"combat:{what}"]
    if action.who == "mj":
        caller.require_mj()
    names = [n.strip() for n in (form or {}).get("personnages", []) if n.strip()]
    if what in ("rejoindre", "quitter") and not names:
        raise ApiError(422, "choisissez au moins un personnage")
    with caller.campaign.transaction() as tx:
        if what == "suivant":
            next_turn(tx, _source(tx), author=caller.name)
        elif what == "rejoindre":
            join(tx, names, _source(tx), author=caller.name)
        elif what == "quitter":
            leave(tx, names, author=caller.name)
        else:
            end(tx, author=caller.name)


async def _mj_step(request: Request, id: int, run: Any, done: str) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    try:
        await run_in_threadpool(run, caller, form)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    server_of(request).hubs.wake(id)
    return refreshed(done)


@router.post("/tables/{id}/f/combat/debut", response_class=HTMLResponse)
async def begin(id: TableId, request: Request) -> HTMLResponse:
    return await _mj_step(request, id, start, "Le combat commence.")


@router.post("/tables/{id}/f/combat/suivant", response_class=HTMLResponse)
async def next_one(id: TableId, request: Request) -> HTMLResponse:
    return await _mj_step(request, id, lambda c, _f: step(c, "suivant"), "Tour suivant.")


@router.post("/tables/{id}/f/combat/rejoindre", response_class=HTMLResponse)
async def join_in(id: TableId, request: Request) -> HTMLResponse:
    return await _mj_step(request, id, lambda c, f: step(c, "rejoindre", f),
                          "Les arrivants rejoignent le combat.")


@router.post("/tables/{id}/f/combat/quitter", response_class=HTMLResponse)
async def leave_it(id: TableId, request: Request) -> HTMLResponse:
    return await _mj_step(request, id, lambda c, f: step(c, "quitter", f),
                          "Les partants quittent le combat.")


@router.post("/tables/{id}/f/combat/fin", response_class=HTMLResponse)
async def finish(id: TableId, request: Request) -> HTMLResponse:
    return await _mj_step(request, id, lambda c, _f: step(c, "fin"), "Combat terminé.")


@router.post("/tables/{id}/f/combat/annuler", response_class=HTMLResponse)
async def undo(id: TableId, request: Request) -> HTMLResponse:
    from jdr.web.play import run_undo

    server = server_of(request)
    return await _mj_step(request, id, lambda c, _f: run_undo(server, c),
                          "Dernière action annulée.")
