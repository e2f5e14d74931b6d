"""What the modifiers of a dice term do, once for rolling and once for exact odds, side by side.

A term `NdS…` is read in a fixed order, whatever order its modifiers are written in (Roll20's
rule, documented in docs/des.md):

1. every die is rolled (a Fudge die `dF` gives -1, 0 or +1);
2. rerolls (`r`/`ro` once, `rr` until the face no longer matches), in written order;
3. minimum / maximum per die (`mi`/`min`, `ma`/`max`);
4. explosion (`!`/`x`/`e` again and again, `xo` once, `!!` compounding into one die, `!p`
   penetrating: each added die counts one less) — tested on the face the die shows;
5. keep / drop on the dice still counted (`kh kl dh dl k d p`), in written order: they always
   leave a window of ranks [drop lowest a, drop highest b] (`keep_window`);
6. success / failure counting on the dice kept (`cs`, `cf`, `df`, Roll20 `>7` and `f1`).

`roll_term` rolls one term with faces from a callable; `term_distribution` gives its exact
distribution. Tests prove the two agree by enumerating every face sequence (dice/enumerate.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb
from typing import NamedTuple

from jdr.errors import DiceLimitError

Selector = tuple[str, int]  # (op, n), op one of "=", "<", ">", "<=", ">="
SYMBOL = {"=": "=", "<": "<", ">": ">", "<=": "≤", ">=": "≥"}

EXPLODE_DEPTH = 20  # exact odds follow each die through at most this many explosions
ODDS_BUDGET = 3_000_000  # elementary steps an exact-odds computation may take
POOL_STATES = 5_000  # distinct dice pools tracked when keeping after an explosion


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


def matches(face: int, selector: Selector) -> bool:
    op, n = selector
    if op == "=":
        return face == n
    if op == "<":
        return face < n
    if op == ">":
        return face > n
    if op == "<=":
        return face <= n
    return face >= n


def count_matching(selector: Selector, lo: int, hi: int) -> int:
    """How many faces lo..hi match (no loop: a d1000000 is fine)."""
    op, n = selector
    if op == "=":
        return int(lo <= n <= hi)
    if op in ("<", "<="):
        top = n - 1 if op == "<" else n
        return max(0, min(hi, top) - lo + 1)
    bottom = n + 1 if op == ">" else n
    return max(0, hi - max(lo, bottom) + 1)


def selector_text(selector: Selector) -> str:
    return f"{SYMBOL[selector[0]]} {selector[1]}"


class Spec(NamedTuple):
    """A dice term's kind of die and modifiers, already checked."""

    sides: int  # 3 for a Fudge die
    fudge: bool = False
    rerolls: tuple[tuple[bool, Selector], ...] = ()  # (once, selector)
    clamps: tuple[tuple[str, int], ...] = ()  # ("mi" | "ma", n)
    explode: tuple[str, Selector] | None = None  # ("!" | "xo" | "!!" | "!p", selector)
    keeps: tuple[tuple[str, int], ...] = ()  # ("kh" | "kl" | "dh" | "dl", n)
    success: Selector | None = None
    failure: Selector | None = None
    failure_counts: bool = False  # `cf` alone: the value is the number of failures

    @property
    def low(self) -> int:
        return -1 if self.fudge else 1

    @property
    def high(self) -> int:
        return 1 if self.fudge else self.sides

    @property
    def counting(self) -> bool:
        return self.success is not None or self.failure is not None

    def score(self, value: int) -> int:
        """What one kept die adds to the term: its value, or +1 / -1 when counting."""
        if not self.counting:
            return value
        if self.failure_counts:
            return int(self.failure is not None and matches(value, self.failure))
        s = int(self.success is not None and matches(value, self.success))
        f = int(self.failure is not None and matches(value, self.failure))
        return s - f


def keep_window(keeps: Sequence[tuple[str, int]], n: int) -> tuple[int, int]:
    """(a, b): after the keep / drop steps in written order, ranks a .. n-b-1 (ascending) stay."""
    a = b = 0
    for op, k in keeps:
        left = n - a - b
        if op == "kh":
            a += max(0, left - k)
        elif op == "kl":
            b += max(0, left - k)
        elif op == "dh":
            b += min(k, left)
        else:  # "dl"
            a += min(k, left)
    return a, b


# ------------------------------------------------------------------------------------- rolling


