"""The live channel under load: N WebSocket clients (≥ 200) on loopback while rolls are posted.

For each setup — SQLite with one server process, PostgreSQL with one and with two processes (the
clients split between them, every roll posted to the first) — the script starts real servers
(`python -m jdr.web.serve`), invites one person per client, connects them all, then posts rolls
at a steady rate (one in ten is a secret MJ roll). It measures, for every delivery, the time from
the moment the roll was posted to the moment the client received it (p50 / p99), the entries lost
(expected but never received: must be 0) and the leaks (a secret roll reaching a joueur: must be
0). SQLite with two processes is not a supported setup (one process is the documented limit).

    python benchmarks/bench_live.py [--clients 200] [--rolls 60] [--rate 20]

PostgreSQL: `JDR_BENCH_PG` (default: the test server, postgresql+psycopg://postgres@127.0.0.1:5432/test),
in a schema made for the run and dropped afterwards. Goal: p99 < 50 ms, 0 lost, 0 leaks, ≤ 250 MiB
per process; the server's CPU per delivery ≤ 1.5× a bare asyncio broadcaster's
(`bare_broadcaster.py`) writing the same frames to as many clients, measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

PG = os.environ.get("JDR_BENCH_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
SCENARIO_SECONDS = 240
SQLITE_TWO = "non pris en charge : un seul processus sur SQLite (limite documentée)"


@dataclass
class Result:
    label: str
    processes: int
    clients: int = 0
    rolls: int = 0
    p50: float = 0.0
    p99: float = 0.0
    lost: int = 0
    leaks: int = 0
    note: str = ""
    cpu_us: float = 0.0  # server CPU per delivery (all processes), µs
    deliver_us: float = 0.0  # the same, less the CPU of posting the rolls with nobody listening
    rss_mib: float = 0.0  # largest server resident memory with every client connected
    frames: list[str] = field(default_factory=list)  # what the MJ received, for the baseline


@dataclass
class Client:
    token: str
    mj: bool
    base: str
    times: dict[int, float] = field(default_factory=dict)
    duplicates: int = 0
    frames: list[tuple[int, str]] = field(default_factory=list)


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_of(pid: int) -> float:
    """Resident memory of a process, MiB (Linux /proc)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


PIDS: dict[str, int] = {}  # server url -> pid
# The server's caps (`jdr.web.limits`) lifted: every client of the bench comes from 127.0.0.1, and
# one token posts every roll.
LIFTED = {"JDR_CONNEXIONS_MAX": "100000", "JDR_CONNEXIONS_PAR_ADRESSE": "100000",
          "JDR_ACTIONS_RAFALE": "100000", "JDR_ACTIONS_PAR_SECONDE": "10000"}


SOURCE: dict[str, str] = {}  # PYTHONPATH of the servers: the code of `--before`, for a scenario
PROFILE = os.environ.get("JDR_BENCH_PROFILE")  # a folder: each server runs under cProfile there


# The server under cProfile (its event loop's thread), the profile written when it is stopped.
PROFILED = """import cProfile, signal, sys
profile = cProfile.Profile()
def stop(*_):
    profile.disable()
    profile.dump_stats(sys.argv[1])
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
profile.enable()
from jdr.web.serve import main
main(sys.argv[2:])
stop()
"""


def server_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "JDR_ADMIN_TOKEN"}
    env.update(LIFTED)
    env.update(SOURCE)
    return env


def fr(value: float, digits: int = 2) -> str:
    """A number as written in French (decimal comma)."""
    return f"{value:.{digits}f}".replace(".", ",")


def lost_text(count: int, word: str = "perdue") -> str:
    return f"{count} {word}{'s' if count > 1 else ''}"


