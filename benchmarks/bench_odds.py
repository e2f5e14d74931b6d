"""Exact opposed-roll odds: `jdr.core.contest.contest_odds` against icepool on the same questions.

Each question is "P(actor's total > opponent's total)", ties going to the opponent (the default
`ContestRule`): icepool answers it as `(d(n) + a > d(n) + b).probability(True)`. Both sides start
cold for the answer (our `lru_cache`s are cleared before every call; icepool keeps its own
caches, as it would in a program), the two sides are interleaved, each time is the median of
several rounds, and the summary is the geometric mean of the ratios. Goal: ratio ≤ 1.

    python benchmarks/bench_odds.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from fractions import Fraction

import icepool

from jdr.core.check import Check, SingleDie, Verdict, _check_odds
from jdr.core.contest import Contest, ContestRule, contest_odds

QUESTIONS = [(10, 10, 9), (10, 0, 3), (10, 5, 5), (100, 10, 9), (100, 25, 40), (100, 50, 50)]


def _no_verdict(natural: object, total: int, threshold: int | None) -> Verdict:
    return Verdict(None)


def check(sides: int, bonus: int) -> Check:
    from jdr.core.check import Modifier

    return Check(f"d{sides}+{bonus}", SingleDie(sides), (Modifier(bonus, "bonus"),), _no_verdict)


def ours(sides: int, a: int, b: int) -> Callable[[], Fraction]:
    contest = Contest(check(sides, a), check(sides, b), ContestRule())

    def run() -> Fraction:
        contest_odds.cache_clear()
        _check_odds.cache_clear()
        success = contest_odds(contest).success
        assert success is not None
        return success

    return run


def theirs(sides: int, a: int, b: int) -> Callable[[], Fraction]:
    def run() -> Fraction:
        return Fraction((icepool.d(sides) + a > icepool.d(sides) + b).probability(True))

    return run


def timed(fn: Callable[[], Fraction], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(f"{'question':<24} {'jdr µs':>9} {'icepool µs':>11} {'ratio':>6}")
    ratios = []
    for sides, a, b in QUESTIONS:
        mine, other = ours(sides, a, b), theirs(sides, a, b)
        assert mine() == other(), (sides, a, b, mine(), other())  # same question, same answer
        repeat = 200 if sides <= 20 else 10
        times: dict[str, list[float]] = {"jdr": [], "icepool": []}
        for _ in range(args.rounds):  # interleaved
            times["jdr"].append(timed(mine, repeat))
            times["icepool"].append(timed(other, repeat))
        t_mine, t_other = statistics.median(times["jdr"]), statistics.median(times["icepool"])
        ratios.append(t_mine / t_other)
        label = f"P(d{sides}+{a} > d{sides}+{b})"
        print(f"{label:<24} {t_mine * 1e6:>9.1f} {t_other * 1e6:>11.1f} {t_mine / t_other:>6.2f}")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"moyenne géométrique (jdr / icepool) : {geo:.2f} (objectif ≤ 1)")


if __name__ == "__main__":
    main()
