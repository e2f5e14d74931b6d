"""Many tables at once: C WebSocket clients over T tables on two `jdr serve` processes sharing one
PostgreSQL (goal of issue 18: 10,000 clients over 1,000 tables, p99 post→received < 250 ms, 0 lost,
≤ 250 MiB per process).

The script makes a schema for the run, starts two servers on it, creates the T tables (an MJ and
one joueur invited each; the C / T clients of a table share these two tokens, half each, so the
set-up stays a few thousand requests), posts one roll on each table (seq 1), then starts client
processes (`--workers`, each running many asyncio clients) that connect, the clients split
between the two servers. A client is ready when it got seq 1 (its backlog: it is registered in its
table's hub). Then `--rolls` rolls are posted, on the tables in turn and to the two servers in
turn, at `--rate` rolls a second (below what the servers can act on: beyond, the wait of the
actions themselves would be measured); every client must receive every roll of its table. Printed: clients
connected, p50 / p99 post→received, deliveries lost, each server's resident memory, and the CPU of
the servers per delivery.

If the machine cannot connect every client before `--connect-seconds`, the rolls go to those
connected and the figure says how many they were: the goal is then « non mesuré », never met.

    python benchmarks/bench_many.py [--clients 10000] [--tables 1000] [--rolls 300] [--rate 10] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from typing import Any

import httpx
from bench_live import PIDS, clients_label, cpu_of, goal, lost_text, pg_schema, rss_of, seq_of, server

# ------------------------------------------------------------------ the client processes


async def worker(plan: list[list[Any]], connect_seconds: float) -> None:
    """Connect every client of `plan` ([ws url, table, token]), say how many are ready, record
    what they receive until told to stop (a line on stdin), then print it as JSON."""
    from websockets.asyncio.client import connect

    times: list[dict[int, float]] = [{} for _ in plan]
    ready = [asyncio.Event() for _ in plan]
    gate = asyncio.Semaphore(64)  # handshakes in flight

    async def one(i: int) -> None:
        url, table, token = plan[i]
        async with gate:
            ws = await connect(f"{url}/api/tables/{table}/direct?token={token}&depuis=0",
                               max_queue=None, compression=None, open_timeout=60)
        async with ws:
            async for message in ws:
                now = time.monotonic()
                seq = seq_of(message)
                times[i].setdefault(seq, now)
                if seq == 1:
                    ready[i].set()

    tasks = [asyncio.create_task(one(i)) for i in range(len(plan))]
    deadline = time.monotonic() + connect_seconds
    await asyncio.wait([asyncio.create_task(e.wait()) for e in ready],
                       timeout=max(0.0, deadline - time.monotonic()))
    # the clients made, their objects are set aside from the collector: the instrument's own
    # full collections (up to a second with 5,000 clients) are not counted as the servers' delay
    gc.collect()
    gc.freeze()
    print(json.dumps({"ready": sum(e.is_set() for e in ready)}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    with contextlib.suppress(BrokenPipeError):  # the conductor failed and left
        print(json.dumps({"times": [{str(k): v for k, v in t.items()} if e.is_set() else None
                                    for t, e in zip(times, ready, strict=True)]}), flush=True)


# ------------------------------------------------------------------ the conductor


async def make_tables(http: httpx.AsyncClient, count: int) -> list[tuple[int, str, str]]:
    """(table, MJ token, joueur token), with one roll already posted on each (seq 1). The tables
    are created one after another (created together on PostgreSQL, some fail with a 500 today)."""
    made: list[tuple[int, str]] = []
    for i in range(count):
        r = await http.post("/api/tables", json={"nom": f"Table {i}", "systeme": "cydonia"})
        if r.status_code != 201:
            raise RuntimeError(f"table {i} : {r.status_code} {r.text[:80]}")
        made.append((r.json()["id"], r.json()["jeton"]))

    async def one(table: int, mj: str) -> tuple[int, str, str]:
        auth = {"Authorization": f"Bearer {mj}"}
        r = await http.post(f"/api/tables/{table}/invitations", json={"role": "joueur", "nom": "J"},
                            headers=auth)
        player = r.json()["jeton"]
        await http.post(f"/api/tables/{table}/actions", headers=auth,
                        json={"type": "roll", "params": {"expression": "1d6"}})
        return table, mj, player

    out: list[tuple[int, str, str]] = []
    for start in range(0, count, 16):
        out += await asyncio.gather(*(one(*m) for m in made[start:start + 16]))
    return out


async def post_rolls(bases: list[str], tables: list[tuple[int, str, str]], rolls: int,
                     rate: float, acked: dict[tuple[int, int], float]) -> dict[tuple[int, int], float]:
    """`rolls` rolls, on the tables in turn, to the servers in turn: (table, seq) → time posted;
    `acked` gets (table, seq) → time its reply came."""
    posted: dict[tuple[int, int], float] = {}
    clients = [httpx.AsyncClient(base_url=b, timeout=120) for b in bases]
    try:
        start = time.monotonic()
        pending: set[asyncio.Task[None]] = set()

        async def post(http: httpx.AsyncClient, table: int, mj: str) -> None:
            t0 = time.monotonic()
            r = await http.post(f"/api/tables/{table}/actions", headers={"Authorization": f"Bearer {mj}"},
                                json={"type": "roll", "params": {"expression": "1d20"}})
            posted[(table, r.json()["seq"])] = t0
            acked[(table, r.json()["seq"])] = time.monotonic()

        for n in range(rolls):
            table, mj, _player = tables[n % len(tables)]
            await asyncio.sleep(max(0.0, start + n / rate - time.monotonic()))
            task = asyncio.create_task(post(clients[n % len(clients)], table, mj))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)
    finally:
        for c in clients:
            await c.aclose()
    return posted


def run(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Fill `out` (its `stage` says where a failure happened)."""
    with ExitStack() as stack:
        db = stack.enter_context(pg_schema())
        bases = [stack.enter_context(server(db)) for _ in range(2)]
        pids = [PIDS[b] for b in bases]
        t0 = time.monotonic()
        out["stage"] = "création des tables"
        tables = asyncio.run(setup(bases[0], args.tables))
        out["setup_s"] = time.monotonic() - t0
        print(f"{len(tables)} tables créées en {out['setup_s']:.0f} s", flush=True)
        out["stage"] = "connexion des clients"
        plan = [[bases[i % 2].replace("http://", "ws://"), *spec]
                for i, spec in enumerate(clients_of(tables, args.clients))]
        here = os.path.abspath(__file__)
        workers = []
        for w in range(args.workers):
            part = plan[w::args.workers]
            proc = subprocess.Popen([sys.executable, here, "--worker", str(args.connect_seconds)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(part) + "\n")
            proc.stdin.flush()
            stack.callback(proc.kill)  # gone already when all went well
            workers.append((proc, part))
        t0 = time.monotonic()
        ready = 0
        for proc, _ in workers:
            assert proc.stdout is not None
            ready += json.loads(proc.stdout.readline())["ready"]
        out["connect_s"] = time.monotonic() - t0
        out["ready"] = ready
        print(f"{ready} clients prêts sur {args.clients} en {out['connect_s']:.0f} s", flush=True)
        out["stage"] = f"jets postés ({ready} clients prêts)"
        out["rss"] = [rss_of(p) for p in pids]
        cpu0 = sum(cpu_of(p) for p in pids)
        acked: dict[tuple[int, int], float] = {}
        posted = asyncio.run(post_rolls(bases, tables, args.rolls, args.rate, acked))
        time.sleep(3)  # the last deliveries
        out["cpu"] = sum(cpu_of(p) for p in pids) - cpu0
        out["rss"] = [max(a, rss_of(p)) for a, p in zip(out["rss"], pids, strict=True)]
        latencies: list[float] = []
        windows: dict[int, list[float]] = {}  # by 5 s of posting: where in the run the tail is
        first = min(posted.values(), default=0.0)
        slowest: dict[tuple[int, int], float] = {}  # roll → its slowest delivery
        lost = 0
        for proc, part in workers:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("\n")
            proc.stdin.flush()
            got = json.loads(proc.stdout.readline())["times"]
            proc.wait()
            for (_url, table, _token), times in zip(part, got, strict=True):
                if times is None:
                    continue  # never connected: counted apart
                for (t, seq), at in posted.items():
                    if t != table:
                        continue
                    if str(seq) in times:
                        latencies.append((times[str(seq)] - at) * 1000)
                        slowest[(t, seq)] = max(slowest.get((t, seq), 0.0), latencies[-1])
                        windows.setdefault(int((at - first) // 5), []).append(latencies[-1])
                    else:
                        lost += 1
        latencies.sort()
        out["deliveries"] = len(latencies)
        out["lost"] = lost
        out["p50"] = statistics.median(latencies) if latencies else 0.0
        out["p99"] = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else 0.0
        out["windows"] = [_p99(windows[k]) for k in sorted(windows)]
        # the slowest rolls: when they were posted, how long the action took (the reply), how
        # long until the last client had it; a slow reply is the action's delay (server busy,
        # database), a quick reply with a slow delivery is the push's
        out["slowest"] = [(posted[k] - first, (acked[k] - posted[k]) * 1000, v, posted[k])
                          for k, v in sorted(slowest.items(), key=lambda kv: -kv[1])[:5]]


def _p99(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))]


async def setup(base: str, count: int) -> list[tuple[int, str, str]]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        return await make_tables(http, count)


def clients_of(tables: list[tuple[int, str, str]], count: int) -> list[tuple[int, str]]:
    """(table, token) for each client: spread evenly over the tables, MJ and joueur in turn."""
    return [(tables[i % len(tables)][0], tables[i % len(tables)][1 + (i // len(tables)) % 2])
            for i in range(count)]


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        plan = json.loads(sys.stdin.readline())
        asyncio.run(worker(plan, float(sys.argv[2])))
        return 0
    parser = argparse.ArgumentParser(description="Beaucoup de tables : clients en direct sur deux "
                                                 "processus et une base PostgreSQL.")
    parser.add_argument("--clients", type=int, default=10000)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rolls", type=int, default=300, help="jets postés, sur les tables à tour de rôle")
    parser.add_argument("--rate", type=float, default=10.0,
                        help="jets par seconde, toutes tables (sous le débit du serveur : au-delà, "
                             "l'attente de l'action compterait dans la latence)")
    parser.add_argument("--workers", type=int, default=2, help="processus clients")
    parser.add_argument("--connect-seconds", type=float, default=180.0)
    args = parser.parse_args()
    if args.clients < args.tables or args.tables < 1:
        parser.error("--clients : au moins autant que de tables (--tables ≥ 1)")
    label = (f"direct : {clients_label(args.clients)} clients sur {clients_label(args.tables)} tables, "
             "2 processus, PostgreSQL, p99 < 250 ms, 0 perdue")
    r: dict[str, Any] = {}
    try:
        run(args, r)
    except Exception as exc:
        goal(label, f"échec pendant : {r.get('stage', 'le démarrage')} ({type(exc).__name__})", None)
        return 1
    print(f"tables créées en {r['setup_s']:.0f} s ; {r['ready']} clients connectés sur "
          f"{args.clients} en {r['connect_s']:.0f} s ; {r['deliveries']} livraisons, "
          f"{r['lost']} perdue(s) ; p50 {r['p50']:.0f} ms, p99 {r['p99']:.0f} ms ; "
          f"CPU des serveurs {r['cpu'] / max(r['deliveries'], 1) * 1e6:.0f} µs par livraison ; "
          f"RSS {' et '.join(f'{m:.0f}' for m in r['rss'])} Mio")
    print("p99 par tranche de 5 s de jets (la première suit de près les dernières connexions) : "
          + " ; ".join(f"{v:.0f} ms" for v in r["windows"]))
    print("jets les plus lents (posté à, réponse de l'action, dernière livraison) : " + " ; ".join(
        f"{at:.1f} s, {ack:.0f} ms, {last:.0f} ms" for at, ack, last, _ in r["slowest"]))
    if os.environ.get("JDR_BENCH_CLOCK"):  # to set beside the servers' own logs (monotonic clock)
        print("horloge monotone des plus lents : " + ", ".join(f"{m:.3f}" for *_, m in r["slowest"]))
    whole = r["ready"] == args.clients
    figure = f"p99 {r['p99']:.0f} ms, {lost_text(r['lost'])}"
    if not whole:
        figure += (f" — mesuré sur {clients_label(r['ready'])} clients connectés seulement "
                   f"(la machine n'en a pas connecté plus en {args.connect_seconds:.0f} s)")
    goal(label, figure, (r["p99"] < 250 and r["lost"] == 0) if whole else None)
    per = args.clients // 2
    goal(f"mémoire : ≤ 250 Mio par processus, {clients_label(per)} clients chacun",
         " et ".join(f"{m:.0f} Mio" for m in r["rss"]),
         max(r["rss"]) <= 250 if whole else None)
    return 0 if r["lost"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
