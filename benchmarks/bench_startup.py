"""Start-up cost of `jdr` commands, as ratios to `python -c "import typer"`, in one run.

Every command is a fresh process of the venv's Python; the commands are interleaved (one run of
each per round), and each figure is the median over the rounds of the child's CPU time
(user + system) and of the wall time. Bytecode is written first (one warm-up run each), as it
is on a real install. Goal (issue 9): `jdr lancer 1d20` and `jdr test FICHE hache --seuil 15`
at most 1.5 × `import typer`.

    python benchmarks/bench_startup.py [--rounds 15] [--before SRC] [--importtime]

`--before SRC` also times the `jdr` whose sources are in SRC (e.g. a `git archive` of an earlier
commit, extracted), for before/after figures in the same run. `--importtime` prints where the
time of each command goes (`python -X importtime`, largest cumulative imports).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHEET = """\
systeme: cydonia
nom: Nain A
peuple: nain
caracteristiques: {physique: 7, agilite: 4, dexterite: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}
competences: {hache: 6, esquive: 2, negociation: 3}
expertes: [negociation]
pv: {max: 30, actuels: 30}
xp: 10
armes:
  - {nom: Hache de bûcheron, competence: hache, degats: "PHY+3+1d10", equipee: principale}
protections: {torse: 3}
"""
GOAL = 1.5


def jdr(src: Path | None, *args: str) -> list[str]:
    """`jdr ARGS` from the installed entry point, or from the sources in `src`."""
    if src is None:
        return [sys.executable, "-c", "from jdr.cli.main import run; run()", *args]
    code = f"import sys; sys.path.insert(0, {str(src)!r}); from jdr.cli.main import run; run()"
    return [sys.executable, "-c", code, *args]


def measure(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def importtime(command: list[str], env: dict[str, str], top: int = 12) -> None:
    proc = subprocess.run([command[0], "-X", "importtime", *command[1:]], env=env, capture_output=True,
                          text=True, check=False)
    rows = []
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name.rstrip()))
    for micro, name in sorted(rows, reverse=True)[:top]:
        print(f"      {micro / 1000:7.1f} ms {name}")


def commands(sheet: Path, before: Path | None) -> dict[str, list[str]]:
    out = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import typer": [sys.executable, "-c", "import typer"],
        "jdr lancer 1d20": jdr(None, "lancer", "1d20"),
        "jdr test … --seuil 15": jdr(None, "test", str(sheet), "hache", "--seuil", "15"),
    }
    if before is not None:
        out["avant : jdr roll 1d20"] = jdr(before, "roll", "1d20")
        out["avant : jdr check … --seuil 15"] = jdr(before, "check", str(sheet), "hache", "--seuil", "15")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--before", type=Path, help="sources (src/) of the version to compare with")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        sheet = Path(folder) / "nain.yaml"
        sheet.write_text(SHEET, encoding="utf-8")
        table = commands(sheet, args.before)
        for command in table.values():  # warm-up: bytecode written, disk cache filled
            measure(command, env)
        cpu: dict[str, list[float]] = {name: [] for name in table}
        wall: dict[str, list[float]] = {name: [] for name in table}
        for _ in range(args.rounds):
            for name, command in table.items():
                c, w = measure(command, env)
                cpu[name].append(c)
                wall[name].append(w)
        base_cpu = statistics.median(cpu["import typer"])
        base_wall = statistics.median(wall["import typer"])
        print(f"médianes sur {args.rounds} tours entrelacés ; ratio = commande / `import typer`")
        print(f"{'commande':<32} {'CPU ms':>8} {'ratio':>6} {'mur ms':>8} {'ratio':>6}")
        for name in table:
            c, w = statistics.median(cpu[name]), statistics.median(wall[name])
            mark = "" if not name.startswith("jdr") else ("  ok" if c / base_cpu <= GOAL else "  > 1,5")
            print(f"{name:<32} {c * 1000:>8.1f} {c / base_cpu:>6.2f} {w * 1000:>8.1f} "
                  f"{w / base_wall:>6.2f}{mark}")
            if args.importtime and name.startswith(("jdr", "avant")):
                importtime(table[name], env)


if __name__ == "__main__":
    main()
