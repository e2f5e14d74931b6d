"""The syntax tree of a dice expression: every node rolls (`evaluate`) and gives its exact
distribution (`dist`) side by side, so rolls and odds are one definition (docs/des.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from math import ceil, floor
from typing import NamedTuple

from jdr.dice import modifiers
from jdr.dice.modifiers import Budget, Die, Dist, Spec, counting_text, keep_text, spec_meaning
from jdr.dice.source import DiceSource, RandomSource
from jdr.errors import DiceError, DiceLimitError
from jdr.names import normalize
from jdr.render.safe import clean

MAX_DICE = 1000
MAX_LENGTH = 1000
MAX_DEPTH = 50
MAX_SIDES = 1_000_000
MAX_NUMBER_DIGITS = 9
MAX_REPEAT = 100
MAX_LABEL = 100

ALIASES = {"adv": "kh", "avantage": "kh", "dis": "kl", "desavantage": "kl"}
FUNCTIONS = ("floor", "ceil", "round", "abs", "max", "min")

# ---------------------------------------------------------------- results


class DiceGroup(NamedTuple):
    """The dice of one `NdS...` term of an expression, and the value they gave."""

    notation: str
    dice: tuple[Die, ...]
    value: int

    def render(self) -> str:
        return f"{self.notation} [{', '.join(d.render() for d in self.dice)}]"


class SetRecord(NamedTuple):
    """The element totals of a group `{…}` as rolled, kept or not."""

    totals: tuple[tuple[int, bool], ...]
    value: int

# ---------------------------------------------------------------- evaluation contexts


class _Context:
    __slots__ = ("groups", "notes", "records", "rnd", "rolled", "source", "variables")

    def __init__(self, source: DiceSource, variables: Mapping[str, int], rolled: int = 0) -> None:
        self.source = source
        self.variables = variables
        self.groups: list[DiceGroup] = []
        self.records: list[DiceGroup | SetRecord] = []
        self.notes: list[str] = []
        self.rolled = rolled
        # a plain seeded source: compiled terms draw `int(rnd() * sides) + 1` themselves, the
        # very faces `RandomSource.roll` gives, in the same order, without a call per die
        self.rnd = source.uniform if type(source) is RandomSource else None

    def face(self, sides: int) -> int:
        self.rolled += 1
        if self.rolled > MAX_DICE:
            raise DiceLimitError(
                f"plus de {MAX_DICE} dés lancés (relances et explosions comprises) "
                f"dans une expression (limite : {MAX_DICE})")
        return self.source.roll(sides)


class OddsContext:
    """What an exact-odds computation needs: the names' values and a work budget."""

    __slots__ = ("budget", "variables")

    def __init__(self, variables: Mapping[str, int], budget: Budget | None = None) -> None:
        self.variables = variables
        self.budget = budget if budget is not None else Budget()


Exact = Fraction | int
Records = Iterator[DiceGroup | SetRecord]
Roller = Callable[[_Context], int]


def _exact_combine(a: Dist | _XDist, b: Dist | _XDist, fn: Callable[[Exact, Exact], Exact],
                   budget: Budget) -> _XDist:
    budget.spend(len(a.w) * len(b.w))
    out: dict[Exact, int] = {}
    for x, vx in a.w.items():
        for y, vy in b.w.items():
            key = fn(x, y)
            out[key] = out.get(key, 0) + vx * vy
    return _XDist(out, a.den * b.den)


class _XDist:
    """Like `Dist`, over exact (fraction) values: the arguments of floor / ceil / round."""

    __slots__ = ("den", "w")

    def __init__(self, w: dict[Exact, int], den: int) -> None:
        self.w = w
        self.den = den

    def to_int(self, fn: Callable[[Exact], int]) -> Dist:
        out: dict[int, int] = {}
        for k, v in self.w.items():
            key = fn(k)
            out[key] = out.get(key, 0) + v
        return Dist(out, self.den)


