"""The garbage collector during one action: what existed before it is not scanned again.

An action on a campaign builds many objects that outlive their creation (a sheet's YAML tree and
its validated model, per combatant) while the process already holds many more (modules, the
sheet caches of `jdr serve`). CPython's full collection runs each time the survivors grow by a
quarter of the old generation, and scans every tracked object: with 1,000 combatants, one or two
full collections of 100–150 ms per action, scanning objects none of which can be garbage yet
(issue 18: the 1,000 / 50 ratio of `combat start` and `combat suivant`).

`older_objects_frozen()`: for the duration of the block, the objects that existed when it began
are moved to the collector's permanent generation (`gc.freeze`, as CPython's documentation
advises for long-lived objects), and given back to the oldest generation at the end
(`gc.unfreeze`). Nothing is lost: reference counting frees frozen objects as always, and a
cycle among them is found by the first full collection after the block. Objects created in the
block are collected as usual.

Process-wide, as the collector is: blocks in several threads at once share one freeze, made by
the first to enter and undone by the last to leave. A freeze made by someone else is left alone:
no block freezes or unfreezes while it holds (`jdr servir` freezes what its start-up made, for
the life of the process: `jdr.web.serve`; a block would undo it).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_inside = 0  # blocks running now, all threads together
_ours = False  # whether the freeze in place was made here


@contextmanager
def older_objects_frozen() -> Iterator[None]:
    """The objects that exist now are not scanned by the collector until the block ends."""
    global _inside, _ours
    with _lock:
        _inside += 1
        if _inside == 1:
            _ours = gc.get_freeze_count() == 0  # a freeze already there is someone else's
            if _ours:
                gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0 and _ours:
                gc.unfreeze()
                _ours = False
