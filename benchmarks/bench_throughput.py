"""Actions per second on one table: 16 concurrent posters against a real `jdr serve`.

For SQLite and PostgreSQL, the script starts a server (`python -m jdr.web.serve`), creates a
table with two characters, then 16 posters each send actions one after another for a few
seconds: a free roll, a check of a character's skill and an attack that changes the defender's
sheet, in turn. It prints the actions acknowledged per second, the median and p99 latency, the
server's CPU per action, and the posters' (one process, on the same two cores: what is left
for the server and PostgreSQL). Then durability: the server is killed with SIGKILL while the posters
are still sending, and every acknowledged action must be in the journal when the database is
opened again (no relaxed `synchronous`: an acknowledged action is committed).

    python benchmarks/bench_throughput.py [--posters 16] [--seconds 6] [--bases sqlite,pg]
        [--before RÉVISION] [--rounds 1] [--client httpx|brut]

`--before main` also measures the code of that revision (`git archive`), alternately with the
current code in the same run (`--rounds` times each, before then after), and prints the medians
and ranges of both: the machine's load changes from minute to minute, a before / after from two
runs apart says little.

Goal: ≥ 300 actions/s with 16 posters, on each database; 0 acknowledged action lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import bench_live
import httpx
from bench_live import cpu_of, fr, free_port, goal, lost_text, pg_schema, server_env

NAIN = """systeme: cydonia
nom: Nain A
caracteristiques: {physique: 7, agilite: 4, dexterite: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}
competences: {hache: 6, esquive: 2}
pv: 30
armes:
  - {nom: Hache, competence: hache, degats: "PHY+3+1d10", equipee: principale}
"""
CIBLE = """systeme: cydonia
nom: Cible
caracteristiques: {physique: 5, agilite: 1, dexterite: 1, sensoriel: 1, courage: 1, charisme: 1,
  mental: 1, chance: 1}
