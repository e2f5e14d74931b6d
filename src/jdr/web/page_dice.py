"""The exact odds of a free dice expression, as the player types it (read-only, no system).

    POST /tables/{id}/f/chances-des     HTML fragment for the roll box (`expression` in the form)
    POST /api/tables/{id}/chances-des   the same as JSON: {"expression": "10d10cs>=7"}

Nothing is rolled, nothing is written: any member of the table may ask.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from jdr.errors import JdrError
from jdr.web.deps import CallerDep, TableId
from jdr.web.errors import ApiError
from jdr.web.models import Body
from jdr.web.pagekit import caller_from_cookie, form_of, message, one, render

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/tables/{id}", tags=["jeu"])


class Expression(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"expression": "10d10cs>=7"}, {"expression": "1d20+5>=15"}]})

    expression: str = Field(min_length=1, max_length=1000,
                            description="Expression de dés (docs/des.md).")


def dice_odds(expression: str) -> Any:
    from jdr.dice.odds import odds

    return odds(expression)


@api_router.post("/chances-des", summary="Chances exactes d'une expression de dés (sans lancer)")
async def api_odds(id: TableId, body: Expression, caller: CallerDep) -> dict[str, Any]:
    from jdr.render.json import to_json

    try:
        result = await run_in_threadpool(dice_odds, body.expression)
    except JdrError as exc:
        raise ApiError(422, exc.pages) from None
    return to_json(result)


def _bars(result: Any) -> list[dict[str, Any]]:
    dist = list(result.distribution)
    if not dist or len(dist) > 120:
        return []
    top = max(float(p) for _, p in dist) or 1.0
    width = max(4, min(30, 480 // len(dist)))
    return [{"x": i * width, "l": width - 1, "h": round(100 * float(p) / top, 1),
             "total": t, "p": float(p)} for i, (t, p) in enumerate(dist)]


@router.post("/tables/{id}/f/chances-des", response_class=HTMLResponse)
async def odds_fragment(id: TableId, request: Request) -> HTMLResponse:
    caller_from_cookie(request, id)
    form = await form_of(request)
    expression = one(form, "expression")
    if not expression:
        return message("Tapez une expression (3d6+2, 10d10cs>=7…) : ses chances s'affichent ici.",
                       "info")
    try:
        result = await run_in_threadpool(dice_odds, expression)
    except JdrError as exc:
        return message(exc.pages)
    from jdr.render.text import to_text

    bars = _bars(result)
    return render("_chances_des.html", chances=result, barres=bars,
                  largeur=sum(b["l"] + 1 for b in bars), texte=to_text(result))
