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
from functools import lru_cache
from typing import NamedTuple

from jdr.dice import modifiers
from jdr.dice.source import DiceSource
from jdr.errors import DiceError, DiceLimitError
from jdr.names import normalize
from jdr.render.safe import clean

MAX_DICE = 1000
MAX_LENGTH = 1000
MAX_DEPTH = 50
MAX_SIDES = 1_000_000
MAX_NUMBER_DIGITS = 9

# ASCII only (re.ASCII): digits are 0-9, never `٣`, `１` or `𝟏`, and `k` never matches the Kelvin
# sign under IGNORECASE. Names alone are Unicode letters (`(?u:...)`), checked in `_tokenize`.
_TOKEN = re.compile(
    r"""\s*(?:
      (?P<dice>(?P<count>[0-9]+)?d(?P<sides>[0-9]+|%)
          (?P<mods>(?:(?:kh|kl|dh|dl|k|rr|ro|r|mi|ma|e|!)(?:[<>]?[0-9]+)?)*))
     |(?P<num>[0-9]+)
     |(?P<name>(?u:[^\W\d]\w*))
     |(?P<op>>=|<=|==|!=|[-+*/()<>])
    )""",
    re.VERBOSE | re.IGNORECASE | re.ASCII,
)
_MOD = re.compile(r"(kh|kl|dh|dl|k|rr|ro|r|mi|ma|e|!)([<>]?)([0-9]*)", re.IGNORECASE | re.ASCII)


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
            dice = modifiers.apply(dice, op, kind, n, lambda: self._extra(ctx))
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

    def render(self, groups: object) -> str:
        group = next(groups)  # type: ignore[call-overload]
        assert isinstance(group, DiceGroup)
        return group.render()


# ---------------------------------------------------------------- parser


class _Token:
    """One token (a plain class: defining a dataclass costs more than `jdr lancer` parsing)."""

    __slots__ = ("dice", "kind", "pos", "text", "value")

    def __init__(self, kind: str, text: str, pos: int, value: int = 0, dice: Dice | None = None) -> None:
        self.kind = kind
        self.text = text
        self.pos = pos
        self.value = value
        self.dice = dice


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
            if modifiers.covers_all(selector, sides):
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
        if op == "rr" and modifiers.covers_all(selector, sides):
            raise DiceError(f"« {notation} » : relance sans fin (toutes les faces sont relancées)")
        mods.append((op, kind, n))
    return Dice(notation, count, sides, tuple(mods))


def _unexpected(char: str, position: int) -> DiceError:
    return DiceError(f"caractère inattendu « {clean(char)} » à la position {position} "
                     "(chiffres 0-9, lettres, opérateurs + - * / ( ) et comparaisons)")


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = depth = total_dice = 0
    end = len(text)
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos)
        if m is None or m.end() == pos:
            rest = text[pos:].lstrip()
            if not rest:
                break
            raise _unexpected(rest[0], end - len(rest) + 1)
        token = _token(m)
        if token.dice is not None:
            total_dice += token.dice.count
            if total_dice > MAX_DICE:
                raise DiceLimitError(f"plus de {MAX_DICE} dés dans l'expression (limite : {MAX_DICE})")
        elif token.kind == "op" and token.text in ("(", ")"):
            depth += 1 if token.text == "(" else -1
            if depth > MAX_DEPTH:
                raise DiceLimitError(f"plus de {MAX_DEPTH} niveaux de parenthèses (limite : {MAX_DEPTH})")
        tokens.append(token)
        pos = m.end()
    return tokens


def _token(m: re.Match[str]) -> _Token:
    start = m.start(m.lastgroup or 0)
    kind = m.lastgroup
    if kind == "dice":
        return _Token("dice", m.group("dice"), start, dice=_dice_token(m))
    if kind == "num":
        digits = m.group("num")
        if len(digits) > MAX_NUMBER_DIGITS:
            raise DiceLimitError(f"nombre trop grand à la position {start + 1} "
                                 f"(au plus {MAX_NUMBER_DIGITS} chiffres)")
        return _Token("num", digits, start, int(digits))
    if kind == "name":
        name = m.group("name")
        for offset, c in enumerate(name):  # letters, `_` and ASCII digits only
            if not (c.isalpha() or c == "_" or "0" <= c <= "9"):
                raise _unexpected(c, start + offset + 1)
        return _Token("name", name, start)
    return _Token("op", m.group("op"), start)


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