def goal(label: str, figure: str, met: bool | None) -> None:
    """One goal of issue 18, in the form `run_all.py` collects: `objectif | LABEL | FIGURE | VERDICT`."""
    verdict = "non mesuré" if met is None else "atteint" if met else "non atteint"
    print(f"objectif | {label} | {figure} | {verdict}", flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(db: str) -> Iterator[str]:
    port = free_port()
    start = ["-c", PROFILED, os.path.join(PROFILE, f"serveur-{port}.prof")] if PROFILE else [
        "-m", "jdr.web.serve"]
    process = subprocess.Popen([sys.executable, *start, "--db", db,
                                "--port", str(port)], env=server_env(), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE,
                               text=True)
    url = f"http://127.0.0.1:{port}"
    PIDS[url] = process.pid
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"serveur arrêté : {process.stderr.read() if process.stderr else ''}")
            try:
                if httpx.get(f"{url}/api/sante", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def pg_schema() -> Iterator[str]:
    import psycopg

    admin = PG.replace("postgresql+psycopg://", "postgresql://")
    schema = f"jdr_bench_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


SEQ = re.compile(r'"seq": ?(\d+)')


def seq_of(message: str | bytes) -> int:
    """The entry's number, read from the frame's head (a JSON parse of every frame by a thousand
    clients in one process would weigh on the latency measured, not on the server)."""
    text = message if isinstance(message, str) else message.decode()
    match = SEQ.search(text, 0, 200)
    return int(match.group(1)) if match else int(json.loads(text)["seq"])


HANDSHAKES = 64  # connections opened at once (a thousand at once would time out on a loaded machine)
READY_SECONDS = 120  # every client connected and through its backlog (set-up, not measured)


async def listen(client: Client, table: int, ready: asyncio.Event, gate: asyncio.Semaphore) -> None:
    url = f"{client.base}/api/tables/{table}/direct?token={client.token}&depuis=0"
    async with gate:
        ws = await connect(url, max_queue=None, open_timeout=READY_SECONDS)
    async with ws:
        async for message in ws:
            now = time.perf_counter()
            seq = seq_of(message)
            if seq in client.times:
                client.duplicates += 1
            client.times[seq] = now
            if client.mj:
                client.frames.append((seq, message if isinstance(message, str) else message.decode()))
            if seq >= 1:
                ready.set()


async def people(http: httpx.AsyncClient, count: int, bases: list[str]) -> tuple[int, str, list[Client]]:
    r = await http.post("/api/tables", json={"nom": "Banc", "systeme": "cydonia"})
    table, mj = r.json()["id"], r.json()["jeton"]
    clients = [Client(mj, True, bases[0])]

    async def invite(i: int) -> Client:
        role = "joueur" if i % 4 else "spectateur"
        r = await http.post(f"/api/tables/{table}/invitations", json={"role": role, "nom": f"P{i}"},
                            headers={"Authorization": f"Bearer {mj}"})
        return Client(r.json()["jeton"], False, bases[i % len(bases)])

    for start in range(1, count, 8):  # eight at a time
        clients += await asyncio.gather(*(invite(i) for i in range(start, min(start + 8, count))))
    return table, mj, clients


async def post_rolls(http: httpx.AsyncClient, table: int, mj: str, rolls: int, rate: float
                     ) -> dict[int, tuple[float, bool]]:
    """seq → (time posted, secret)."""
    posted: dict[int, tuple[float, bool]] = {}
    start = time.perf_counter()
    for i in range(rolls):
        await asyncio.sleep(max(0.0, start + i / rate - time.perf_counter()))
        secret = i % 10 == 9
        t0 = time.perf_counter()
        r = await http.post(f"/api/tables/{table}/actions", headers={"Authorization": f"Bearer {mj}"},
                            json={"type": "roll", "params": {"expression": "1d20"},
                                  "visibilite": "mj" if secret else "public"})
        posted[r.json()["seq"]] = (t0, secret)
    return posted


def measure(result: Result, clients: list[Client], posted: dict[int, tuple[float, bool]]) -> None:
    latencies: list[float] = []
    for client in clients:
        for seq, (t0, secret) in posted.items():
            if secret and not client.mj:
                result.leaks += seq in client.times
            elif seq in client.times:
                latencies.append((client.times[seq] - t0) * 1000)
            else:
                result.lost += 1
        result.leaks += client.duplicates  # a duplicate is counted as a fault too
    latencies.sort()
    result.p50 = statistics.median(latencies)
    result.p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]


async def run(bases: list[str], result: Result, rolls: int, rate: float) -> None:
    ws_bases = [b.replace("http://", "ws://") for b in bases]
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as http:
        table, mj, clients = await people(http, result.clients, ws_bases)
        pids = [PIDS[b] for b in bases]
        cpu0 = sum(cpu_of(p) for p in pids)  # the same rolls, nobody listening yet
        await post_rolls(http, table, mj, rolls, rate)
        posting = sum(cpu_of(p) for p in pids) - cpu0
        ready = [asyncio.Event() for _ in clients]
        gate = asyncio.Semaphore(HANDSHAKES)
        tasks = [asyncio.create_task(listen(c, table, e, gate))
                 for c, e in zip(clients, ready, strict=True)]
        await asyncio.sleep(0.5)
        await http.post(f"/api/tables/{table}/actions", headers={"Authorization": f"Bearer {mj}"},
                        json={"type": "roll", "params": {"expression": "1d6"}})  # seq 1: all connected
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), timeout=READY_SECONDS)
        gc.collect()  # the clients' objects set aside from the collector (the instrument's own
        gc.freeze()  # full collections are not the server's delay)
        cpu0 = sum(cpu_of(p) for p in pids)
        posted = await post_rolls(http, table, mj, rolls, rate)
        last = max(posted)
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline and not all(
                last in c.times for c in clients if c.mj or not posted[last][1]):
            await asyncio.sleep(0.05)
        cpu = sum(cpu_of(p) for p in pids) - cpu0
        result.rss_mib = max(rss_of(p) for p in pids)
        deliveries = sum(sum(1 for seq in c.times if seq in posted) for c in clients)
        result.cpu_us = cpu / max(deliveries, 1) * 1e6
        result.deliver_us = max(cpu - posting, 0.0) / max(deliveries, 1) * 1e6
        result.frames = [text for seq, text in clients[0].frames if seq in posted]
        await asyncio.sleep(0.3)  # late duplicates or leaks would show up here
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    result.rolls = rolls
    measure(result, clients, posted)


