"""`felins`: the forum cats & clans game (RULES.md section 5, seed 004_5e543b2922acc546.txt).

CHANCE d10, keep the best die (or the player's, `--choix N`), + skill (innate + acquired) or
+ 2 × characteristic, against a threshold (a number or a ladder name: quasi-automatique 1,
tres-facile 3, facile 5, assez-facile 7, moyen 9, assez-difficile 11, difficile 13,
tres-difficile 15, quasi-impossible 17, impossible 19). Margin in ladder rows. Every 10 and 1 is
rerolled once: two 10s = critical success (Chance +1), two 1s = critical failure (Chance −1),
both cancel; the new Chance is written back to the sheet.

Modules read like the rulebook: `tables` (every table), `config` (every [Proposed] choice, one
dataclass), `sheet` (model, template, creation budgets, skill values), `checks` (dice, criticals,
ladder, margin, opposed rolls), `combat` (to-hit, wounds, initiative, duel), `health` (states,
will check, Soigner, the healer's den), `progression` (skill rank costs), `forum` (BBCode).

Options read (`--opt cle=valeur`):
- `marge=lignes|points` (every command): margin in ladder rows (default, A004.02) or raw points.
- `echec_volontaire=oui` (check): the player fails on purpose, no dice rolled (R004.17).
- `protection=nulle|partielle|complete`, `surprise=nulle|partielle|complete` (attack):
  R004.25 / R004.26 modifiers of the to-hit threshold.
- `choix=accepter|combattre` (duel): the provoked's choice when both fail (outcome 4, A004.16).
- `seuil=N|nom` (`SYSTEM.heal`): the Soigner threshold, default Moyen 9 (A004.23).
"""

from __future__ import annotations

from jdr.systems.felins.system import FelinsSystem

SYSTEM = FelinsSystem()

__all__ = ["SYSTEM", "FelinsSystem"]