# ---------------------------------------------------------------- syntax tree


class Node:
    __slots__ = ()

    def evaluate(self, ctx: _Context) -> int:
        raise NotImplementedError

    def compile(self) -> Roller:
        """A function that rolls this node exactly as `evaluate` does (the same faces drawn in
        the same order, the same dice, notes, limits and errors), built once per parsed line and
        cached (`notation.roll`). By default `evaluate` itself; the nodes of everyday
        expressions return closures that do the least work per roll."""
        return self.evaluate

    def exact(self, ctx: _Context) -> Exact:
        return self.evaluate(ctx)

    def dist(self, octx: OddsContext) -> Dist:
        raise NotImplementedError

    def exact_dist(self, octx: OddsContext) -> Dist | _XDist:
        return self.dist(octx)

    def render(self, records: Records) -> str:
        raise NotImplementedError

    def children(self) -> tuple[Node, ...]:
        return ()


class Number(Node):
    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def evaluate(self, ctx: _Context) -> int:
        return self.value

    def compile(self) -> Roller:
        value = self.value
        return lambda ctx: value

    def dist(self, octx: OddsContext) -> Dist:
        return Dist.point(self.value)

    def render(self, records: Records) -> str:
        return str(self.value)


class Name(Node):
    __slots__ = ("key", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.key = normalize(text)

    def value(self, variables: Mapping[str, int]) -> int:
        try:
            return variables[self.key]
        except KeyError:
            known = ", ".join(sorted(variables)) or "aucun"
            raise DiceError(
                f"nom inconnu « {clean(self.text)} » dans l'expression (noms connus : {known})"
            ) from None

    def evaluate(self, ctx: _Context) -> int:
        return self.value(ctx.variables)

    def dist(self, octx: OddsContext) -> Dist:
        return Dist.point(self.value(octx.variables))

    def render(self, records: Records) -> str:
        return self.text


class Negate(Node):
    __slots__ = ("operand",)

    def __init__(self, operand: Node) -> None:
        self.operand = operand

    def evaluate(self, ctx: _Context) -> int:
        return -self.operand.evaluate(ctx)

    def compile(self) -> Roller:
        operand = self.operand.compile()
        return lambda ctx: -operand(ctx)

    def exact(self, ctx: _Context) -> Exact:
        return -self.operand.exact(ctx)

    def dist(self, octx: OddsContext) -> Dist:
        return self.operand.dist(octx).map(lambda v: -v)

    def exact_dist(self, octx: OddsContext) -> Dist | _XDist:
        d = self.operand.exact_dist(octx)
        return _XDist({-k: v for k, v in d.w.items()}, d.den)

    def render(self, records: Records) -> str:
        return "-" + self.operand.render(records)

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)


def _by_zero(pos: int) -> DiceError:
    return DiceError(f"division par zéro : « / » à la position {pos + 1} divise par 0")


def _int_op(op: str, a: int, b: int, pos: int = 0) -> int:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise _by_zero(pos)
    return a // b


def _exact_op(op: str, a: Exact, b: Exact, pos: int = 0) -> Exact:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise _by_zero(pos)
    q = Fraction(a) / Fraction(b)
    return q.numerator if q.denominator == 1 else q


