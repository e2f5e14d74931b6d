"""`@frozen`: `@dataclass(frozen=True)`, whose methods are written the first time they are used.

Python 3.11 writes a dataclass's `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and
`__delattr__` by compiling their source text, some 3.5 M instructions per class (a millisecond):
the fifty-odd data classes a command on a sheet file imports cost it 3/4 of an `import typer`, most
of them for classes the command never builds (issue 18). A `@frozen` class is made a dataclass by
`dataclasses.dataclass(frozen=True)` itself, only on its first use: the first call of one of those
methods (building an instance is one) or the first read of `__dataclass_fields__`,
`__dataclass_params__` or `__match_args__` (`dataclasses.fields`, `is_dataclass`, `replace`, a
subclass made a dataclass, pydantic, a `match`). From then on it is that dataclass, the same class
object; until then nothing of it can be seen but its `__dict__`.

A class that writes one of those methods or attributes itself, or `__slots__`, is made a
dataclass at once (the standard path, nothing deferred).

The dataclass is made on a copy of the class (same name, bases and body, as written), whose
methods are then set on the class one by one, each replacing its placeholder: another thread never
finds the class without one or the other (a placeholder waits for the making to end). Only
`__setattr__` and `__delattr__` are written here rather than taken from the copy (the generated
ones name the copy): the same two lines as `dataclasses` writes.
"""

from __future__ import annotations

import abc
import dataclasses
import threading
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
_ATTRIBUTES = ("__dataclass_fields__", "__dataclass_params__", "__match_args__")
_LOCK = threading.RLock()  # a base class is made while its subclass is (same thread)


class _Deferred:
    """A class attribute that makes its class a dataclass when read, then gives the real value."""

    def __init__(self, owner: type, name: str, make: Callable[[], None]) -> None:
        self.owner, self.name, self.make = owner, name, make

    def __get__(self, instance: object, objtype: type | None = None) -> Any:
        self.make()
        return getattr(self.owner, self.name)


def _stub(owner: type, name: str, make: Callable[[], None]) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        make()
        return getattr(owner, name)(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


Setter = Callable[..., None]


def _frozen_setters(cls: type[Any], names: tuple[str, ...]) -> tuple[Setter, Setter]:
    """`__setattr__` and `__delattr__` as `dataclass(frozen=True)` writes them for `cls`."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    return __setattr__, __delattr__


def _made(cls: type, body: dict[str, Any]) -> dict[str, Any]:
    """What `dataclass(frozen=True)` adds to `cls`, made on a copy of it."""
    copy = type(cls)(cls.__name__, cls.__bases__, dict(body))
    copy.__qualname__ = cls.__qualname__
    dataclasses.dataclass(frozen=True)(copy)
    added = {name: copy.__dict__[name] for name in (*_METHODS, *_ATTRIBUTES) if name in copy.__dict__}
    setter, deleter = _frozen_setters(cls, tuple(f.name for f in dataclasses.fields(copy)))
    added |= {"__setattr__": setter, "__delattr__": deleter}
    if not cls.__doc__:
        added["__doc__"] = copy.__doc__
    return added


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[T]) -> type[T]:
    """`@dataclass(frozen=True)`, made on first use (see the module)."""
    own = cls.__dict__
    if "__slots__" in own or any(name in own for name in _METHODS + _ATTRIBUTES):
        return dataclasses.dataclass(frozen=True)(cls)
    body = {k: v for k, v in own.items() if k not in ("__dict__", "__weakref__")}
    placeholders: dict[str, object] = {}

    def make() -> None:
        with _LOCK:
            if own.get("__init__") is not placeholders["__init__"]:
                return  # made already
            for name, value in _made(cls, body).items():
                setattr(cls, name, value)  # each placeholder replaced at once: never missing
            abc.update_abstractmethods(cls)

    for name in _METHODS:
        placeholders[name] = _stub(cls, name, make)
    for name in _ATTRIBUTES:
        placeholders[name] = _Deferred(cls, name, make)
    for name, value in placeholders.items():
        setattr(cls, name, value)
    return cls
