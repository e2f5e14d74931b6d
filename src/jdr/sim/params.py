"""The simulator from its declaration's `params` (`jdr.core.declare`, « simuler »): what the
table's page and its API send. Bounded as declared: at most `n`'s `hi` fights (20 000), refused at
once above; the seed within `graine`'s range."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jdr.errors import JdrError
from jdr.sim.summary import Simulation

WEB_SCALAR_MAX = 1_000  # fights played one by one (rules that do not compile) on the table


def _names(params: Mapping[str, Any], key: str, side: int) -> list[str]:
    value = params.get(key)
    if isinstance(value, str):
        value = [value]
    if not value:
        raise JdrError(f"le camp {side} est vide : choisissez au moins un combattant")
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(v, str) and 0 < len(v) <= 200 for v in value) or len(value) > 50:
        raise JdrError(f"« {key} » : une liste de 1 à 50 noms (200 caractères au plus chacun)")
    return list(value)


def _int(params: Mapping[str, Any], key: str, lo: int, hi: int, default: int | None) -> int | None:
    from jdr.core.options import parse_int

    value = params.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        from jdr.core.french import number

        raise JdrError(f"« {key} » : un nombre entier de {number(lo)} à {number(hi)}")
    return parse_int(str(value), f"« {key} »", lo, hi)


def bounds(name: str) -> tuple[int, int]:
    """The range of one parameter of « simuler », as declared."""
    from jdr.core.declare import ACTIONS

    p = ACTIONS["simuler"].param(name)
    assert p is not None and p.lo is not None and p.hi is not None
    return p.lo, p.hi


def checked(params: Mapping[str, Any]) -> tuple[list[str], list[str], int, int | None, list[str]]:
    """The parameters, checked before anything is loaded (n above the bound refused at once)."""
    from jdr.core.declare import ACTIONS
    from jdr.names import unknown_name_message
    from jdr.sim.run import DEFAULT_N

    allowed = ACTIONS["simuler"].names
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise JdrError("simuler : " + unknown_name_message("paramètre", str(unknown[0])[:40], allowed))
    lo, hi = bounds("n")
    n = _int(params, "n", lo, hi, min(DEFAULT_N, hi))
    assert n is not None
    seed = _int(params, "graine", *bounds("graine"), None)
    tactics = [str(params.get(k) or "faible") for k in ("tactique1", "tactique2")]
    return _names(params, "camp1", 1), _names(params, "camp2", 2), n, seed, tactics


def simulate_params(ws: Any, params: Mapping[str, Any]) -> Simulation:
    """The simulation the params ask for, on the workspace's sheets (nothing is written)."""
    from jdr.sim.pick import resolve
    from jdr.sim.run import simulate

    first, second, n, seed, tactics = checked(params)
    system, sides = resolve(ws, [first, second])
    return simulate(system, sides, n, seed, tactics, scalar_max=WEB_SCALAR_MAX)