class Binary(Node):
    __slots__ = ("left", "op", "pos", "right")

    def __init__(self, op: str, left: Node, right: Node, pos: int = 0) -> None:
        self.op = op
        self.left = left
        self.right = right
        self.pos = pos

    def evaluate(self, ctx: _Context) -> int:
        return _int_op(self.op, self.left.evaluate(ctx), self.right.evaluate(ctx), self.pos)

    def compile(self) -> Roller:
        left, right, op, pos = self.left.compile(), self.right.compile(), self.op, self.pos
        if isinstance(self.right, Number) and op in ("+", "-"):  # `1d20+5`: no call for the 5
            k = self.right.value if op == "+" else -self.right.value
            return lambda ctx: left(ctx) + k
        if op == "+":
            return lambda ctx: left(ctx) + right(ctx)
        if op == "-":
            return lambda ctx: left(ctx) - right(ctx)
        if op == "*":
            return lambda ctx: left(ctx) * right(ctx)
        return lambda ctx: _int_op(op, left(ctx), right(ctx), pos)  # the left side first

    def exact(self, ctx: _Context) -> Exact:
        return _exact_op(self.op, self.left.exact(ctx), self.right.exact(ctx), self.pos)

    def dist(self, octx: OddsContext) -> Dist:
        op, pos = self.op, self.pos
        return self.left.dist(octx).combine(self.right.dist(octx),
                                            lambda a, b: _int_op(op, a, b, pos), octx.budget)

    def exact_dist(self, octx: OddsContext) -> Dist | _XDist:
        op, pos = self.op, self.pos
        return _exact_combine(self.left.exact_dist(octx), self.right.exact_dist(octx),
                              lambda a, b: _exact_op(op, a, b, pos), octx.budget)

    def render(self, records: Records) -> str:
        return f"{self.left.render(records)} {self.op} {self.right.render(records)}"

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


class _Wrapper(Node):
    """A node that computes as its inner node and only changes how it is shown."""

    __slots__ = ("inner",)

    def __init__(self, inner: Node) -> None:
        self.inner = inner

    def evaluate(self, ctx: _Context) -> int:
        return self.inner.evaluate(ctx)

    def compile(self) -> Roller:
        return self.inner.compile()

    def exact(self, ctx: _Context) -> Exact:
        return self.inner.exact(ctx)

    def dist(self, octx: OddsContext) -> Dist:
        return self.inner.dist(octx)

    def exact_dist(self, octx: OddsContext) -> Dist | _XDist:
        return self.inner.exact_dist(octx)

    def children(self) -> tuple[Node, ...]:
        return (self.inner,)


class Group(_Wrapper):
    __slots__ = ()

    def render(self, records: Records) -> str:
        return f"({self.inner.render(records)})"


class Labeled(_Wrapper):
    """A term with a Roll20 label: `1d20[feu]` (shown, not computed)."""

    __slots__ = ("label",)

    def __init__(self, inner: Node, label: str) -> None:
        super().__init__(inner)
        self.label = label

    def render(self, records: Records) -> str:
        return f"{self.inner.render(records)} ({clean(self.label)})"


def _round(x: Exact) -> int:
    return floor(Fraction(x) + Fraction(1, 2))  # half up, as JavaScript's Math.round


def _floor(x: Exact) -> int:
    return floor(x)


def _ceil(x: Exact) -> int:
    return ceil(x)


def _abs(x: Exact) -> int:
    return floor(Fraction(x) if x >= 0 else -Fraction(x))


_UNARY: dict[str, Callable[[Exact], int]] = {
    "floor": _floor, "ceil": _ceil, "round": _round, "abs": _abs,
}


def _exact_weights(d: Dist | _XDist) -> dict[Exact, int]:
    return {k: v for k, v in d.w.items()}


class Function(Node):
    __slots__ = ("args", "name")

    def __init__(self, name: str, args: tuple[Node, ...]) -> None:
        self.name = name
        self.args = args

    def _apply(self, values: list[Exact]) -> int:
        if self.name in _UNARY:
            return _UNARY[self.name](values[0])
        return floor(max(values) if self.name == "max" else min(values))

    def evaluate(self, ctx: _Context) -> int:
        return self._apply([a.exact(ctx) for a in self.args])

    def dist(self, octx: OddsContext) -> Dist:
        if self.name in _UNARY:
            d = self.args[0].exact_dist(octx)
            return _XDist(_exact_weights(d), d.den).to_int(_UNARY[self.name])
        acc = self.args[0].exact_dist(octx)
        pick: Callable[[Exact, Exact], Exact] = max if self.name == "max" else min
        for a in self.args[1:]:
            acc = _exact_combine(acc, a.exact_dist(octx), pick, octx.budget)
        return _XDist(_exact_weights(acc), acc.den).to_int(_floor)

    def render(self, records: Records) -> str:
        return f"{self.name}({', '.join(a.render(records) for a in self.args)})"

    def children(self) -> tuple[Node, ...]:
        return self.args


