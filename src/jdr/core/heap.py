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
(`gc.unfreeze`). The automatic collection is also paused during the block: it would scan, two
full times at 1,000 combatants, what the action builds and keeps to its end (5 % of the step);
at the end, what the block made goes to the oldest generation with the rest (else the first
young collection after the block scans all of it, 200 ms at 1,000 combatants). Nothing is
lost: reference counting frees objects as always, and a cycle (older, or made in the block) is
found by the next full collection.

Process-wide, as the collector is: blocks in several threads at once share one freeze, made by
the first to enter and undone by the last to leave. A process that froze its start-up for good
(`freeze_for_life`: `jdr servir`) is left alone: no block freezes or unfreezes there (a block
would undo it). That is known from a flag, never by asking the collector: `gc.get_freeze_count`
walks every frozen object (1 ms with a server's 56,000), and every request reads the base in a
block — it had doubled the live channel's CPU per delivery.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_inside = 0  # blocks running now, all threads together
_ours = False  # whether the freeze in place was made here
_for_life = False  # the process froze its start-up for good (`freeze_for_life`)
_collecting = True  # whether the collector ran before the block stopped it


def freeze_for_life() -> None:
    """What exists now (modules, the app and its routes) lives as long as the process: out of
    the collector's sight for good. Blocks leave the collector alone from then on."""
    global _for_life
    with _lock:
        _for_life = True
        gc.collect()
        gc.freeze()


@contextmanager
def older_objects_frozen() -> Iterator[None]:
    """The objects that exist now are not scanned by the collector until the block ends."""
    global _inside, _ours, _collecting
    with _lock:
        _inside += 1
        if _inside == 1:
            _ours = not _for_life
            if _ours:
                gc.freeze()
                _collecting = gc.isenabled()
                gc.disable()
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0 and _ours:
                gc.freeze()  # what the block made joins what was frozen: both go back to the
                gc.unfreeze()  # oldest generation, not scanned by the next young collection
                if _collecting:
                    gc.enable()
                _ours = False
