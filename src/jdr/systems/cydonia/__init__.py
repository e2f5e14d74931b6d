"""Cydonia (seed 000, RULES.md section 1): Caractéristique + Compétence + 1D10.

Chapters, in the rulebook's order: `sheet` (the character, 1.1), `checks` (resolution, 1.2),
`combat` and `wounds` (combat, 1.3), `duel` (a fight to the end, used by `jdr duel` and the
demo), `progression` (1.4), `adventure` (other rules, 1.5); `tables` (the rule tables),
`config` (the configurable readings and each command's options), `view` (sheet and help),
`system` (the commands).
"""

from jdr.systems.cydonia.system import SYSTEM, Cydonia

__all__ = ["SYSTEM", "Cydonia"]
