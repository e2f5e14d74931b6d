"""The scanner of the dice notation: tokens, and the modifiers after a dice term or a group,
each error naming what was written and where (1-based positions, non-breaking spaces counted)."""

from __future__ import annotations

import re

from jdr.dice import modifiers
from jdr.dice.modifiers import Spec
from jdr.dice.tree import ALIASES, FUNCTIONS, MAX_DEPTH, MAX_DICE, MAX_LABEL, MAX_NUMBER_DIGITS, MAX_SIDES
from jdr.errors import DiceError, DiceLimitError
from jdr.names import normalize
from jdr.render.safe import clean


def _shown(char: str) -> str:
    """A refused character as a person can read it: invisible ones by their code (`\\u200b`)."""
    shown = clean(char)
    if shown != char or char.isprintable():
        return shown
    return f"\\u{ord(char):04x}"


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


class _ModReader:
    """Reads the modifiers after a term; every error names what was written and where."""

    __slots__ = ("end", "group", "high", "low", "mods", "targets", "text")

    def __init__(self, text: str, end: int, group: bool, low: int, high: int, targets: bool) -> None:
        self.text = text
        self.end = end
        self.group = group
        self.low = low
        self.high = high
        self.targets = targets
        self.mods = _Mods()

    def error(self, token: str, pos: int, what: str) -> DiceError:
        return DiceError(f"« {clean(token)} » à la position {pos + 1} : {what}")

    def read(self, pos: int) -> int | None:
        """One modifier at `pos`: where it ends, or None when there is none."""
        m = _MOD_NAME.match(self.text, pos, self.end)
        if m is None:
            return None
        name = m.group().lower()
        if name in _TARGETS:
            return self.target(name, pos, m.end()) if self.targets else None
        if name in _KEEP:
            num = _NUMBER.match(self.text, m.end(), self.end)
            self.mods.keeps.append((_KEEP[name], _number(num.group(), m.end()) if num else 1))
            return num.end() if num else m.end()
        if self.group and name not in ("cs", "cf", "df", "f", "t"):
            return None
        if name in ("mi", "ma", "min", "max"):
            return self.clamp(name, pos, m.end())
        return self.selected(name, pos, m.end())

    def target(self, name: str, pos: int, after: int) -> int | None:
        """Roll20's target number: `>7` means ≥ 7, `<3` means ≤ 3."""
        num = _NUMBER.match(self.text, after, self.end)
        if num is None:
            if self.group and name == "=":
                return None
            raise self.error(self.text[pos:after], pos, "il manque un nombre après")
        if self.mods.success is not None:
            raise self.error(self.text[pos:num.end()], pos, "un seul seuil de succès")
        self.mods.success = ({">": ">=", "<": "<="}.get(name, name), _number(num.group(), after))
        return num.end()

    def clamp(self, name: str, pos: int, after: int) -> int:
        num = _NUMBER.match(self.text, after, self.end)
        if num is None:
            raise self.error(self.text[pos:after], pos, "il manque un nombre après")
        n = _number(num.group(), after)
        if not self.low <= n <= self.high:
            raise self.error(self.text[pos:num.end()], pos,
                             f"la valeur doit être entre {self.low} et {self.high}")
        self.mods.clamps.append((name[:2], n))
        return num.end()

    def selected(self, name: str, pos: int, after: int) -> int:
        """A modifier with an optional selector: reroll, explode, count."""
        sel_m = _SELECTOR.match(self.text, after, self.end)
        selector: modifiers.Selector | None = None
        if sel_m is not None:
            selector = (sel_m.group(1) or "=", _number(sel_m.group(2), after))
            stop = sel_m.end()
        else:
            stop = after
            if self.text[after:after + 1] in ("<", ">", "="):
                wide = 2 if self.text[after:after + 2] in ("<=", ">=") else 1
                raise self.error(self.text[pos:after + wide], pos, "il manque un nombre après")
        token = self.text[pos:stop]
        if name in ("r", "ro", "rr"):
            self.reroll(name, selector, token, pos)
        elif name in ("!", "x", "e", "xo", "!!", "!p"):
            self.explode(name, selector, token, pos)
        else:
            if selector is None:
                raise self.error(token, pos, "il manque un nombre après")
            self.count(name, selector, sel_m is not None and bool(sel_m.group(1)), token, pos)
        return stop

    def endless(self, sel: modifiers.Selector) -> bool:
        return modifiers.count_matching(sel, self.low, self.high) == self.high - self.low + 1

    def reroll(self, name: str, selector: modifiers.Selector | None, token: str, pos: int) -> None:
        sel = selector or ("=", self.low)
        if name == "rr" and self.endless(sel):
            raise self.error(token, pos, "relance sans fin (toutes les faces sont relancées)")
        self.mods.rerolls.append((name != "rr", sel))

    def explode(self, name: str, selector: modifiers.Selector | None, token: str, pos: int) -> None:
        kind = {"x": "!", "e": "!"}.get(name, name)
        sel = selector or ("=", self.high)
        if self.mods.explode is not None:
            raise self.error(token, pos, "une seule explosion par dé (« ! », « !! », « !p » ou « xo »)")
        if kind != "xo" and self.endless(sel):
            raise self.error(token, pos, "explosion sans fin (toutes les faces explosent)")
        self.mods.explode = (kind, sel)

    def count(self, name: str, selector: modifiers.Selector, written_op: bool, token: str,
              pos: int) -> None:
        """`cs cf df` (Foundry), `f` (Roll20: `<` is ≤), `t` (Dice Maiden: `t7` is ≥ 7)."""
        op, n = selector
        if name == "t" and not written_op:
            op = ">="
        if name in ("f", "t"):
            op = {"<": "<=", ">": ">="}.get(op, op)
        if name in ("cs", "t"):
            if self.mods.success is not None:
                raise self.error(token, pos, "un seul seuil de succès")
            self.mods.success = (op, n)
            return
        if self.mods.failure is not None:
            raise self.error(token, pos, "un seul seuil d'échec")
        self.mods.failure = (op, n)
        self.mods.failure_counts = name == "cf"