class Compare(Node):
    __slots__ = ("left", "op", "right")

    def __init__(self, op: str, left: Node, right: Node) -> None:
        self.op = op
        self.left = left
        self.right = right

    def test(self, a: int, b: int) -> bool:
        op = self.op
        return (a >= b if op == ">=" else a <= b if op == "<=" else a > b if op == ">"
                else a < b if op == "<" else a == b if op == "==" else a != b)

    def compare(self, ctx: _Context) -> tuple[int, bool]:
        a = self.left.evaluate(ctx)
        b = self.right.evaluate(ctx)
        return a, self.test(a, b)

    def evaluate(self, ctx: _Context) -> int:
        return int(self.compare(ctx)[1])

    def compile_compare(self) -> Callable[[_Context], tuple[int, bool]]:
        """`compare`, compiled: (the left total, whether the comparison holds)."""
        left, right, test = self.left.compile(), self.right.compile(), self.test

        def compare(ctx: _Context) -> tuple[int, bool]:
            a = left(ctx)
            return a, test(a, right(ctx))

        return compare

    def compile(self) -> Roller:
        compare = self.compile_compare()
        return lambda ctx: int(compare(ctx)[1])

    def dist(self, octx: OddsContext) -> Dist:
        return self.left.dist(octx).combine(self.right.dist(octx),
                                            lambda a, b: int(self.test(a, b)), octx.budget)

    def render(self, records: Records) -> str:
        return f"{self.left.render(records)} {self.op} {self.right.render(records)}"

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


class Dice(Node):
    __slots__ = ("count", "count_node", "meaning", "notation", "spec")

    def __init__(self, notation: str, count: int, spec: Spec, count_node: Node | None = None) -> None:
        self.notation = notation
        self.count = count
        self.spec = spec
        self.count_node = count_node
        self.meaning = spec_meaning(spec)

    def _count(self, ctx: _Context) -> int:
        if self.count_node is None:
            return self.count
        n = self.count_node.evaluate(ctx)
        return _checked_count(n, self.notation)

    def evaluate(self, ctx: _Context) -> int:
        count = self._count(ctx)
        spec = self.spec
        if not spec.rerolls and not spec.clamps and spec.explode is None and not spec.keeps \
                and not spec.counting and not spec.fudge:
            ctx.rolled += count
            if ctx.rolled > MAX_DICE:
                raise DiceLimitError(
                    f"plus de {MAX_DICE} dés lancés dans une expression (limite : {MAX_DICE})")
            roll = ctx.source.roll
            sides = spec.sides
            faces = [roll(sides) for _ in range(count)]
            value = sum(faces)
            group = DiceGroup(self.notation, tuple([Die(sides, f) for f in faces]), value)
        else:
            sides = spec.sides
            dice, value, s, f = modifiers.roll_term(spec, count, lambda: ctx.face(sides))
            group = DiceGroup(self.notation, tuple(dice), value)
            notes = list(self.meaning)
            if spec.counting:
                notes.append(counting_text(spec, spec.success, spec.failure, spec.failure_counts,
                                            "dés", s, f, value))
            if notes:
                ctx.notes.append(f"{self.notation} : " + " ; ".join(notes))
        ctx.groups.append(group)
        ctx.records.append(group)
        return value

    def compile(self) -> Roller:
        from jdr.dice.compiled import dice_term  # it reads this module's results and contexts

        return dice_term(self)

    def dist(self, octx: OddsContext) -> Dist:
        if self.count_node is None:
            return modifiers.term_distribution(self.spec, self.count, octx.budget)
        counts = self.count_node.dist(octx)
        w: dict[int, int] = {}
        den = 1
        parts: list[tuple[Dist, int]] = []
        for n, weight in counts.w.items():
            d = modifiers.term_distribution(self.spec, _checked_count(n, self.notation), octx.budget)
            parts.append((d, weight))
            den = den * d.den // _gcd(den, d.den)
        for d, weight in parts:
            scale = den // d.den
            for k, v in d.w.items():
                w[k] = w.get(k, 0) + v * scale * weight
        return Dist(w, den * counts.den)

    def render(self, records: Records) -> str:
        prefix = "" if self.count_node is None else self.count_node.render(records)
        group = next(records)
        assert isinstance(group, DiceGroup)
        return prefix + group.render()

    def children(self) -> tuple[Node, ...]:
        return () if self.count_node is None else (self.count_node,)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _checked_count(n: int, notation: str) -> int:
    if n < 0:
        raise DiceError(f"« {notation} » : le nombre de dés calculé vaut {n} (il faut 0 ou plus)")
    if n > MAX_DICE:
        raise DiceLimitError(f"« {notation} » : {n} dés demandés (limite : {MAX_DICE})")
    return n


