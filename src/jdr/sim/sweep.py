"""A sweep: the same simulation over a range of values — the number of copies of a character
(`--balayer gobelin=1..10`) or a value of its sheet (`--balayer gobelin:pv.max=5..15`) — played
point by point here, or on Dask (`dask.distributed`: a local cluster by default, a scheduler's
address to go wider). Each point's seed is derived from `--seed` the same way on both paths
(`numpy.random.SeedSequence`), so a fixed seed gives the same figures either way."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jdr.core.frozen import frozen
from jdr.core.system import Loaded
from jdr.errors import JdrError
from jdr.names import normalize
from jdr.sim.pick import counted

MAX_POINTS = 50
SPEC = re.compile(r"^(?P<ref>[^=:]+?)(?::(?P<path>[^=]+))?=(?P<low>-?[0-9]{1,4})\.\.(?P<high>-?[0-9]{1,4})$")


@frozen
class Sweep:
    ref: str                        # the character (as named in the sides, count removed)
    path: tuple[str, ...] | None    # a sheet value, or None: the number of copies
    values: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"{self.ref}:{'.'.join(self.path)}" if self.path else f"nombre de « {self.ref} »"


def parse(text: str) -> Sweep:
    found = SPEC.match(text.strip())
    if found is None:
        raise JdrError(f"--balayer « {text[:60]} » : NOM=DEBUT..FIN (nombre de copies) ou "
                       "NOM:chemin.de.la.valeur=DEBUT..FIN (exemple : gobelin=1..10)")
    low, high = int(found["low"]), int(found["high"])
    if high < low or high - low + 1 > MAX_POINTS:
        raise JdrError(f"--balayer : de 1 à {MAX_POINTS} valeurs, DEBUT ≤ FIN")
    path = tuple(p for p in (found["path"] or "").split(".") if p) or None
    if path is None and low < 1:
        raise JdrError("--balayer : un nombre de copies commence à 1")
    return Sweep(found["ref"].strip(), path, tuple(range(low, high + 1)))


def matches(ref: str, wanted: str) -> bool:
    """A character named as in the sides, or a sheet file by its name without `.yaml`."""
    return normalize(wanted) in (normalize(ref), normalize(Path(ref).stem))


def words_at(sides: Sequence[Sequence[str]], sweep: Sweep, value: int) -> list[list[str]]:
    """The sides' words with the swept character's count set to `value`."""
    out = [list(side) for side in sides]
    hits = 0
    for side in out:
        for i, word in enumerate(side):
            if matches(counted(word)[0], sweep.ref):
                hits += 1
                if sweep.path is None:
                    side[i] = f"{counted(word)[0]}*{value}"
    if not hits:
        raise JdrError(f"--balayer : « {sweep.ref[:60]} » n'est dans aucun camp")
    return out


Plain = dict[str, Any]
Task = tuple[str, list[list[Plain]], int, int | None, tuple[str, str]]


def plains_at(system: Any, sides: Sequence[Sequence[Loaded[Any]]], refs: Sequence[Sequence[str]],
              sweep: Sweep, value: int) -> list[list[Plain]]:
    """Each side's sheets as plain data, the swept value set (and validated) where asked."""
    from jdr.core.sheet import SheetDocument
    from jdr.core.usecase import load

    out = []
    for side, names in zip(sides, refs, strict=True):
        plains = []
        for sheet, ref in zip(side, names, strict=True):
            plain = json.loads(json.dumps(sheet.doc.plain()))
            if sweep.path is not None and matches(ref, sweep.ref):
                doc = SheetDocument(Path(f"{sheet.name}.yaml"), plain)
                doc.set(sweep.path, value)
                load(system, doc)  # a value the sheet refuses: the French error, now
            plains.append(plain)
        out.append(plains)
    return out


def seeds(seed: int | None, count: int) -> list[int | None]:
    """One seed per point, derived from `seed` (None: each point its own entropy)."""
    if seed is None:
        return [None] * count
    import numpy as np

    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(count)]


def play_point(task: Task) -> dict[str, Any]:
    """One point (run wherever: here or on a Dask worker); its simulation as JSON."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument
    from jdr.core.usecase import load
    from jdr.sim.run import simulate

    system_id, sides, n, seed, tactics = task
    system = get_system(system_id)
    loaded = [[load(system, SheetDocument(Path(f"{p.get('nom', 'fiche')}.yaml"), p)) for p in side]
              for side in sides]
    return simulate(system, loaded, n, seed, tactics).to_json()


def run_tasks(tasks: Sequence[Task], dask: str | None, local: bool,
              progress: Callable[[int], None] | None = None, processes: bool = True
              ) -> list[dict[str, Any]]:
    """Every point: here one after the other (`local`), or on Dask."""
    if local:
        out = []
        for i, task in enumerate(tasks):
            out.append(play_point(task))
            if progress is not None:
                progress(i + 1)
        return out
    return on_dask(tasks, dask, processes)


def on_dask(tasks: Sequence[Task], address: str | None, processes: bool = True
            ) -> list[dict[str, Any]]:
    """The points on `dask.distributed`: the scheduler at `address`, or a local cluster (one
    process per core; `processes=False`: one worker thread in this process)."""
    try:
        import dask.distributed as distributed
    except ImportError:
        raise JdrError("--dask : Dask n'est pas installé (pip install 'jdr[dask]')") from None
    Client: Any = distributed.Client
    LocalCluster: Any = distributed.LocalCluster
    if address is not None:
        try:
            client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise JdrError(f"--dask {address[:80]} : ordonnanceur injoignable ({exc})") from None
        with client:
            return list(client.gather(client.map(play_point, list(tasks), pure=False)))
    import os

    workers = (os.cpu_count() or 1) if processes else 1
    with LocalCluster(processes=processes, n_workers=workers, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        return list(client.gather(client.map(play_point, list(tasks), pure=False)))
