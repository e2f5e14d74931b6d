"""The exact table of one attack (R004.23–R004.32) for the simulator, from the laws of its parts.

`combat.attack` rolls, in order, the attacker's Combat griffu (CHANCE d10), the 3d10 × 5 minutes
of a cat it knocks out, or the will check of a cat still conscious. Enumerated die by die that is
12 face sequences at Chance 1 but 483,679 at Chance 3 (each die kept or not, each 1 and 10
confirmed, then 1,000 sequences of 3d10). Here each roll is the law of its own `Check` (the one
its odds count) and the steps between them are the functions `attack` calls (`wounds_from_margin`,
`wound_law`/`take_wounds`, `will_after`, `after_will`, `roll_changes`, `hurt_changes`): the table
is the same, equal values merged at each step. tests/sim/test_compiled.py compares it with the
enumeration.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from jdr.core.check import CheckResult
from jdr.core.compile import Effect, Law, check_law, effect_from, law, then
from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded
from jdr.systems.felins.checks import roll_changes
from jdr.systems.felins.combat import (
    Cover,
    after_will,
    attack_check,
    hurt_changes,
    require_fight,
    will_after,
    wounds_from_margin,
)
from jdr.systems.felins.config import FelinsConfig
from jdr.systems.felins.health import wound_law
from jdr.systems.felins.sheet import Cat


def attack_outcomes(attacker: Loaded[Cat], defender: Loaded[Cat], cover: Cover,
                    config: FelinsConfig) -> Law[Effect]:
    """Every effect of one attack on the two sheets (0: attacker, 1: defender), exact."""
    require_fight(attacker.model, defender.model)
    docs = (attacker.doc, defender.doc)

    def read(roll: CheckResult) -> tuple[Effect, int]:
        return (effect_from(roll_changes(attacker, roll), docs),
                wounds_from_margin(bool(roll.success), roll.margin))

    rolls = check_law(attack_check(attacker.model, defender.model, cover, config), read)

    def hurt(value: tuple[Effect, int]) -> Law[Effect]:
        mine, wounds = value
        return {mine + theirs: p for theirs, p in _hurt(defender, wounds, config, docs).items()}

    return then(rolls, hurt)


_HURTS: dict[str, Law[Effect]] = {}
_KEPT = 4096


def _hurt(defender: Loaded[Cat], wounds: int, config: FelinsConfig,
          docs: Sequence[SheetDocument]) -> Law[Effect]:
    """What `wounds` new wound levels write on the defender's sheet: the wounds taken (and the
    minutes of a fall), then the will check of a cat still conscious. Kept per defender (the
    whole cat: `repr`) and wounds: every attacker that wounds it so leaves the same."""
    key = f"{defender.model!r}\n{wounds}\n{config!r}"
    found = _HURTS.get(key)
    if found is None:
        if len(_HURTS) >= _KEPT:
            _HURTS.clear()
        found = _HURTS[key] = _hurt_law(defender, wounds, config, docs)
    return found


def _hurt_law(defender: Loaded[Cat], wounds: int, config: FelinsConfig,
              docs: Sequence[SheetDocument]) -> Law[Effect]:
    out: list[tuple[Effect, Fraction]] = []
    for outcome, p in wound_law(defender.model, wounds, config):
        check = will_after(outcome, wounds, config)
        wills: list[tuple[CheckResult | None, Fraction]] = (
            [(None, Fraction(1))] if check is None else list(check.outcomes()))
        out += [(effect_from(hurt_changes(defender, after_will(outcome, will), will), docs), p * q)
                for will, q in wills]
    return law(out)
