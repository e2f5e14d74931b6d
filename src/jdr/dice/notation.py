"""Free dice notation: what Roll20, Foundry, d20 and the Discord bots read (docs/des.md).

`2d10kh1+6`, `4d6kh3`, `1d20+5>=15`, `10d10cs>=7`, `6d10>7f1`, `4dF`, `{1d20+5, 1d20+5}kh1`,
`6x 4d6kh3`, `(1d4)d6`, `floor(1d6/2)`, `adv`, `1d20[feu] # attaque`, `PHY+3+1d10`.

Our own small recursive-descent parser, not the `d20` library: d20 rolls with the global `random`
module, has no limit on length or nesting (RecursionError leaks out), quadratic keep/explode paths
and an unbounded parse cache. Here the limits are checked before any work, the parse cache is
bounded, and faces come from an injected `DiceSource`. Every node can roll (`evaluate`) and give
its exact distribution (`dist`); tests prove both agree by enumeration (dice/enumerate.py).

Grammar (dice letters are case-insensitive, ASCII; spaces include non-breaking ones):
    line     := [N 'x'] expr [' x' N] [comment]       repeats: `6x 4d6kh3`, `4d6kh3 x6`
    comment  := '#' text | ' ! ' text                 Dice Maiden's `! texte`
    expr     := sum (('>=' | '<=' | '>' | '<' | '==' | '!=') sum)?   compares the total
    sum      := product (('+' | '-') product)*
    product  := unary (('*' | '/') unary)*            '/' rounds down (exact inside floor …)
    unary    := ('-' | '+') unary | atom [label]
    label    := '[' text ']'
    atom     := NUMBER | NAME | dice | '(' expr ')' [dice without count]   `(1d4)d6`
              | FUNC '(' expr (',' expr)* ')'          floor ceil round abs max min
              | '{' expr (',' expr)* '}' setmod*      groups
              | 'adv' | 'dis' | 'avantage' | 'désavantage'     2d20kh1 / 2d20kl1
    dice     := [COUNT] 'd' (SIDES | '%' | 'F') mod*
    mod      := ('kh'|'kl'|'k'|'dh'|'dl'|'d'|'ph'|'pl'|'p') [N]          keep / drop (N = 1)
              | ('r'|'ro'|'rr') [SEL]                 reroll once / until (SEL = 1)
              | ('!'|'x'|'e'|'xo'|'!!'|'!p') [SEL]    explode / once / compound / penetrate
              | ('mi'|'min'|'ma'|'max') N             minimum / maximum face
              | ('cs'|'cf'|'df') SEL                  count successes / failures / deduct
              | ('>'|'<'|'='|'>='|'<=') N ['f' SEL]   Roll20 target number: `>` means ≥
    SEL      := ['=' | '<' | '>' | '<=' | '>='] N     in modifiers `>` is strict (Foundry)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from math import ceil, floor
from typing import NamedTuple

from jdr.dice import modifiers
from jdr.dice.modifiers import Budget, Die, Dist, Spec, selector_text
from jdr.dice.source import DiceSource
from jdr.errors import DiceError, DiceLimitError
from jdr.names import normalize
from jdr.render.safe import clean

__all__ = ["DiceGroup", "Die", "RollResult", "names_in", "parse", "roll"]

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


class RollResult(NamedTuple):
    """A rolled expression: the total, every die, and (for comparisons) success.

    `notes` say what the modifiers meant (« succès : dés ≥ 7 → 4 »); `comment` is the text after
    `#`; `repeats` holds each roll of `6x 4d6kh3` (then `total` is their sum)."""

    expression: str
    total: int
    groups: tuple[DiceGroup, ...]
    success: bool | None = None
    node: Node | None = None
    notes: tuple[str, ...] = ()
    comment: str = ""
    repeats: tuple[RollResult, ...] = ()
    records: tuple[DiceGroup | SetRecord, ...] = ()

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(d for g in self.groups for d in g.dice)

    def detail(self) -> str:
        """The expression with every dice term replaced by its faces."""
        if self.repeats:
            return " ; ".join(r.detail() for r in self.repeats)
        if self.node is None:
            return " ".join(g.render() for g in self.groups)
        return self.node.render(iter(self.records or self.groups))


# ---------------------------------------------------------------- evaluation contexts


class _Context:
    __slots__ = ("groups", "notes", "records", "rolled", "source", "variables")

    def __init__(self, source: DiceSource, variables: Mapping[str, int], rolled: int = 0) -> None:
        self.source = source
        self.variables = variables
        self.groups: list[DiceGroup] = []
        self.records: list[DiceGroup | SetRecord] = []
        self.notes: list[str] = []
        self.rolled = rolled

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


class Group(Node):
    __slots__ = ("inner",)

    def __init__(self, inner: Node) -> None:
        self.inner = inner

    def evaluate(self, ctx: _Context) -> int:
        return self.inner.evaluate(ctx)

    def exact(self, ctx: _Context) -> Exact:
        return self.inner.exact(ctx)

    def dist(self, octx: OddsContext) -> Dist:
        return self.inner.dist(octx)

    def exact_dist(self, octx: OddsContext) -> Dist | _XDist:
        return self.inner.exact_dist(octx)

    def render(self, records: Records) -> str:
        return f"({self.inner.render(records)})"

    def children(self) -> tuple[Node, ...]:
        return (self.inner,)


class Labeled(Node):
    """A term with a Roll20 label: `1d20[feu]` (shown, not computed)."""

    __slots__ = ("inner", "label")

    def __init__(self, inner: Node, label: str) -> None:
        self.inner = inner
        self.label = label

    def evaluate(self, ctx: _Context) -> int:
        return self.inner.evaluate(ctx)

    def exact(self, ctx: _Context) -> Exact:
        return self.inner.exact(ctx)

    def dist(self, octx: OddsContext) -> Dist:
        return self.inner.dist(octx)

    def exact_dist(self, octx: OddsContext) -> Dist | _XDist:
        return self.inner.exact_dist(octx)

    def render(self, records: Records) -> str:
        return f"{self.inner.render(records)} ({clean(self.label)})"

    def children(self) -> tuple[Node, ...]:
        return (self.inner,)


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

    def dist(self, octx: OddsContext) -> Dist:
        return self.left.dist(octx).combine(self.right.dist(octx),
                                            lambda a, b: int(self.test(a, b)), octx.budget)

    def render(self, records: Records) -> str:
        return f"{self.left.render(records)} {self.op} {self.right.render(records)}"

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many.format(n=n)


def keep_text(op: str, n: int) -> str:
    """« garde les 3 plus hauts », « écarte le plus bas »."""
    verb = "garde" if op[0] == "k" else "écarte"
    high = op[1] == "h"
    return f"{verb} " + _plural(n, "le plus haut" if high else "le plus bas",
                                "les {n} plus hauts" if high else "les {n} plus bas")


def spec_meaning(spec: Spec) -> list[str]:
    """What each modifier of a term means, in French, in the order it is applied."""
    out: list[str] = []
    for once, sel in spec.rerolls:
        out.append(f"relance une fois les dés {selector_text(sel)}" if once
                   else f"relance les dés {selector_text(sel)} jusqu'à un autre résultat")
    for op, n in spec.clamps:
        out.append(f"{'minimum' if op == 'mi' else 'maximum'} {n} par dé")
    if spec.explode is not None:
        kind, sel = spec.explode
        s = selector_text(sel)
        out.append({
            "!": f"explosion : un dé {s} en ajoute un autre, qui peut exploser à son tour",
            "xo": f"explosion unique : un dé {s} en ajoute un autre, une seule fois",
            "!!": f"explosion cumulée : un dé {s} est relancé et ajouté à lui-même",
            "!p": f"explosion pénétrante : un dé {s} en ajoute un autre, qui compte 1 de moins",
        }[kind])
    out.extend(keep_text(op, n) for op, n in spec.keeps)
    return out


def _counting_text(spec: Spec | None, success: modifiers.Selector | None,
                   failure: modifiers.Selector | None, counts: bool, what: str,
                   s: int, f: int, value: int) -> str:
    parts = []
    if success is not None:
        parts.append(f"succès : {what} {selector_text(success)} → {s}")
    if failure is not None:
        label = "échecs comptés" if counts else "échecs retirés"
        parts.append(f"{label} : {what} {selector_text(failure)} → {f}")
    text = " ; ".join(parts)
    if success is not None and failure is not None:
        text += f" ; résultat {value}"
    return text


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
                notes.append(_counting_text(spec, spec.success, spec.failure, spec.failure_counts,
                                            "dés", s, f, value))
            if notes:
                ctx.notes.append(f"{self.notation} : " + " ; ".join(notes))
        ctx.groups.append(group)
        ctx.records.append(group)
        return value

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
                notes.append(_counting_text(None, self.success, self.failure, self.failure_counts,
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


# ---------------------------------------------------------------- scanner


def _shown(char: str) -> str:
    """A refused character as a person can read it, invisible ones by their code."""
    if char.isprintable() and not char.isspace():
        return clean(char)
    return f"U+{ord(char):04X}"


def _unexpected(char: str, position: int) -> DiceError:
    return DiceError(f"caractère inattendu « {_shown(char)} » à la position {position} "
                     "(chiffres 0-9, lettres, opérateurs + - * / ( ) { } , et comparaisons)")


class _Token:
    """One token (a plain class: defining a dataclass costs more than `jdr roll` parsing)."""

    __slots__ = ("attached", "dice", "end", "kind", "pos", "set_mods", "text", "value")

    def __init__(self, kind: str, text: str, pos: int, end: int, value: int = 0) -> None:
        self.kind = kind
        self.text = text
        self.pos = pos
        self.end = end
        self.value = value
        self.dice: tuple[int | None, Spec] | None = None
        self.attached = False
        self.set_mods: _Mods | None = None


_FLAGS = re.IGNORECASE | re.ASCII
_DICE_HEAD = re.compile(r"([0-9]*)d([0-9]+|%|f)", _FLAGS)
_NUMBER = re.compile(r"[0-9]+", re.ASCII)
_MOD_NAME = re.compile(
    r"kh|kl|k|dh|dl|ph|pl|p|rr|ro|r|!!|!p|!|xo|x|e|cs|cf|df|min|max|mi|ma|f|t|d"
    r"|>=|<=|>|<|=(?!=)", _FLAGS)
_SELECTOR = re.compile(r"(>=|<=|>|<|=)?(-?[0-9]+)", re.ASCII)
_OPS = (">=", "<=", "==", "!=", "+", "-", "*", "/", "(", ")", ">", "<", "{", "}", ",", "×")
_KEEP = {"kh": "kh", "k": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "d": "dl", "ph": "dh",
         "pl": "dl", "p": "dl"}
_TARGETS = (">=", "<=", ">", "<", "=")


class _Mods:
    """The modifiers read after a dice term or a group, with where each was written."""

    __slots__ = ("clamps", "explode", "failure", "failure_counts", "keeps", "rerolls", "success")

    def __init__(self) -> None:
        self.rerolls: list[tuple[bool, modifiers.Selector]] = []
        self.clamps: list[tuple[str, int]] = []
        self.explode: tuple[str, modifiers.Selector] | None = None
        self.keeps: list[tuple[str, int]] = []
        self.success: modifiers.Selector | None = None
        self.failure: modifiers.Selector | None = None
        self.failure_counts = False


def _number(text: str, pos: int) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise DiceLimitError(f"nombre trop grand à la position {pos + 1} "
                             f"(au plus {MAX_NUMBER_DIGITS} chiffres)")
    return int(text)


def _read_mods(text: str, pos: int, end: int, notation_start: int, group: bool,
               low: int, high: int, targets: bool = True) -> tuple[_Mods, int]:
    """Modifiers from `pos`; returns them and where they end. Errors name the modifier's position."""
    mods = _Mods()
    while pos < end:
        m = _MOD_NAME.match(text, pos, end)
        if m is None:
            break
        raw = m.group()
        name = raw.lower()
        where = pos + 1
        after = m.end()
        sel_m = _SELECTOR.match(text, after, end)
        if name in _TARGETS and not targets:
            break
        if name in _TARGETS:  # Roll20 target number: `>` means ≥, `<` means ≤
            num = _NUMBER.match(text, after, end)
            if num is None:
                if group and name == "=":
                    break
                raise DiceError(f"« {raw} » à la position {where} : il manque un nombre après")
            value = _number(num.group(), after)
            op = {">": ">=", "<": "<="}.get(name, name)
            if mods.success is not None:
                raise DiceError(f"« {raw}{num.group()} » à la position {where} : un seul seuil de succès")
            mods.success = (op, value)
            pos = num.end()
            continue
        token = text[pos:(sel_m.end() if sel_m else after)]

        def need_number(token: str = token, where: int = where) -> DiceError:
            return DiceError(f"« {token} » à la position {where} : il manque un nombre après")

        if name in _KEEP:
            num = _NUMBER.match(text, after, end)
            n = _number(num.group(), after) if num else 1
            mods.keeps.append((_KEEP[name], n))
            pos = num.end() if num else after
            continue
        if group:
            if name in ("cs", "cf", "df", "f", "t"):
                pass
            else:
                break
        if name in ("mi", "ma", "min", "max"):
            num = _NUMBER.match(text, after, end)
            if num is None:
                raise need_number()
            n = _number(num.group(), after)
            if not low <= n <= high:
                raise DiceError(f"« {text[pos:num.end()]} » à la position {where} : "
                                f"la valeur doit être entre {low} et {high}")
            mods.clamps.append((name[:2], n))
            pos = num.end()
            continue
        selector: modifiers.Selector | None = None
        if sel_m is not None:
            selector = (sel_m.group(1) or "=", _number(sel_m.group(2), after))
            stop = sel_m.end()
        else:
            stop = after
            if text[after:after + 1] in ("<", ">", "="):
                wide = 2 if text[after:after + 2] in ("<=", ">=") else 1
                raise need_number(text[pos:after + wide])
        token = text[pos:stop]
        if name in ("r", "ro", "rr"):
            sel = selector or ("=", low)
            if name == "rr" and modifiers.count_matching(sel, low, high) == high - low + 1:
                raise DiceError(f"« {token} » à la position {where} : relance sans fin "
                                "(toutes les faces sont relancées)")
            mods.rerolls.append((name != "rr", sel))
        elif name in ("!", "x", "e", "xo", "!!", "!p"):
            kind = {"x": "!", "e": "!"}.get(name, name)
            sel = selector or ("=", high)
            if mods.explode is not None:
                raise DiceError(f"« {token} » à la position {where} : une seule explosion par dé "
                                "(« ! », « !! », « !p » ou « xo »)")
            if kind != "xo" and modifiers.count_matching(sel, low, high) == high - low + 1:
                raise DiceError(f"« {token} » à la position {where} : explosion sans fin "
                                "(toutes les faces explosent)")
            mods.explode = (kind, sel)
        else:  # cs cf df f t
            if selector is None:
                raise need_number()
            if name == "t":  # Dice Maiden's target: t7 counts the dice ≥ 7
                selector = (sel_m.group(1) or ">=", selector[1]) if sel_m else selector
            if name in ("f", "t"):  # Roll20's and Dice Maiden's: `<` means ≤, `>` means ≥
                selector = ({"<": "<=", ">": ">="}.get(selector[0], selector[0]), selector[1])
            if name in ("cs", "t"):
                if mods.success is not None:
                    raise DiceError(f"« {token} » à la position {where} : un seul seuil de succès")
                mods.success = selector
            else:
                if mods.failure is not None:
                    raise DiceError(f"« {token} » à la position {where} : un seul seuil d'échec")
                mods.failure = selector
                mods.failure_counts = name == "cf"
        pos = stop
    if mods.failure is not None and mods.success is None and not mods.failure_counts:
        raise DiceError(f"« {clean(text[notation_start:pos])} » : un seuil d'échec (« f » ou "
                        "« df ») va avec un seuil de succès (ex. 6d10>7f1 ou 10d10cs>=7df1)")
    if mods.success is not None and mods.failure_counts:
        mods.failure_counts = False  # `cs…cf…`: failures are taken off the successes
    return mods, pos


