"""Compiled dice terms, what `Dice.compile` returns for the terms of everyday expressions
(`1d20+5`, `4d6kh3`, `8d6ro1`, `1d6!`).

Each gives what `Dice.evaluate` / `modifiers.roll_term` give: the same faces drawn in the same
order, the same dice and notes, with the work that does not change from one roll to the next
done once (keep window, meaning, the `Die` of each face). Whenever a term could pass the dice limit, it rolls
through `evaluate`, so the limit is met at the same die with the same error. A compiled term
records its group in `ctx.records` only; the line's `groups` are read from there
(`notation._compile_line`). tests/dice/test_compiled.py proves both paths identical.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from jdr.dice import modifiers
from jdr.dice.modifiers import Die, Spec
from jdr.dice.tree import MAX_DICE, Dice, DiceGroup, Roller, _Context

_new = tuple.__new__  # a NamedTuple without its Python-level `__new__`: same value, cheaper
_DIE_TABLE_SIDES = 1000  # dice up to this many faces share one `Die` per face


@lru_cache(maxsize=64)
def _die_table(sides: int, kept: bool, note: str) -> tuple[Die, ...]:
    return tuple(Die(sides, face, kept, note) for face in range(sides + 1))


def _die_maker(sides: int, kept: bool = True, note: str = "") -> Callable[[int], Die]:
    """face → `Die(sides, face, kept, note)`: a `Die` is immutable, so one per face is shared."""
    if sides <= _DIE_TABLE_SIDES:
        return _die_table(sides, kept, note).__getitem__
    return lambda face: Die(sides, face, kept, note)


def _face_test(selector: modifiers.Selector, sides: int) -> Callable[[int], bool]:
    """`modifiers.matches(face, selector)` for the faces 1..sides of a die."""
    if sides <= _DIE_TABLE_SIDES:
        return frozenset(f for f in range(1, sides + 1) if modifiers.matches(f, selector)).__contains__
    return lambda face: modifiers.matches(face, selector)


def dice_term(dice: Dice) -> Roller:
    """The compiled term, or `evaluate` itself for a term counted from a roll (`(1d4)d6`),
    Fudge dice or success counting."""
    spec = dice.spec
    if dice.count_node is not None or spec.fudge or spec.counting:
        return dice.evaluate
    if not spec.rerolls and not spec.clamps and spec.explode is None and not spec.keeps:
        return plain_term(dice.notation, dice.count, spec.sides, dice.evaluate)
    # what `evaluate` notes for a term that counts nothing: its modifiers' meaning
    note = f"{dice.notation} : " + " ; ".join(dice.meaning)
    if not spec.rerolls and not spec.clamps and spec.explode is None:
        return keep_term(dice.notation, dice.count, spec, note, dice.evaluate)
    return modified_term(dice.notation, dice.count, spec, note, dice.evaluate)


def plain_term(notation: str, count: int, sides: int, evaluate: Roller) -> Roller:
    """`NdS`: N faces, their sum."""
    die = _die_maker(sides)

    def one(ctx: _Context) -> int:
        rolled = ctx.rolled + 1
        if rolled > MAX_DICE:
            return evaluate(ctx)
        ctx.rolled = rolled
        rnd = ctx.rnd
        face = int(rnd() * sides) + 1 if rnd is not None else ctx.source.roll(sides)
        ctx.records.append(_new(DiceGroup, (notation, (die(face),), face)))
        return face

    def many(ctx: _Context) -> int:
        if not _counted(ctx, count):
            return evaluate(ctx)
        faces = _draw(ctx, sides, count)
        value = sum(faces)
        ctx.records.append(_new(DiceGroup, (notation, tuple(map(die, faces)), value)))
        return value

    return one if count == 1 else many


def keep_term(notation: str, count: int, spec: Spec, note: str, evaluate: Roller) -> Roller:
    """`NdSkhK` and the other keep / drop forms, nothing else: the window is known at once."""
    sides = spec.sides
    low, high = modifiers.keep_window(spec.keeps, count)
    stop = count - high
    keep, drop = _die_maker(sides), _die_maker(sides, False)
    # ranked by face; equal faces: the later die ranks lower (as `roll_term`, a stable sort)
    backwards = range(count - 1, -1, -1)

    def term(ctx: _Context) -> int:
        if not _counted(ctx, count):
            return evaluate(ctx)
        faces = _draw(ctx, sides, count)
        ranked = sorted(backwards, key=faces.__getitem__)
        dice = list(map(keep, faces))
        value = sum(faces)
        for i in ranked[:low] + ranked[stop:]:
            face = faces[i]
            value -= face
            dice[i] = drop(face)
        ctx.notes.append(note)
        ctx.records.append(_new(DiceGroup, (notation, tuple(dice), value)))
        return value

    return term


def modified_term(notation: str, count: int, spec: Spec, note: str, evaluate: Roller) -> Roller:
    """Rerolls, minimum / maximum and explosion (then keep / drop), die by die as
    `modifiers._roll_die`: every die first, then each one's extra dice, each drawn through
    `ctx.face` (which counts it against the limit)."""
    sides = spec.sides
    rerolls = tuple((once, _face_test(sel, sides)) for once, sel in spec.rerolls)
    clamps = spec.clamps
    explode = None if spec.explode is None else _face_test(spec.explode[1], sides)
    kind = "" if spec.explode is None else spec.explode[0]
    keeps = spec.keeps
    keep, rerolled = _die_maker(sides), _die_maker(sides, False, "relancé")
    exploded = _die_maker(sides, True, "explosé")

    def term(ctx: _Context) -> int:
        if not _counted(ctx, count):
            return evaluate(ctx)
        face = ctx.face
        pool: list[Die] = []
        for cur in _draw(ctx, sides, count):
            for once, hit in rerolls:
                while hit(cur):
                    pool.append(rerolled(cur))
                    cur = face(sides)
                    if once:
                        break
            for op, n in clamps:
                cur = max(cur, n) if op == "mi" else min(cur, n)
            if explode is None or not explode(cur):
                pool.append(keep(cur))
            else:
                _explode(cur, sides, kind, explode, face, pool, keep, exploded)
        if keeps:
            modifiers.drop_ranked(pool, keeps)
        value = sum([d.face for d in pool if d.kept])
        ctx.notes.append(note)
        ctx.records.append(_new(DiceGroup, (notation, tuple(pool), value)))
        return value

    return term


def _counted(ctx: _Context, count: int) -> bool:
    """Count `count` more dice against the limit; False when that would pass it (the term then
    rolls through `evaluate`, which refuses at the same die with the same message)."""
    rolled = ctx.rolled + count
    if rolled > MAX_DICE:
        return False
    ctx.rolled = rolled
    return True


def _draw(ctx: _Context, sides: int, count: int) -> list[int]:
    """The first face of each die, in order (counted against the limit by the caller)."""
    rnd = ctx.rnd
    if rnd is not None:
        return [int(rnd() * sides) + 1 for _ in range(count)]
    draw = ctx.source.roll
    return [draw(sides) for _ in range(count)]


def _explode(cur: int, sides: int, kind: str, explode: Callable[[int], bool],
             face: Callable[[int], int], pool: list[Die], keep: Callable[[int], Die],
             exploded: Callable[[int], Die]) -> None:
    """A die that explodes: its chain, as `modifiers._roll_die` shows it."""
    chain = [cur]
    while explode(chain[-1]) and (kind != "xo" or len(chain) == 1):
        chain.append(face(sides))
    if kind == "!!":
        pool.append(Die(sides, sum(chain), True, "cumulé"))
        return
    last = len(chain) - 1
    for i, value in enumerate(chain):
        shown = value - 1 if kind == "!p" and i > 0 else value
        pool.append(exploded(shown) if i < last else keep(shown))