competences: {esquive: 1}
pv: {max: 1000000, actuels: 1000000}
"""
ACTIONS: list[dict[str, Any]] = [
    {"type": "roll", "params": {"expression": "1d20"}},
    {"type": "check", "params": {"personnage": "Nain A", "competence": "hache", "seuil": "15"}},
    {"type": "attack", "params": {"attaquant": "Nain A", "defenseur": "Cible"}},
]


@dataclass
class Run:
    label: str
    actions: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    cpu: float = 0.0
    client_cpu: float = 0.0  # the posters' own process, the same seconds
    acked: set[int] = field(default_factory=set)
    lost: int | None = None
    note: str = ""


def start_server(db: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "jdr.web.serve", "--db", db, "--port", str(port)],
                               env=server_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError("serveur arrêté au démarrage")
        try:
            if httpx.get(f"{url}/api/sante", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.1)


async def setup(http: httpx.AsyncClient) -> tuple[int, str]:
    r = await http.post("/api/tables", json={"nom": "Débit", "systeme": "cydonia"})
    table, mj = r.json()["id"], r.json()["jeton"]
    for sheet in (NAIN, CIBLE):
        r = await http.post(f"/api/tables/{table}/personnages", json={"yaml": sheet},
                            headers={"Authorization": f"Bearer {mj}"})
        assert r.status_code == 201, r.text
    return table, mj


async def poster(http: httpx.AsyncClient, table: int, mj: str, index: int, until: float,
                 run: Run, record: bool) -> None:
    i = index
    while time.perf_counter() < until:
        body = ACTIONS[i % len(ACTIONS)]
        i += 1
        t0 = time.perf_counter()
        try:
            r = await http.post(f"/api/tables/{table}/actions", json=body,
                                headers={"Authorization": f"Bearer {mj}"})
        except httpx.HTTPError:
            run.errors += record
            return  # the server was killed (the durability phase)
        if r.status_code != 200:
            run.errors += record
            continue
        if record:
            run.latencies.append((time.perf_counter() - t0) * 1000)
            run.actions += 1
        seq = r.json().get("seq")
        if isinstance(seq, int):
            run.acked.add(seq)


REQUESTS: dict[tuple[str, int, str], list[bytes]] = {}  # (url, table, token) -> the three requests


def requests_of(url: str, table: int, mj: str) -> list[bytes]:
    """The three actions as whole HTTP/1.1 requests, written once (`--client brut`)."""
    key = (url, table, mj)
    if key not in REQUESTS:
        host = url.split("://", 1)[1]
        made = []
        for action in ACTIONS:
            body = json.dumps(action).encode()
            made.append((f"POST /api/tables/{table}/actions HTTP/1.1\r\nHost: {host}\r\n"
                         f"Authorization: Bearer {mj}\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
        REQUESTS[key] = made
    return REQUESTS[key]


async def raw_poster(url: str, table: int, mj: str, index: int, until: float, run: Run,
                     record: bool) -> None:
    """`poster` over a bare keep-alive connection: the request written as bytes, the answer
    read by its `Content-Length` (httpx costs its process as much CPU per action as the server
    spends on it, on the same two cores)."""
    host, _, port = url.split("://", 1)[1].partition(":")
    requests = requests_of(url, table, mj)
    reader, writer = await asyncio.open_connection(host, int(port))
    i = index
    try:
        while time.perf_counter() < until:
            request = requests[i % len(requests)]
            i += 1
            t0 = time.perf_counter()
            try:
                writer.write(request)
                status = int((await reader.readline()).split(b" ", 2)[1])
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                data = await reader.readexactly(length)
            except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
                run.errors += record
                return  # the server was killed (the durability phase)
            if status != 200:
                run.errors += record
                continue
            if record:
                run.latencies.append((time.perf_counter() - t0) * 1000)
                run.actions += 1
            seq = json.loads(data).get("seq")
            if isinstance(seq, int):
                run.acked.add(seq)
    finally:
        writer.close()


def posters_of(raw: bool, http: httpx.AsyncClient, url: str, table: int, mj: str, count: int,
               until: float, run: Run, record: bool) -> list[Coroutine[Any, Any, None]]:
    if raw:
        return [raw_poster(url, table, mj, i, until, run, record) for i in range(count)]
    return [poster(http, table, mj, i, until, run, record) for i in range(count)]


async def load(url: str, pid: int, run: Run, posters: int, seconds: float,
               raw: bool = False) -> tuple[int, str]:
    limits = httpx.Limits(max_connections=posters, max_keepalive_connections=posters)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        table, mj = await setup(http)
        warm = time.perf_counter() + 1.0  # warm-up: imports, caches, connections
        await asyncio.gather(*posters_of(raw, http, url, table, mj, posters, warm, run, False))
        cpu0, mine0, t0 = cpu_of(pid), time.process_time(), time.perf_counter()
        until = t0 + seconds
        await asyncio.gather(*posters_of(raw, http, url, table, mj, posters, until, run, True))
        run.seconds = time.perf_counter() - t0
        run.cpu = cpu_of(pid) - cpu0
        run.client_cpu = time.process_time() - mine0
        return table, mj


async def kill_while_posting(url: str, process: subprocess.Popen[str], table: int, mj: str,
                             run: Run, posters: int, raw: bool = False) -> None:
    limits = httpx.Limits(max_connections=posters, max_keepalive_connections=posters)
    async with httpx.AsyncClient(base_url=url, timeout=10, limits=limits) as http:
        until = time.perf_counter() + 30
        tasks = [asyncio.create_task(c)
                 for c in posters_of(raw, http, url, table, mj, posters, until, run, False)]
        await asyncio.sleep(0.7)
        process.send_signal(signal.SIGKILL)
        await asyncio.gather(*tasks, return_exceptions=True)


def lost_after_kill(db: str, table: int, acked: set[int]) -> int:
    from jdr.campaign.store import Campaign

    campaign = Campaign.open(db)
    try:
        with campaign.reading() as tx:
            seqs: set[int] = set()
            since = 0
            while True:
                page = tx.entries(since=since, limit=1000)
                seqs.update(e.seq for e in page)
                if len(page) < 1000:
                    break
                since = page[-1].seq
    finally:
        campaign.dispose()
    return len(acked - seqs)


def scenario(label: str, posters: int, seconds: float, shown: str | None = None,
             raw: bool = False) -> Run:
    run = Run(shown or label)
    with ExitStack() as stack:
        if label == "SQLite":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            db = os.path.join(folder, "debit.jdr")
        else:
            db = stack.enter_context(pg_schema())
        process, url = start_server(db)
        try:
            table, mj = asyncio.run(load(url, process.pid, run, posters, seconds, raw))
            asyncio.run(kill_while_posting(url, process, table, mj, run, posters, raw))
        except Exception as exc:
            run.note = f"échec : {type(exc).__name__} {exc}"[:100]
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
        if not run.note:
            run.lost = lost_after_kill(db, table, run.acked)
    return run


LABELS = {"sqlite": "SQLite", "pg": "PostgreSQL"}


@contextmanager
def code_of(revision: str | None) -> Iterator[None]:
    """The servers started meanwhile run the code of `revision` (`git archive` of its `src`)."""
    if revision is None:
        yield
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", revision, "src"], cwd=root, capture_output=True)
        if archive.returncode != 0:
            raise SystemExit(f"--before : révision « {revision} » introuvable")
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        bench_live.SOURCE["PYTHONPATH"] = os.path.join(folder, "src")
        try:
            yield
        finally:
            bench_live.SOURCE.clear()


def figures(r: Run) -> str:
    if r.note:
        return f"{r.label:<22} {r.note}"
    lat = sorted(r.latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    return (f"{r.label:<22} {r.actions / r.seconds:>9.0f} {statistics.median(lat):>7.1f} "
            f"{p99:>7.1f} {r.cpu / max(r.actions, 1) * 1000:>13.2f} "
            f"{r.client_cpu / max(r.actions, 1) * 1000:>13.2f} {r.errors:>7} {r.lost!s:>22}")


def spread(values: list[float], digits: int) -> str:
    """The median and the range, « 312 (287–330) »."""
    return (f"{fr(statistics.median(values), digits)} ({fr(min(values), digits)}–"
            f"{fr(max(values), digits)})")


def compare(runs: list[Run], labels: list[str], before: str) -> None:
    """Per base: the medians and ranges of the code before and after, measured alternately."""
    print(f"\nmédianes (min–max) sur {len(runs) // (2 * len(labels))} passage(s) alternés :")
    for label in labels:
        for code, name in ((f"{label} ({before})", f"avant ({before})"), (label, "après")):
            done = [r for r in runs if r.label == code and not r.note]
            if not done:
                print(f"  {label:<11} {name:<14} aucun passage réussi")
                continue
            rates = [r.actions / r.seconds for r in done]
            cpus = [r.cpu / max(r.actions, 1) * 1000 for r in done]
            print(f"  {label:<11} {name:<14} {spread(rates, 0)} actions/s ; "
                  f"{spread(cpus, 2)} ms de CPU par action")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posters", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--bases", default="sqlite,pg", help="parmi sqlite, pg")
    parser.add_argument("--before", metavar="RÉVISION",
                        help="mesure aussi le code de cette révision git (ex. main), en alternance "
                             "avec le code actuel dans le même passage, pour un avant / après")
    parser.add_argument("--rounds", type=int, default=1,
                        help="passages de chaque code (en alternance avec --before ; l'objectif "
                             "juge la médiane)")
    parser.add_argument("--client", choices=("httpx", "brut"), default="httpx",
                        help="les clients : httpx, ou brut (la requête écrite en octets sur une "
                             "connexion gardée : bien moins de CPU pris aux deux cœurs)")
    args = parser.parse_args()
    raw = args.client == "brut"
    wanted = [b for b in args.bases.split(",") if b]
    unknown = set(wanted) - set(LABELS)
    if unknown or not wanted:
        parser.error(f"--bases : « {', '.join(sorted(unknown))} » inconnu (sqlite, pg)")
    labels = [LABELS[b] for b in wanted]
    runs: list[Run] = []
    for _ in range(max(1, args.rounds)):
        for label in labels:
            if args.before:
                with code_of(args.before):
                    runs.append(scenario(label, args.posters, args.seconds,
                                         f"{label} ({args.before})", raw))
            runs.append(scenario(label, args.posters, args.seconds, raw=raw))
    head = (f"{'base':<22} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'CPU ms/action':>13} "
            f"{'CPU clients':>13} {'erreurs':>7} {'perdues après kill -9':>22}")
    print(head)
    print("-" * len(head))
    for r in runs:
        print(figures(r))
    if args.before:
        compare(runs, labels, args.before)
    ok = fast = True
    for label in labels:  # the goals: the current code (its median over the rounds)
        mine = [r for r in runs if r.label == label]
        done = [r for r in mine if not r.note]
        rate = statistics.median([r.actions / r.seconds for r in done]) if done else None
        lost = sum(r.lost or 0 for r in done)
        failed = next((r.note for r in mine if r.note), "")
        shown = f"{rate:.0f} actions/s" if rate is not None else failed
        if len(done) > 1:
            shown += f" (médiane de {len(done)} passages)"
        if raw and rate is not None:
            shown += " ; clients en octets bruts"
        goal(f"débit : ≥ 300 actions/s avec {args.posters} clients, {label}", shown,
             None if rate is None else rate >= 300)
        goal(f"durabilité : 0 action acquittée perdue après kill -9, {label}",
             failed or f"{lost_text(lost)} sur {sum(len(r.acked) for r in done)} acquittées",
             None if failed else lost == 0)
        ok = ok and not failed and lost == 0
        fast = fast and rate is not None and rate >= 300
    print(f"objectif ≥ 300 actions/s avec {args.posters} clients : "
          f"{'atteint' if fast else 'NON atteint'} ; actions acquittées perdues : "
          f"{'aucune' if ok else 'PRÉSENTES ou échec'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