def roll_term(spec: Spec, count: int, face: Callable[[], int]) -> tuple[list[Die], int, int, int]:
    """Roll `count` dice of `spec` (faces from `face()`, 1..sides): (dice, value, successes, failures).

    All the dice are rolled first, then each one's rerolls and explosions in turn: the order in
    which faces given by hand (`--des`) are read."""
    def raw() -> int:
        f = face()
        return f - 2 if spec.fudge else f

    firsts = [raw() for _ in range(count)]
    pool: list[Die] = []
    if not spec.rerolls and not spec.clamps and spec.explode is None:
        pool = [Die(spec.sides, f) for f in firsts]
    else:
        for cur in firsts:
            _roll_die(spec, cur, raw, pool)
    if spec.keeps:
        drop_ranked(pool, spec.keeps)
    if spec.success is None and spec.failure is None:
        return pool, sum(d.face for d in pool if d.kept), 0, 0
    value = successes = failures = 0
    for d in pool:
        if d.kept:
            value += spec.score(d.face)
            successes += spec.success is not None and matches(d.face, spec.success)
            failures += spec.failure is not None and matches(d.face, spec.failure)
    return pool, value, successes, failures


def drop_ranked(pool: list[Die], keeps: Sequence[tuple[str, int]]) -> None:
    """Keep / drop among the dice still counted: the dice out of the window stop counting.

    Ranked by face; of equal faces, the later die ranks lower."""
    kept = [i for i, d in enumerate(pool) if d.kept]
    a, b = keep_window(keeps, len(kept))
    ranked = sorted(kept, key=lambda i: (pool[i].face, -i))
    for i in ranked[:a] + ranked[len(ranked) - b:]:
        d = pool[i]
        pool[i] = Die(d.sides, d.face, False, d.note)


def _roll_die(spec: Spec, cur: int, raw: Callable[[], int], pool: list[Die]) -> None:
    """One die's rerolls, minimum / maximum and explosion; its dice go to `pool`."""
    sides = spec.sides
    for once, sel in spec.rerolls:
        while matches(cur, sel):
            pool.append(Die(sides, cur, False, "relancé"))
            cur = raw()
            if once:
                break
    for op, n in spec.clamps:
        cur = max(cur, n) if op == "mi" else min(cur, n)
    if spec.explode is None:
        pool.append(Die(sides, cur))
        return
    kind, sel = spec.explode
    chain = [cur]
    while matches(chain[-1], sel) and (kind != "xo" or len(chain) == 1):
        chain.append(raw())
    if kind == "!!":
        pool.append(Die(sides, sum(chain), True, "cumulé" if len(chain) > 1 else ""))
        return
    last = len(chain) - 1
    for i, value in enumerate(chain):
        shown = value - 1 if kind == "!p" and i > 0 else value
        pool.append(Die(sides, shown, True, "explosé" if i < last else ""))


# ------------------------------------------------------------------------------- distributions


class Dist:
    """A finite (sub-)probability distribution: integer weights over a common denominator.

    Its mass is below 1 when explosions were truncated; `1 - mass()` is what was not computed."""

    __slots__ = ("den", "w")

    def __init__(self, w: dict[int, int], den: int) -> None:
        self.w = w
        self.den = den

    @staticmethod
    def point(value: int) -> Dist:
        return Dist({value: 1}, 1)

    def mass(self) -> Fraction:
        return Fraction(sum(self.w.values()), self.den)

    def items(self) -> list[tuple[int, Fraction]]:
        return [(k, Fraction(v, self.den)) for k, v in sorted(self.w.items())]

    def map(self, fn: Callable[[int], int]) -> Dist:
        out: dict[int, int] = {}
        for k, v in self.w.items():
            key = fn(k)
            out[key] = out.get(key, 0) + v
        return Dist(out, self.den)

    def combine(self, other: Dist, fn: Callable[[int, int], int], budget: Budget) -> Dist:
        budget.spend(len(self.w) * len(other.w))
        out: dict[int, int] = {}
        for a, va in self.w.items():
            for b, vb in other.w.items():
                key = fn(a, b)
                out[key] = out.get(key, 0) + va * vb
        return Dist(out, self.den * other.den)

    def add(self, other: Dist, budget: Budget) -> Dist:
        return self.combine(other, _plus, budget)

    def power_sum(self, n: int, budget: Budget) -> Dist:
        """The sum of n independent copies (n >= 0), by repeated squaring."""
        result = Dist.point(0)
        base = self
        while n:
            if n & 1:
                result = result.add(base, budget)
            n >>= 1
            if n:
                base = base.add(base, budget)
        return result


def _plus(a: int, b: int) -> int:
    return a + b


class Budget:
    """Refuses an exact-odds computation that would take too long, before it does."""

    __slots__ = ("left",)

    def __init__(self, steps: int = ODDS_BUDGET) -> None:
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise DiceLimitError(
                "chances exactes trop longues à calculer pour cette expression "
                f"(plus de {ODDS_BUDGET:_} étapes ; limite : {ODDS_BUDGET:_})".replace("_", " "))


