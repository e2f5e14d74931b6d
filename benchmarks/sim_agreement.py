"""The simulator's agreement table (issue 20): per system, the vectorised simulator (compiled
tables, numpy) against the engine's loop (the systems' own code, fight after fight) on the same
sheets — a hero against two goblins (`tests/sim/fighters.py`) — and, where the duel is small
enough, the exact Markov chain against its Monte Carlo. Prints win probabilities, mean rounds
and the gap in standard errors.

    python benchmarks/sim_agreement.py [--vector 20000] [--scalar 400]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from jdr.sim.fight import roster
from jdr.sim.run import play, scalar, simulate
from sim.fighters import sheets

TACTICS = ("faible", "faible")
CASES = [("deuxdes", 1), ("maitrise", 1), ("dd35", 1), ("cydonia", 1), ("felins", 1),
         ("felins", 2), ("felins", 3)]


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1 / n) / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vector", type=int, default=20_000)
    parser.add_argument("--scalar", type=int, default=400)
    args = parser.parse_args()
    print("héros contre deux gobelins ; victoire du héros et rounds moyens")
    print(f"{'système':<12}{'vectorisé':>11}{'moteur':>9}{'écart (σ)':>11}"
          f"{'rounds vect.':>14}{'rounds moteur':>15}")
    for system_id, chance in CASES:
        system, hero, goblin = sheets(system_id, hero_chance=chance)
        fighters = roster(system, [[hero], [goblin, goblin]])
        vector = play(fighters, TACTICS, args.vector, seed=1)
        engine = scalar(fighters, TACTICS, args.scalar, seed=2)
        se = math.hypot(_se(vector.win[0], args.vector), _se(engine.win[0], args.scalar))
        name = system_id + (f" C{chance}" if system_id == "felins" else "")
        print(f"{name:<12}{vector.win[0]:>11.3f}{engine.win[0]:>9.3f}"
              f"{abs(vector.win[0] - engine.win[0]) / se:>11.1f}"
              f"{vector.rounds_mean:>14.2f}{engine.rounds_mean:>15.2f}")
    print("\nduel exact (chaîne de Markov) contre Monte-Carlo, 20 000 combats")
    for system_id in ("deuxdes", "maitrise"):
        system, hero, goblin = sheets(system_id)
        exact = simulate(system, [[hero], [goblin]], 20_000, seed=3)
        drawn = simulate(system, [[hero], [goblin]], 20_000, seed=3, exact=False)
        gap = abs(drawn.win[0] - exact.win[0]) / _se(exact.win[0], 20_000)
        print(f"{system_id:<12} exact {exact.win[0]:.4f} ({exact.exact}) · Monte-Carlo "
              f"{drawn.win[0]:.4f} · écart {gap:.1f} σ · rounds {exact.rounds_mean:.2f} / "
              f"{drawn.rounds_mean:.2f}")


if __name__ == "__main__":
    main()
