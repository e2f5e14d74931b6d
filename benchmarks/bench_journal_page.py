"""The table page's load time with a long journal: 10 entries against 10,000.

Two tables of one SQLite file, filled with the same kind of entries (a roll with its dice, one in
ten a secret MJ roll, one in fifty a message), are loaded by a joueur (`GET /tables/{id}`, in
process, the cookie of an invitation) the same number of times, alternately; the script prints
the median of each and their ratio. The page shows the latest entries (50) and loads older ones
on demand, so the ratio should stay near 1. Goal: ≤ 1.5×.

    python benchmarks/bench_journal_page.py [--loads 30] [--entries 10000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from starlette.testclient import TestClient

from jdr.web.app import create_app

GOAL = 1.5


def _fill(client: TestClient, name: str, count: int) -> tuple[int, str]:
    """A table with `count` journal entries; the id and a joueur's token."""
    made = client.post("/api/tables", json={"nom": name, "systeme": "cydonia"}).json()
    mj = {"Authorization": f"Bearer {made['jeton']}"}
    player = client.post(f"/api/tables/{made['id']}/invitations", headers=mj,
                         json={"role": "joueur", "nom": "Lise"}).json()["jeton"]
    server = client.app.state.server  # type: ignore[attr-defined]
    campaign = server.campaign(made["id"])
    dice = [{"sides": 20, "face": 12}, {"sides": 6, "face": 4}]
    result = {"type": "roll", "expression": "1d20+1d6", "total": 16}
    with campaign.transaction() as tx:
        for i in range(count):
            if i % 50 == 49:
                tx.append("Lise", "message", {"texte": "on avance"}, [], {
                    "type": "message", "kind": "texte", "to": None,
                    "parts": [{"text": "on avance"}]}, "Lise : on avance", "", [], "public", "Lise")
                continue
            visibility = "mj" if i % 10 == 9 else "public"
            tx.append("MJ", "roll", {"expression": "1d20+1d6"}, dice, result,
                      "1d20+1d6 → 1d20 [12] + 1d6 [4] = 16", "", [], visibility, "MJ")
    return made["id"], player


def _load(client: TestClient, table: int, token: str) -> float:
    """The CPU time of one page load (this process: the client and the app's threads), less
    disturbed than wall time by other work on the machine."""
    start = time.process_time()
    client.cookies.set(f"jdr_{table}", token)
    page = client.get(f"/tables/{table}")
    client.cookies.clear()
    elapsed = time.process_time() - start
    assert page.status_code == 200 and "journal" in page.text, page.status_code
    return elapsed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=30)
    parser.add_argument("--entries", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(str(Path(folder) / "tables.jdr"), None, True)
        with TestClient(app) as client:
            small = _fill(client, "Courte", 10)
            large = _fill(client, "Longue", args.entries)
            for table in (small, large):  # warm-up: templates, the engine, the first queries
                _load(client, *table)
            times: dict[str, list[float]] = {"small": [], "large": []}
            for _ in range(args.loads):
                times["small"].append(_load(client, *small))
                times["large"].append(_load(client, *large))
        app.state.server.dispose()
    small_ms = statistics.median(times["small"]) * 1000
    large_ms = statistics.median(times["large"]) * 1000
    ratio = large_ms / small_ms
    print(f"page de la table, temps processeur médian sur {args.loads} chargements (joueur) :")
    print(f"  10 entrées : {small_ms:.1f} ms")
    print(f"  {args.entries} entrées : {large_ms:.1f} ms")
    verdict = "atteint" if ratio <= GOAL else "MANQUÉ"
    print(f"  rapport : {ratio:.2f}× (objectif ≤ {GOAL}× : {verdict})")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
