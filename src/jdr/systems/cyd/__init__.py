"""CYD System / Choose Your Dice (RULES.md section 4; seed 003, Wasteland demo kit).

Capacité (attribute + skill, −3 at skill 0) + a d10 (cautious) or a d20 (risky: odd faces count
0, 1 and 11 are dramatic failures) against a threshold, or against another character.

Modules, in the order of the rulebook: `tables` (every table), `config` (every configurable
choice, defaults = RULES.md decisions), `sheet` (the sheet), `dice` (the dice and the judge),
`checks` (the Capacité test, opposed tests, prédilection, odds), `actions` (cooperation, long
actions, retrying), `duel`, `session` (new game session), `combat` and `progression` (absent
from the document: they say so).

`--opt cle=valeur` keys read by this system:
- `predilection=oui` : use the skill's prédilection (reroll, keep either result: `--choix 1|2`,
  default the better); `predilection=N` : the first roll (face N) was already made at the
  table, only the reroll is rolled. The box is ticked on the sheet (R003.04).
- `opposition=active|passive` : with `--contre`, both roll (default) or the threshold is the
  opponent's Capacité (A003.03). `de_adverse=d10|d20` : the opponent's die (default d10).
  `carac_adverse=ATTRIBUT` : the opponent's attribute (default: their usual one).
- `aides=3,5` : cooperation, the helpers' skill values (R003.18); `table_cooperation=1:1,5:2` :
  the bonus table (minimum skill : bonus), empty by default (A003.09).
- `duree=4h` : long action of that average duration (R003.19, A003.10).
- `action=NOM` : name of the action for the retry rule (default: the skill);
  `circonstances=changees` : the MJ allows a new attempt (A003.16);
  `retente=avertir|bloquer|ignorer` : the retry rule's mode (default avertir).
- `de_par_defaut=d10|d20` : the die rolled when `--de` is absent (default d10, announced).
- `jdr duel` : `competence`, `competence_a`, `competence_b`, `attributs=adresse,puissance`
  (per round, the last one stays), `attributs_b`, `de_a`, `de_b`, `victoires` (default 2),
  `manches_max` (default 9).

JSON of `jdr odds`: one object per die, `{"d10": {...}, "d20": {...}}`, each with `success`,
`critical_success` (= heroic), `critical_failure` (= dramatic, including 1/11),
`automatic_failure`, `distribution` (computed final results only; the 1/11 faces have none).
With `--de`, only that die, and its keys are also repeated at the top level.
JSON of `jdr check`: `total` is null on a 1/11 of the d20 (no final result is computed).

`CydSystem.check` returns `(result, changes)`: the sheet changes (prédilection box ticked,
failed actions under `echecs`), also kept in `result.changes`.
"""

from __future__ import annotations

from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    GameSystem,
    Result,
    SheetChange,
    XpRequest,
)
from jdr.dice.source import DiceSource
from jdr.systems.cyd.checks import CydCheckResult, CydOdds, CydOpposedResult, run_check, run_odds
from jdr.systems.cyd.config import DEFAULT, CydConfig
from jdr.systems.cyd.sheet import TEMPLATE, CydSheet, load_sheet
from jdr.systems.cyd.view import SheetView


class CydSystem(GameSystem):
    """The CYD System (Choose Your Dice)."""

    id = "cyd"
    title = "CYD System (Choose Your Dice)"
    seed = "003_11633f604b352128.txt"

    def __init__(self, config: CydConfig = DEFAULT) -> None:
        self.config = config

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> CydSheet:
        return load_sheet(doc)

    def check_sheet(self, doc: SheetDocument, creation: bool = False) -> list[str]:
        # A003.12: the document has no creation rules; creation checks = the usual ones.
        return super().check_sheet(doc, creation)

    def show(self, doc: SheetDocument) -> SheetView:
        return SheetView(load_sheet(doc))

    def check(self, request: CheckRequest, source: DiceSource  # type: ignore[override]
              ) -> tuple[CydCheckResult | CydOpposedResult, list[SheetChange]]:
        """The test and the sheet changes it makes (prédilection box, failed action): the
        CLI applies `(result, changes)` as it does for attacks."""
        result = run_check(request, source, self.config)
        return result, list(result.changes)

    def odds(self, request: CheckRequest) -> CydOdds:
        return run_odds(request, self.config)

    def attack(self, request: AttackRequest, source: DiceSource
               ) -> tuple[Result, list[SheetChange]]:
        from jdr.systems.cyd.combat import no_combat_rules

        raise no_combat_rules()

    def initiative(self, docs: list[SheetDocument], source: DiceSource) -> Result:
        from jdr.systems.cyd.combat import no_initiative_rules

        raise no_initiative_rules()

    def xp(self, request: XpRequest) -> tuple[Result, list[SheetChange]]:
        from jdr.systems.cyd.progression import no_xp_rules

        raise no_xp_rules()

    def duel(self, a: SheetDocument, b: SheetDocument, source: DiceSource,
             options: dict[str, str]) -> tuple[Result, list[SheetChange]]:
        from jdr.systems.cyd.duel import run_duel

        return run_duel(a, b, source, options, self.config)

    def new_session(self, docs: list[SheetDocument]) -> tuple[Result, list[SheetChange]]:
        from jdr.systems.cyd.session import new_session

        return new_session(docs)


SYSTEM = CydSystem()

__all__ = ["SYSTEM", "CydConfig", "CydSystem"]
