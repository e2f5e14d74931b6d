"""The roll box: free notation or a rules check, the exact odds before rolling, dice by hand.

    POST /tables/{id}/f/chances     the odds of the check being chosen (percent + SVG bars)
    POST /tables/{id}/f/jet         roll it (the API's `run_action`: same rights, same journal)

The form names the API's parameters: `personnage`, `competence`, `seuil` (a number or a ladder
name), `contre` (an opponent, `Nom` or `Nom:competence`), `bonus`; `des` are faces rolled by hand,
`visibilite` is public, prive or mj (the MJ's secret roll).
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
CHECK_KEYS = ("personnage", "competence", "carac", "seuil", "bonus")
SKILL_TITLES = ("compétence", "competence")
CARAC_TITLES = ("caractéristique", "attribut")


def _keys(view: Any, titles: tuple[str, ...]) -> list[str]:
    return [row.key for s in view.sections if any(t in s.title.lower() for t in titles)
            for row in s.rows]


def roll_box(caller: Caller) -> dict[str, Any]:
    """What the roll box offers this caller: their characters, skills, the ladder's names."""
    if caller.role == SPECTATEUR:
        return {"peut": False}
    campaign = caller.campaign
    with campaign.reading() as tx:
        infos = tx.characters()
        mine = [i.name for i in infos if caller.may_read_character(i.player)]
        skills: set[str] = set()
        caracs: set[str] = set()
        if mine:
            system, loaded = tx.load(mine)
            for sheet in loaded:
                view = system.show(sheet)
                skills.update(_keys(view, SKILL_TITLES))
                caracs.update(_keys(view, CARAC_TITLES))
    ladder = campaign.system.ladder
    return {"peut": True, "personnages": mine, "tous": [i.name for i in infos],
            "competences": sorted(skills), "caracs": sorted(caracs),
            "echelle": list(ladder.steps.items()) if ladder is not None else [],
            "secret": caller.is_mj}


def hand_dice(text: str) -> list[int] | None:
    """« 8, 3 5 » → [8, 3, 5]; empty → None."""
    parts = text.replace(",", " ").replace(";", " ").split()
    if not parts:
        return None
    if not all(p.lstrip("-").isdigit() and len(p) < 6 for p in parts):
        raise ApiError(422, "dés à la main : des nombres entiers séparés par des espaces ou des virgules")
    return [int(p) for p in parts]


def check_params(form: dict[str, list[str]]) -> dict[str, Any]:
    params = {key: one(form, key) for key in CHECK_KEYS if one(form, key)}
    opponent = one(form, "contre")
    if opponent:
        skill = one(form, "contre_competence")
        params["contre"] = f"{opponent}:{skill}" if skill else opponent
    return params


def action_of(form: dict[str, list[str]], kind: str | None = None) -> Any:
    """The API's `Action` body from the roll box's form (French errors when it is malformed)."""
    from jdr.web.models import Action

    free = one(form, "mode", "test") == "libre"
    if kind is None:
        kind = "roll" if free else "check"
    params = {"expression": one(form, "expression")} if free else check_params(form)
    try:
        return Action.model_validate({
            "type": kind, "params": params, "visibilite": one(form, "visibilite", "public"),
            "des": hand_dice(one(form, "des")) if kind != "odds" else None})
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


def odds_answer(server: Any, caller: Caller, form: dict[str, list[str]]) -> dict[str, Any]:
    from jdr.web.play import run_action

    body = action_of(form, "odds")
    answer = run_action(server, caller, body)
    odds = _odds_part(answer["result"])
    if odds is None:
        return {"texte": answer["text"]}
    return {"chances": odds, **bars(odds), "texte": answer["text"]}


@router.post("/tables/{id}/f/chances", response_class=HTMLResponse)
async def odds(id: TableId, request: Request) -> HTMLResponse:
    caller = caller_from_cookie(request, id)
    form = await form_of(request)
    if one(form, "mode", "test") == "libre" or not one(form, "personnage") \
            or not one(form, "competence"):
        return message("Choisissez un personnage et une compétence : les chances s'affichent ici.",
                       "info")
    try:
        view = await run_in_threadpool(odds_answer, server_of(request), caller, form)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
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
    server.hubs.wake(id)
    from jdr.web.pagekit import fold_text

    return refreshed(f"Jet n° {answer['seq']} : {fold_text(answer['text'].splitlines()[0])[:160]}")
