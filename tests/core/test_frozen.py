"""`@frozen` behaves as `@dataclass(frozen=True)` from every side, and is made only on first use."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import pytest

from jdr.core.frozen import frozen

S = TypeVar("S")


def _made(cls: type) -> bool:
    return isinstance(cls.__dict__.get("__dataclass_fields__"), dict)


@frozen
class Point:
    """A point."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Twin:
    """A point."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


@frozen
class Pickled:
    name: str
    items: list[int] = field(default_factory=list)


def _fresh() -> type[Any]:
    @frozen
    class Fresh:
        a: int
        b: str = "b"

    return Fresh


def test_nothing_is_made_before_first_use() -> None:
    cls = _fresh()
    assert not _made(cls)
    assert cls(1).b == "b"
    assert _made(cls)


def test_same_behaviour_as_the_standard_dataclass() -> None:
    p, t = Point(1, 2, ("a",)), Twin(1, 2, ("a",))
    assert repr(p) == repr(t).replace("Twin", "Point")
    assert p == Point(1, 2, ("a",)) and p != Point(1, 3) and p.__eq__(t) is NotImplemented
    assert hash(p) == hash(Point(1, 2, ("a",))) and {p: 1}[Point(1, 2, ("a",))] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.x
    targets: tuple[Any, ...] = (p, t)
    for target in targets:  # another attribute: the same refusal, in the same words
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'z'"):
            target.z = 1
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'z'"):
            del target.z
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    assert Point.__match_args__ == Twin.__match_args__ == ("x", "y", "tags")
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "tags"]
    assert dataclasses.replace(p, y=5) == Point(1, 5, ("a",))
    assert dataclasses.asdict(p) == {"x": 1, "y": 2, "tags": ("a",)}
    assert Point.__doc__ == "A point."


@pytest.mark.parametrize("first", ["fields", "is_dataclass", "match_args", "params", "hash_of_copy"])
def test_made_by_whatever_is_read_first(first: str) -> None:
    cls = _fresh()
    if first == "fields":
        assert [f.name for f in dataclasses.fields(cls)] == ["a", "b"]
    elif first == "is_dataclass":
        assert dataclasses.is_dataclass(cls)
    elif first == "match_args":
        assert cls.__match_args__ == ("a", "b")
    elif first == "params":
        assert cls.__dataclass_params__.frozen
    else:  # an instance never built by __init__ (as pickle or copy make them)
        bare: Any = object.__new__(cls)
        object.__setattr__(bare, "a", 1)
        object.__setattr__(bare, "b", "b")
        assert not _made(cls)
        assert hash(bare) == hash((1, "b"))
    assert _made(cls)


def test_match_pattern() -> None:
    match Point(4, 5):
        case Point(x, y):
            assert (x, y) == (4, 5)
        case _:
            pytest.fail("no match")


def test_pickle_and_copy() -> None:
    p = Pickled("a", [1])
    assert pickle.loads(pickle.dumps(p)) == p
    assert copy.deepcopy(p) == p and copy.copy(p) is not p
    assert Pickled("b").items == [] and Pickled("b").items is not Pickled("b").items


def test_subclasses_plain_and_dataclass() -> None:
    base = _fresh()

    class Plain(base):  # type: ignore[valid-type,misc]
        def total(self) -> str:
            return f"{self.a}{self.b}"

    assert not _made(base)
    assert Plain(1).total() == "1b" and Plain(1) == Plain(1) and Plain(1) != base(1)

    other = _fresh()

    @frozen
    class Child(other):  # type: ignore[valid-type,misc]
        c: int = 3

    assert not _made(other) and not _made(Child)
    assert Child(1, "x", 4) == Child(1, "x", 4) and repr(Child(1)).endswith("(a=1, b='b', c=3)")
    assert _made(other) and _made(Child)
    with pytest.raises(TypeError):  # a mutable dataclass cannot inherit from a frozen one
        dataclass(type("Mutable", (_fresh(),), {"__annotations__": {"c": "int"}, "c": 0}))


def test_generic_class() -> None:
    @frozen
    class Box(Generic[S]):
        item: S

    assert Box[int](3) == Box(3) and Box[int](3).item == 3


def test_own_method_means_standard_dataclass() -> None:
    @frozen
    class Own:
        a: int

        def __repr__(self) -> str:
            return "own"

    assert _made(Own) and repr(Own(1)) == "own" and Own(1) == Own(1)


def test_made_once_across_threads() -> None:
    cls = _fresh()
    barrier = threading.Barrier(8)
    built: list[object] = []

    def build() -> None:
        barrier.wait()
        built.append(cls(1))

    threads = [threading.Thread(target=build) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert built == [cls(1)] * 8


def test_a_class_without_docstring_gets_the_standard_one() -> None:
    @frozen
    class Bare:
        a: int
        b: str = "b"

    @dataclass(frozen=True)
    class Standard:
        a: int
        b: str = "b"

    assert Bare(1).__doc__ == (Standard.__doc__ or "").replace("Standard", "Bare")
    assert (Bare.__doc__ or "").startswith("Bare(a: ")


def test_never_without_its_methods_while_made() -> None:
    """Another thread looking at the class while it is made always finds each method, the
    placeholder or the real one (a placeholder waits for the making)."""
    cls = _fresh()
    seen: set[str] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.update(n for n in ("__init__", "__eq__", "__hash__", "__setattr__", "__repr__")
                        if n not in cls.__dict__)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        assert cls(1) == cls(1)
    finally:
        done.set()
        watcher.join()
        sys.setswitchinterval(interval)
    assert seen == set() and _made(cls)
