"""The roll box and every action form, rendered from the actions' declarations (`core.declare`).

    POST /tables/{id}/f/formulaire   the form of the action chosen (`type`), its lists filled from
                                     the rules and the sheets already chosen (a character → its
                                     skills; an attacker and a weapon → the defences allowed)
    POST /tables/{id}/f/chances      the exact odds of the action being filled, asked of the
                                     system (a check, an attack, a rule that is a roll)
    POST /tables/{id}/f/jet          play it (the API's `run_action`: same rights, same journal)

`type` is an action (`check`, `roll`, `attack`, `xp`, `sante`, …) or `regle:NOM` for a rule of the
system. The form names the API's parameters; `opt.X` fields are the system's options, `role.N`
a rule's characters in order, `des` faces rolled by hand, `visibilite` public, prive or mj.
Nothing here knows a system: every list comes from the declaration and the system's hooks.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from jdr.errors import JdrError
from jdr.web.auth import SPECTATEUR, Caller
from jdr.web.deps import TableId
from jdr.web.errors import ApiError, validation_message
from jdr.web.pagekit import caller_from_cookie, failure, form_of, message, one, refreshed, render, server_of

router = APIRouter(include_in_schema=False)
# what the roll box offers first; then the system's own rules (`regle:NOM`)
BOX_KINDS = ("check", "roll", "attack", "xp", "duel", "initiative", "session", "sante")


def _kind(value: str) -> tuple[str, str]:
    """`regle:soin` → (`regle`, `soin`); `check` → (`check`, ``)."""
    if value.startswith("regle:"):
        return "regle", value[6:]
    return value or "check", ""


def box_types(caller: Caller) -> list[tuple[str, str]]:
    """The actions this caller may play from the roll box, as (type, French label)."""
    from jdr.core.declare import ACTIONS, CORE_KINDS, may_play, rules_of

    system = caller.campaign.system
    out = []
    for kind in BOX_KINDS:
        if kind in CORE_KINDS and kind not in system.actions:
            continue
        if may_play(kind, caller.is_mj):
            out.append((kind, ACTIONS[kind].label))
    out += [(f"regle:{name}", f"Règle : {system.actions[name].shown} — {short}")
            for name, short in rules_of(system)]
    return out


def characters(caller: Caller, tx: Any) -> tuple[list[str], list[str]]:
    """Every character of the table, and those the caller may act as."""
    infos = tx.characters()
    return [i.name for i in infos], [i.name for i in infos if caller.may_read_character(i.player)]


def action_form(caller: Caller, kind: str, params: dict[str, Any]) -> Any:
    """The declaration's form for this caller, with the lists the sheets give."""
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.declare import ACTIONS, form

    if kind not in ACTIONS or ACTIONS[kind].encounter:
        raise ApiError(422, f"action « {kind[:40]} » inconnue")
    with caller.campaign.reading() as tx:
        everyone, mine = characters(caller, tx)
        return form(CampaignWorkspace(tx), kind, params, caller.campaign.system, everyone, mine)


def _defaults(kind: str, form: Any, params: dict[str, Any]) -> dict[str, Any]:
    """A first character chosen when the caller has one: its lists show at once."""
    for f in form.fields:
        if f.refresh and f.kind == "select" and f.required and f.name not in params and f.choices:
            params = {**params, f.name: f.choices[0][0]}
    return params


def roll_box(caller: Caller) -> dict[str, Any]:
    """What the roll box offers this caller: the actions, and the first one's form."""
    if caller.role == SPECTATEUR:
        return {"peut": False}
    form = action_form(caller, "check", {})
    first = _defaults("check", form, {})
    if first:
        form = action_form(caller, "check", first)
    everyone: list[str] = []
    if caller.is_mj:  # the MJ's « demande de jet » names any character
        with caller.campaign.reading() as tx:
            everyone = [c.name for c in tx.characters()]
    return {"peut": True, "types": box_types(caller), "type": "check", "formulaire": form,
            "secret": caller.is_mj, "tous": everyone}


def hand_dice(text: str) -> list[int] | None:
    """« 8, 3 5 » → [8, 3, 5]; empty → None."""
    parts = text.replace(",", " ").replace(";", " ").split()
    if not parts:
        return None
    if not all(p.lstrip("-").isdigit() and len(p) < 6 for p in parts):
        raise ApiError(422, "dés à la main : des nombres entiers séparés par des espaces ou des virgules")
    return [int(p) for p in parts]


def params_of(form: dict[str, list[str]]) -> tuple[str, dict[str, Any]]:
    """The action and its `params` from a filled form (the declaration's names)."""
    from jdr.core.declare import ACTIONS, params_from_form

    kind, rule = _kind(one(form, "type", "check"))
    if kind not in ACTIONS or ACTIONS[kind].encounter:
        raise ApiError(422, f"action « {kind[:40]} » inconnue")
    params = params_from_form(kind, form)
    if rule:
        params["nom"] = rule
    return kind, params


