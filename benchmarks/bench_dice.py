"""Rolls per second of `jdr.dice` against the `d20` library on the same expressions (one run).

Also the time to refuse abusive expressions. Prints ratios; no assertion.
"""

from __future__ import annotations

import contextlib
import random
import time

import d20

from jdr.dice import RandomSource, roll
from jdr.errors import DiceError

EXPRESSIONS = ["1d20+5", "2d10kh1+6", "4d6kh3", "3d6+2d8+4", "10d6", "8d6ro1", "1d20+1d4-2"]
N = 20_000


def rate(fn: object, expr: str) -> float:
    f = fn  # type: ignore[assignment]
    for _ in range(200):
        f(expr)  # warm the caches of both
    start = time.perf_counter()
    for _ in range(N):
        f(expr)
    return N / (time.perf_counter() - start)


def main() -> None:
    random.seed(1)
    source = RandomSource(1)
    print(f"{'expression':<14} {'jdr rolls/s':>12} {'d20 rolls/s':>12} {'ratio':>6}")
    ratios = []
    for expr in EXPRESSIONS:
        ours = rate(lambda e: roll(e, source), expr)
        theirs = rate(d20.roll, expr)
        ratios.append(ours / theirs)
        print(f"{expr:<14} {ours:>12,.0f} {theirs:>12,.0f} {ours / theirs:>6.2f}")
    print(f"ratio moyen (jdr / d20) : {sum(ratios) / len(ratios):.2f}")
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
