"""The simulator's entry point, for every front end: compiled when the system's rules compile,
the scalar engine otherwise (and the result says so), exact for a small duel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jdr.core.system import Loaded
from jdr.errors import JdrError
from jdr.sim.fight import MAX_ROUNDS, AnySystem, Roster, roster, tactic
from jdr.sim.summary import Simulation, batch_of, summarize

MAX_N = 1_000_000  # fights per simulation (the CLI); the table page has its own bound
DEFAULT_N = 10_000

Progress = Callable[[int], None]


def check_n(n: int, top: int = MAX_N) -> int:
    if not 1 <= n <= top:
        from jdr.core.french import number

        raise JdrError(f"--n : {n} combats hors limites (autorisé : de 1 à {number(top)})")
    return n


def tactics_of(given: Sequence[str] | None) -> tuple[str, str]:
    """One tactic for both sides, or one per side, in the order of the sides."""
    names = [tactic(t) for t in (given or [])]
    if len(names) > 2:
        raise JdrError("--tactique : une pour les deux camps, ou une par camp (deux au plus)")
    if not names:
        return tactic(None), tactic(None)
    return names[0], names[-1]


def simulate(system: AnySystem, sides: Sequence[Sequence[Loaded[Any]]], n: int = DEFAULT_N,
             seed: int | None = None, tactics: Sequence[str] | None = None,
             max_rounds: int = MAX_ROUNDS, progress: Progress | None = None,
             exact: bool = True, scalar_max: int | None = None) -> Simulation:
    """Simulate `n` fights of sides[0] against sides[1] (nothing is written). `scalar_max`: the
    most fights the engine's loop may play when the rules do not compile (a French refusal
    above)."""
    check_n(n)
    chosen = tactics_of(tactics)
    fighters = roster(system, sides)
    if exact and len(fighters.fighters) == 2:
        from jdr.sim.exact import solve_duel

        solved = solve_duel(fighters, chosen, n, max_rounds)
        if solved is not None:
            return solved
    return play(fighters, chosen, n, seed, max_rounds, progress, scalar_max)


def play(fighters: Roster, chosen: Sequence[str], n: int, seed: int | None,
         max_rounds: int = MAX_ROUNDS, progress: Progress | None = None,
         scalar_max: int | None = None) -> Simulation:
    """Monte Carlo: compiled tables and numpy, or the scalar engine for what does not compile."""
    import numpy as np

    from jdr.sim.tables import CannotCompile
    from jdr.sim.vector import play_vector

    try:
        batch = play_vector(fighters, chosen, n, np.random.default_rng(seed), max_rounds, progress)
    except CannotCompile as exc:
        if scalar_max is not None and n > scalar_max:
            raise JdrError(f"système « {fighters.system.id} » : {exc.what} ne se compile pas ; "
                           f"joués un à un, {scalar_max} combats au plus ici (demandés : {n})"
                           ) from None
        return scalar(fighters, chosen, n, seed, max_rounds, progress, exc.what)
    notes = []
    if "initiative" in fighters.system.actions:
        notes.append("initiative tirée pour chacun d'après sa règle ; égalités départagées au hasard")
    if compiled_round_start(fighters.system):
        notes.append("le début de round du système est joué fiche par fiche ; l'ordre qu'il "
                     "retrie n'est pas suivi : l'ordre du premier round est gardé")
    return summarize(fighters, chosen, batch, True, notes)


def compiled_round_start(system: AnySystem) -> bool:
    from jdr.core.system import GameSystem

    return type(system).round_start is not GameSystem.round_start


def scalar(fighters: Roster, chosen: Sequence[str], n: int, seed: int | None,
           max_rounds: int = MAX_ROUNDS, progress: Progress | None = None,
           why: str = "") -> Simulation:
    """The engine's loop, one fight after the other (the fallback)."""
    from jdr.dice.source import RandomSource
    from jdr.sim.scalar import play_fight

    source = RandomSource(seed)
    results = []
    for i in range(n):
        results.append(play_fight(fighters, chosen, source, max_rounds))
        if progress is not None and (i + 1) % 100 == 0:
            progress(i + 1)
    note = (f"système « {fighters.system.id} » : {why} ne se compile pas ; les combats sont "
            "joués un à un par le moteur (plus lent, mêmes règles)")
    return summarize(fighters, chosen, batch_of(results), False, (note,) if why else ())
