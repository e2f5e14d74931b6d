"""`python -m jdr.web.demo` (`make run`): the online table with a demo campaign, on SQLite.

One table per installed system, with its characters (the system's own demo sheets, or its sheet
template and a second copy of it); the first character
is given to the player « Alice ». The MJ's and Alice's links are printed. Idempotent: the
database (`.jdr-demo/tables.jdr`, or `--db`) is reused when present, and the links with it (kept
beside it in `liens.json`, readable by its owner only: a local demo, not a secret store).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PLAYER = "Alice"


def sheets_of(system_id: str) -> list[str]:
    """The demo sheets of a system (YAML)."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument

    system = get_system(system_id)
    own = system.demo_sheets()
    if own:
        return list(own)
    template = system.template()
    doc = SheetDocument.from_text(template, Path("modele.yaml"))
    name = str(doc.plain().get("nom") or "Personnage")
    doc.set(("nom",), f"{name} (PNJ)")
    return [template, doc.dump()]


def build(server: Any, base: str) -> dict[str, dict[str, str]]:
    """Every table, its characters, its player: {system: {nom, mj, joueur}}."""
    from jdr.core.registry import available, get_system
    from jdr.core.sheet import SheetDocument

    links: dict[str, dict[str, str]] = {}
    for system_id in available():
        made = server.create_table(f"Démo {get_system(system_id).short_title}", system_id)
        caller = server.authenticate(made["jeton"], made["id"])
        token, _member = server.invite(caller, "joueur", PLAYER)
        with caller.campaign.transaction() as tx:
            for i, text in enumerate(sheets_of(system_id)):
                doc = SheetDocument.from_text(text, Path("fiche.yaml"))
                tx.add(doc, "pj" if i == 0 else "pnj", None, PLAYER if i == 0 else None)
        links[system_id] = {"nom": made["nom"], "mj": f"{base}/table/{made['id']}#jeton={made['jeton']}",
                            "joueur": f"{base}/table/{made['id']}#jeton={token}"}
    return links


def prepare(db: Path, base: str) -> dict[str, dict[str, str]]:
    """The demo database and its links (made once, then reused)."""
    from jdr.web.state import Server

    saved = db.parent / "liens.json"
    if db.exists() and saved.exists():
        links: dict[str, dict[str, str]] = json.loads(saved.read_text(encoding="utf-8"))
        import re

        return {k: {role: re.sub(r"^https?://[^/]+", base, v) if role != "nom" else v
                    for role, v in link.items()} for k, link in links.items()}
    db.parent.mkdir(parents=True, exist_ok=True)
    server = Server(str(db), None, True)
    try:
        links = build(server, base)
    finally:
        server.dispose()
    saved.write_text(json.dumps(links, ensure_ascii=False, indent=2), encoding="utf-8")
    os.chmod(saved, 0o600)
    return links


class _FrenchHelp(argparse.HelpFormatter):
    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "Utilisation : ")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        import sys

        sys.stderr.write(f"Erreur : arguments invalides ({message}) ; aide : {self.prog} --aide\n")
        raise SystemExit(2)


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"« {text[:20]} » : un nombre de 1 à 65\u202f535")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m jdr.web.demo", add_help=False, formatter_class=_FrenchHelp,
                     description="La table en ligne avec une campagne de démonstration.")
    parser._optionals.title = "Options "  # argparse adds the colon: « Options : »
    parser.add_argument("-h", "--aide", "--help", action="help", help="Affiche cette aide et quitte.")
    parser.add_argument("--db", default=".jdr-demo/tables.jdr", metavar="FICHIER",
                        help="Fichier SQLite (créé s'il manque).")
    parser.add_argument("--port", type=_port, default=8000, metavar="PORT", help="Port (1 à 65535, 8000).")
    parser.add_argument("--preparer", action="store_true", help="Préparer la base sans servir.")
    return parser


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nothing listens on host:port yet (checked before any link is printed)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    import sys

    args = _parser().parse_args(argv)
    if not args.preparer and not port_free(args.port):
        sys.stderr.write(f"Erreur : le port {args.port} est déjà pris (une autre table, un autre "
                         f"programme ?) ; choisissez-en un autre : make run PORT={args.port + 1}\n")
        return 2
    base = f"http://127.0.0.1:{args.port}"
    links = prepare(Path(args.db), base)
    for link in links.values():
        print(f"{link['nom']}\n  MJ     : {link['mj']}\n  {PLAYER:6} : {link['joueur']}", flush=True)
    if args.preparer:
        return 0
    from jdr.web.serve import serve

    serve(args.db, "127.0.0.1", args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
