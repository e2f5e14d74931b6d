"""Encounters of 50 and of 1,000 combatants: `combat start` and `combat suivant`, in CPU time.

A campaign (SQLite, in a temporary folder) holds N Cydonia characters; each step runs as the
command runs it — one locked transaction: the step, its journal entry, the text rendering — and
is rolled back afterwards so the next round measures the same thing. CPU time of the thread
(`time.thread_time`), median of the rounds, the two sizes interleaved. Two caches states:

- « à froid » : the process-wide sheet caches (models and YAML trees) emptied before each step
  (a `jdr combat` command, one process per command: every sheet parsed once);
- « jdr serve » : the cache kept between steps (one server process serving many actions).

Goal: the 1,000 / 50 ratio ≤ 25 (linear: 20 is exactly proportional).

    python benchmarks/bench_encounter.py [--rounds 3] [--big 1000] [--small 50]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jdr.campaign import encounter
from jdr.campaign.store import Campaign
from jdr.core.sheet import SheetDocument
from jdr.dice.source import RandomSource
from jdr.render.text import to_text

SHEET = """\
systeme: cydonia
nom: {name}
peuple: nain
caracteristiques: {{physique: 7, agilite: 4, dexterite: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}}
competences: {{hache: 6, esquive: 2, negociation: 3}}
pv: 30
armes:
  - {{nom: Hache, competence: hache, degats: PHY+3+1d10, equipee: principale}}
protections: {{torse: 3}}
"""


class Rollback(Exception):
    pass


def clear_cache() -> None:
    """What a fresh process starts with: no sheet model kept, and no YAML tree either (`DOCS`,
    the trees validation reads: without emptying it, « à froid » parsed no sheet at all)."""
    try:
        from jdr.campaign.sheets import MODELS
    except ImportError:  # before the cache existed
        return
    MODELS.clear()
    try:
        from jdr.campaign.sheets import DOCS
    except ImportError:  # before the trees were kept
        return
    DOCS.clear()


def campaign_of(folder: Path, n: int) -> tuple[Campaign, list[str]]:
    campaign = Campaign.create(str(folder / f"c{n}.jdr"), f"Bataille {n}", "cydonia")
    names = [f"Nain {i:04d}" for i in range(n)]
    with campaign.transaction() as tx:
        for name in names:
            tx.add(SheetDocument.from_text(SHEET.format(name=name), Path(f"{name}.yaml")))
    with campaign.transaction() as tx:  # an encounter in progress, for `suivant`
        encounter.start(tx, names, RandomSource(1))
    return campaign, names


def step_cpu(campaign: Campaign, step: Callable[[Any], Any], cold: bool) -> float:
    if cold:
        clear_cache()
    start = time.thread_time()
    try:
        with campaign.transaction() as tx:
            result, _entry = step(tx)
            to_text(result)
            raise Rollback
    except Rollback:
        pass
    return time.thread_time() - start


def start_step(names: list[str]) -> Callable[[Any], Any]:
    def step(tx: Any) -> Any:
        tx.set_encounter(None)  # the encounter in progress ends (rolled back afterwards)
        return encounter.start(tx, names, RandomSource(7))

    return step


def next_step(tx: Any) -> Any:
    return encounter.next_turn(tx, RandomSource(7))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--big", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sizes = (args.small, args.big)
        setups = {n: campaign_of(Path(tmp), n) for n in sizes}
        print(f"{'étape':<28} {args.small:>6} comb. {args.big:>6} comb.  rapport (objectif ≤ 25)")
        for cold in (True, False):
            mode = "à froid" if cold else "jdr serve"
            for label, make in (("combat start", lambda names: start_step(names)),
                                ("combat suivant", lambda names: next_step)):
                times: dict[int, list[float]] = {n: [] for n in sizes}
                for n in sizes:  # warm-up (imports, the server's cache)
                    step_cpu(setups[n][0], make(setups[n][1]), cold)
                for _ in range(args.rounds):
                    for n in sizes:  # interleaved
                        times[n].append(step_cpu(setups[n][0], make(setups[n][1]), cold))
                small, big = (statistics.median(times[n]) for n in sizes)
                print(f"{label + ' (' + mode + ')':<28} {small * 1e3:>8.1f} ms {big * 1e3:>8.1f} ms"
                      f"  {big / small:>6.1f}")
        for campaign, _ in setups.values():
            campaign.dispose()


if __name__ == "__main__":
    main()