def action_of(form: dict[str, list[str]], kind: str | None = None,
              params: dict[str, Any] | None = None) -> Any:
    """The API's `Action` body from a form (French errors when it is malformed)."""
    from jdr.web.models import Action

    if params is None:
        chosen, params = params_of(form)
        kind = kind or chosen
    try:
        return Action.model_validate({
            "type": kind, "params": params, "visibilite": one(form, "visibilite", "public"),
            "derogation": one(form, "derogation") == "oui",  # the MJ's override of the turn rules
            "choix": "defaut" if one(form, "choix") == "defaut" else "attendre",
            "des": hand_dice(one(form, "des")) if kind not in ("odds", "attack_odds") and not
            params.get("chances") else None})
    except ValidationError as exc:
        raise ApiError(422, validation_message(exc.errors())[1]) from None


def _odds_part(result: dict[str, Any]) -> dict[str, Any] | None:
    if result.get("type") == "odds":
        return result
    for part in result.get("parts", []):
        found = _odds_part(part)
        if found is not None:
            return found
    return None


def bars(odds: dict[str, Any]) -> dict[str, Any]:
    """The distribution of totals as SVG bars (x, y, width, height, total, percent, success)."""
    dist = [(int(k), float(p)) for k, p in (odds.get("distribution") or {}).items()
            if k.lstrip("-").isdigit()]
    dist.sort()
    if not dist:
        return {"barres": [], "largeur": 0}
    top = max(p for _, p in dist) or 1.0
    width = max(6, min(40, 600 // len(dist)))
    threshold = odds.get("threshold")
    out = []
    for i, (total, p) in enumerate(dist):
        height = round(100 * p / top, 1)
        out.append({"x": i * width, "y": round(110 - height, 1), "l": width - 1, "h": height,
                    "total": total, "p": p, "reussi": threshold is not None and total >= threshold})
    return {"barres": out, "largeur": len(dist) * width,
            "etiquettes": len(dist) <= 24 or width >= 12}


def odds_view(answer: dict[str, Any]) -> dict[str, Any]:
    odds = _odds_part(answer["result"])
    if odds is None:
        return {"texte": answer["text"]}
    return {"chances": odds, **bars(odds), "texte": answer["text"]}


def odds_answer(server: Any, caller: Caller, form: dict[str, list[str]],
                params: dict[str, Any] | None = None, kind: str | None = None) -> dict[str, Any] | None:
    """The exact odds the declaration gives before this action (None: it has none)."""
    from jdr.core.declare import ACTIONS
    from jdr.web.play import run_action

    if params is None:
        kind, params = params_of(form)
    assert kind is not None
    action = ACTIONS[kind]
    if not action.odds:
        return None
    if any(p.required and not params.get(p.name) for p in action.params if p.kind != "characters"):
        return {"attente": WAITING}
    spec = caller.campaign.system.actions.get(str(params.get("nom") or kind))
    given = params.get("opt")
    given = given if isinstance(given, dict) else {}
    if spec is not None and any(o.required and not given.get(o.name) for o in spec.options):
        return {"attente": WAITING}  # a required option of the system still empty
    if action.odds == "regle":
        params, odds_kind = {**params, "chances": True}, "regle"
    else:
        odds_kind = action.odds
        params = {k: v for k, v in params.items() if k in ACTIONS[odds_kind].names}
    answer = run_action(server, caller, action_of(form, odds_kind, params))
    return odds_view(answer)


WAITING = "Remplissez le formulaire : les chances exactes s'affichent ici."


@router.post("/tables/{id}/f/formulaire", response_class=HTMLResponse)
async def action_fields(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    try:
        kind, params = params_of(form)
        view = await run_in_threadpool(action_form, caller, kind, params)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    return render("_action.html", formulaire=view, prefixe=one(form, "prefixe"),
                  table=caller.campaign, headers={"HX-Trigger": "jdr-champs"})


@router.post("/tables/{id}/f/chances", response_class=HTMLResponse)
async def odds(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    try:
        view = await run_in_threadpool(odds_answer, server_of(request), caller, form)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message, "info")
    if view is None:
        return message("Cette action n'a pas de chances à calculer.", "info")
    if "attente" in view:
        return message(view["attente"], "info")
    return render("_chances.html", **view)


@router.post("/tables/{id}/f/jet", response_class=HTMLResponse)
async def roll(id: TableId, request: Request) -> HTMLResponse:
    from jdr.web.play import run_action

    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    server = server_of(request)
    try:
        body = action_of(form)
        answer = await run_in_threadpool(run_action, server, caller, body)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    from jdr.web.pagekit import fold_text

    first = fold_text(answer["text"].splitlines()[0])[:200] if answer["text"] else ""
    if answer["seq"] is None:
        return message(first, "ok")
    server.hubs.wake(id)
    if "attente" in answer:  # the dice are shown: the player chooses (`jdr.web.choice`)
        from jdr.web.page_talk import waiting_view

        return render("_attente.html", a=waiting_view(answer["attente"]), caller=caller,
                      suivi=True, suffixe="-jet", headers={"HX-Trigger": "jdr-journal"})
    return refreshed(f"N° {answer['seq']} : {first}")