def first_face(spec: Spec) -> Dist:
    """One die after its rerolls and minimum / maximum, before any explosion."""
    lo, hi = spec.low, spec.high
    faces = hi - lo + 1
    d = Dist(dict.fromkeys(range(lo, hi + 1), 1), faces)
    for once, sel in spec.rerolls:
        hit = sum(v for k, v in d.w.items() if matches(k, sel))
        if once:  # a matching face is replaced by a fresh die
            w = {k: (0 if matches(k, sel) else v * faces) + hit for k, v in d.w.items()}
            d = Dist(w, d.den * faces)
        else:  # a matching face is replaced by a fresh die that does not match
            free = faces - count_matching(sel, lo, hi)
            w = {k: (v * free + hit) if not matches(k, sel) else 0 for k, v in d.w.items()}
            d = Dist(w, d.den * free)
    for op, n in spec.clamps:
        d = d.map(_clamp(op, n))
    return Dist({k: v for k, v in d.w.items() if v}, d.den)


def _clamp(op: str, n: int) -> Callable[[int], int]:
    def clamp(k: int) -> int:
        return max(k, n) if op == "mi" else min(k, n)

    return clamp


def _raw(spec: Spec) -> range:
    return range(spec.low, spec.high + 1)


def die_score(spec: Spec, budget: Budget) -> Dist:
    """What one die (with its explosion chain) adds to the term, when nothing is kept or dropped."""
    first = first_face(spec)
    if spec.explode is None:
        return first.map(spec.score)
    kind, sel = spec.explode
    faces = len(_raw(spec))
    raw = _raw(spec)
    # chains: (running key, weight) still exploding; key = sum of raw faces for `!!`, else score
    done: dict[int, int] = {}
    going: dict[int, int] = {}
    for k, v in first.w.items():
        key = k if kind == "!!" else spec.score(k)
        target = going if matches(k, sel) else done
        target[key] = target.get(key, 0) + v
    den = first.den
    depth = 1 if kind == "xo" else EXPLODE_DEPTH
    for _ in range(depth):
        if not going:
            break
        budget.spend(len(going) * faces)
        scale = faces
        done = {k: v * scale for k, v in done.items()}
        den *= faces
        nxt: dict[int, int] = {}
        for key, v in going.items():
            for f in raw:
                shown = f - 1 if kind == "!p" else f
                new = key + f if kind == "!!" else key + spec.score(shown)
                target = nxt if matches(f, sel) and kind != "xo" else done
                target[new] = target.get(new, 0) + v
        going = nxt
    # whatever still explodes after the last step is truncated (dropped from the mass)
    dist = Dist(done, den)
    return dist.map(spec.score) if kind == "!!" else dist


def _chains(spec: Spec, budget: Budget) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every sorted tuple of pool values one die can give, with its probability (truncated)."""
    first = first_face(spec)
    if spec.explode is None:
        return [((k,), Fraction(v, first.den)) for k, v in first.w.items()]
    kind, sel = spec.explode
    raw = list(_raw(spec))
    p_raw = Fraction(1, len(raw))
    out: dict[tuple[int, ...], Fraction] = {}
    going: list[tuple[tuple[int, ...], int, Fraction]] = []  # (values, last raw face, p)
    for k, v in first.w.items():
        going.append(((k,), k, Fraction(v, first.den)))
    depth = 1 if kind == "xo" else EXPLODE_DEPTH
    level = 0
    while going:
        budget.spend(len(going) * len(raw))
        nxt: list[tuple[tuple[int, ...], int, Fraction]] = []
        for values, last, p in going:
            if not matches(last, sel) or level >= depth:
                if not matches(last, sel):
                    key = (sum(values),) if kind == "!!" else tuple(sorted(values))
                    out[key] = out.get(key, Fraction(0)) + p
                continue  # else truncated
            for f in raw:
                shown = f - 1 if kind == "!p" else f
                nxt.append(((*values, shown), f, p * p_raw))
        level += 1
        if len(nxt) > POOL_STATES:
            raise _too_many()
        going = nxt
    return list(out.items())


def _too_many() -> DiceLimitError:
    return DiceLimitError(
        f"chances exactes trop longues à calculer : plus de {POOL_STATES:_} combinaisons de dés "
        f"à suivre (limite : {POOL_STATES:_})".replace("_", " "))


def term_distribution(spec: Spec, count: int, budget: Budget) -> Dist:
    """The exact distribution of a term of `count` dice of `spec` (explosions truncated)."""
    if not spec.keeps:
        return die_score(spec, budget).power_sum(count, budget)
    if spec.explode is None or spec.explode[0] == "!!":
        per_die = first_face(spec) if spec.explode is None else _compound_values(spec, budget)
        a, b = keep_window(spec.keeps, count)
        return _order_statistics(per_die, count, a, count - b, spec.score, budget)
    return _pool_distribution(_chains(spec, budget), count, spec, budget)


def _compound_values(spec: Spec, budget: Budget) -> Dist:
    """One compounding die's value (the sum of its chain), before any counting."""
    plain = Spec(spec.sides, spec.fudge, spec.rerolls, spec.clamps, spec.explode)
    return die_score(plain, budget)