class SetNode(Node):
    """`{a, b, …}` with keep / drop and success counting over the element totals."""

    __slots__ = ("elements", "failure", "failure_counts", "keeps", "meaning", "notation", "success")

    def __init__(self, elements: tuple[Node, ...], keeps: tuple[tuple[str, int], ...],
                 success: modifiers.Selector | None, failure: modifiers.Selector | None,
                 failure_counts: bool, notation: str) -> None:
        self.elements = elements
        self.keeps = keeps
        self.success = success
        self.failure = failure
        self.failure_counts = failure_counts
        self.notation = notation
        self.meaning = [keep_text(op, n) for op, n in keeps]

    def _score(self) -> Callable[[int], int]:
        return Spec(1, False, (), (), None, (), self.success, self.failure,
                    self.failure_counts).score

    def evaluate(self, ctx: _Context) -> int:
        totals = [e.evaluate(ctx) for e in self.elements]
        kept = [True] * len(totals)
        if self.keeps:
            a, b = modifiers.keep_window(self.keeps, len(totals))
            ranked = sorted(range(len(totals)), key=lambda i: (totals[i], -i))
            for i in ranked[:a] + ranked[len(ranked) - b:]:
                kept[i] = False
        score = self._score()
        value = sum(score(t) for t, k in zip(totals, kept, strict=True) if k)
        counting = self.success is not None or self.failure is not None
        if self.meaning or counting:
            notes = list(self.meaning)
            if counting:
                s = sum(1 for t, k in zip(totals, kept, strict=True)
                        if k and self.success is not None and modifiers.matches(t, self.success))
                f = sum(1 for t, k in zip(totals, kept, strict=True)
                        if k and self.failure is not None and modifiers.matches(t, self.failure))
                notes.append(counting_text(None, self.success, self.failure, self.failure_counts,
                                            "totaux", s, f, value))
            ctx.notes.append(f"{self.notation} : " + " ; ".join(notes))
        ctx.records.append(SetRecord(tuple(zip(totals, kept, strict=True)), value))
        return value

    def dist(self, octx: OddsContext) -> Dist:
        return modifiers.set_distribution([e.dist(octx) for e in self.elements], self.keeps,
                                          self._score(), octx.budget)

    def render(self, records: Records) -> str:
        inner = ", ".join(e.render(records) for e in self.elements)
        record = next(records)
        assert isinstance(record, SetRecord)
        shown = ", ".join(str(t) if k else f"~{t}~" for t, k in record.totals)
        return f"{{{inner}}} [{shown}]"

    def children(self) -> tuple[Node, ...]:
        return self.elements



