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

`Settled`: what a server holds for each live connection (about 135 objects: the connection's
suspended coroutines, its tasks, queues and buffers) lives as long as the connection, often the
whole evening. With 5,000 connections in a process that is 700,000 objects, and a full
collection walking them stopped the server for 0.5 to 2 seconds each time the old generation
had grown by a quarter (issue 18: the tail of 10,000 live clients). So they are set aside like
start-up's objects: once `BATCH` connections have settled since the last time, a full
collection (cheap: it walks only what is newer than the last freeze) then a freeze. Without
that collection, the garbage of the latest handshakes was frozen with the connections, and the
buffers it held with it (50 MiB more for 1,000 connections). The price:
a cycle left by a connection that closes stays frozen, never freed (about 50 objects per closed
connection). So once as many connections have closed since the last time as are open now (and
at least `RECLAIM` of them), everything is given back to the collector, collected in full once
(the only long pause left, one per turnover of the connections, none while they stay) and
frozen again.
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


class Settled:
    """The live connections of a server process, set aside from the collector by batches."""

    BATCH = 100  # connections settled between two freezes: at most ~13,500 objects left to scan
    RECLAIM = 1000  # connections closed at the least before the frozen cycles are reclaimed

    def __init__(self) -> None:
        self.open = 0  # connections settled and not closed
        self.fresh = 0  # settled since the last freeze
        self.closed = 0  # closed since the last full reclaim
        self.freezes = 0
        self.reclaims = 0

    def joined(self) -> None:
        """One more connection settled (its objects made); a batch complete is frozen."""
        self.open += 1
        self.fresh += 1
        if self.fresh >= self.BATCH and _for_life:
            with _lock:
                gc.collect()  # no garbage is frozen (it would never be freed): a full collection,
                gc.freeze()  # cheap, as it walks only what is newer than the last freeze
            self.fresh = 0
            self.freezes += 1

    def left(self) -> None:
        """One connection closed; past a turnover, the frozen cycles are collected."""
        self.open -= 1
        self.closed += 1
        if self.closed >= max(self.RECLAIM, self.open) and _for_life:
            with _lock:
                gc.unfreeze()
                gc.collect()
                gc.freeze()
            self.closed = 0
            self.fresh = 0
            self.reclaims += 1
