"""`serve(db, host, port)`: run the online table with uvicorn (the CLI's `jdr servir`).

Table creation is open when the server listens on a loopback address only; otherwise it needs the
admin token: `JDR_ADMIN_TOKEN`, or one drawn at start and printed once. The access log stays off
(a live channel's address carries its token), and so does uvicorn's per-connection log.

`python -m jdr.web.serve --db FICHIER|URL [--host 127.0.0.1] [--port 8000]` does the same.
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


def serve(db: str, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the tables of database `db` (a SQLite file, created if absent, or a PostgreSQL URL)."""
    import uvicorn

    from jdr.web.app import create_app

    token = admin_token(host)
    app = create_app(db, token, is_loopback(host))
    shown = f"[{host}]" if ":" in host else host
    print(f"Table en ligne : http://{shown}:{port}/ (schéma : /api/openapi.json)", flush=True)
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning",
                ws_max_size=64 * 1024)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jdr.web.serve",
                                     description="Sert la table en ligne de jdr.")
    parser.add_argument("--db", required=True, help="Fichier SQLite ou adresse postgresql+psycopg://…")
    parser.add_argument("--host", default="127.0.0.1", help="Adresse d'écoute (127.0.0.1).")
    parser.add_argument("--port", type=int, default=8000, help="Port (8000).")
    args = parser.parse_args(argv)
    from jdr.errors import JdrError

    try:
        serve(args.db, args.host, args.port)
    except JdrError as exc:
        print(f"erreur : {exc.message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