def scenario(label: str, processes: int, args: argparse.Namespace) -> Result:
    result = Result(label, processes, args.clients)
    with ExitStack() as stack:
        if label.startswith("SQLite"):
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            db = os.path.join(folder, "banc.jdr")
        else:
            db = stack.enter_context(pg_schema())
        try:
            bases = [stack.enter_context(server(db)) for _ in range(processes)]
            asyncio.run(bounded(run(bases, result, args.rolls, args.rate)))
        except Exception as exc:
            result.note = f"échec : {type(exc).__name__} {exc}"[:100]
    return result


async def bounded(work: Any) -> None:
    async with asyncio.timeout(SCENARIO_SECONDS):
        await work


async def bare_run(clients: int, frames: list[str], rate: float) -> tuple[float, int, float]:
    """The same frames, at the same rate, to as many clients, from `bare_broadcaster.py`:
    (its CPU seconds, deliveries received, p99 ms from a frame's sending to its receipt). The
    p99 is this machine's floor for the same clients: no framework, no database."""
    port = free_port()
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as f:
        json.dump(frames, f, ensure_ascii=False)
    here = os.path.dirname(os.path.abspath(__file__))
    process = await asyncio.create_subprocess_exec(
        sys.executable, os.path.join(here, "bare_broadcaster.py"), str(port), str(clients), f.name,
        str(rate), stdout=asyncio.subprocess.PIPE)
    assert process.stdout is not None
    await process.stdout.readline()  # ready
    received = [0]
    arrivals: list[list[float]] = []

    async def one() -> None:
        mine: list[float] = []
        arrivals.append(mine)
        async with connect(f"ws://127.0.0.1:{port}/", max_queue=None, compression=None) as ws:
            async for _message in ws:
                mine.append(time.time())
                received[0] += 1

    tasks = [asyncio.create_task(one()) for _ in range(clients)]
    line = await asyncio.wait_for(process.stdout.readline(), timeout=SCENARIO_SECONDS)
    await process.wait()
    await asyncio.gather(*tasks, return_exceptions=True)
    os.unlink(f.name)
    report = json.loads(line)
    sent = report["sent"]
    waits = sorted((t - sent[i]) * 1000 for mine in arrivals for i, t in enumerate(mine)
                   if i < len(sent))
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))] if waits else float("nan")
    return float(report["cpu"]), received[0], p99


def table(results: list[Result]) -> str:
    head = f"{'base':<11} {'processus':>9} {'clients':>7} {'jets':>5} {'p50 ms':>8} {'p99 ms':>8} " \
           f"{'perdues':>7} {'fuites':>6} {'CPU µs/livr.':>12} {'dont envoi':>10} {'RSS Mio':>8}"
    lines = [head, "-" * len(head)]
    for r in results:
        if r.note:
            lines.append(f"{r.label:<11} {r.processes:>9}  {r.note}")
            continue
        lines.append(f"{r.label:<11} {r.processes:>9} {r.clients:>7} {r.rolls:>5} {r.p50:>8.1f} "
                     f"{r.p99:>8.1f} {r.lost:>7} {r.leaks:>6} {r.cpu_us:>12.1f} {r.deliver_us:>10.1f} "
                     f"{r.rss_mib:>8.0f}")
    return "\n".join(lines)


def measure_before(args: argparse.Namespace) -> Result:
    """The SQLite scenario with the code of revision `args.before` (`git archive`), the same run."""
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", args.before, "src"], cwd=os.path.dirname(here),
                                 capture_output=True)
        if archive.returncode != 0:
            return Result(f"SQLite ({args.before})", 1, note="révision introuvable")
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        SOURCE["PYTHONPATH"] = os.path.join(folder, "src")
        try:
            return scenario(f"SQLite ({args.before})", 1, args)
        finally:
            SOURCE.clear()


def clients_label(count: int) -> str:
    return f"{count:,}".replace(",", "\u202f")


