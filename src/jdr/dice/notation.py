"""Free dice notation: `2d10kh1+6`, `4d6kh3`, `1d20+5>=15`, `3d6rr1`, `1d6!`, `PHY+3+1d10`.

Our own small recursive-descent parser, not the `d20` library: d20 rolls with the global `random`
module, has no limit on length or nesting (RecursionError leaks out), quadratic keep/explode paths
and an unbounded parse cache. Here the limits are checked before any work, the parse cache is
bounded, and faces come from an injected `DiceSource`.

Grammar (case-insensitive for dice):
    expr     := sum (('>=' | '<=' | '>' | '<' | '==' | '!=') sum)?
    sum      := product (('+' | '-') product)*
    product  := unary (('*' | '/') unary)*          # '/' rounds down
    unary    := ('-' | '+') unary | atom
    atom     := NUMBER | NAME | dice | '(' expr ')'
    dice     := [COUNT] 'd' (SIDES | '%') modifier*
    modifier := ('kh'|'k'|'kl'|'dh'|'dl') N            keep / drop highest or lowest N
              | ('r'|'ro') SEL | 'rr' SEL              reroll once / until no match
              | ('e'|'!') [SEL]                        explode (default: the highest face)
              | ('mi'|'ma') N                          minimum / maximum face
    SEL      := N | '<' N | '>' N
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from jdr.dice.source import DiceSource
from jdr.errors import DiceError, DiceLimitError
from jdr.names import normalize

MAX_DICE = 1000
MAX_LENGTH = 1000
MAX_DEPTH = 50
MAX_SIDES = 1_000_000
MAX_NUMBER_DIGITS = 9

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<dice>(?P<count>\d+)?d(?P<sides>\d+|%)
          (?P<mods>(?:(?:kh|kl|dh|dl|k|rr|ro|r|mi|ma|e|!)(?:[<>]?\d+)?)*))
     |(?P<num>\d+)
     |(?P<name>[^\W\d]\w*)
     |(?P<op>>=|<=|==|!=|[-+*/()<>])
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_MOD = re.compile(r"(kh|kl|dh|dl|k|rr|ro|r|mi|ma|e|!)([<>]?)(\d*)", re.IGNORECASE)


# ---------------------------------------------------------------- results


class Die(NamedTuple):
    """One die as rolled: its faces, its value, whether it counts, and why not.

    A NamedTuple rather than a frozen dataclass: immutable too, and several times cheaper to
    create, which matters when a roll makes hundreds of them (benchmarks/bench_dice.py).
    """

    sides: int
    face: int
    kept: bool = True
    note: str = ""

    def render(self) -> str:
        text = str(self.face)
        if self.note == "explosé":
            text += "!"
        return text if self.kept else f"~{text}~"


class DiceGroup(NamedTuple):
    """The dice of one `NdS...` term of an expression, and the value they gave."""

    notation: str
    dice: tuple[Die, ...]
    value: int

    def render(self) -> str:
        return f"{self.notation} [{', '.join(d.render() for d in self.dice)}]"


class RollResult(NamedTuple):
    """A rolled expression: the total, every die, and (for comparisons) success."""

    expression: str
    total: int
    groups: tuple[DiceGroup, ...]
    success: bool | None = None
    node: Node | None = None

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(d for g in self.groups for d in g.dice)

    def detail(self) -> str:
        """The expression with every dice term replaced by its faces."""
        if self.node is None:
            return " ".join(g.render() for g in self.groups)
        return self.node.render(iter(self.groups))


# ---------------------------------------------------------------- evaluation context


class _Context:
    __slots__ = ("groups", "rolled", "source", "variables")

    def __init__(self, source: DiceSource, variables: Mapping[str, int]) -> None:
        self.source = source
        self.variables = variables
        self.groups: list[DiceGroup] = []
        self.rolled = 0


# ---------------------------------------------------------------- syntax tree


class Node:
    __slots__ = ()

    def evaluate(self, ctx: _Context) -> int:
        raise NotImplementedError

    def render(self, groups: object) -> str:
        raise NotImplementedError


class Number(Node):
    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def evaluate(self, ctx: _Context) -> int:
        return self.value

    def render(self, groups: object) -> str:
        return str(self.value)


class Name(Node):
    __slots__ = ("key", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.key = normalize(text)

    def evaluate(self, ctx: _Context) -> int:
        try:
            return ctx.variables[self.key]
        except KeyError:
            known = ", ".join(sorted(ctx.variables)) or "aucun"
            raise DiceError(
                f"nom inconnu « {self.text} » dans l'expression (noms connus : {known})"
            ) from None

    def render(self, groups: object) -> str:
        return self.text


class Negate(Node):
    __slots__ = ("operand",)

    def __init__(self, operand: Node) -> None:
        self.operand = operand

    def evaluate(self, ctx: _Context) -> int:
        return -self.operand.evaluate(ctx)

    def render(self, groups: object) -> str:
        return "-" + self.operand.render(groups)


class Binary(Node):
    __slots__ = ("left", "op", "right")

    def __init__(self, op: str, left: Node, right: Node) -> None:
        self.op = op
        self.left = left
        self.right = right

    def evaluate(self, ctx: _Context) -> int:
        a = self.left.evaluate(ctx)
        b = self.right.evaluate(ctx)
        op = self.op
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if b == 0:
            raise DiceError("division par zéro dans l'expression")
        return a // b

    def render(self, groups: object) -> str:
        return f"{self.left.render(groups)} {self.op} {self.right.render(groups)}"


class Group(Node):
    __slots__ = ("inner",)

    def __init__(self, inner: Node) -> None:
        self.inner = inner

    def evaluate(self, ctx: _Context) -> int:
        return self.inner.evaluate(ctx)

    def render(self, groups: object) -> str:
        return f"({self.inner.render(groups)})"


class Compare(Node):
    __slots__ = ("left", "op", "right")

    def __init__(self, op: str, left: Node, right: Node) -> None:
        self.op = op
        self.left = left
        self.right = right

    def compare(self, ctx: _Context) -> tuple[int, bool]:
        a = self.left.evaluate(ctx)
        b = self.right.evaluate(ctx)
        op = self.op
        ok = (
            a >= b if op == ">=" else a <= b if op == "<=" else a > b if op == ">"
            else a < b if op == "<" else a == b if op == "==" else a != b
        )
        return a, ok

    def evaluate(self, ctx: _Context) -> int:
        return int(self.compare(ctx)[1])

    def render(self, groups: object) -> str:
        return f"{self.left.render(groups)} {self.op} {self.right.render(groups)}"


def _matches(face: int, selector: tuple[str, int]) -> bool:
    kind, n = selector
    if kind == "<":
        return face < n
    if kind == ">":
        return face > n
    return face == n


def _covers_all(selector: tuple[str, int], sides: int) -> bool:
    """True when every face 1..sides matches: rerolling or exploding on it would never end."""
    kind, n = selector
    if kind == "<":
        return n > sides
    if kind == ">":
        return n < 1
    return sides == 1 and n == 1


class Dice(Node):
    __slots__ = ("count", "mods", "notation", "plain", "sides")

    def __init__(self, notation: str, count: int, sides: int,
                 mods: tuple[tuple[str, str, int], ...]) -> None:
        self.notation = notation
        self.count = count
        self.sides = sides
        self.mods = mods
        self.plain = not mods

    def evaluate(self, ctx: _Context) -> int:
        roll = ctx.source.roll
        sides = self.sides
        ctx.rolled += self.count
        if ctx.rolled > MAX_DICE:
            raise DiceLimitError(f"plus de {MAX_DICE} dés lancés dans une expression (limite : {MAX_DICE})")
        if self.plain:
            faces = [roll(sides) for _ in range(self.count)]
            value = sum(faces)
            ctx.groups.append(DiceGroup(self.notation, tuple([Die(sides, f) for f in faces]), value))
            return value
        dice = [Die(sides, roll(sides)) for _ in range(self.count)]
        for op, kind, n in self.mods:
            dice = self._apply(ctx, dice, op, kind, n)
        value = sum(d.face for d in dice if d.kept)
        ctx.groups.append(DiceGroup(self.notation, tuple(dice), value))
        return value

    def _extra(self, ctx: _Context) -> int:
        ctx.rolled += 1
        if ctx.rolled > MAX_DICE:
            raise DiceLimitError(
                f"plus de {MAX_DICE} dés lancés (relances et explosions comprises) "
                f"dans une expression (limite : {MAX_DICE})"
            )
        return ctx.source.roll(self.sides)

    def _apply(self, ctx: _Context, dice: list[Die], op: str, kind: str, n: int) -> list[Die]:
        if op in ("kh", "k", "kl", "dh", "dl"):
            kept = [i for i, d in enumerate(dice) if d.kept]
            # Stable order: ties keep the earlier die for "highest", as a person reads left to right.
            by_value = sorted(kept, key=lambda i: (dice[i].face, -i))
            if op in ("kh", "k"):
                drop = by_value[: max(0, len(kept) - n)]
            elif op == "kl":
                drop = by_value[::-1][: max(0, len(kept) - n)]
            elif op == "dh":
                drop = by_value[::-1][:n]
            else:
                drop = by_value[:n]
            out = list(dice)
            for i in drop:
                d = out[i]
                out[i] = Die(d.sides, d.face, False, d.note)
            return out
        if op in ("mi", "ma"):
            return [
                Die(d.sides, max(d.face, n) if op == "mi" else min(d.face, n), d.kept, d.note)
                if d.kept else d
                for d in dice
            ]
        selector = (kind, n)
        out = []
        if op in ("r", "ro", "rr"):
            for d in dice:
                current = d
                while current.kept and _matches(current.face, selector):
                    out.append(Die(current.sides, current.face, False, "relancé"))
                    current = Die(current.sides, self._extra(ctx), True, "relance")
                    if op != "rr":
                        break
                out.append(current)
            return out
        # explode: every matching face adds one more die, which may explode again
        for d in dice:
            out.append(d)
            current = d
            while current.kept and _matches(current.face, selector):
                out[-1] = Die(current.sides, current.face, current.kept, "explosé")
                current = Die(current.sides, self._extra(ctx), True, "")
                out.append(current)
        return out

    def render(self, groups: object) -> str:
        group = next(groups)  # type: ignore[call-overload]
        assert isinstance(group, DiceGroup)
        return group.render()


# ---------------------------------------------------------------- parser


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str
    text: str
    pos: int
    value: int = 0
    dice: Dice | None = None


def _dice_token(m: re.Match[str]) -> Dice:
    count = int(m.group("count")) if m.group("count") else 1
    sides_text = m.group("sides")
    sides = 100 if sides_text == "%" else int(sides_text)
    notation = m.group("dice")
    if count < 1:
        raise DiceError(f"« {notation} » : il faut au moins un dé")
    if count > MAX_DICE:
        raise DiceLimitError(f"« {notation[:20]} » : plus de {MAX_DICE} dés (limite : {MAX_DICE})")
    if not 1 <= sides <= MAX_SIDES:
        raise DiceLimitError(f"« {notation[:20]} » : un dé a de 1 à {MAX_SIDES} faces")
    mods: list[tuple[str, str, int]] = []
    for mm in _MOD.finditer(m.group("mods") or ""):
        op, kind, digits = mm.group(1).lower(), mm.group(2), mm.group(3)
        if len(digits) > MAX_NUMBER_DIGITS:
            raise DiceLimitError(f"« {notation[:20]} » : nombre trop grand")
        if op in ("e", "!"):
            if kind and not digits:
                raise DiceError(f"« {notation} » : il manque un nombre après « {op}{kind} »")
            selector = (kind, int(digits)) if digits else ("", sides)
            if _covers_all(selector, sides):
                raise DiceError(f"« {notation} » : explosion sans fin (toutes les faces explosent)")
            mods.append((op, selector[0], selector[1]))
            continue
        if not digits:
            raise DiceError(f"« {notation} » : il manque un nombre après « {op}{kind} »")
        n = int(digits)
        if op in ("kh", "k", "kl", "dh", "dl", "mi", "ma"):
            if kind:
                raise DiceError(f"« {notation} » : « {op} » attend un nombre, pas « {kind} »")
            if op in ("mi", "ma") and not 1 <= n <= sides:
                raise DiceError(f"« {notation} » : « {op}{n} » doit être entre 1 et {sides}")
            mods.append((op, "", n))
            continue
        selector = (kind, n)
        if op == "rr" and _covers_all(selector, sides):
            raise DiceError(f"« {notation} » : relance sans fin (toutes les faces sont relancées)")
        mods.append((op, kind, n))
    return Dice(notation, count, sides, tuple(mods))


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    depth = 0
    total_dice = 0
    end = len(text)
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos)
        if m is None or m.end() == pos:
            rest = text[pos:].lstrip()
            if not rest:
                break
            where = end - len(rest) + 1
            raise DiceError(f"caractère inattendu « {rest[0]} » à la position {where}")
        start = m.start(m.lastgroup or 0)
        kind = m.lastgroup
        if kind == "dice":
            dice = _dice_token(m)
            total_dice += dice.count
            if total_dice > MAX_DICE:
                raise DiceLimitError(f"plus de {MAX_DICE} dés dans l'expression (limite : {MAX_DICE})")
            tokens.append(_Token("dice", m.group("dice"), start, dice=dice))
        elif kind == "num":
            digits = m.group("num")
            if len(digits) > MAX_NUMBER_DIGITS:
                raise DiceLimitError(
                    f"nombre trop grand à la position {start + 1} "
                    f"(au plus {MAX_NUMBER_DIGITS} chiffres)"
                )
            tokens.append(_Token("num", digits, start, int(digits)))
        elif kind == "name":
            tokens.append(_Token("name", m.group("name"), start))
        else:
            op = m.group("op")
            if op == "(":
                depth += 1
                if depth > MAX_DEPTH:
                    raise DiceLimitError(
                        f"plus de {MAX_DEPTH} niveaux de parenthèses (limite : {MAX_DEPTH})"
                    )
            elif op == ")":
                depth -= 1
            tokens.append(_Token("op", op, start))
        pos = m.end()
    return tokens


class _Parser:
    __slots__ = ("depth", "i", "text", "tokens")

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take_op(self, *ops: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok.kind == "op" and tok.text in ops:
            self.i += 1
            return tok.text
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
            raise DiceError(f"« {tok.text} » inattendu à la position {tok.pos + 1}")
        return node

    def expr(self) -> Node:
        left = self.sum()
        op = self.take_op(">=", "<=", ">", "<", "==", "!=")
        if op is None:
            return left
        return Compare(op, left, self.sum())

    def sum(self) -> Node:
        node = self.product()
        while (op := self.take_op("+", "-")) is not None:
            node = Binary(op, node, self.product())
        return node

    def product(self) -> Node:
        node = self.unary()
        while (op := self.take_op("*", "/")) is not None:
            node = Binary(op, node, self.unary())
        return node

    def unary(self) -> Node:
        op = self.take_op("-", "+")
        if op is not None:
            self.enter()
            operand = self.unary()
            self.depth -= 1
            return Negate(operand) if op == "-" else operand
        return self.atom()

    def atom(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise DiceError("expression incomplète : il manque une valeur à la fin")
        self.i += 1
        if tok.kind == "num":
            return Number(tok.value)
        if tok.kind == "dice":
            assert tok.dice is not None
            return tok.dice
        if tok.kind == "name":
            return Name(tok.text)
        if tok.text == "(":
            self.enter()
            inner = self.expr()
            self.depth -= 1
            if self.take_op(")") is None:
                raise DiceError(f"parenthèse ouverte à la position {tok.pos + 1} jamais fermée")
            return Group(inner)
        raise DiceError(f"« {tok.text} » inattendu à la position {tok.pos + 1}")


def _check_length(text: str) -> None:
    if len(text) > MAX_LENGTH:
        raise DiceLimitError(
            f"expression trop longue : {len(text)} caractères (limite : {MAX_LENGTH})"
        )


@lru_cache(maxsize=512)
def _parse_cached(text: str) -> Node:
    return _Parser(text, _tokenize(text)).parse()


def parse(text: str) -> Node:
    """Parse (with a bounded cache) after checking the length limit."""
    _check_length(text)
    return _parse_cached(text)


_NO_VARIABLES: Mapping[str, int] = {}


def roll(
    expression: str,
    source: DiceSource,
    variables: Mapping[str, int] | None = None,
) -> RollResult:
    """Roll a free expression with faces from `source`; names are looked up in `variables`.

    `variables` must be keyed by normalized names (see `jdr.names.normalize`).
    """
    node = parse(expression)
    ctx = _Context(source, variables if variables is not None else _NO_VARIABLES)
    if isinstance(node, Compare):
        total, ok = node.compare(ctx)
        return RollResult(expression, total, tuple(ctx.groups), ok, node)
    total = node.evaluate(ctx)
    return RollResult(expression, total, tuple(ctx.groups), None, node)


def names_in(expression: str) -> set[str]:
    """The normalized names an expression refers to (e.g. {'phy'} in `PHY+3+1d10`)."""
    found: set[str] = set()
    stack: list[Node] = [parse(expression)]
    while stack:
        node = stack.pop()
        if isinstance(node, Name):
            found.add(node.key)
        elif isinstance(node, Binary | Compare):
            stack.extend((node.left, node.right))
        elif isinstance(node, Negate):
            stack.append(node.operand)
        elif isinstance(node, Group):
            stack.append(node.inner)
    return found
