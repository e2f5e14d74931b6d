"""`older_objects_frozen`: the objects older than the block are out of the collector's scans
while it runs, given back after it; nothing is lost; blocks in several threads share one freeze;
a freeze made by someone else is left as it is."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator

import pytest

from jdr.core.heap import older_objects_frozen


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture(autouse=True)
def no_freeze() -> Iterator[None]:
    """The collector as a fresh process has it. Its state is the process's: a thread that an
    earlier test left inside a block (a request of an in-process server still finishing after
    its test) shares the freeze, so these tests start once every such block has ended."""
    from jdr.core import heap

    deadline = time.monotonic() + 10
    while heap._inside and time.monotonic() < deadline:
        time.sleep(0.01)
    assert heap._inside == 0, "un bloc d'un autre fil ne finit pas"
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_older_objects_frozen_during_the_block_only() -> None:
    with older_objects_frozen():
        frozen = gc.get_freeze_count()
        assert frozen > 0
        young = [Node() for _ in range(10)]
        assert gc.get_freeze_count() == frozen  # what the block builds is collected as usual
        assert all(gc.is_tracked(n) for n in young)
    assert gc.get_freeze_count() == 0


def test_nothing_lost_a_cycle_dropped_in_the_block_is_collected_after() -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    with older_objects_frozen():
        del a, b
        gc.collect()
        assert gone() is not None  # frozen: not scanned, not collected
    gc.collect()
    assert gone() is None


def test_a_cycle_made_in_the_block_is_collected_in_it() -> None:
    with older_objects_frozen():
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        gc.collect()
        assert gone() is None


def test_blocks_in_threads_share_one_freeze_undone_by_the_last() -> None:
    inside, release = threading.Barrier(3), threading.Event()
    counts: list[int] = []

    def block() -> None:
        with older_objects_frozen():
            inside.wait()
            release.wait()
            counts.append(gc.get_freeze_count())

    threads = [threading.Thread(target=block) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    assert gc.get_freeze_count() > 0
    release.set()
    for t in threads:
        t.join()
    assert len(counts) == 2 and min(counts) > 0  # the first out did not unfreeze the other
    assert gc.get_freeze_count() == 0


def test_nested_blocks() -> None:
    with older_objects_frozen():
        with older_objects_frozen():
            pass
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_a_freeze_for_life_is_left_alone() -> None:
    from jdr.core import heap

    try:
        heap.freeze_for_life()
        before = gc.get_freeze_count()
        assert before > 0
        with older_objects_frozen():
            Node()
            assert gc.get_freeze_count() == before
        assert gc.get_freeze_count() == before
    finally:
        heap._for_life = False


def test_an_error_in_the_block_unfreezes() -> None:
    with pytest.raises(KeyError), older_objects_frozen():
        raise KeyError("x")
    assert gc.get_freeze_count() == 0


def test_the_automatic_collection_is_paused_in_the_block_only() -> None:
    assert gc.isenabled()
    with older_objects_frozen():
        assert not gc.isenabled()
        with older_objects_frozen():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with older_objects_frozen():
            assert not gc.isenabled()
        assert not gc.isenabled()  # paused before the block: still paused after it
    finally:
        gc.enable()


def _cycle() -> Node:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


def test_settled_connections_are_frozen_by_batches_in_a_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections settled in a process that froze its start-up: each complete batch is set
    aside (what it holds is no longer scanned), never an incomplete one."""
    from jdr.core import heap

    monkeypatch.setattr(heap, "_for_life", True)
    settled = heap.Settled()
    settled.BATCH = 3
    held = [Node() for _ in range(2)]  # what two connections hold
    settled.joined()
    settled.joined()
    assert gc.get_freeze_count() == 0 and settled.freezes == 0
    held.append(Node())
    settled.joined()
    assert settled.freezes == 1
    frozen = gc.get_freeze_count()
    assert frozen >= len(held)
    settled.joined()
    assert gc.get_freeze_count() == frozen  # the next batch is not complete


def test_closed_connections_cycles_are_reclaimed_after_a_turnover(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cycle frozen with its connection cannot be freed while frozen; once as many
    connections have closed as are open (and at least RECLAIM), it is collected."""
    from jdr.core import heap

    monkeypatch.setattr(heap, "_for_life", True)
    settled = heap.Settled()
    settled.BATCH, settled.RECLAIM = 2, 3
    connections = [_cycle() for _ in range(2)]
    gone = [weakref.ref(c) for c in connections]
    settled.joined()
    settled.joined()  # frozen, with the two cycles
    connections.clear()  # the two connections close: their cycles are garbage
    gc.collect()
    assert all(g() is not None for g in gone)  # but frozen: kept
    for _ in range(2):
        settled.joined()
    settled.left()
    settled.left()
    assert settled.reclaims == 0 and all(g() is not None for g in gone)  # 2 closed, 2 open
    settled.left()
    assert settled.reclaims == 1
    assert all(g() is None for g in gone)
    assert gc.get_freeze_count() > 0  # what lives is frozen again


def test_settled_does_nothing_outside_a_server() -> None:
    """A process that did not freeze its start-up (the CLI, tests in process) is left alone."""
    from jdr.core import heap

    settled = heap.Settled()
    settled.BATCH = settled.RECLAIM = 1
    settled.joined()
    settled.left()
    assert gc.get_freeze_count() == 0 and settled.freezes == settled.reclaims == 0
