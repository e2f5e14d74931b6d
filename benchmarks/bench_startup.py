"""Start-up cost of `jdr` commands, as ratios to `python -c "import typer"`, in one run.

Every command is a fresh process of the venv's Python; the commands are interleaved (one run of
each per round), and each figure is the median over the rounds of the child's CPU time
(user + system) and of the wall time. Bytecode is written first (one warm-up run each), as it
is on a real install.

Goals (issue 18): every command on sheet files at most 2.5 × `import typer` in CPU, every
command in a campaign at most 6 ×. Each dependency's own import is timed too (the floor under
the commands that need it).

    python benchmarks/bench_startup.py [--rounds 5] [--before SRC] [--importtime] [--only MOT] [--pg]
                                       [--instructions]

`--before SRC` also times the `jdr` whose sources are in SRC (e.g. a `git archive` of an earlier
commit, extracted), for before/after figures in the same run. `--importtime` prints where the
time of each command goes (`python -X importtime`, largest cumulative imports). `--only MOT`
keeps the rows whose name contains MOT (and the baselines and the floor). `--pg` also times the
campaign commands on a PostgreSQL campaign (a fresh schema of `JDR_BENCH_PG`, default the test base,
made by `bench_live.pg_schema`).

`--instructions` counts, instead of timing, the instructions each command executes (one run
under `valgrind --tool=cachegrind`, `PYTHONHASHSEED=0`): the same number on a busy machine as on
an idle one, where CPU times move by a quarter from run to run. Some fifty times slower: use it
with `--only`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
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
GOALS = {"fichiers": 2.5, "campagne": 6.0}
# What any command on a sheet file needs before a line of jdr: typer, one pydantic model built
# (pydantic's own lazy imports come with the first model; no plugin search, as
# `jdr.core.sheet._no_pydantic_plugins`) and ruamel.yaml reading a short document.
FLOOR = """\
import sys, types, typer
sys.modules["pydantic.plugin._loader"] = loader = types.ModuleType("pydantic.plugin._loader")
loader.get_plugins = tuple
from pydantic import BaseModel
class Sheet(BaseModel):
    nom: str
    pv: dict[str, int]
from ruamel.yaml import YAML
Sheet.model_validate(dict(YAML(typ="rt").load("nom: A\\npv: {max: 3}\\n")))
"""
# The floor's parts, each on top of typer: what pydantic (one model built and used) and what
# ruamel.yaml (one round-trip read) add; the floor is about typer + both additions.
FLOOR_PARTS = {
    "plancher : typer + pydantic, 1 modèle": """\
import sys, types, typer
sys.modules["pydantic.plugin._loader"] = loader = types.ModuleType("pydantic.plugin._loader")
loader.get_plugins = tuple
from pydantic import BaseModel
class Sheet(BaseModel):
    nom: str
    pv: dict[str, int]
Sheet.model_validate({"nom": "A", "pv": {"max": 3}})
""",
    "plancher : typer + ruamel.yaml, 1 lecture": """\
import typer
from ruamel.yaml import YAML
dict(YAML(typ="rt").load("nom: A\\npv: {max: 3}\\n"))
""",
}
FLOOR_ROW = "plancher : typer, 1 modèle, YAML"  # kept by `--only`: the commands' measure
DEPENDENCIES = ["rich", "ruamel.yaml", "pydantic", "numpy", "sqlite3", "sqlalchemy",
                "sqlalchemy.orm", "alembic", "psycopg", "icepool"]


@contextlib.contextmanager
def pg_schema(wanted: bool) -> Iterator[str | None]:
    """A fresh PostgreSQL schema for `--pg` (dropped afterwards): its URL; None without `--pg`.
    The benches' one helper (`bench_live.pg_schema`), imported only then."""
    if not wanted:
        yield None
        return
    from bench_live import pg_schema as fresh_schema

    with fresh_schema() as url:
        yield url


def jdr(src: Path | None, *args: str) -> list[str]:
    """`jdr ARGS` from the installed entry point, or from the sources in `src`."""
    if src is None:
        return [sys.executable, "-c", "from jdr.cli.main import run; run()", *args]
    code = f"import sys; sys.path.insert(0, {str(src)!r}); from jdr.cli.main import run; run()"
    return [sys.executable, "-c", code, *args]