def _order_statistics(per_die: Dist, n: int, lo: int, hi: int, score: Callable[[int], int],
                      budget: Budget) -> Dist:
    """n independent dice of one distribution; ranks lo..hi-1 (ascending) add their score.

    Dice are placed value by value, in ascending order: (dice placed, running value) -> weight,
    each way of choosing which dice show the value counted by a binomial. Once the window of
    kept ranks is full, the remaining dice no longer matter: the state is finished at once."""
    values = sorted(per_die.w)
    scores = [score(v) for v in values]
    span = max(scores) - min(scores) + 1
    width = max(0, hi - lo)
    budget.spend(len(values) * (width * width * span + n + 1) * (n + 1) // 4)  # refuse up front
    rest = [0] * (len(values) + 1)  # weight of the values from index i on
    for i in range(len(values) - 1, -1, -1):
        rest[i] = rest[i + 1] + per_die.w[values[i]]
    rows = [[comb(left, c) for c in range(left + 1)] for left in range(n + 1)]
    out: dict[int, int] = {}
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for i, v in enumerate(values):
        w, s = per_die.w[v], scores[i]
        live: dict[tuple[int, int], int] = {}
        for (m, acc), weight in states.items():
            if m >= hi:  # window full: the other dice take any of the values left
                out[acc] = out.get(acc, 0) + weight * rest[i] ** (n - m)
            else:
                live[(m, acc)] = weight
        nxt: dict[tuple[int, int], int] = {}
        budget.spend(len(live) * (n + 1))
        for (m, acc), weight in live.items():
            left = n - m
            row = rows[left]
            power = 1
            for c in range(left + 1):
                kept = max(0, min(m + c, hi) - max(m, lo))
                key = (m + c, acc + kept * s)
                nxt[key] = nxt.get(key, 0) + weight * row[c] * power
                power *= w
        states = nxt
    for (m, acc), weight in states.items():
        if m == n:
            out[acc] = out.get(acc, 0) + weight
    return Dist(out, per_die.den ** n)


def _pool_distribution(chains: list[tuple[tuple[int, ...], Fraction]], count: int, spec: Spec,
                       budget: Budget) -> Dist:
    """Keep / drop after explosions: follow every sorted pool of values (bounded)."""
    pools: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for _ in range(count):
        budget.spend(len(pools) * len(chains))
        nxt: dict[tuple[int, ...], Fraction] = {}
        for pool, p in pools.items():
            for values, q in chains:
                key = tuple(sorted(pool + values))
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
            if len(nxt) > POOL_STATES:
                raise _too_many()
        pools = nxt
    return from_fractions(
        (_window_score(pool, spec.keeps, spec.score), p) for pool, p in pools.items())


def _window_score(pool: Sequence[int], keeps: Sequence[tuple[str, int]],
                  score: Callable[[int], int]) -> int:
    a, b = keep_window(keeps, len(pool))
    return sum(score(v) for v in pool[a:len(pool) - b])


def from_fractions(pairs: object) -> Dist:
    """A Dist from (value, probability) pairs."""
    acc: dict[int, Fraction] = {}
    for k, p in pairs:  # type: ignore[attr-defined]
        acc[k] = acc.get(k, Fraction(0)) + p
    den = 1
    for p in acc.values():
        den = den * p.denominator // _gcd(den, p.denominator)
    return Dist({k: int(p * den) for k, p in acc.items()}, den)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def set_distribution(elements: Sequence[Dist], keeps: Sequence[tuple[str, int]],
                     score: Callable[[int], int], budget: Budget) -> Dist:
    """A group `{a, b, …}`: keep / drop among the element totals, then sum or count them."""
    if not keeps:
        out = Dist.point(0)
        for e in elements:
            out = out.add(e.map(score), budget)
        return out
    first = elements[0]
    if all(e.w == first.w and e.den == first.den for e in elements[1:]):
        a, b = keep_window(keeps, len(elements))  # alike elements: order statistics
        return _order_statistics(first, len(elements), a, len(elements) - b, score, budget)
    pools: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for e in elements:
        items = e.items()
        budget.spend(len(pools) * len(items))
        nxt: dict[tuple[int, ...], Fraction] = {}
        for pool, p in pools.items():
            for v, q in items:
                key = tuple(sorted((*pool, v)))
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
            if len(nxt) > POOL_STATES:
                raise _too_many()
        pools = nxt
    return from_fractions((_window_score(pool, keeps, score), p) for pool, p in pools.items())


# ------------------------------------------------------------------------------ meaning (French)


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


def counting_text(spec: Spec | None, success: Selector | None,
                   failure: Selector | None, counts: bool, what: str,
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


