"""Dice: free notation, rolls that carry their faces, hard limits, injected randomness."""

from jdr.dice.notation import (
    MAX_DEPTH,
    MAX_DICE,
    MAX_LENGTH,
    DiceGroup,
    Die,
    RollResult,
    names_in,
    parse,
    roll,
)
from jdr.dice.source import DiceSource, FixedSource, RandomSource, finish, make_source, parse_faces

__all__ = [
    "MAX_DEPTH",
    "MAX_DICE",
    "MAX_LENGTH",
    "DiceGroup",
    "DiceSource",
    "Die",
    "FixedSource",
    "RandomSource",
    "RollResult",
    "finish",
    "make_source",
    "names_in",
    "parse",
    "parse_faces",
    "roll",
]