def _read_mods(text: str, pos: int, end: int, notation_start: int, group: bool,
               low: int, high: int, targets: bool = True) -> tuple[_Mods, int]:
    """Modifiers from `pos`; returns them and where they end."""
    reader = _ModReader(text, end, group, low, high, targets)
    while pos < end:
        stop = reader.read(pos)
        if stop is None:
            break
        pos = stop
    mods = reader.mods
    if mods.failure is not None and mods.success is None and not mods.failure_counts:
        raise DiceError(f"« {clean(text[notation_start:pos])} » : un seuil d'échec (« f » ou "
                        "« df ») va avec un seuil de succès (ex. 6d10>7f1 ou 10d10cs>=7df1)")
    if mods.success is not None and mods.failure_counts:
        mods.failure_counts = False  # `cs…cf…`: failures are taken off the successes
    return mods, pos


class _Scanner:
    """Cuts an expression into tokens, counting dice and nesting as it goes (limits first)."""

    __slots__ = ("depth", "dice", "end", "text", "tokens")

    def __init__(self, text: str, end: int) -> None:
        self.text = text
        self.end = end
        self.tokens: list[_Token] = []
        self.depth = 0
        self.dice = 0

    def add_dice(self, n: int) -> None:
        self.dice += n
        if self.dice > MAX_DICE:
            raise DiceLimitError(f"plus de {MAX_DICE} dés dans l'expression (limite : {MAX_DICE})")

    def step(self, pos: int) -> int:
        """Reads one token at `pos` (not a space); returns where it ends."""
        text, end, c = self.text, self.end, self.text[pos]
        m = _DICE_HEAD.match(text, pos, end)
        if m is not None:
            token = _dice(text, m, end)
            token.attached = bool(self.tokens) and self.tokens[-1].end == pos and not m.group(1)
            if token.dice is not None and token.dice[0] is not None:
                self.add_dice(token.dice[0])
            self.tokens.append(token)
            return token.end
        if "0" <= c <= "9":
            num = _NUMBER.match(text, pos, end)
            assert num is not None
            self.tokens.append(_Token("num", num.group(), pos, num.end(), _number(num.group(), pos)))
            return num.end()
        if c.isalpha():
            return self.word(pos)
        if c == "[":
            return self.label(pos)
        return self.operator(pos)

    def word(self, pos: int) -> int:
        text, end = self.text, self.end
        stop = pos
        while stop < end and (text[stop].isalpha() or text[stop] == "_" or "0" <= text[stop] <= "9"):
            stop += 1
        if stop < end and not text[stop].isspace() and unicode_word(text[stop]):
            raise _unexpected(text[stop], stop + 1)
        word = text[pos:stop]
        key = normalize(word)
        if key in FUNCTIONS and stop < end and text[stop] == "(":
            self.tokens.append(_Token("func", key, pos, stop))
        elif key in ALIASES:  # adv, avantage: 2d20kh1 ; dis, désavantage: 2d20kl1
            tok = _Token("dice", word, pos, stop)
            tok.dice = (2, Spec(20, keeps=((ALIASES[key], 1),)))
            self.add_dice(2)
            self.tokens.append(tok)
        else:
            self.tokens.append(_Token("name", word, pos, stop))
        return stop

    def label(self, pos: int) -> int:
        close = self.text.find("]", pos + 1, self.end)
        if close < 0:
            raise DiceError(f"étiquette ouverte par « [ » à la position {pos + 1} jamais fermée")
        label = self.text[pos + 1:close].strip()
        if len(label) > MAX_LABEL:
            raise DiceLimitError(f"étiquette trop longue à la position {pos + 1} "
                                 f"(au plus {MAX_LABEL} caractères)")
        self.tokens.append(_Token("label", label, pos, close + 1))
        return close + 1

    def operator(self, pos: int) -> int:
        text, end = self.text, self.end
        op = next((o for o in _OPS if text.startswith(o, pos)), None)
        if op is None:
            raise _unexpected(text[pos], pos + 1)
        tok = _Token("op", "*" if op == "×" else op, pos, pos + len(op))
        if op in ("(", "{"):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise DiceLimitError(
                    f"plus de {MAX_DEPTH} niveaux de parenthèses (limite : {MAX_DEPTH})")
        elif op in (")", "}"):
            self.depth -= 1
        self.tokens.append(tok)
        pos += len(op)
        if op == "}" or (op == ")" and _DICE_HEAD.match(text, pos, end) is None):
            mods, stop = _read_mods(text, pos, end, tok.pos, True, -MAX_SIDES * MAX_DICE,
                                    MAX_SIDES * MAX_DICE, targets=op == "}")
            if stop > pos or op == "}":
                tok.set_mods = mods
                tok.end = stop
            pos = stop
        return pos


def _tokenize(text: str, start: int, end: int) -> list[_Token]:
    scanner = _Scanner(text, end)
    pos = start
    while pos < end:
        pos = pos + 1 if text[pos].isspace() else scanner.step(pos)
    return scanner.tokens


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


