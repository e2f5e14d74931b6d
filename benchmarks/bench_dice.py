"""Rolls per second of `jdr.dice` against the `d20` library on the same expressions, one run.

Equal work on both sides: each call parses (through each library's cache), rolls and reads the
total (`.total`). The sides are interleaved (ours, theirs, ours, ... for several rounds), each rate
is the median of the rounds, and the summary is the geometric mean of the ratios (a ratio is
ours / theirs: above 1, `jdr.dice` is faster). Also the time to refuse abusive expressions.

    python benchmarks/bench_dice.py [--rounds 15] [--n 5000]
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import statistics
import time
from collections.abc import Callable

import d20

from jdr.dice import RandomSource, roll
from jdr.errors import DiceError

EXPRESSIONS = ["1d20+5", "2d10kh1+6", "4d6kh3", "3d6+2d8+4", "10d6", "8d6ro1", "1d20+1d4-2", "1d6!"]
# d20 spells a few modifiers differently: same dice, same rule.
D20_SPELLING = {"1d6!": "1d6e6"}


def rate(fn: Callable[[str], int], expr: str, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn(expr)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--n", type=int, default=5000)
    args = parser.parse_args()
    random.seed(1)
    source = RandomSource(1)

    def ours(expr: str) -> int:
        return roll(expr, source).total

    def theirs(expr: str) -> int:
        return int(d20.roll(D20_SPELLING.get(expr, expr)).total)

    print(f"{'expression':<14} {'jdr jets/s':>12} {'d20 jets/s':>12} {'ratio':>6}")
    ratios = []
    for expr in EXPRESSIONS:
        for _ in range(200):  # warm both parse caches
            ours(expr)
            theirs(expr)
        mine: list[float] = []
        other: list[float] = []
        for _ in range(args.rounds):  # interleaved
            mine.append(rate(ours, expr, args.n))
            other.append(rate(theirs, expr, args.n))
        a, b = statistics.median(mine), statistics.median(other)
        ratios.append(a / b)
        print(f"{expr:<14} {a:>12,.0f} {b:>12,.0f} {a / b:>6.2f}")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"moyenne géométrique (jdr / d20, > 1 : jdr plus rapide) : {geo:.2f}")
    print("\nrefus des expressions abusives (ms) :")
    for label, expr in [("1 000 000 dés", "1000000d6"), ("1 000 001 caractères", "1+" * 500_000 + "1"),
                        ("5 000 parenthèses", "(" * 5000 + "1" + ")" * 5000),
                        ("1000 caractères imbriqués", "(" * 500 + ")" * 500)]:
        start = time.perf_counter()
        with contextlib.suppress(DiceError):
            roll(expr, source)
        print(f"  {label:<28} {(time.perf_counter() - start) * 1000:.3f}")


if __name__ == "__main__":
    main()
