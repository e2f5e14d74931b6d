"""What every route needs: the server, and the caller behind the `Authorization: Bearer` token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from jdr.web.auth import Caller
from jdr.web.models import MAX_ID
from jdr.web.state import Server

bearer = HTTPBearer(auto_error=False, description="Jeton de la table (MJ, joueur ou spectateur).")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="Numéro de la table.")]


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def caller_of(id: TableId, request: Request, credentials: Credentials) -> Caller:
    token = credentials.credentials if credentials is not None else None
    return server_of(request).authenticate(token, id)


CallerDep = Annotated[Caller, Depends(caller_of)]
ServerDep = Annotated[Server, Depends(server_of)]