def main() -> int:
    parser = argparse.ArgumentParser(description="Charge du canal direct de la table en ligne.")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--rolls", type=int, default=60)
    parser.add_argument("--rate", type=float, default=20.0, help="jets par seconde")
    parser.add_argument("--scenarios", default="sqlite,pg,pg2",
                        help="parmi sqlite, pg (un processus), pg2 (deux processus)")
    parser.add_argument("--before", metavar="RÉVISION",
                        help="mesure aussi le code de cette révision git (ex. main) sur SQLite, "
                             "dans le même passage, pour un avant / après")
    args = parser.parse_args()
    wanted = set(args.scenarios.split(","))
    unknown = wanted - {"sqlite", "pg", "pg2"}
    if unknown:
        parser.error(f"--scenarios : « {', '.join(sorted(unknown))} » inconnu (sqlite, pg, pg2)")
    started = time.monotonic()
    results = []
    if "sqlite" in wanted:
        results += [scenario("SQLite", 1, args), Result("SQLite", 2, note=SQLITE_TWO)]
    if "pg" in wanted:
        results.append(scenario("PostgreSQL", 1, args))
    if "pg2" in wanted:
        results.append(scenario("PostgreSQL", 2, args))
    before = measure_before(args) if args.before else None
    print(table(results + ([before] if before else [])))
    base = results[0]
    floor = ""  # the bare broadcaster's p99 with the same clients: what this machine allows
    if not base.note and base.frames:
        cpu, deliveries, bare_p99 = asyncio.run(bare_run(base.clients, base.frames, args.rate))
        floor = f" ; diffuseur nu, mêmes clients : p99 {bare_p99:.0f} ms"
        print(f"latence du diffuseur asyncio nu, mêmes trames et mêmes clients : p99 {bare_p99:.1f} ms "
              "(le plancher de cette machine, clients compris)")
        bare_us = cpu / max(deliveries, 1) * 1e6
        if before is not None and not before.note:
            print(f"avant ({args.before}) : {fr(before.deliver_us / max(bare_us, 1e-9))} × pour l'envoi, "
                  f"{fr(before.cpu_us / max(bare_us, 1e-9))} × avec les jets ; après : "
                  f"{fr(base.deliver_us / max(bare_us, 1e-9))} × et {fr(base.cpu_us / max(bare_us, 1e-9))} ×"
                  " (même passage, même diffuseur nu)")
        print(f"CPU par livraison : jdr ({base.label}) {base.cpu_us:.1f} µs en tout, dont "
              f"{base.deliver_us:.1f} µs pour l'envoi (le coût des jets postés sans personne à "
              f"l'écoute retiré) ; diffuseur asyncio nu {bare_us:.1f} µs (mêmes trames, "
              f"{deliveries} livraisons) ; rapports {base.cpu_us / max(bare_us, 1e-9):.2f} en tout, "
              f"{base.deliver_us / max(bare_us, 1e-9):.2f} pour l'envoi (objectif ≤ 1,5)")
        ratio = base.deliver_us / max(bare_us, 1e-9)
        goal("direct : CPU du serveur par livraison ≤ 1,5 × un diffuseur asyncio nu",
             f"{fr(ratio)} × pour l'envoi, {fr(base.cpu_us / max(bare_us, 1e-9))} × avec les jets "
             f"({base.label}, {clients_label(base.clients)} clients)", ratio <= 1.5)
    else:
        goal("direct : CPU du serveur par livraison ≤ 1,5 × un diffuseur asyncio nu",
             base.note or "aucune trame reçue", None)
    for r in results:
        if r.note == SQLITE_TWO:
            continue
        who = f"{clients_label(args.clients)} clients sur une table, {r.label}" + (
            f", {r.processes} processus" if r.processes > 1 else "")
        if r.note:
            goal(f"direct : {who}, p99 < 50 ms, 0 perdue", r.note, None)
            continue
        goal(f"direct : {who}, p99 < 50 ms, 0 perdue",
             f"p99 {r.p99:.0f} ms (p50 {r.p50:.0f}), {lost_text(r.lost)}, "
             f"{lost_text(r.leaks, 'fuite')}{floor}",
             r.p99 < 50 and r.lost == 0 and r.leaks == 0)
        goal(f"mémoire : ≤ 250 Mio par processus, {who}", f"{r.rss_mib:.0f} Mio",
             r.rss_mib <= 250)
    measured = [r for r in results if not r.note]
    failed = [r for r in results if r.note.startswith("échec")]
    clean = all(r.lost == 0 and r.leaks == 0 for r in measured)
    good = clean and not failed
    faults = "aucune" if good else "PRÉSENTES" if not clean else "aucune mesurée, un scénario en échec"
    print(f"perdues et fuites : {faults} ; durée {time.monotonic() - started:.0f} s")
    return 0 if good else 1


if __name__ == "__main__":
    raise SystemExit(main())