def _tokenize(text: str, start: int, end: int) -> list[_Token]:
    tokens: list[_Token] = []
    pos = start
    depth = total_dice = 0
    while pos < end:
        c = text[pos]
        if c.isspace():
            pos += 1
            continue
        attached = bool(tokens) and tokens[-1].end == pos
        m = _DICE_HEAD.match(text, pos, end)
        if m is not None:
            token = _dice(text, m, end)
            token.attached = attached and not m.group(1)
            if token.dice is not None and token.dice[0] is not None:
                total_dice += token.dice[0]
                if total_dice > MAX_DICE:
                    raise DiceLimitError(
                        f"plus de {MAX_DICE} dés dans l'expression (limite : {MAX_DICE})")
            tokens.append(token)
            pos = token.end
            continue
        if "0" <= c <= "9":
            m2 = _NUMBER.match(text, pos, end)
            assert m2 is not None
            tokens.append(_Token("num", m2.group(), pos, m2.end(), _number(m2.group(), pos)))
            pos = m2.end()
            continue
        if c.isalpha():
            stop = pos
            while stop < end and (text[stop].isalpha() or text[stop] == "_"
                                  or "0" <= text[stop] <= "9"):
                stop += 1
            if stop < end and not text[stop].isspace() and (text[stop].isdigit()
                                                            or unicode_word(text[stop])):
                raise _unexpected(text[stop], stop + 1)
            word = text[pos:stop]
            key = normalize(word)
            if key in FUNCTIONS and stop < end and text[stop] == "(":
                tokens.append(_Token("func", key, pos, stop))
            elif key in ALIASES:
                tok = _Token("dice", word, pos, stop)
                tok.dice = (2, Spec(20, keeps=((ALIASES[key], 1),)))
                total_dice += 2
                tokens.append(tok)
            else:
                tokens.append(_Token("name", word, pos, stop))
            pos = stop
            continue
        if c == "[":
            close = text.find("]", pos + 1, end)
            if close < 0:
                raise DiceError(f"étiquette ouverte par « [ » à la position {pos + 1} jamais fermée")
            label = text[pos + 1:close].strip()
            if len(label) > MAX_LABEL:
                raise DiceLimitError(f"étiquette trop longue à la position {pos + 1} "
                                     f"(au plus {MAX_LABEL} caractères)")
            tokens.append(_Token("label", label, pos, close + 1))
            pos = close + 1
            continue
        for op in _OPS:
            if text.startswith(op, pos):
                break
        else:
            raise _unexpected(c, pos + 1)
        tok = _Token("op", "*" if op == "×" else op, pos, pos + len(op))
        if op in ("(", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise DiceLimitError(
                    f"plus de {MAX_DEPTH} niveaux de parenthèses (limite : {MAX_DEPTH})")
        elif op in (")", "}"):
            depth -= 1
        tokens.append(tok)
        pos += len(op)
        if op == "}" or (op == ")" and _DICE_HEAD.match(text, pos, end) is None):
            mods, stop = _read_mods(text, pos, end, tok.pos, True, -MAX_SIDES * MAX_DICE,
                                    MAX_SIDES * MAX_DICE, targets=op == "}")
            if stop > pos or op == "}":
                tok.set_mods = mods
                tok.end = stop
            pos = stop
    return tokens


def unicode_word(char: str) -> bool:
    """A letter-like character that is not an ASCII digit (`٣`, `²`): refused inside a name."""
    return char.isalnum() and not ("0" <= char <= "9") and not char.isalpha()


def _dice(text: str, m: re.Match[str], end: int) -> _Token:
    start = m.start()
    count_text, sides_text = m.group(1), m.group(2)
    where = start + 1
    head = m.group()
    if len(count_text) > MAX_NUMBER_DIGITS or len(sides_text) > MAX_NUMBER_DIGITS:
        raise DiceLimitError(f"« {head[:20]} » à la position {where} : nombre trop grand")
    count = int(count_text) if count_text else None
    fudge = sides_text.lower() == "f"
    sides = 3 if fudge else 100 if sides_text == "%" else int(sides_text)
    if count is not None and count > MAX_DICE:
        raise DiceLimitError(f"« {head[:20]} » à la position {where} : plus de {MAX_DICE} dés "
                             f"(limite : {MAX_DICE})")
    if not fudge and not 1 <= sides <= MAX_SIDES:
        raise DiceLimitError(f"« {head[:20]} » à la position {where} : un dé a de 1 à "
                             f"{MAX_SIDES} faces")
    low, high = (-1, 1) if fudge else (1, sides)
    mods, stop = _read_mods(text, m.end(), end, start, False, low, high)
    spec = Spec(sides, fudge, tuple(mods.rerolls), tuple(mods.clamps), mods.explode,
                tuple(mods.keeps), mods.success, mods.failure, mods.failure_counts)
    tok = _Token("dice", text[start:stop], start, stop)
    tok.dice = (count, spec)
    return tok


# ---------------------------------------------------------------- parser


class _Parser:
    __slots__ = ("depth", "i", "text", "tokens")

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take_op(self, *ops: str) -> _Token | None:
        tok = self.peek()
        if tok is not None and tok.kind == "op" and tok.text in ops:
            self.i += 1
            return tok
        return None

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DiceLimitError(f"plus de {MAX_DEPTH} niveaux d'imbrication (limite : {MAX_DEPTH})")

    def parse(self) -> Node:
        if not self.tokens:
            raise DiceError("expression vide")
        node = self.expr()
        tok = self.peek()
        if tok is not None:
            raise _stray(tok)
        return node

    def expr(self) -> Node:
        left = self.sum()
        tok = self.take_op(">=", "<=", ">", "<", "==", "!=")
        if tok is None:
            return left
        return Compare(tok.text, left, self.sum())

    def sum(self) -> Node:
        node = self.product()
        while (tok := self.take_op("+", "-")) is not None:
            node = Binary(tok.text, node, self.product())
        return node

    def product(self) -> Node:
        node = self.unary()
        while (tok := self.take_op("*", "/")) is not None:
            node = Binary(tok.text, node, self.unary(), tok.pos)
        return node

    def unary(self) -> Node:
        tok = self.take_op("-", "+")
        if tok is not None:
            self.enter()
            operand = self.unary()
            self.depth -= 1
            return Negate(operand) if tok.text == "-" else operand
        node = self.atom()
        label = self.peek()
        if label is not None and label.kind == "label":
            self.i += 1
            node = Labeled(node, label.text)
        return node

    def atom(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise DiceError("expression incomplète : il manque une valeur à la fin")
        self.i += 1
        if tok.kind == "num":
            return Number(tok.value)
        if tok.kind == "dice":
            assert tok.dice is not None
            count, spec = tok.dice
            return Dice(tok.text, 1 if count is None else count, spec)
        if tok.kind == "name":
            return Name(tok.text)
        if tok.kind == "func":
            return self.function(tok)
        if tok.text == "(":
            self.enter()
            inner = self.expr()
            self.depth -= 1
            if self.take_op(",") is not None:  # d20's sets: `(1d20, 1d20)kh1`
                rest = self.elements(tok, ")")
                close = self.tokens[self.i - 1]
                mods = close.set_mods or _Mods()
                return SetNode((inner, *rest), tuple(mods.keeps), mods.success, mods.failure,
                               mods.failure_counts, "(…)" + self.text[close.pos + 1:close.end])
            if self.take_op(")") is None:
                raise DiceError(f"parenthèse ouverte à la position {tok.pos + 1} jamais fermée"
                                + _found(self.peek()))
            close = self.tokens[self.i - 1]
            if close.set_mods is not None:
                return self.regroup(tok, close, inner)
            group = Group(inner)
            nxt = self.peek()
            if nxt is not None and nxt.kind == "dice" and nxt.attached and nxt.dice is not None:
                self.i += 1
                return Dice(nxt.text, 0, nxt.dice[1], count_node=group)
            return group
        if tok.text == "{":
            return self.set(tok)
        raise _stray(tok)

    def elements(self, open_tok: _Token, close: str) -> tuple[Node, ...]:
        self.enter()
        items = [self.expr()]
        while self.take_op(",") is not None:
            items.append(self.expr())
        self.depth -= 1
        if self.take_op(close) is None:
            what = "parenthèse" if close == ")" else "accolade"
            raise DiceError(f"{what} ouverte à la position {open_tok.pos + 1} jamais fermée"
                            + _found(self.peek()))
        return tuple(items)

    def function(self, tok: _Token) -> Node:
        paren = self.take_op("(")
        assert paren is not None
        args = self.elements(paren, ")")
        if tok.text in ("max", "min"):
            if len(args) < 2:
                raise DiceError(f"« {tok.text} » à la position {tok.pos + 1} : au moins deux "
                                "valeurs, séparées par des virgules")
        elif len(args) != 1:
            raise DiceError(f"« {tok.text} » à la position {tok.pos + 1} : une seule valeur")
        return Function(tok.text, args)

    def set(self, tok: _Token) -> Node:
        items = self.elements(tok, "}")
        close = self.tokens[self.i - 1]
        mods = close.set_mods or _Mods()
        notation = "{…}" + self.text[close.pos + 1:close.end]
        return SetNode(items, tuple(mods.keeps), mods.success, mods.failure, mods.failure_counts,
                       notation)

    def regroup(self, open_tok: _Token, close: _Token, inner: Node) -> Node:
        """`(10d6kh5)kl2`: keep / drop or count again among the dice of the term inside."""
        mods = close.set_mods
        assert mods is not None
        notation = self.text[open_tok.pos:close.end]
        written = self.text[close.pos + 1:close.end]
        if isinstance(inner, Dice) and inner.count_node is None:
            spec = inner.spec
            if mods.success is not None or mods.failure is not None:
                if spec.counting:
                    raise DiceError(f"« {clean(written)} » à la position {close.pos + 2} : "
                                    "ces dés comptent déjà des succès")
                spec = spec._replace(success=mods.success, failure=mods.failure,
                                     failure_counts=mods.failure_counts)
            return Dice(notation, inner.count, spec._replace(keeps=spec.keeps + tuple(mods.keeps)))
        if isinstance(inner, SetNode) and not (inner.success or inner.failure):
            return SetNode(inner.elements, inner.keeps + tuple(mods.keeps),
                           mods.success, mods.failure, mods.failure_counts, notation)
        raise DiceError(f"« {clean(written)} » à la position {close.pos + 2} : garder, écarter "
                        "ou compter s'applique aux dés d'un seul terme, ex. (10d6kh5)kl2")


def _found(tok: _Token | None) -> str:
    return "" if tok is None else f" (trouvé « {clean(tok.text)} » à la position {tok.pos + 1})"


def _stray(tok: _Token) -> DiceError:
    if tok.kind == "dice" and tok.attached:
        return DiceError(f"« {clean(tok.text)} » inattendu à la position {tok.pos + 1} "
                         "(un nombre de dés calculé s'écrit entre parenthèses : (1d4)d6)")
    return DiceError(f"« {clean(tok.text)} » inattendu à la position {tok.pos + 1}")


# ---------------------------------------------------------------- a whole line


class Line(NamedTuple):
    """A parsed line: the expression, how many times to roll it, the comment after it."""

    node: Node
    repeat: int
    comment: str
    dice: int  # dice written in one roll (before rerolls and explosions)


_PREFIX = re.compile(r"\s*([0-9]+)\s*[x×]\s*(?=\S)", re.IGNORECASE)
_SUFFIX = re.compile(r"\s[x×]\s*([0-9]+)\s*$", re.IGNORECASE)
_MAIDEN = re.compile(r"\s!(?:\s|$)")


def _check_length(text: str) -> None:
    if len(text) > MAX_LENGTH:
        raise DiceLimitError(
            f"expression trop longue : {len(text)} caractères (limite : {MAX_LENGTH})"
        )


def _repeat(digits: str, pos: int) -> int:
    n = _number(digits, pos)
    if not 1 <= n <= MAX_REPEAT:
        raise DiceLimitError(f"répétition « {n}x » à la position {pos + 1} : de 1 à {MAX_REPEAT} jets")
    return n


@lru_cache(maxsize=512)
def _parse_line(text: str) -> Line:
    end = len(text)
    comment = ""
    hash_at = text.find("#")
    maiden = _MAIDEN.search(text)
    cut = min([p for p in (hash_at, maiden.start() if maiden else -1) if p >= 0], default=-1)
    if cut >= 0:
        comment = text[cut:].lstrip().lstrip("#!").strip()
        end = cut
    start = 0
    repeat = 1
    prefix = _PREFIX.match(text, 0, end)
    if prefix is not None:
        repeat = _repeat(prefix.group(1), prefix.start(1))
        start = prefix.end()
    suffix = _SUFFIX.search(text, start, end)
    if suffix is not None:
        if prefix is not None:
            raise DiceError(f"répétition écrite deux fois (positions {prefix.start(1) + 1} et "
                            f"{suffix.start(1) + 1})")
        repeat = _repeat(suffix.group(1), suffix.start(1))
        end = suffix.start()
    tokens = _tokenize(text, start, end)
    written = sum(t.dice[0] or 0 for t in tokens if t.dice is not None)
    if written * repeat > MAX_DICE:
        raise DiceLimitError(f"{repeat} jets de {written} dés : plus de {MAX_DICE} dés "
                             f"(limite : {MAX_DICE})")
    return Line(_Parser(text, tokens).parse(), repeat, comment, written)


def parse_line(text: str) -> Line:
    """Parse a whole line (with a bounded cache) after checking the length limit."""
    _check_length(text)
    return _parse_line(text)


def parse(text: str) -> Node:
    """The expression's syntax tree (repeats and comment aside)."""
    return parse_line(text).node


_NO_VARIABLES: Mapping[str, int] = {}


def _roll_once(expression: str, node: Node, ctx: _Context, comment: str) -> RollResult:
    if isinstance(node, Compare):
        total, ok = node.compare(ctx)
        success: bool | None = ok
    else:
        total, success = node.evaluate(ctx), None
    return RollResult(expression, total, tuple(ctx.groups), success, node, tuple(ctx.notes),
                      comment, (), tuple(ctx.records))


def roll(
    expression: str,
    source: DiceSource,
    variables: Mapping[str, int] | None = None,
) -> RollResult:
    """Roll a free expression with faces from `source`; names are looked up in `variables`.

    `variables` must be keyed by normalized names (see `jdr.names.normalize`).
    """
    line = parse_line(expression)
    names = variables if variables is not None else _NO_VARIABLES
    if line.repeat == 1:
        return _roll_once(expression, line.node, _Context(source, names), line.comment)
    rolls: list[RollResult] = []
    rolled = 0
    for _ in range(line.repeat):
        ctx = _Context(source, names, rolled)
        rolls.append(_roll_once(expression, line.node, ctx, ""))
        rolled = ctx.rolled
    return RollResult(expression, sum(r.total for r in rolls),
                      tuple(g for r in rolls for g in r.groups), None, line.node, (), line.comment,
                      tuple(rolls))


def names_in(expression: str) -> set[str]:
    """The normalized names an expression refers to (e.g. {'phy'} in `PHY+3+1d10`)."""
    found: set[str] = set()
    stack: list[Node] = [parse(expression)]
    while stack:
        node = stack.pop()
        if isinstance(node, Name):
            found.add(node.key)
        stack.extend(node.children())
    return found
