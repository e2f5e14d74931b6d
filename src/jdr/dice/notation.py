"""Free dice notation: what Roll20, Foundry, d20 and the Discord bots read (docs/des.md).

`2d10kh1+6`, `4d6kh3`, `1d20+5>=15`, `10d10cs>=7`, `6d10>7f1`, `4dF`, `{1d20+5, 1d20+5}kh1`,
`6x 4d6kh3`, `(1d4)d6`, `floor(1d6/2)`, `adv`, `1d20[feu] # attaque`, `PHY+3+1d10`.

Our own small recursive-descent parser, not the `d20` library: d20 rolls with the global `random`
module, has no limit on length or nesting (RecursionError leaks out), quadratic keep/explode paths
and an unbounded parse cache. Here the limits are checked before any work, the parse cache is
bounded, and faces come from an injected `DiceSource`. Every node can roll (`evaluate`) and give
its exact distribution (`dist`); tests prove both agree by enumeration (dice/enumerate.py).
`roll` compiles each line once (`Node.compile`, dice/compiled.py) into closures that roll it as
`evaluate` does, face for face, with less work per roll; tests/dice/test_compiled.py proves it.

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

import contextlib
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import NamedTuple

from jdr.dice.modifiers import Die, Spec, spec_meaning
from jdr.dice.scanner import _Mods, _number, _Token, _tokenize
from jdr.dice.source import DiceSource
from jdr.dice.tree import (
    MAX_DEPTH,
    MAX_DICE,
    MAX_LENGTH,
    MAX_REPEAT,
    Binary,
    Compare,
    Dice,
    DiceGroup,
    Function,
    Group,
    Labeled,
    Name,
    Negate,
    Node,
    Number,
    OddsContext,
    SetNode,
    SetRecord,
    _Context,
)
from jdr.errors import DiceError, DiceLimitError
from jdr.render.safe import clean

__all__ = ["MAX_DEPTH", "MAX_DICE", "MAX_LENGTH", "DiceGroup", "Die", "OddsContext", "RollResult",
           "Spec", "names_in", "parse", "roll", "spec_meaning"]


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


def _roll_tree(
    expression: str,
    source: DiceSource,
    variables: Mapping[str, int] | None = None,
) -> RollResult:
    """`roll` by walking the syntax tree (`Node.evaluate`): the reference the compiled plans
    are proven against (tests/dice/test_compiled.py)."""
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


# ---------------------------------------------------------------- compiled plans

Plan = Callable[[str, DiceSource, Mapping[str, int]], RollResult]
_new = tuple.__new__  # a NamedTuple without its Python-level `__new__`: same value, cheaper
_PLANS: dict[str, Plan] = {}
_PLAN_CACHE = 512  # expressions kept compiled, oldest forgotten first


def _has_sets(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, SetNode):
            return True
        stack.extend(current.children())
    return False


def _compile_line(line: Line) -> Plan:
    """The line compiled once (`Node.compile`): a function giving what `_roll_tree` gives."""
    node, comment, repeat = line.node, line.comment, line.repeat
    sets = _has_sets(node)
    compare = node.compile_compare() if isinstance(node, Compare) else None
    run = node.compile()

    def once(expression: str, ctx: _Context, comment: str) -> RollResult:
        success: bool | None = None
        if compare is None:
            total = run(ctx)
        else:
            total, success = compare(ctx)
        # compiled terms record their group in `records` only (dice/compiled.py)
        records = tuple(ctx.records)
        groups = records if not sets else tuple(r for r in records if type(r) is DiceGroup)
        return _new(RollResult, (expression, total, groups, success, node, tuple(ctx.notes),
                                 comment, (), records))

    if repeat == 1 and compare is None and not sets:  # the everyday line: `1d20+5`
        def plain(expression: str, source: DiceSource, names: Mapping[str, int]) -> RollResult:
            ctx = _Context(source, names)
            total = run(ctx)
            records = tuple(ctx.records)
            return _new(RollResult, (expression, total, records, None, node, tuple(ctx.notes),
                                     comment, (), records))

        return plain
    if repeat == 1:
        return lambda expression, source, names: once(expression, _Context(source, names), comment)

    def repeated(expression: str, source: DiceSource, names: Mapping[str, int]) -> RollResult:
        rolls: list[RollResult] = []
        rolled = 0
        for _ in range(repeat):
            ctx = _Context(source, names, rolled)
            rolls.append(once(expression, ctx, ""))
            rolled = ctx.rolled
        return RollResult(expression, sum(r.total for r in rolls),
                          tuple(g for r in rolls for g in r.groups), None, node, (), comment,
                          tuple(rolls))

    return repeated


def _plan(expression: str) -> Plan:
    plan = _compile_line(parse_line(expression))
    if len(_PLANS) >= _PLAN_CACHE:
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # another thread's
            del _PLANS[next(iter(_PLANS))]
    _PLANS[expression] = plan
    return plan


def roll(
    expression: str,
    source: DiceSource,
    variables: Mapping[str, int] | None = None,
) -> RollResult:
    """Roll a free expression with faces from `source`; names are looked up in `variables`.

    `variables` must be keyed by normalized names (see `jdr.names.normalize`).
    """
    if len(expression) > MAX_LENGTH:  # before hashing a text of a million characters
        _check_length(expression)
    plan = _PLANS.get(expression) or _plan(expression)
    return plan(expression, source, variables if variables is not None else _NO_VARIABLES)


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

