"""Kinds of actions beyond the single test: cooperation (R003.18), long actions (R003.19),
retrying after a failure (R003.17), with the RULES.md decisions (A003.09, A003.10, A003.16,
D-003.16). Opposed actions are in opposition.py, duels (R003.20) in duel.py.
"""

from __future__ import annotations

import re

from jdr.core.check import CheckResult, Modifier
from jdr.core.frozen import frozen
from jdr.core.results import Line
from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cyd.config import CydConfig
from jdr.systems.cyd.dice import is_automatic_failure
from jdr.systems.cyd.sheet import CydSheet

# ------------------------------------------------------------------ cooperation


def cooperation(helpers: tuple[int, ...], config: CydConfig) -> tuple[Modifier | None, Line]:
    """R003.18 / A003.09: the leader rolls; each helper adds the bonus of the table for their
    skill value. The document's table is missing: by default it is empty (no bonus)."""
    bonus = sum(config.cooperation_for(v) for v in helpers)
    count = len(helpers)
    shown = ", ".join(str(v) for v in helpers)
    if not config.cooperation_bonus:
        note = Line(f"coopération : {count} aide(s) (compétences {shown}) ; la table de bonus "
                    "manque au document : aucun bonus tant que le MJ ne la fournit pas "
                    "(option « Table de coopération », ex. 1:1,5:2)", "A003.09")
    else:
        note = Line(f"coopération : {count} aide(s) (compétences {shown}) → bonus {bonus:+d}",
                    "R003.18")
    modifier = Modifier(bonus, f"coopération, {count} aide(s)", "R003.18") if bonus else None
    return modifier, note


# ------------------------------------------------------------------ long actions


@frozen
class LongAction:
    """R003.19 / A003.10: what a complex test means for an action of average duration
    `duration` (outcome: heroic | success | failure | dramatic)."""

    outcome: str
    duration: str
    time: str | None
    text: str

    def note(self) -> Line:
        when = f" (temps : {self.time})" if self.time else ""
        rule = "R003.19" if self.outcome == "success" else "A003.10"
        return Line(f"action longue, durée moyenne {self.duration} : {self.text}{when}", rule)


def _scaled(duration: str, factor: float) -> str:
    """`4h` × 0.5 → `2h`; `30 min` → `15 min`; text without a number → `0,5 × text`."""
    match = re.fullmatch(r"\s*(\d{1,9}(?:[.,]\d{1,9})?)(\s*)(.*?)\s*", duration)
    if not match:
        return f"{factor:g} × {duration.strip()}".replace(".", ",")
    number = float(match.group(1).replace(",", ".")) * factor
    shown = f"{number:g}".replace(".", ",")
    return f"{shown}{' ' if match.group(2) else ''}{match.group(3)}"


def long_action(result: CheckResult, sides: int, duration: str, config: CydConfig) -> LongAction:
    """R003.19: a long action is a complex test; a success completes it after the average
    duration. A003.10 (placeholders, configurable): heroic = in half the time, failure = not
    completed yet (may go on), dramatic = not completed plus a complication."""
    assert isinstance(result.natural, int)
    if is_automatic_failure(sides, result.natural) or result.critical == "failure":
        outcome = "dramatic"
    elif result.critical == "success":
        outcome = "heroic"
    elif result.success:
        outcome = "success"
    else:
        outcome = "failure"
    texts = dict(config.long_action_outcomes)
    time: str | None = None
    if outcome == "success":
        time = duration.strip()
    elif outcome == "heroic":
        time = _scaled(duration, config.long_action_heroic_factor)
    return LongAction(outcome, duration.strip(), time, texts[outcome])


# ------------------------------------------------------------------ retrying after a failure


def retry_key(skill: str, action: str | None) -> str:
    """The name under which a failed action is remembered: `--opt action=...`, else the skill."""
    return normalize(action) if action else skill


def retry_warnings(sheet: CydSheet, key: str, skill_value: int, config: CydConfig,
                   override: bool) -> tuple[Line, ...]:
    """R003.17 / A003.16 / D-003.16: a failed action may be tried again only if circumstances
    changed in the character's favour. The software knows one change itself (the skill was
    raised since); the MJ vouches for the others with `--opt circonstances=changees`. Mode
    `bloquer` (default) refuses, `avertir` warns, `ignorer` turns the rule off."""
    if config.retry == "ignorer" or override:
        return ()
    recorded = sheet.failures.get(key)
    if recorded is None or skill_value > recorded:
        return ()
    text = (f"« {key} » a déjà échoué : une nouvelle tentative n'est permise que si les "
            "circonstances ont changé (nouvel équipement, information vitale, compétence "
            "augmentée) ; le MJ peut l'autoriser avec --opt circonstances=changees")
    if config.retry == "bloquer":
        raise RuleError(text)
    return (Line(f"attention : {text}", "D-003.16"),)


def retry_changes(doc: SheetDocument, sheet: CydSheet, key: str, skill_value: int,
                  success: bool | None, config: CydConfig
                  ) -> tuple[tuple[SheetChange, ...], tuple[Line, ...]]:
    """A003.16: remember a failure on the sheet (`echecs`), clear it after a success."""
    if config.retry == "ignorer" or success is None:
        return (), ()
    if not success:
        return ((SheetChange(doc, ("echecs", key), skill_value),),
                (Line(f"échec noté sur la fiche (echecs.{key}) : nouvelle tentative seulement si "
                      "les circonstances changent", "A003.16"),))
    if sheet.failures.get(key) is not None:
        return ((SheetChange(doc, ("echecs", key), None),),
                (Line(f"l'échec précédent de « {key} » est effacé de la fiche", "A003.16"),))
    return (), ()
