"""« Équilibrer la rencontre » (MJ only): the simulator (`jdr.sim`) on the table's characters.

    POST /api/tables/{id}/simulation      JSON: the simulation (docs/json.md, « simulation »)
    POST /tables/{id}/f/simulation        the page's fragment: the figures and the chart (SVG)

Both take the declaration's `params` (`jdr.core.declare`, « simuler »): its form is rendered from
it beside the combat panel, and the API's body is documented from it (OpenAPI). A player or a
spectator is refused (403); more fights than the declared bound is refused before anything is
loaded (422). Nothing is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from jdr.core.declare import action_schema
from jdr.errors import JdrError
from jdr.web.auth import Caller
from jdr.web.deps import CallerDep, TableId
from jdr.web.errors import ApiError
from jdr.web.models import Body
from jdr.web.pagekit import caller_from_cookie, failure, form_of, message, render

api = APIRouter(prefix="/api/tables/{id}", tags=["jeu"])
pages = APIRouter(include_in_schema=False)


class SimulationBody(Body):
    params: dict[str, Any] = Field(json_schema_extra=action_schema("simuler"),
                                   description="Les paramètres de « simuler » (MJ seulement).")


def run(caller: Caller, params: Mapping[str, Any]) -> Any:
    """The simulation (MJ only), on the table's sheets."""
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.sim.params import checked, simulate_params

    caller.require_mj()
    checked(params)  # a bad or too large request is refused before any sheet is read
    with caller.campaign.reading() as tx:
        return simulate_params(CampaignWorkspace(tx), params)


@api.post("/simulation", summary="Équilibrer la rencontre : simule N combats (MJ)")
async def simulation(body: SimulationBody, caller: CallerDep) -> dict[str, Any]:
    result = await run_in_threadpool(run, caller, body.params)
    answer: dict[str, Any] = result.to_json()
    return answer


def form_for(caller: Caller) -> Any:
    """The form of « simuler », from its declaration, on the table's characters (MJ only)."""
    if not caller.is_mj:
        return None
    from jdr.campaign.workspace import CampaignWorkspace
    from jdr.core.declare import form

    with caller.campaign.reading() as tx:
        names = sorted(i.name for i in tx.characters())
        defaults = {"tactique1": "faible", "tactique2": "faible"}
        return form(CampaignWorkspace(tx), "simuler", defaults, caller.campaign.system, names)


def figures(result: Any) -> dict[str, Any]:
    """What the fragment shows: the French lines and the chart as inline SVG."""
    from jdr.sim.chart import render as chart
    from jdr.sim.report import character_lines, headline, rounds_line, side_lines

    svg = chart(result, "svg").decode("utf-8")
    svg = svg[svg.index("<svg"):]
    return {"titre": headline(result), "camps": side_lines(result), "rounds": rounds_line(result),
            "personnages": [line.strip() for line in character_lines(result)],
            "notes": list(result.notes), "svg": svg}


@pages.post("/tables/{id}/f/simulation", response_class=HTMLResponse)
async def simulation_page(id: TableId, request: Request) -> HTMLResponse:
    from jdr.core.declare import params_from_form

    caller = caller_from_cookie(request, id)
    if not caller.is_mj:
        return render("_message.html", status=403, genre="erreur",
                      texte="« Équilibrer la rencontre » est réservé au MJ de la table")
    params = params_from_form("simuler", await form_of(request))
    try:
        result = await run_in_threadpool(run, caller, params)
    except (ApiError, JdrError) as exc:
        return message(failure(exc).message)
    return render("_equilibre_resultat.html", **figures(result))
