"""Tables and their people: create a table, invite, list and revoke members."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from starlette.concurrency import run_in_threadpool

from jdr.web.auth import same_secret
from jdr.web.deps import CallerDep, Credentials, ServerDep
from jdr.web.errors import ApiError
from jdr.web.models import MAX_ID, Invitation, NewTable

router = APIRouter(prefix="/api", tags=["tables"])
MemberId = Annotated[int, Path(ge=1, le=MAX_ID, description="Numéro du membre.")]


@router.get("/sante", summary="Le serveur répond")
def health() -> dict[str, Any]:
    return {"ok": True}


@router.post("/tables", status_code=201, summary="Crée une table ; le jeton du MJ n'est montré qu'ici")
def create_table(body: NewTable, server: ServerDep, credentials: Credentials) -> dict[str, Any]:
    if not server.loopback:
        if server.admin_token is None:
            raise ApiError(403, "création de table fermée : le serveur n'a pas de jeton d'administration")
        given = credentials.credentials if credentials is not None else None
        if not same_secret(given, server.admin_token):
            raise ApiError(401, "jeton d'administration requis pour créer une table")
    return server.create_table(body.nom, body.systeme)


@router.post("/tables/{id}/invitations", status_code=201, summary="Invite un joueur ou un spectateur")
def invite(body: Invitation, caller: CallerDep, server: ServerDep, request: Request) -> dict[str, Any]:
    token, member = server.invite(caller, body.role, body.nom)
    link = f"{request.base_url}table/{caller.campaign.id}#jeton={token}"
    return {"jeton": token, "lien": link, "membre": member}


@router.get("/tables/{id}/membres", summary="Les membres de la table (MJ)")
def members(caller: CallerDep, server: ServerDep) -> list[dict[str, Any]]:
    return server.members(caller)


@router.delete("/tables/{id}/membres/{membre}", summary="Révoque le jeton d'un membre (MJ)")
async def revoke(membre: MemberId, caller: CallerDep, server: ServerDep) -> dict[str, Any]:
    answer = await run_in_threadpool(server.revoke, caller, membre)
    server.hubs.kick(caller.campaign.id, membre)
    return answer
