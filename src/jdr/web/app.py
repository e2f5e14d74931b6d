"""`create_app(db_url, admin_token, loopback)`: the FastAPI application of the online table.

Routes (every one but the first two needs `Authorization: Bearer JETON`):

    GET    /api/sante                                  the server answers
    POST   /api/tables                                 a table and its MJ's token (admin token
                                                       required unless bound to loopback)
    POST   /api/tables/{id}/invitations                (MJ) a joueur or spectateur: token + link
    GET    /api/tables/{id}/membres                    (MJ)
    DELETE /api/tables/{id}/membres/{membre}           (MJ) revoke a token
    POST   /api/tables/{id}/personnages                import a sheet (YAML)
    GET    /api/tables/{id}/personnages                the characters the caller may read
    GET    /api/tables/{id}/personnages/{nom}          sheet view + version (?format=yaml)
    PUT    /api/tables/{id}/personnages/{nom}          replace a sheet (with the version read)
    POST   /api/tables/{id}/actions                    an action, as the CLI runs it
    GET    /api/tables/{id}/attentes                   rolls waiting for a player's choice
    POST   /api/tables/{id}/attentes/{seq}/choix       answer one (its roller, or the MJ)
    POST   /api/tables/{id}/attentes/{seq}/defaut      (MJ) settle one with the defaults
    DELETE /api/tables/{id}/attentes/{seq}             (MJ) abandon one (nothing changes)
    POST   /api/tables/{id}/annuler                    (MJ) undo the last action
    GET    /api/tables/{id}/journal?depuis=N           the entries the caller may see
    POST   /api/tables/{id}/messages                   a message, a whisper, inline rolls
    POST   /api/tables/{id}/reveler/{seq}              (MJ) show a hidden roll to everyone
    POST   /api/tables/{id}/demandes                   (MJ) ask a player for a check
    GET    /api/tables/{id}/demandes                   the requests waiting for the caller
    POST   /api/tables/{id}/demandes/{seq}/lancer      roll what was asked
    GET    /api/tables/{id}/tour                       whose turn it is
    GET    /api/tables/{id}/seance                     séances, commitments, revealed seeds
    POST   /api/tables/{id}/seance/ouvrir|fermer       (MJ) verifiable dice: commit, then reveal
    POST   /api/tables/{id}/seance/contribution        a member's random contribution
    WS     /api/tables/{id}/direct?token=…&depuis=N    the same, live

The OpenAPI schema is at `/api/openapi.json`. The pages (French HTML, htmx) are in `jdr.web.pages`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI

from jdr.web import characters, choice, errors, live, pages, play, seance, tables, talk, visibility
from jdr.web.errors import FrenchJSON
from jdr.web.limits import ActionRate, Limits
from jdr.web.origin import OriginGuard
from jdr.web.state import Server


def create_app(db_url: str, admin_token: str | None, loopback: bool, origins: Sequence[str] = (),
               limits: Limits | None = None) -> FastAPI:
    """The application on the database `db_url` (a SQLite file path or a PostgreSQL URL).

    `origins`: the table's own origins behind a reverse proxy (`jdr.web.origin`; by default the
    address each request is sent to); `limits`: the rate of actions per token (`jdr.web.limits`).
    """
    server = Server(db_url, admin_token, loopback)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await server.hubs.stop()
            server.dispose()

    app = FastAPI(title="jdr — table en ligne", version="1", openapi_url="/api/openapi.json",
                  docs_url=None, redoc_url=None, lifespan=lifespan,
                  default_response_class=FrenchJSON)
    app.state.server = server
    errors.install(app)
    from jdr.web import page_live

    app.add_middleware(live.LiveDoor, channels={"/api/tables/{id}/direct": live.direct,
                                                "/tables/{id}/direct": page_live.direct})
    app.add_middleware(ActionRate, limits=limits or Limits())  # innermost but LiveDoor, then
    app.add_middleware(OriginGuard, origins=tuple(origins))  # reads the form BodyLimit checked
    app.add_middleware(errors.BodyLimit)
    app.include_router(tables.router)
    app.include_router(characters.router)
    app.include_router(play.router)
    app.include_router(choice.router)
    app.include_router(talk.router)
    app.include_router(visibility.router)
    app.include_router(visibility.pages)
    seance.install(app)
    pages.install(app)
    return app
