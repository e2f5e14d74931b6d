"""`make bench`: every benchmark, each bounded in time, then every goal of issue 18 with its figure
and « atteint » / « non atteint » / « non mesuré », in one table.

Each benchmark runs as its own process (its output shown as it comes); its goals are read from
what it prints: the lines `objectif | LABEL | FIGURE | VERDICT` of the live, many-tables and
throughput benchmarks, and the summary lines of the others (dice, start-up, odds, encounters,
simulator). A
benchmark that fails or runs out of time leaves its goals « non mesuré » (never a made-up figure).
The machine's load (1 min average) is printed at the start and at the end: the ratios are measured
in one run, interleaved, but latencies and rates suffer on a loaded machine.

    python benchmarks/run_all.py [--only live,many,…] [--quick]

`--quick` runs every benchmark smaller (for a try, not for the figures of the issue).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
Goal = tuple[str, str, str]  # label, figure, verdict
GOAL_LINE = re.compile(r"^objectif \| (.+?) \| (.+?) \| (atteint|non atteint|non mesuré)$")


def verdict(met: bool) -> str:
    return "atteint" if met else "non atteint"


def number(text: str) -> str:
    return text.replace(".", ",")


# ------------------------------------------------------------------ reading the other benchmarks


def startup_goals(out: str) -> list[Goal]:
    goals = []
    names = {"fichiers": ("démarrage : chaque commande sur des fiches ≤ 2,5 × `import typer` (CPU)", 2.5),
             "campagne": ("démarrage : chaque commande dans une campagne ≤ 6 × `import typer` (CPU)", 6.0)}
    for family, (label, limit) in names.items():
        match = re.search(rf"pire commande \({family}\) : ([\d.]+) ×", out)
        if match:
            ratio = float(match.group(1))
            goals.append((label, f"pire commande {number(f'{ratio:.2f}')} ×", verdict(ratio <= limit)))
    return goals


def odds_goals(out: str) -> list[Goal]:
    goals = []
    match = re.search(r"jets simples : pire rapport ([\d.]+), moyenne géométrique ([\d.]+)", out)
    if match:
        worst = float(match.group(1))
        goals.append(("chances : chaque jet simple ≤ le temps d'icepool",
                      f"pire rapport {number(match.group(1))}, moyenne {number(match.group(2))}",
                      verdict(worst <= 1)))
    match = re.search(r"jets opposés, moyenne géométrique \(jdr / icepool\) : ([\d.]+)", out)
    if match:
        goals.append(("chances : jets opposés ≤ le temps d'icepool",
                      f"moyenne géométrique {number(match.group(1))}",
                      verdict(float(match.group(1)) <= 1)))
    return goals


DICE_GOAL = "dés ≥ 4× d20"
SIM_GOAL = "combats simulés ≥ 100× la boucle du moteur"


def dice_goals(out: str) -> list[Goal]:
    match = re.search(r"moyenne géométrique \(jdr / d20[^)]*\) : ([\d.]+)", out)
    if not match:
        return []
    geo = float(match.group(1))
    rows = re.findall(r"^(\S+)\s+[\d,]+\s+[\d,]+\s+([\d.]+)$", out, re.M)
    worst = min(rows, key=lambda r: float(r[1]), default=None)
    figure = f"moyenne géométrique {number(match.group(1))} ×"
    if worst is not None:
        figure += f" (le moins rapide : {worst[0]}, {number(worst[1])} ×)"
    return [(DICE_GOAL, figure, verdict(geo >= 4))]


def sim_goals(out: str) -> list[Goal]:
    """One ratio per game system (`Simulateur — SYSTEME, …` then `rapport : N×`): the worst."""
    ratios: list[tuple[float, str]] = []
    system = "?"
    for line in out.splitlines():
        head = re.match(r"^Simulateur — ([^,]+),", line)
        if head:
            system = head.group(1)
        match = re.match(r"^\s*rapport : ([\d.]+)×", line)
        if match:
            ratios.append((float(match.group(1)), system))
    if not ratios:
        return []
    worst, system = min(ratios)
    figure = f"{number(f'{worst:.0f}')} ×" + (f" (le moins rapide : {system})" if len(ratios) > 1 else "")
    return [(SIM_GOAL, figure, verdict(worst >= 100))]


ENCOUNTER_ROW = re.compile(r"^(combat (?:start|suivant) \(([^)]*)\))\s+[\d.]+ ms\s+[\d.]+ ms\s+([\d.]+)$",
                           re.M)


def encounter_goals(out: str) -> list[Goal]:
    rows = ENCOUNTER_ROW.findall(out)
    if not rows:
        return []
    worst = max(rows, key=lambda r: float(r[2]))
    figure = "pire " + number(f"{float(worst[2]):.1f}") + f" × ({worst[0]})"
    return [("rencontres : 1 000 combattants ≤ 25 × le coût à 50 (combat start, combat suivant)",
             figure, verdict(float(worst[2]) <= 25))]


def goal_lines(out: str) -> list[Goal]:
    found = []
    for line in out.splitlines():
        match = GOAL_LINE.match(line.strip())
        if match:
            found.append((match.group(1), match.group(2), match.group(3)))
    return found


def runtime_imports() -> list[Goal]:
    """`jdr lancer 1d20` in a folder holding a campaign: are alembic or mako imported?"""
    label = "démarrage : ni alembic ni mako à l'exécution (jdr lancer dans une campagne)"
    with tempfile.TemporaryDirectory() as folder:
        made = subprocess.run([sys.executable, "-c", "import sys; from jdr.campaign.store import "
                               "Campaign; Campaign.create(sys.argv[1], 'Banc', 'cydonia').dispose()",
                               os.path.join(folder, "banc.jdr")], capture_output=True, text=True)
        if made.returncode != 0:
            return [(label, "campagne non créée : " + made.stderr.strip()[-80:], "non mesuré")]
        run = subprocess.run([sys.executable, "-X", "importtime", "-m", "jdr.cli.main", "lancer", "1d20"],
                             cwd=folder, capture_output=True, text=True)
    modules = {line.rpartition("|")[2].strip().split(".")[0] for line in run.stderr.splitlines()
               if line.startswith("import time:")}
    if run.returncode != 0:
        return [(label, f"commande en échec (code {run.returncode})", "non mesuré")]
    heavy = sorted(modules & {"alembic", "mako", "pygments"})
    return [(label, "importés : " + ", ".join(heavy) if heavy else "aucun importé", verdict(not heavy))]


# ------------------------------------------------------------------ the benchmarks


@dataclass
class Bench:
    key: str
    argv: list[str]
    quick: list[str]
    seconds: float
    goals: Callable[[str], list[Goal]] = goal_lines
    expects: list[str] = field(default_factory=list)  # its goals, « non mesuré » if it gives none


BENCHES = [
    Bench("dice", ["bench_dice.py"], ["bench_dice.py", "--rounds", "5"], 120, dice_goals, [DICE_GOAL]),
    Bench("odds", ["bench_odds.py"], ["bench_odds.py", "--rounds", "3"], 180, odds_goals,
          ["chances : chaque jet simple ≤ le temps d'icepool",
           "chances : jets opposés ≤ le temps d'icepool"]),
    Bench("startup", ["bench_startup.py", "--rounds", "3"], ["bench_startup.py", "--rounds", "2"], 360,
          startup_goals,
          ["démarrage : chaque commande sur des fiches ≤ 2,5 × `import typer` (CPU)",
           "démarrage : chaque commande dans une campagne ≤ 6 × `import typer` (CPU)"]),
    # the median of three rounds: one round alone moved from 19× to 26× between two runs
    Bench("encounter", ["bench_encounter.py", "--rounds", "3"],
          ["bench_encounter.py", "--rounds", "1", "--big", "200"], 300, encounter_goals,
          ["rencontres : 1 000 combattants ≤ 25 × le coût à 50 (combat start, combat suivant)"]),
    Bench("sim", ["bench_sim.py"], ["bench_sim.py"], 120, sim_goals, [SIM_GOAL]),
    # the posters write their requests as bytes (`--client brut`): httpx took as much CPU per
    # action as the server, on the same two cores; the server is what is measured
    Bench("throughput",
          ["bench_throughput.py", "--seconds", "4", "--rounds", "2", "--client", "brut"],
          ["bench_throughput.py", "--seconds", "2", "--client", "brut"], 240, goal_lines,
          ["débit : ≥ 300 actions/s avec 16 clients (SQLite, PostgreSQL)",
           "durabilité : 0 action acquittée perdue après kill -9"]),
    Bench("live", ["bench_live.py", "--clients", "1000", "--rolls", "40", "--scenarios", "sqlite,pg"],
          ["bench_live.py", "--clients", "200", "--rolls", "20", "--scenarios", "sqlite,pg"], 600,
          goal_lines, ["direct : CPU du serveur par livraison ≤ 1,5 × un diffuseur asyncio nu",
                       "direct : 1 000 clients sur une table (SQLite, PostgreSQL), p99 < 50 ms, 0 perdue",
                       "mémoire : ≤ 250 Mio par processus avec 1 000 clients"]),
    Bench("many", ["bench_many.py", "--clients", "10000", "--tables", "1000", "--connect-seconds", "150"],
          ["bench_many.py", "--clients", "1000", "--tables", "100"], 540, goal_lines,
          ["direct : 10 000 clients sur 1 000 tables, 2 processus, PostgreSQL, p99 < 250 ms, 0 perdue"]),
    Bench("kill", ["stress_kill.py", "--kills", "10", "--writers", "20"],
          ["stress_kill.py", "--kills", "3", "--writers", "5"], 180, lambda out: []),
]


def load() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return number(f.read().split()[0])
    except OSError:
        return "?"


def run(bench: Bench, quick: bool) -> tuple[list[Goal], str]:
    """Its goals, and how it ended (« » when well)."""
    argv = [sys.executable, str(HERE / (bench.quick if quick else bench.argv)[0]),
            *(bench.quick if quick else bench.argv)[1:]]
    print(f"\n=== {' '.join(argv[1:]).replace(str(HERE) + os.sep, 'benchmarks/')} "
          f"(au plus {bench.seconds:.0f} s ; charge {load()})", flush=True)
    lines: list[str] = []
    end = ""
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    assert process.stdout is not None
    stream = process.stdout

    def read() -> None:
        for line in stream:
            print(line, end="", flush=True)
            lines.append(line.rstrip("\n"))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        process.wait(timeout=bench.seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        end = f"arrêté au bout de {bench.seconds:.0f} s"
    reader.join(timeout=5)
    if not end and process.returncode != 0:
        end = f"code de sortie {process.returncode}"
    out = "\n".join(lines)
    goals = bench.goals(out)
    if not goals:
        why = end or "aucune mesure lue"
        goals = [(label, why, "non mesuré") for label in bench.expects]
    return goals, end


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="bancs à lancer, séparés par des virgules : "
                        + ", ".join(b.key for b in BENCHES))
    parser.add_argument("--quick", action="store_true", help="chaque banc en plus petit (essai)")
    args = parser.parse_args()
    keys = [k for k in args.only.split(",") if k]
    unknown = set(keys) - {b.key for b in BENCHES}
    if unknown:
        parser.error(f"--only : « {', '.join(sorted(unknown))} » inconnu "
                     f"(permis : {', '.join(b.key for b in BENCHES)})")
    started = time.monotonic()
    first_load = load()
    goals: list[Goal] = []
    ends: list[str] = []
    for bench in BENCHES:
        if keys and bench.key not in keys:
            continue
        found, end = run(bench, args.quick)
        goals += found
        if end:
            ends.append(f"{bench.key} : {end}")
        if bench.key == "startup":
            goals += runtime_imports()
    if not keys:
        goals.append(("rencontres : chaque fiche lue au plus une fois par action", "vérifié par "
                      "les tests (tests/campaign), pas par un banc", "non mesuré"))
        goals.append(("tests : make test ≤ 3 minutes sur deux cœurs au repos", "make test le "
                      "chronomètre (--durations), pas make bench", "non mesuré"))
        paper = ROOT / "docs" / "echelle.md"
        goals.append(("sur le papier : docs/echelle.md", "présent" if paper.exists() else "absent",
                      verdict(paper.exists())))
    width = max((len(g[0]) for g in goals), default=10)
    print(f"\n=== Objectifs de l'issue 18 (charge de la machine : {first_load} au début, {load()} à la fin ;"
          f" {time.monotonic() - started:.0f} s en tout{' ; ESSAI --quick' if args.quick else ''})")
    for label, figure, result in goals:
        print(f"{label:<{width}}  {result:<11}  {figure}")
    for end in ends:
        print(f"banc interrompu — {end}")
    met = sum(g[2] == "atteint" for g in goals)
    print(f"{met} objectif(s) atteint(s) sur {len(goals)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
