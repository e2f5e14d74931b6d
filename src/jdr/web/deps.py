"""What every route needs: the server, and the caller behind the `Authorization: Bearer` token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from jdr.web.auth import Caller
from jdr.web.models import MAX_ID
from jdr.web.state import Server

bearer = HTTPBearer(auto_error=False, description="Jeton de la table (MJ, joueur ou spectateur).")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="Numéro de la table.")]


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


# Both dependencies are coroutines: FastAPI runs a plain function dependency in its thread pool,
# and these two hops cost more than what they do (issue 18: a server's time per action). Only a
# token not seen lately is looked up in the database, in the thread pool.
async def server_of(request: Request) -> Server:
    return _server(request)


async def caller_of(id: TableId, request: Request, credentials: Credentials) -> Caller:
    token = credentials.credentials if credentials is not None else None
    server = _server(request)
    known = server.known_caller(token, id)
    if known is not None:
        return known
    return await run_in_threadpool(server.authenticate, token, id)


CallerDep = Annotated[Caller, Depends(caller_of)]
ServerDep = Annotated[Server, Depends(server_of)]
