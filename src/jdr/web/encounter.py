"""Le combat: the encounter of a table, seen by everyone, run by the MJ, fought turn by turn.

    GET  /tables/{id}/combat                  the page (panel + live journal)
    GET  /tables/{id}/f/combat                the panel: round, order, whose turn, HP bars, states
    POST /tables/{id}/f/combat/debut          (MJ) start: characters + NPC groups (template × count)
    POST /tables/{id}/f/combat/suivant        (MJ) next turn (the rules of each turn applied)
    POST /tables/{id}/f/combat/fin            (MJ) end the encounter
    POST /tables/{id}/f/combat/sante          (MJ) damage or healing by hand (`sante`)
    POST /tables/{id}/f/combat/annuler        (MJ) undo the last action (the API's `run_undo`)
    POST /tables/{id}/f/combat/chances        the odds of the attack being chosen (`odds --contre`)
    POST /tables/{id}/f/combat/attaque        the current combatant attacks (MJ or its player)

Every step goes through `jdr.campaign.encounter` or the API's `run_action`, in one campaign
transaction, journaled; the core refuses what the rules forbid and the French reason is shown.
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
    one,
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


def _weapons(plain: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, skill) of each weapon written on a sheet (`armes`)."""
    out = []
    for item in plain.get("armes") or []:
        if isinstance(item, dict) and item.get("nom"):
            out.append((str(item["nom"]), str(item.get("competence") or "")))
    return out


def panel_data(caller: Caller) -> dict[str, Any]:
    from jdr.campaign.encounter import view
    from jdr.render.json import to_json
    from jdr.web.visibility import known

    with caller.campaign.reading() as tx:
        infos = {i.name: i for i in tx.characters()}
        shown = to_json(view(tx)) if tx.encounter() is not None else None
        shown = known(caller, tx).encounter(shown) if shown is not None else None
        current = shown.get("current") if shown else None
        weapons = _weapons(tx.document(current).plain()) if current in infos else []
    rows = [{**c, "barre": _bar(c.get("hit_points"))} for c in (shown or {}).get("order", [])]
    player = infos[current].player if current in infos else None
    may_attack = current is not None and (caller.is_mj or caller.owns(player))
    return {"rencontre": shown, "lignes": rows, "courant": current, "armes": weapons,
            "peut_attaquer": may_attack and caller.role != SPECTATEUR,
            "cibles": [r["name"] for r in rows if r["name"] != current],
            "personnages": sorted(infos), "caller": caller}


@router.get("/tables/{id}/combat", response_class=HTMLResponse)
def combat_page(id: TableId, request: Request) -> HTMLResponse:
    from jdr.web.pages import latest_views

    caller = caller_from_cookie(request, id)
    entries, older = latest_views(caller)
    context = {**panel_data(caller), **page_context(request, caller, "combat")}
    return render("combat.html", **context, entrees=entries, plus_anciens=older,
                  dernier=entries[-1]["seq"] if entries else 0)


@router.get("/tables/{id}/f/combat", response_class=HTMLResponse)
def panel(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    return render("_combat.html", **panel_data(caller))


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


def step(caller: Caller, what: str) -> None:
    from jdr.campaign.encounter import end, next_turn

    caller.require_mj()
    with caller.campaign.transaction() as tx:
        if what == "suivant":
            next_turn(tx, _source(tx), author=caller.name)
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


@router.post("/tables/{id}/f/combat/fin", response_class=HTMLResponse)
async def finish(id: TableId, request: Request) -> HTMLResponse:
    return await _mj_step(request, id, lambda c, _f: step(c, "fin"), "Combat terminé.")


@router.post("/tables/{id}/f/combat/annuler", response_class=HTMLResponse)
async def undo(id: TableId, request: Request) -> HTMLResponse:
    from jdr.web.play import run_undo

    server = server_of(request)
    return await _mj_step(request, id, lambda c, _f: run_undo(server, c),
                          "Dernière action annulée.")


def health(server: Any, caller: Caller, form: dict[str, list[str]]) -> None:
    from jdr.web.models import Action
    from jdr.web.play import run_action

    caller.require_mj()
    run_action(server, caller, Action(type="sante", params={
        "personnage": one(form, "personnage"), "valeur": one(form, "valeur")}))


@router.post("/tables/{id}/f/combat/sante", response_class=HTMLResponse)
async def hand_health(id: TableId, request: Request) -> HTMLResponse:
    server = server_of(request)
    return await _mj_step(request, id, lambda c, f: health(server, c, f), "Santé changée.")


# ------------------------------------------------------------------ the attack


def attack_params(caller: Caller, form: dict[str, list[str]]) -> dict[str, Any]:
    """The attack of the current combatant (only them, on their turn)."""
    data = panel_data(caller)
    current = data["courant"]
    if current is None:
        raise ApiError(409, "aucun tour en cours : le MJ lance le combat")
    if not data["peut_attaquer"]:
        raise ApiError(403, f"c'est le tour de {current} : ce n'est pas un de vos personnages")
    params = {"attaquant": current, "defenseur": one(form, "defenseur")}
    for key in ("arme", "defense"):
        if one(form, key):
            params[key] = one(form, key)
    return params


def attack_odds(server: Any, caller: Caller, form: dict[str, list[str]]) -> dict[str, Any]:
    from jdr.web.models import Action
    from jdr.web.page_play import bars
    from jdr.web.play import run_action

    params = attack_params(caller, form)
    skills = dict(panel_data(caller)["armes"])
    skill = skills.get(params.get("arme", "")) or params.get("arme") or ""
    if not skill or not params["defenseur"]:
        raise ApiError(422, "choisissez une arme (ou une compétence) et une cible")
    defence = params.get("defense")
    contre = f"{params['defenseur']}:{defence}" if defence else params["defenseur"]
    answer = run_action(server, caller, Action(type="odds", params={
        "personnage": params["attaquant"], "competence": skill, "contre": contre}))
    odds = answer["result"]
    return {"chances": odds, **bars(odds), "texte": answer["text"]}


@router.post("/tables/{id}/f/combat/chances", response_class=HTMLResponse)
async def odds(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    try:
        view = await run_in_threadpool(attack_odds, server_of(request), caller, form)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    return render("_chances.html", **view)


def attack(server: Any, caller: Caller, form: dict[str, list[str]]) -> dict[str, Any]:
    from jdr.web.models import Action
    from jdr.web.play import run_action

    return run_action(server, caller, Action(type="attack", params=attack_params(caller, form),
                                             derogation=caller.is_mj and one(form, "derogation") == "oui"))


@router.post("/tables/{id}/f/combat/attaque", response_class=HTMLResponse)
async def strike(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    server = server_of(request)
    try:
        answer = await run_in_threadpool(attack, server, caller, form)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    server.hubs.wake(id)
    return refreshed(answer["text"].splitlines()[0][:200])
