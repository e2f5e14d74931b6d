"""Time to compute the exact odds of a Cydonia check: first call (cold) and warm (one run)."""

from __future__ import annotations

import time

from jdr.core.check import Opposed
from jdr.systems.cydonia.checks import Character, skill_check
from jdr.systems.cydonia.demo import ELFE_B, NAIN_A
from jdr.systems.cydonia.sheet import CydoniaSheet


def main() -> None:
    nain = Character(CydoniaSheet.model_validate(NAIN_A))
    elfe = Character(CydoniaSheet.model_validate(ELFE_B))
    cases = [
        ("seuil, 1d10", lambda t: skill_check(nain, "hache", threshold=t).odds()),
        ("seuil, experte 2d10", lambda t: skill_check(nain, "negociation", threshold=t).odds()),
        ("opposé", lambda t: Opposed(skill_check(nain, "hache", bonus=t),
                                    skill_check(elfe, "esquive")).odds()),
    ]
    start = time.perf_counter()
    import icepool  # noqa: F401

    print(f"import icepool : {(time.perf_counter() - start) * 1000:.1f} ms")
    print(f"{'chances':<22} {'1er appel ms':>13} {'à chaud ms':>11} {'nouveau seuil ms':>17}")
    for label, fn in cases:
        start = time.perf_counter()
        fn(15)
        first = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        for _ in range(1000):
            fn(15)
        warm = (time.perf_counter() - start)
        start = time.perf_counter()
        for t in range(100):
            fn(100 + t)  # never seen: recomputed from the cached distribution
        fresh = (time.perf_counter() - start) * 10
        print(f"{label:<22} {first:>13.3f} {warm:>11.4f} {fresh:>17.3f}")


if __name__ == "__main__":
    main()
