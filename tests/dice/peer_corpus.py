"""Expressions of the peers (d20's test suite, Roll20's, Foundry's and the Discord bots' docs).

Each entry: the expression, where it comes from, how jdr reads it, and the expected minimum,
maximum and mean *of the peer's meaning* (for `PEER`) or of jdr's documented meaning (for
`OTHER`, see the table in docs/des.md); `REFUSED` ones must be refused with a French message.
Means are worked out by hand: N(S+1)/2 for NdS, N·p for a success count, m = (S+1)/2 · S/(S-1)
for an exploding die, the known order statistics for 4d6kh3 (15869/1296) and 2d20kh1 (553/40).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import NamedTuple

PEER, OTHER, REFUSED = "pair", "autre", "refus"

D20 = "avrae/d20 tests/test_dice.py"
ROLL20 = "Roll20 Dice Reference"
FOUNDRY = "Foundry VTT Dice Modifiers / Advanced Dice"
MAIDEN = "Dice Maiden README"
BOTS = "bots Discord (Sidekick, Avrae, Dice Maiden)"


class Case(NamedTuple):
    expression: str
    source: str
    status: str
    low: int | None = None
    high: int | None = None  # None: unbounded (explosions)
    mean: F | None = None


def _nds(n: int, s: int) -> F:
    return F(n * (s + 1), 2)


def _boom(s: int) -> F:
    """Mean of one exploding dS (explodes on its highest face)."""
    return F(s + 1, 2) * F(s, s - 1)


KH3 = F(15869, 1296)
ADV = F(553, 40)
DIS = F(21, 1) - ADV

CORPUS: list[Case] = [
    # ---- d20's own test suite
    Case("1d20", D20, PEER, 1, 20, _nds(1, 20)),
    Case("1+1", D20, PEER, 2, 2, F(2)),
    Case("4d6kh3", D20, PEER, 3, 18, KH3),
    Case("(1)", D20, PEER, 1, 1, F(1)),
    Case("(1,)", D20, REFUSED),
    Case("((1d6))", D20, PEER, 1, 6, F(7, 2)),
    Case("4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)", D20, OTHER),  # `/` rounds down here
    Case("(1d4, 2+2, 3d6kl1)kh1", D20, PEER, 4, 6),
    Case("((10d6kh5)kl2)kh1", D20, PEER, 1, 6),
    Case("(((1d6)))", D20, PEER, 1, 6, F(7, 2)),
    Case("1 + 3 * 6", D20, PEER, 19, 19, F(19)),
    Case("1 + (3 * 6)", D20, PEER, 19, 19, F(19)),
    Case("(1 + 3) * 6", D20, PEER, 24, 24, F(24)),
    Case("1 + 2 + 3", D20, PEER, 6, 6, F(6)),
    Case("1 + 2 == 2", D20, OTHER, 3, 3, F(3)),  # jdr: the total 3, and « échec »
    Case("1 + (2 == 2)", D20, PEER, 2, 2, F(2)),
    Case("1001d6", D20, REFUSED),
    Case("6d0", D20, REFUSED),
    Case("10d6mil1", D20, REFUSED),
    Case("10d6k1k2k3", D20, OTHER, 1, 6),  # d20: literal 1s, 2s, 3s; jdr: highest 1
    Case("10d6k1ph1", D20, OTHER, 0, 0, F(0)),  # jdr: keep the highest, then drop it
    Case("(1, 2, 3)k1k2", D20, OTHER, 3, 3, F(3)),
    Case("1d20 > 15", D20, OTHER, 1, 20, _nds(1, 20)),  # jdr: the total, with success shown
    Case("1", D20, PEER, 1, 1, F(1)),
    Case("10000", D20, PEER, 10000, 10000, F(10000)),
    Case("1.5", D20, REFUSED),
    Case(".5", D20, REFUSED),
    Case("0d6", D20, PEER, 0, 0, F(0)),
    Case("d6", D20, PEER, 1, 6, F(7, 2)),
    Case("2d6", D20, PEER, 2, 12, F(7)),
    Case("(1, 1)", D20, PEER, 2, 2, F(2)),
    Case("+1", D20, PEER, 1, 1, F(1)),
    Case("-1", D20, PEER, -1, -1, F(-1)),
    Case("--1", D20, PEER, 1, 1, F(1)),
    Case("-+-++---+1", D20, PEER, -1, -1, F(-1)),
    Case("2 + 2", D20, PEER, 4, 4, F(4)),
    Case("2 * 5", D20, PEER, 10, 10, F(10)),
    Case("15 / 2", D20, PEER, 7, 7, F(7)),
    Case("15 // 2", D20, REFUSED),
    Case("13 % 2", D20, REFUSED),
    Case("10 / 0", D20, REFUSED),
    Case("(1, 2, 3, 4, 5)k3", D20, OTHER, 12, 12, F(12)),  # d20: the literal 3
    Case("(1, 2, 3, 4, 5)k<3", D20, OTHER, 5, 5, F(5)),  # jdr: kh1, then 5 < 3 (échec)
    Case("(1, 2, 3, 4, 5)kl2", D20, PEER, 3, 3, F(3)),
    Case("(1, 2, 3, 4, 5)kh2", D20, PEER, 9, 9, F(9)),
    Case("(1, 2, 3, 4, 5)kh1kl1", D20, OTHER, 5, 5, F(5)),  # d20: union of both selections
    Case("(1, 2, 3, 4, 5)p3", D20, OTHER, 9, 9, F(9)),  # d20: drop the literal 3; jdr: lowest 3
    Case("(1, 2, 3, 4, 5)ph1pl1", D20, PEER, 9, 9, F(9)),
    Case("1d20rr<20", D20, PEER, 20, 20, F(20)),
    Case("1d20rr>1", D20, PEER, 1, 1, F(1)),
    Case("1d20rr<21", D20, REFUSED),
    Case("1d1rr1", D20, REFUSED),
    Case("1d1ro1", D20, PEER, 1, 1, F(1)),
    Case("1d6rol1", D20, REFUSED),
    Case("1d1ra1", D20, REFUSED),
    Case("1d2e2", D20, PEER, 1, None, _boom(2)),
    Case("1d20e<21", D20, REFUSED),
    Case("1d1e1", D20, REFUSED),
    Case("10d6mi6", D20, PEER, 60, 60, F(60)),
    Case("10d6mi10", D20, REFUSED),  # jdr: a minimum beyond the faces is refused
    Case("10d6mi2", D20, PEER, 20, 60),
    Case("10d6ma1", D20, PEER, 10, 10, F(10)),
    Case("10d6ma0", D20, REFUSED),
    Case("10d6ma5", D20, PEER, 10, 50),
    # ---- Roll20
    Case("3d6", ROLL20, PEER, 3, 18, F(21, 2)),
    Case("1d%", ROLL20, PEER, 1, 100, F(101, 2)),
    Case("4dF", ROLL20, PEER, -4, 4, F(0)),
    Case("3d6!", ROLL20, PEER, 3, None, 3 * _boom(6)),
    Case("3d6!>5", ROLL20, OTHER, 3, None),  # Roll20: ≥ 5; jdr: strictly above 5 (= 6)
    Case("3d6!>=5", ROLL20, PEER, 3, None, 3 * (F(7, 2) * F(6, 4))),
    Case("5d6!!", ROLL20, PEER, 5, None, 5 * _boom(6)),
    Case("5d6!!5", ROLL20, PEER, 5, None),
    Case("1d6!p", ROLL20, PEER, 1, None, F(4)),
    Case("8d100k4", ROLL20, PEER, 4, 400),
    Case("8d100d3", ROLL20, PEER, 5, 500),
    Case("8d100kl4", ROLL20, PEER, 4, 400),
    Case("8d100dh3", ROLL20, PEER, 5, 500),
    Case("4d6kh3", ROLL20, PEER, 3, 18, KH3),
    Case("4d6dl1", ROLL20, PEER, 3, 18, KH3),
    Case("2d20kh1", ROLL20, PEER, 1, 20, ADV),
    Case("2d20kl1", ROLL20, PEER, 1, 20, DIS),
    Case("3d6>3", ROLL20, PEER, 0, 3, F(3) * F(4, 6)),
    Case("6d10>7", ROLL20, PEER, 0, 6, F(6) * F(4, 10)),
    Case("10d6<4", ROLL20, PEER, 0, 10, F(10) * F(4, 6)),
    Case("3d6>3f1", ROLL20, PEER, -3, 3, F(3) * (F(4, 6) - F(1, 6))),
    Case("10d6>4f<2", ROLL20, PEER, -10, 10, F(10) * (F(3, 6) - F(2, 6))),
    Case("2d8r<2", ROLL20, OTHER, 2, 16),  # Roll20 rerolls until; jdr once (use rr)
    Case("2d8rr<2", ROLL20, PEER, 4, 16, F(10)),
    Case("2d8ro<2", ROLL20, PEER, 2, 16),
    Case("{4d6+3d8}kh1", ROLL20, OTHER, 7, 48, F(14) + F(27, 2)),  # Roll20: among the 7 dice
    Case("{4d6, 3d8}kh1", ROLL20, PEER, 4, 24),
    Case("{3d20+5}>21", ROLL20, OTHER, 0, 1),  # Roll20 counts each die + 5; jdr the total
    Case("{1d20, 1d20}kh1", ROLL20, PEER, 1, 20, ADV),
    Case("{2d6, 2d6, 2d6}>7", ROLL20, PEER, 0, 3, F(3) * F(21, 36)),
    Case("{4d6kh3, 4d6kh3, 4d6kh3, 4d6kh3, 4d6kh3, 4d6kh3}dl1", ROLL20, PEER, 15, 90),
    Case("1d20+5[bonus]", ROLL20, PEER, 6, 25, F(31, 2)),
    Case("2d6[feu]+1d4[froid]", ROLL20, PEER, 3, 16, F(7) + F(5, 2)),
    Case("floor(1d6/2)", ROLL20, PEER, 0, 3, F(3, 2)),
    Case("ceil(1d6/2)", ROLL20, PEER, 1, 3, F(2)),
    Case("round(1d6/2)", ROLL20, PEER, 1, 3, F(2)),
    Case("abs(1d6-1d6)", ROLL20, PEER, 0, 5, F(35, 18)),
    Case("4d6sd", ROLL20, REFUSED),
    Case("3d6mt", ROLL20, REFUSED),
    Case("1d20cs>18", ROLL20, OTHER, 0, 1, F(2, 20)),  # Roll20: highlight only; jdr counts
    Case("1d20cf<3", ROLL20, OTHER, 0, 1, F(2, 20)),
    Case("&{template:default}", ROLL20, REFUSED),
    Case("1d20+@{dex}", ROLL20, REFUSED),
    # ---- Foundry
    Case("10d10cs>=7", FOUNDRY, PEER, 0, 10, F(4)),
    Case("10d6cs>4", FOUNDRY, PEER, 0, 10, F(10, 3)),
    Case("10d6cf<3", FOUNDRY, PEER, 0, 10, F(10, 3)),
    Case("10d6cs>4df<2", FOUNDRY, PEER, -10, 10, F(10, 3) - F(10, 6)),
    Case("2d20kh", FOUNDRY, PEER, 1, 20, ADV),
    Case("2d20kl", FOUNDRY, PEER, 1, 20, DIS),
    Case("4d6k3", FOUNDRY, PEER, 3, 18, KH3),
    Case("4d6d", FOUNDRY, PEER, 3, 18, KH3),
    Case("4d6dl", FOUNDRY, PEER, 3, 18, KH3),
    Case("5d10dh2", FOUNDRY, PEER, 3, 30),
    Case("1d20r", FOUNDRY, PEER, 1, 20, F(21, 2) + F(1, 20) * F(19, 2)),
    Case("1d20r<3", FOUNDRY, PEER, 1, 20),
    Case("1d20rr<3", FOUNDRY, PEER, 3, 20, F(23, 2)),
    Case("4d6r=1", FOUNDRY, PEER, 4, 24),
    Case("5d10x", FOUNDRY, PEER, 5, None, 5 * _boom(10)),
    Case("5d10x10", FOUNDRY, PEER, 5, None, 5 * _boom(10)),
    Case("5d10x>=8", FOUNDRY, PEER, 5, None),
    Case("5d10xo", FOUNDRY, PEER, 5, 100, 5 * (F(11, 2) + F(1, 10) * F(11, 2))),
    Case("5d10xo>=8", FOUNDRY, PEER, 5, 100),
    Case("3d6min2", FOUNDRY, PEER, 6, 18),
    Case("3d6max5", FOUNDRY, PEER, 3, 15),
    Case("4dF", FOUNDRY, PEER, -4, 4, F(0)),
    Case("1d%", FOUNDRY, PEER, 1, 100, F(101, 2)),
    Case("{4d6, 3d8}kh", FOUNDRY, PEER, 4, 24),
    Case("{1d20, 1d20}kh", FOUNDRY, PEER, 1, 20, ADV),
    Case("{1d10, 1d20, 1d30}cs>=10", FOUNDRY, PEER, 0, 3),
    Case("(1d4)d6", FOUNDRY, PEER, 1, 24, F(5, 2) * F(7, 2)),
    Case("(2)d6", FOUNDRY, PEER, 2, 12, F(7)),
    Case("1d20 # attaque", FOUNDRY, PEER, 1, 20, F(21, 2)),
    Case("2d6[feu]", FOUNDRY, PEER, 2, 12, F(7)),
    Case("1d6/2", FOUNDRY, OTHER, 0, 3, F(3, 2)),  # Foundry: exact 0.5..3; jdr rounds down
    Case("10d6sf<3", FOUNDRY, REFUSED),
    Case("1d20ms>10", FOUNDRY, REFUSED),
    Case("4d6even", FOUNDRY, REFUSED),
    Case("1d20 + @abilities.str.mod", FOUNDRY, REFUSED),
    Case("1d20 * 2 + 1d6[feu]", FOUNDRY, PEER, 3, 46, F(21) + F(7, 2)),
    # ---- Discord bots
    Case("6x 4d6kh3", BOTS, PEER, 3, 18, KH3),
    Case("4d6kh3 x6", BOTS, PEER, 3, 18, KH3),
    Case("adv", BOTS, PEER, 1, 20, ADV),
    Case("dis", BOTS, PEER, 1, 20, DIS),
    Case("avantage+5", BOTS, PEER, 6, 25, ADV + 5),
    Case("désavantage", BOTS, PEER, 1, 20, DIS),
    Case("1d20 ! Attaque", MAIDEN, PEER, 1, 20, F(21, 2)),
    Case("6d10t7", MAIDEN, PEER, 0, 6, F(6) * F(4, 10)),
    Case("6d10 t7", MAIDEN, REFUSED),
    Case("4d6 d1", MAIDEN, REFUSED),
    Case("6d10e10", MAIDEN, PEER, 6, None, 6 * _boom(10)),
    Case("6d10 e10", MAIDEN, REFUSED),
    Case("4d6kh3+2d6-1", BOTS, PEER, 4, 29, KH3 + 6),
]
