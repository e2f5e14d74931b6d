"""The simulator (issue 20): fights per second, vectorised (compiled tables + numpy) against the
engine's loop (the systems' own code, one fight after the other), on the same sheets, in one
run, interleaved; 10,000 fights of 2 against 4; memory against N.

Goals: the vectorised simulator ≥ 100× the engine's loop (fights per second); 10,000 fights of
2 against 4 in ≤ 2 s (tables compiled in the same run: « à froid »); memory linear in N
(tracemalloc's peak at N and 4 N: a ratio near 4, and at most 5). Every system by default, one
after the other: dd35, deuxdes, Cydonia (the demo's dwarf and goblin: about 327,000 face
sequences per attack, compiled from the laws of its parts) and Félins (a cat at Chance 3 against
cats at Chance 1: 483,679 face sequences for its attack).

    python benchmarks/bench_sim.py [--systeme tous|dd35|deuxdes|cydonia|felins] [--rounds 3]
                                   [--scalar 150]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

from jdr.core.registry import get_system
from jdr.core.sheet import SheetDocument
from jdr.core.usecase import load
from jdr.sim import tables
from jdr.sim.fight import Roster, roster
from jdr.sim.run import play, scalar

SHEETS: dict[str, tuple[str, str]] = {
    "dd35": ("""\
systeme: dd35
nom: Guerrier
caracteristiques: {force: 14, dexterite: 12, constitution: 12, intelligence: 10, sagesse: 10, charisme: 10}
classes: {guerrier: 1}
pv_mode: lance
pv: {max: 9, actuels: 9}
armes: [{nom: Épée longue, degats: 1d8, zone_critique: 19, multiplicateur: 2, portee: contact}]
""", """\
systeme: dd35
nom: Gobelin
caracteristiques: {force: 10, dexterite: 12, constitution: 10, intelligence: 8, sagesse: 8, charisme: 6}
classes: {guerrier: 1}
pv_mode: lance
pv: {max: 5, actuels: 5}
armes: [{nom: Morgenstern, degats: 1d6, portee: contact}]
"""),
    "deuxdes": ("""\
systeme: deuxdes
nom: Aldo
attributs: {force: 2, adresse: 2, esprit: 0}
pv: {max: 10, actuels: 10}
armes: [{nom: Épée, degats: 2}]
""", """\
systeme: deuxdes
nom: Gobelin
attributs: {force: 0, adresse: 1, esprit: 0}
pv: {max: 5, actuels: 5}
armes: [{nom: Lance, degats: 1}]
"""),
    "cydonia": (get_system("cydonia").demo_sheets()[0], get_system("cydonia").demo_sheets()[2]),
    "felins": ("""\
systeme: felins
nom: Griffe-Vive
rang: guerrier
clan: roches
caracteristiques: {force: 2, precision: 2, vigueur: 3, agilite: 2, intelligence: 2, volonte: 2,
  intuition: 2, sociabilite: 1, chance: 3}
competences: {combat_griffu: 4}
""", """\
systeme: felins
nom: Rat-des-Bois
rang: guerrier
clan: roches
caracteristiques: {force: 2, precision: 2, vigueur: 2, agilite: 1, intelligence: 2, volonte: 2,
  intuition: 2, sociabilite: 1, chance: 1}
competences: {combat_griffu: 3}
"""),
}
TACTICS = ("faible", "faible")


def two_against_four(system_id: str) -> Roster:
    system = get_system(system_id)
    hero, goblin = (load(system, SheetDocument.from_text(t, Path(f"{i}.yaml")))
                    for i, t in enumerate(SHEETS[system_id]))
    return roster(system, [[hero, hero], [goblin] * 4])


def cold(fighters: Roster, n: int) -> tuple[float, float, Any]:
    """N fights with the tables compiled in the same run (the process's cache emptied): wall
    time and this process's CPU time (what an idle machine would take: the machine is shared)."""
    tables._CACHE.clear()
    start, cpu = time.perf_counter(), time.process_time()
    result = play(fighters, TACTICS, n, seed=1)
    return time.perf_counter() - start, time.process_time() - cpu, result


def speed(fighters: Roster, n: int, k: int, rounds: int) -> tuple[float, float]:
    """Fights per second, vectorised (warm tables) and scalar, interleaved; medians."""
    play(fighters, TACTICS, 1000, seed=0)  # tables compiled: both measure the fights alone
    vector, engine = [], []
    for r in range(rounds):
        start = time.perf_counter()
        play(fighters, TACTICS, n, seed=10 + r)
        vector.append(n / (time.perf_counter() - start))
        start = time.perf_counter()
        scalar(fighters, TACTICS, k, seed=20 + r)
        engine.append(k / (time.perf_counter() - start))
    return statistics.median(vector), statistics.median(engine)


def peak(fighters: Roster, n: int) -> int:
    tracemalloc.start()
    play(fighters, TACTICS, n, seed=2)
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def whole(value: float) -> str:
    return f"{value:,.0f}".replace(",", " ")


def verdict(ok: bool) -> str:
    return "atteint" if ok else "non atteint"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--systeme", default="tous", choices=["tous", *sorted(SHEETS)])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scalar", type=int, default=150, help="combats joués par le moteur")
    args = parser.parse_args()
    for system_id in SHEETS if args.systeme == "tous" else [args.systeme]:
        bench(system_id, args.rounds, args.scalar)


def bench(system_id: str, rounds: int, scalar_fights: int) -> None:
    fighters = two_against_four(system_id)
    print(f"Simulateur — {system_id}, 2 contre 4 ({', '.join(fighters.names)})")
    seconds, cpu, result = cold(fighters, 10_000)
    print(f"  10 000 combats, tables compilées dans la même mesure : {seconds:.2f} s "
          f"({cpu:.2f} s de processeur ; objectif ≤ 2 s de processeur : {verdict(cpu <= 2)}) ; "
          f"camp 1 gagne {result.win[0]:.3f}" + ("" if result.compiled else " (non compilé)"))
    vector, engine = speed(fighters, 10_000, scalar_fights, rounds)
    ratio = vector / engine
    print(f"  combats par seconde : vectorisé {whole(vector)}, moteur {whole(engine)} "
          f"(médianes de {rounds} mesures alternées)")
    print(f"  rapport : {ratio:.0f}× (objectif ≥ 100× : {verdict(ratio >= 100)})")
    small, big = peak(fighters, 10_000), peak(fighters, 40_000)
    print(f"  mémoire (pic tracemalloc) : {small / 1e6:.1f} Mo à 10 000, {big / 1e6:.1f} Mo à "
          f"40 000 ; rapport {big / small:.2f} pour 4× plus de combats (linéaire : ≤ 5 : "
          f"{verdict(big / small <= 5)})")


if __name__ == "__main__":
    main()
