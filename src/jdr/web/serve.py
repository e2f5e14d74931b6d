"""`serve(db, host, port)`: run the online table with uvicorn (the CLI's `jdr servir`).

Table creation is open when the server listens on a loopback address only; otherwise it needs the
admin token: `JDR_ADMIN_TOKEN`, or one drawn at start and printed once. The access log stays off
(a live channel's address carries its token), and so does uvicorn's per-connection log.

Behind a reverse proxy, `origins` (`--origine https://table.example.org`, repeatable) are the
table's own origins (`jdr.web.origin`); the timeouts, caps and rate of actions come from the
environment (`jdr.web.limits.Limits.from_env`).

`python -m jdr.web.serve --db FICHIER|URL [--host 127.0.0.1] [--port 8000] [--origine URL]…` does
the same.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import sys
from collections.abc import Sequence


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def admin_token(host: str) -> str | None:
    """The admin token: `JDR_ADMIN_TOKEN`, or a new one (printed) when not on loopback."""
    token = os.environ.get("JDR_ADMIN_TOKEN") or None
    if token is None and not is_loopback(host):
        token = secrets.token_urlsafe(32)
        print(f"Jeton d'administration (créer une table) : {token}", flush=True)
    return token


def serve(db: str, host: str = "127.0.0.1", port: int = 8000, origins: Sequence[str] = ()) -> None:
    """Serve the tables of database `db` (a SQLite file, created if absent, or a PostgreSQL URL)."""
    import uvicorn

    from jdr.web.app import create_app
    from jdr.web.limits import Limits, uvicorn_options
    from jdr.web.origin import check_origin_option

    allowed = [check_origin_option(o) for o in origins]
    limits = Limits.from_env()
    token = admin_token(host)
    app = create_app(db, token, is_loopback(host), allowed, limits)
    shown = f"[{host}]" if ":" in host else host
    print(f"Table en ligne : http://{shown}:{port}/ (schéma : /api/openapi.json)", flush=True)
    # What start-up made (modules, the app, its routes and models) lives as long as the process:
    # moved out of the collector's sight, a full collection no longer walks it again (with
    # thousands of live connections a full collection stopped the server for up to a second).
    from jdr.core.heap import freeze_for_life

    freeze_for_life()
    # No per-message deflate: it compressed every entry once per client (most of the live
    # channel's CPU); an entry is serialised once and the same frame goes to every member.
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning",
                ws_max_size=64 * 1024, ws_per_message_deflate=False, **uvicorn_options(limits))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jdr.web.serve",
                                     description="Sert la table en ligne de jdr.")
    parser.add_argument("--db", required=True, help="Fichier SQLite ou adresse postgresql+psycopg://…")
    parser.add_argument("--host", default="127.0.0.1", help="Adresse d'écoute (127.0.0.1).")
    parser.add_argument("--port", type=int, default=8000, help="Port (8000).")
    parser.add_argument("--origine", action="append", default=[], metavar="URL",
                        help="Origine des pages derrière un mandataire (répétable).")
    args = parser.parse_args(argv)
    from jdr.errors import JdrError

    try:
        serve(args.db, args.host, args.port, args.origine)
    except JdrError as exc:
        print(f"erreur : {exc.message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
