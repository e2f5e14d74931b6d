"""Exact odds against icepool on the same questions: opposed rolls, then one single check per system.

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


# ------------------------------------------------------------------ single checks, every system

# One everyday question per system, asked as `jdr odds` asks it: the system builds its `Check`
# from a real sheet (outside the timing); then our exact odds (success, each critical, the whole
# distribution of totals, `_check_odds` cold) against icepool answering P(success) alone with the
# same rule over the same die (its own caches kept, the die built once for both).
SHEETS: dict[str, str] = {
    "cydonia": "systeme: cydonia\nnom: Nain\npeuple: nain\ncaracteristiques: {physique: 7, agilite: 4, "
               "dexterite: 4, sensoriel: 3, courage: 5, charisme: 2, mental: 1, chance: 3}\n"
               "competences: {hache: 6, esquive: 2}\npv: 30\n",
    "maitrise": "systeme: maitrise\nnom: Bretteuse\ncaracteristiques: {intelligence: 10, adresse: 12, "
                "force: 14, charisme: 9, volonte: 10, constitution: 12}\ncompetences: {epee: 25}\n"
                "armes: [{nom: Épée longue, competence: epee}]\narmure: 2\npv: {max: 20, actuels: 20}\n",
    "dd35": "systeme: dd35\nnom: Paladin\ncaracteristiques: {force: 14, dexterite: 10, constitution: 10, "
            "intelligence: 10, sagesse: 12, charisme: 14}\nclasses: {paladin: 5}\n",
    "cyd": "systeme: cyd\nnom: Rôdeuse\nattributs: {adresse: 5, clairvoyance: 4, presence: 3, puissance: 6, "
           "trempe: 5}\ncompetences: {tir: 3, athletisme: 2}\nattribut_usuel: {tir: adresse, "
           "athletisme: puissance}\nsecondaires: {defense: 10, sante: {max: 20, actuels: 20}, psyche: 10, "
           "vitesse: 8}\npredilections: {tir: disponible}\n",
    "felins": "systeme: felins\nnom: Lynx\nrang: guerrier\nclan: plaines\ncaracteristiques: {force: 4, "
              "precision: 3, vigueur: 3, agilite: 3, intelligence: 3, volonte: 4, intuition: 4, "
              "sociabilite: 2, chance: 2}\ncompetences: {chasse: 2, reperer_trouver: 2}\nreputation: 10\n",
}
QUESTIONS_SINGLE: list[tuple[str, str, str, dict[str, str]]] = [
    ("cydonia", "hache", "15", {}),
    ("maitrise", "epee", "20", {}),
    ("dd35", "force", "15", {}),
    ("cyd", "tir", "15", {}),
    ("cyd", "tir", "15", {"predilection": "oui"}),
    ("felins", "chasse", "11", {}),
]


def system_checks(system_id: str, skill: str, threshold: str, opts: dict[str, str]) -> list[Check]:
    """The `Check`s the system builds for `jdr odds FICHE SKILL --seuil N` (captured)."""
    from pathlib import Path

    import jdr.core.check as core_check
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument
    from jdr.core.system import CheckRequest
    from jdr.core.usecase import load, options

    system = get_system(system_id)
    actor = load(system, SheetDocument.from_text(SHEETS[system_id], Path(f"{system_id}.yaml")))
    seen: list[Check] = []
    original = core_check._check_odds

    def capture(check: Check) -> core_check.Odds:
        seen.append(check)
        return original(check)

    core_check._check_odds = capture  # type: ignore[assignment]
    try:
        system.odds(CheckRequest(actor, skill, threshold=threshold,
                                 options=options(system, "odds", opts)))
    finally:
        core_check._check_odds = original
    return seen


def ours_single(check: Check) -> Callable[[], Fraction]:
    def run() -> Fraction:
        _check_odds.cache_clear()
        success = _check_odds(check).success
        assert success is not None
        return success

    return run


def theirs_single(check: Check) -> Callable[[], Fraction]:
    die = check.natural.distribution()
    bonus, judge, threshold, value = check.bonus, check.judge, check.threshold, check.natural.value

    def success(natural: object) -> bool:
        return judge(natural, value(natural) + bonus, threshold).success is True

    def run() -> Fraction:
        return Fraction(die.map(success).probability(True))

    return run


def single_checks(rounds: int) -> list[float]:
    print(f"{'jet simple':<44} {'jdr µs':>9} {'icepool µs':>11} {'ratio':>6}")
    ratios = []
    for system_id, skill, threshold, opts in QUESTIONS_SINGLE:
        for check in system_checks(system_id, skill, threshold, opts):
            mine, other = ours_single(check), theirs_single(check)
            assert mine() == other(), (system_id, check.label)  # same question, same answer
            times: dict[str, list[float]] = {"jdr": [], "icepool": []}
            for _ in range(rounds):  # interleaved
                times["jdr"].append(timed(mine, 200))
                times["icepool"].append(timed(other, 200))
            t_mine, t_other = statistics.median(times["jdr"]), statistics.median(times["icepool"])
            ratios.append(t_mine / t_other)
            extra = "".join(f" {k}={v}" for k, v in opts.items())
            natural = check.natural
            die = natural.label or f"{type(natural).__name__} d{getattr(natural, 'sides', '?')}"
            label = f"{system_id} {die}{extra}"[:44]
            print(f"{label:<44} {t_mine * 1e6:>9.1f} {t_other * 1e6:>11.1f} {t_mine / t_other:>6.2f}")
    return ratios


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
    print(f"jets opposés, moyenne géométrique (jdr / icepool) : {geo:.2f} (objectif ≤ 1)")
    print()
    singles = single_checks(args.rounds)
    geo = math.exp(sum(math.log(r) for r in singles) / len(singles))
    print(f"jets simples : pire rapport {max(singles):.2f}, moyenne géométrique {geo:.2f} "
          "(objectif : chacun ≤ 1)")


if __name__ == "__main__":
    main()
