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
    from jdr.core.registry import available
    from jdr.core.sheet import SheetDocument

    links: dict[str, dict[str, str]] = {}
    for system_id in available():
        made = server.create_table(f"Démo {system_id}", system_id)
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
        return links
    db.parent.mkdir(parents=True, exist_ok=True)
    server = Server(str(db), None, True)
    try:
        links = build(server, base)
    finally:
        server.dispose()
    saved.write_text(json.dumps(links, ensure_ascii=False, indent=2), encoding="utf-8")
    os.chmod(saved, 0o600)
    return links


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jdr.web.demo",
                                     description="La table en ligne avec une campagne de démonstration.")
    parser.add_argument("--db", default=".jdr-demo/tables.jdr", help="Fichier SQLite (créé s'il manque).")
    parser.add_argument("--port", type=int, default=8000, help="Port (8000).")
    parser.add_argument("--preparer", action="store_true", help="Préparer la base sans servir.")
    args = parser.parse_args(argv)
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
