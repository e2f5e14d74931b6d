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