def measure(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def instructions(command: list[str], env: dict[str, str], cwd: Path) -> float:
    """Instructions the command executes (valgrind's count, deterministic with a fixed hash seed)."""
    valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    proc = subprocess.run([*valgrind, *command], env={**env, "PYTHONHASHSEED": "0"}, cwd=cwd,
                          capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if found is None:
        raise SystemExit(f"valgrind n'a pas compté les instructions de {command!r} :\n{proc.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def importtime(command: list[str], env: dict[str, str], cwd: Path, top: int = 12) -> None:
    proc = subprocess.run([command[0], "-X", "importtime", *command[1:]], env=env, cwd=cwd,
                          capture_output=True, text=True, check=False)
    rows = []
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name.rstrip()))
    for micro, name in sorted(rows, reverse=True)[:top]:
        print(f"      {micro / 1000:7.1f} ms {name}")


def files_commands(src: Path | None, tag: str) -> dict[str, tuple[str, list[str]]]:
    """Commands on sheet files (run in a folder without campaign)."""
    return {
        f"{tag}jdr roll 1d20": ("fichiers", jdr(src, "roll", "1d20")),
        f"{tag}jdr check FICHE": ("fichiers", jdr(src, "check", "a.yaml", "hache", "--seuil", "15")),
        f"{tag}jdr odds FICHE": ("fichiers", jdr(src, "odds", "a.yaml", "hache", "--seuil", "15")),
        f"{tag}jdr attack A B --dry-run": ("fichiers", jdr(src, "attack", "a.yaml", "b.yaml", "--dry-run")),
        f"{tag}jdr sheet check FICHE": ("fichiers", jdr(src, "sheet", "check", "a.yaml")),
        f"{tag}jdr sheet show FICHE": ("fichiers", jdr(src, "sheet", "show", "a.yaml")),
    }


def campaign_commands(src: Path | None, tag: str) -> dict[str, tuple[str, list[str]]]:
    """Commands in a campaign (run in the folder of its `.jdr`)."""
    return {
        f"{tag}campagne : jdr roll 1d20": ("campagne", jdr(src, "roll", "1d20")),
        f"{tag}campagne : jdr check NOM": ("campagne", jdr(src, "check", "nain a", "hache", "--seuil", "15")),
        f"{tag}campagne : jdr odds NOM": ("campagne", jdr(src, "odds", "nain a", "hache", "--seuil", "15")),
        f"{tag}campagne : jdr sheet show NOM": ("campagne", jdr(src, "sheet", "show", "nain a")),
        f"{tag}campagne : jdr journal --depuis N": ("campagne", jdr(src, "journal", "--depuis", "1000000")),
        f"{tag}campagne : jdr campagne personnages": ("campagne", jdr(src, "campagne", "personnages")),
        f"{tag}campagne : jdr combat": ("campagne", jdr(src, "combat")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="sources (src/) of the version to compare with")
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--pg", action="store_true", help="campaign commands on PostgreSQL too")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions (valgrind) instead of timing")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "JDR_CAMPAGNE")}
    with tempfile.TemporaryDirectory() as root, pg_schema(args.pg) as pg:
        files, camp = Path(root) / "fichiers", Path(root) / "campagne"
        files.mkdir()
        camp.mkdir()
        (files / "a.yaml").write_text(SHEET, encoding="utf-8")
        (files / "b.yaml").write_text(SHEET.replace("Nain A", "Nain B"), encoding="utf-8")
        (camp / "a.yaml").write_text(SHEET, encoding="utf-8")
        (camp / "b.yaml").write_text(SHEET.replace("Nain A", "Nain B"), encoding="utf-8")
        for setup in (["campagne", "new", "Banc", "--systeme", "cydonia"],
                      ["campagne", "import", "a.yaml", "b.yaml"],
                      ["combat", "start", "nain a", "nain b", "--seed", "1"]):
            subprocess.run(jdr(None, *setup), env=env, cwd=camp, check=True, stdout=subprocess.DEVNULL)
        envs: dict[str, dict[str, str]] = {}
        if pg is not None:
            pg_env = {**env, "JDR_CAMPAGNE": pg}
            subprocess.run(jdr(None, "campagne", "new", "Banc", "--systeme", "cydonia", "--db", pg),
                           env=env, cwd=files, check=True, stdout=subprocess.DEVNULL)
            for setup in (["campagne", "import", "a.yaml", "b.yaml"],
                          ["combat", "start", "nain a", "nain b", "--seed", "1"]):
                subprocess.run(jdr(None, *setup), env=pg_env, cwd=files, check=True,
                               stdout=subprocess.DEVNULL)
        table: dict[str, tuple[str, list[str]]] = {
            "python -c pass": ("base", [sys.executable, "-c", "pass"]),
            "import typer": ("base", [sys.executable, "-c", "import typer"]),
        }
        for dep in DEPENDENCIES:
            table[f"import {dep}"] = ("dépendance", [sys.executable, "-c", f"import {dep}"])
        for name, code in FLOOR_PARTS.items():
            table[name] = ("dépendance", [sys.executable, "-c", code])
        table[FLOOR_ROW] = ("dépendance", [sys.executable, "-c", FLOOR])
        table |= files_commands(None, "") | campaign_commands(None, "")
        if args.before is not None:
            table |= files_commands(args.before, "avant : ") | campaign_commands(args.before, "avant : ")
        if pg is not None:
            on_pg = campaign_commands(None, "pg ") | (
                campaign_commands(args.before, "avant : pg ") if args.before is not None else {})
            table |= on_pg
            envs = {name: {**env, "JDR_CAMPAGNE": pg} for name in on_pg}
        if args.only:
            table = {k: v for k, v in table.items() if v[0] == "base" or args.only in k or k == FLOOR_ROW}
        folder = {name: camp if "campagne :" in name and name not in envs else files for name in table}
        for name, (_, command) in table.items():  # warm-up: bytecode written, disk cache filled
            measure(command, envs.get(name, env), folder[name])
        if args.instructions:
            counts = {name: instructions(command, envs.get(name, env), folder[name])
                      for name, (_, command) in table.items()}
            report_instructions(table, counts)
            return
        cpu: dict[str, list[float]] = {name: [] for name in table}
        wall: dict[str, list[float]] = {name: [] for name in table}
        for _ in range(args.rounds):
            for name, (_, command) in table.items():
                c, w = measure(command, envs.get(name, env), folder[name])
                cpu[name].append(c)
                wall[name].append(w)
        base_cpu = statistics.median(cpu["import typer"])
        base_wall = statistics.median(wall["import typer"])
        print(f"médianes sur {args.rounds} tours entrelacés ; ratio = commande / `import typer`")
        print(f"objectifs : fichiers ≤ {GOALS['fichiers']} ×, campagne ≤ {GOALS['campagne']} × (CPU)")
        print(f"{'commande':<42} {'CPU ms':>8} {'ratio':>6} {'mur ms':>8} {'ratio':>6}")
        worst: dict[str, float] = {}
        for name, (family, command) in table.items():
            c, w = statistics.median(cpu[name]), statistics.median(wall[name])
            ratio = c / base_cpu
            mark = ""
            if family in GOALS and not name.startswith("avant"):
                worst[family] = max(worst.get(family, 0.0), ratio)
                mark = "  ok" if ratio <= GOALS[family] else f"  > {GOALS[family]}"
            print(f"{name:<42} {c * 1000:>8.1f} {ratio:>6.2f} {w * 1000:>8.1f} {w / base_wall:>6.2f}{mark}")
            if args.importtime and family in GOALS:
                importtime(command, envs.get(name, env), folder[name])
        for family, ratio in worst.items():
            verdict = "atteint" if ratio <= GOALS[family] else "non atteint"
            print(f"pire commande ({family}) : {ratio:.2f} × (objectif ≤ {GOALS[family]} ×) : {verdict}")


def report_instructions(table: dict[str, tuple[str, list[str]]], counts: dict[str, float]) -> None:
    base = counts["import typer"]
    print("instructions exécutées (valgrind, PYTHONHASHSEED=0) ; ratio = commande / `import typer`")
    print(f"{'commande':<42} {'M instr.':>9} {'ratio':>6}")
    worst: dict[str, float] = {}
    for name, (family, _) in table.items():
        ratio = counts[name] / base
        mark = ""
        if family in GOALS and not name.startswith("avant"):
            worst[family] = max(worst.get(family, 0.0), ratio)
            mark = "  ok" if ratio <= GOALS[family] else f"  > {GOALS[family]}"
        print(f"{name:<42} {counts[name] / 1e6:>9.1f} {ratio:>6.2f}{mark}")
    for family, ratio in worst.items():
        verdict = "atteint" if ratio <= GOALS[family] else "non atteint"
        print(f"pire commande ({family}) : {ratio:.2f} × (objectif ≤ {GOALS[family]} ×) : {verdict}")


if __name__ == "__main__":
    main()
