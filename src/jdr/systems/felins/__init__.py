"""`felins`: the forum cats & clans game (RULES.md section 5, seed 004_5e543b2922acc546.txt).

CHANCE d10, keep the best die (or the player's, `--choix N`), + skill (innate + acquired) or
+ 2 × characteristic, against a threshold (a number or a ladder name, D-004.31: quasi-automatique
1, tres-facile 3, facile 5, assez-facile 7, moyen 9, assez-difficile 11, difficile 13,
tres-difficile 15, quasi-impossible 17, impossible 19). Margin in ladder rows. Every 10 and 1 is
rerolled once: two 10s = critical success (Chance +1), two 1s = critical failure (Chance −1),
both cancel; the new Chance is written back to the sheet.

Modules read like the rulebook: `tables` (every table), `config` (every [Proposed] choice, one
dataclass, and the options each action declares), `sheet` (model, template, creation budgets,
skill values), `dice` (CHANCE d10 and the confirmation rerolls, 3d10 × 5 minutes), `checks`
(judge, criticals, margin, building rolls, the die kept after the roll), `opposed` (opposed rolls
and their ties), `combat` (to-hit, wounds, initiative), `duel` (the duel of provocation),
`health` (wounds, states, will check), `care` (Soigner, the healer's den, waking up, the end of a
fight), `rules` (those rules declared for `jdr regle`), `states` (D-ALL.02 states and the
encounter hooks), `progression` (skill rank costs), `view` (sheet show, help), `demo`.

Actions: check, odds, attack, initiative, duel; rules (`jdr regle`): soigner, tanniere, reveil,
fin_combat. No `xp`: the shop's prices are not in the rules (A004.24).
"""

from __future__ import annotations

from jdr.systems.felins.system import FelinsSystem

SYSTEM = FelinsSystem()

__all__ = ["SYSTEM", "FelinsSystem"]
