"""Le test de Capacité (R003.06–R003.15): Capacité = attribute + skill (−3 at skill 0), plus the
chosen die, against a threshold (complex action), against another character (opposed action,
active or passive), with the prédilection reroll, cooperation and long actions.

One `TestPlan` is built from a request; `roll_plan` rolls it and `plan_odds` computes its exact
odds from the very same `Check` objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from jdr.core.check import Check, CheckResult, Modifier
from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import lookup, normalize, unknown_name_message
from jdr.systems.cyd import tables
from jdr.systems.cyd.actions import (
    LongAction,
    cooperation,
    long_action,
    parse_helpers,
    retry_changes,
    retry_key,
    retry_warnings,
)
from jdr.systems.cyd.config import CHECK_KEYS, CydConfig, check_option_keys, die_name
from jdr.systems.cyd.dice import CydDie, CydJudge, PredilectionRoll, is_automatic_failure
from jdr.systems.cyd.sheet import CydSheet, load_sheet

# ------------------------------------------------------------------ Capacité


@dataclass(frozen=True)
class Capacity:
    """R003.06 / R003.09: Capacité = attribute + skill, minus 3 when the skill is 0."""

    character: str
    attribute: str
    attribute_value: int
    skill: str
    skill_value: int

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        mods = [
            Modifier(self.attribute_value, tables.ATTRIBUTE_LABELS[self.attribute]),
            Modifier(self.skill_value, self.skill),
        ]
        if self.skill_value == 0:
            mods.append(Modifier(tables.UNTRAINED_SKILL_MALUS, "compétence à 0 (R003.09)"))
        return tuple(mods)

    @property
    def value(self) -> int:
        """A003.15: may be negative (attribute < 3 with the skill at 0)."""
        return sum(m.value for m in self.modifiers)

    def describe(self) -> str:
        text = (f"{tables.ATTRIBUTE_LABELS[self.attribute]} {self.attribute_value} + "
                f"{self.skill} {self.skill_value}")
        if self.skill_value == 0:
            text += f" − {-tables.UNTRAINED_SKILL_MALUS}"
        return f"{text} = Capacité {self.value}"

    def to_json(self) -> dict[str, Any]:
        return {"attribute": self.attribute, "attribute_value": self.attribute_value,
                "skill": self.skill, "skill_value": self.skill_value, "capacite": self.value}


def attribute_name(name: str) -> str:
    """R003.01 / A003.18: the attribute the MJ picks, by any spelling (D-ALL.01)."""
    key = normalize(name)
    if key not in tables.ATTRIBUTES:
        raise RuleError(unknown_name_message("attribut", name, tables.ATTRIBUTES))
    return key


def capacity(sheet: CydSheet, skill: str, carac: str | None) -> Capacity:
    """R003.06: the MJ decides the attribute and the skill; the skill's usual attribute
    (`attribut_usuel`) is the default, `--carac` picks another (A003.18)."""
    key, value = lookup(skill, sheet.skills, f"compétence de {sheet.nom}")
    if carac:
        attribute = attribute_name(carac)
    elif key in sheet.usual:
        attribute = sheet.usual[key]
    else:
        raise RuleError(
            f"la compétence « {key} » de {sheet.nom} n'a pas d'attribut usuel : le MJ le "
            f"choisit avec --carac ({', '.join(tables.ATTRIBUTES)})"
        )
    return Capacity(sheet.nom, attribute, sheet.attributs.get(attribute), key, value)


def parse_threshold(text: str, config: CydConfig) -> tuple[int, str | None]:
    """R003.11 / R003.12 / D-003.06: a number, or a name of the (configurable) ladder."""
    raw = text.strip().replace("−", "-")
    if re.fullmatch(r"[+-]?\d{1,6}", raw):
        return int(raw), None
    ladder = config.ladder_map
    try:
        name, value = lookup(raw, ladder, "seuil", tables.LADDER_ALIASES)
    except RuleError as exc:
        raise RuleError(exc.message + " (ou un nombre)") from None
    return value, name


def make_check(cap: Capacity, die: str, extra: tuple[Modifier, ...], threshold: int | None,
               natural: CydDie | PredilectionRoll | None = None) -> Check:
    """R003.07: final result = Capacité + the die (R003.08 for the d20), judged by CydJudge."""
    sides = tables.DICE[die]
    return Check(
        label=f"{cap.character} : {tables.ATTRIBUTE_LABELS[cap.attribute]} + {cap.skill} ({die})",
        natural=natural if natural is not None else CydDie(sides),
        modifiers=cap.modifiers + extra,
        judge=CydJudge(sides),
        threshold=threshold,
        rule="R003.07",
    )


# ------------------------------------------------------------------ opposed actions


@dataclass(frozen=True)
class OpposedOutcome:
    """Who won an opposed test (R003.13, A003.04, A003.05)."""

    winner: str | None  # "actor", "opponent" or None (nobody: status quo)
    heroic: bool
    tie: bool
    notes: tuple[str, ...]


def opposed_outcome(a: CheckResult, a_sides: int, a_skill: int,
                    b: CheckResult, b_sides: int, b_skill: int) -> OpposedOutcome:
    """R003.13: the higher final result wins; on a tie the higher skill wins (A003.04: each
    side's own skill; still tied = status quo, nobody wins). A003.05: a 1/11 on the d20 is an
    automatic dramatic failure and a loss (both: nobody wins); the winner's success is heroic if
    their final is ≥ the loser's final + 10."""
    assert isinstance(a.natural, int) and isinstance(b.natural, int)
    a_auto = is_automatic_failure(a_sides, a.natural)
    b_auto = is_automatic_failure(b_sides, b.natural)
    if a_auto and b_auto:
        return OpposedOutcome(None, False, False, (
            "les deux camps font un échec dramatique automatique : personne ne l'emporte "
            "(A003.05)",))
    if a_auto:
        return OpposedOutcome("opponent", False, False, (
            "échec dramatique automatique de l'acteur : l'adversaire l'emporte (A003.05)",))
    if b_auto:
        return OpposedOutcome("actor", False, False, (
            "échec dramatique automatique de l'adversaire : l'acteur l'emporte (A003.05)",))
    if a.total != b.total:
        winner = "actor" if a.total > b.total else "opponent"
        heroic = abs(a.total - b.total) >= tables.EXCEPTIONAL_GAP
        notes = ("réussite héroïque du vainqueur : résultat ≥ celui du perdant + 10 (A003.05)",) \
            if heroic else ()
        return OpposedOutcome(winner, heroic, False, notes)
    if a_skill != b_skill:
        winner = "actor" if a_skill > b_skill else "opponent"
        return OpposedOutcome(winner, False, True, (
            f"égalité ({a.total}) : la compétence la plus haute l'emporte ({a_skill} contre "
            f"{b_skill}) (R003.13)",))
    return OpposedOutcome(None, False, True, (
        f"égalité ({a.total}) et compétences égales ({a_skill}) : statu quo, personne ne "
        "l'emporte, l'action n'aboutit pas (A003.04)",))


# ------------------------------------------------------------------ the plan of one test


@dataclass(frozen=True)
class TestPlan:
    """Everything a test needs, built once from a request; rolled or turned into odds."""

    check: Check
    die: str
    capacity: Capacity
    threshold_name: str | None = None
    opponent: Check | None = None
    opponent_die: str | None = None
    opponent_capacity: Capacity | None = None
    passive: bool = False
    predilection: bool = False
    long_duration: str | None = None
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    changes: tuple[SheetChange, ...] = ()
    retry_key: str | None = None

    @property
    def sides(self) -> int:
        return tables.DICE[self.die]


def _yes(value: str) -> bool | None:
    key = normalize(value)
    if key in ("oui", "o", "vrai", "true", "yes"):
        return True
    if key in ("non", "n", "faux", "false", "no", ""):
        return False
    return None


def _predilection(req: CheckRequest, sheet: CydSheet, cap: Capacity, die: str, rolling: bool
                  ) -> tuple[PredilectionRoll | None, tuple[SheetChange, ...], tuple[str, ...]]:
    """R003.04 / A003.13: one reroll per game session with the same die, the player keeps either
    result (--choix 1|2, by default the better one), and the box is ticked on the sheet."""
    options = {normalize(k): v for k, v in req.options.items()}
    raw = options.get("predilection")
    use = _yes(raw) if raw is not None else False
    first: int | None = None
    sides = tables.DICE[die]
    if use is None:
        assert raw is not None
        text = raw.strip()
        if not text.isdigit() or not 1 <= int(text) <= sides:
            raise RuleError(
                f"--opt predilection={raw} : attendu oui, non, ou la face du premier jet "
                f"(1 à {sides} sur le {die})"
            )
        first = int(text)
        use = True
    if not use:
        if req.choice is not None:
            raise RuleError("--choix ne sert qu'avec la relance de prédilection "
                            "(--opt predilection=oui)")
        return None, (), ()
    if req.choice is not None and req.choice not in (1, 2):
        raise RuleError(f"--choix {req.choice} : la prédilection donne deux résultats, "
                        "gardez le 1 ou le 2")
    state = sheet.boxes.get(cap.skill)
    notes: list[str] = []
    if state is None:
        raise RuleError(f"{cap.character} n'a pas de prédilection pour « {cap.skill} » "
                        f"(prédilections : {', '.join(sorted(sheet.boxes)) or 'aucune'})")
    if state == tables.PREDILECTION_USED:
        if rolling:
            raise RuleError(
                f"la prédilection « {cap.skill} » de {cap.character} est déjà utilisée pour "
                "cette séance de jeu : pas de relance avant la prochaine séance "
                "(jdr session new) (R003.04)"
            )
        notes.append(f"la prédilection « {cap.skill} » est déjà utilisée pour cette séance")
    if req.choice is None:
        notes.append("prédilection : le dé est relancé, le meilleur des deux résultats est "
                     "gardé (--choix 1 ou 2 pour garder l'autre) (R003.04)")
    else:
        notes.append(f"prédilection : le dé est relancé, le résultat n° {req.choice} est gardé "
                     "(R003.04)")
    changes = (SheetChange(req.sheet, ("predilections", cap.skill), tables.PREDILECTION_USED),) \
        if rolling else ()
    return PredilectionRoll(sides, req.choice, first), changes, tuple(notes)


def choose_die(value: str | None, config: CydConfig) -> tuple[str, tuple[str, ...]]:
    """R003.05: the player chooses the d10 or the d20; any other die is refused."""
    if value:
        return die_name(value), ()
    if config.default_die is None:
        raise RuleError("choisissez votre dé : --de d10 (prudent) ou --de d20 (risqué) (R003.05)")
    return config.default_die, (f"dé non précisé : {config.default_die} par défaut "
                                "(--de d10 ou --de d20) (R003.05)",)


def build_plan(req: CheckRequest, config: CydConfig, die: str, rolling: bool) -> TestPlan:
    """Read a request into one test (R003.06 Capacité, R003.11 threshold, R003.13 / A003.03
    opponent, R003.04 prédilection, R003.18 cooperation, R003.19 long action, A003.16 retry)."""
    options = {normalize(k): v for k, v in req.options.items()}
    sheet = load_sheet(req.sheet)
    cap = capacity(sheet, req.skill, req.carac)
    notes: list[str] = []
    natural, changes, pred_notes = _predilection(req, sheet, cap, die, rolling)
    notes.extend(pred_notes)

    extra: list[Modifier] = []
    if req.bonus:
        extra.append(Modifier(req.bonus, "bonus du MJ"))
    if "aides" in options:
        modifier, note = cooperation(parse_helpers(options["aides"]), config)
        notes.append(note)
        if modifier is not None:
            extra.append(modifier)

    threshold: int | None = None
    threshold_name: str | None = None
    opponent: Check | None = None
    opponent_cap: Capacity | None = None
    opponent_die: str | None = None
    if req.opponent is not None:
        if req.threshold is not None:
            raise RuleError("un test se fait contre un seuil (--seuil) ou contre un adversaire "
                            "(--contre), pas les deux")
        other = load_sheet(req.opponent)
        carac = options.get("carac_adverse")
        skill = req.opponent_skill or cap.skill
        key, _ = lookup(skill, other.skills, f"compétence de {other.nom}")
        if carac is None and key not in other.usual:
            carac = cap.attribute
            notes.append(f"attribut de {other.nom} : {tables.ATTRIBUTE_LABELS[carac]}, comme "
                         "l'acteur (--opt carac_adverse=... pour un autre)")
        opponent_cap = capacity(other, skill, carac)
        if config.passive_opposition:
            threshold = opponent_cap.value
            notes.append(f"opposition passive : le seuil est la Capacité de {other.nom} "
                         f"({opponent_cap.describe()}) (A003.03)")
        else:
            opponent_die = config.opponent_die
            opponent = make_check(opponent_cap, opponent_die, (), None)
    elif req.threshold is not None:
        threshold, threshold_name = parse_threshold(req.threshold, config)

    duration = options.get("duree")
    if duration is not None:
        if threshold is None or opponent is not None:
            raise RuleError("action longue (--opt duree) : c'est une action complexe, donnez "
                            "un seuil (--seuil) (R003.19)")
        if not duration.strip():
            raise RuleError("--opt duree : durée moyenne vide (exemple : --opt duree=4h)")

    key = retry_key(cap.skill, options.get("action"))
    # A003.16: the MJ's override (`--opt circonstances=changees`, or oui)
    override = "circonstances" in options and _yes(options["circonstances"]) is not False
    judged = threshold is not None or opponent is not None
    warnings = retry_warnings(sheet, key, cap.skill_value, config, override) \
        if rolling and judged else ()
    if override and rolling:
        notes.append("le MJ indique que les circonstances ont changé : nouvelle tentative "
                     "permise (R003.17)")

    return TestPlan(
        check=make_check(cap, die, tuple(extra), threshold, natural),
        die=die, capacity=cap, threshold_name=threshold_name,
        opponent=opponent, opponent_die=opponent_die, opponent_capacity=opponent_cap,
        passive=config.passive_opposition and req.opponent is not None,
        predilection=natural is not None, long_duration=duration,
        notes=tuple(notes), warnings=warnings, changes=changes,
        retry_key=key if judged else None,
    )


# ------------------------------------------------------------------ results


def _pct(p: Fraction | None) -> str:
    if p is None:
        return "—"
    return f"{float(p) * 100:.1f} %".replace(".", ",")


@dataclass(frozen=True)
class CydCheckResult:
    """One Capacité test as rolled (R003.07): the core CheckResult plus what CYD adds."""

    result: CheckResult
    die: str
    capacity: Capacity
    threshold_name: str | None = None
    predilection: bool = False
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    changes: tuple[SheetChange, ...] = ()
    long_action: LongAction | None = None

    @property
    def automatic_failure(self) -> bool:
        assert isinstance(self.result.natural, int)
        return is_automatic_failure(tables.DICE[self.die], self.result.natural)

    @property
    def total(self) -> int | None:
        """The final result; None on a 1/11 of the d20 ("on ne calcule pas le résultat final")."""
        return None if self.automatic_failure else self.result.total

    @property
    def success(self) -> bool | None:
        return self.result.success

    @property
    def heroic(self) -> bool:
        return self.result.critical == "success"

    @property
    def dramatic(self) -> bool:
        return self.result.critical == "failure"

    def to_json(self) -> dict[str, Any]:
        data = self.result.to_json()
        data.update({
            "total": self.total,
            "die": self.die,
            "capacite": self.capacity.value,
            "attribute": self.capacity.attribute,
            "skill": self.capacity.skill,
            "heroic_success": self.heroic,
            "dramatic_failure": self.dramatic,
            "automatic_failure": self.automatic_failure,
            "threshold_name": self.threshold_name,
            "predilection": self.predilection,
            "warnings": list(self.warnings),
            "notes": list(self.result.notes) + list(self.notes),
            "sheet_changes": [{"path": list(c.path), "value": c.value} for c in self.changes],
        })
        if self.long_action is not None:
            data["long_action"] = self.long_action.to_json()
        return data

    def line(self) -> str:
        r = self.result
        dice = ", ".join(d.render() for d in r.dice)
        head = f"{r.label} — {self.capacity.describe()} ; {self.die} [{dice}]"
        if self.automatic_failure:
            return head + " → ÉCHEC DRAMATIQUE (1 ou 11 sur le d20, résultat final non calculé)"
        assert isinstance(r.natural, int)
        die_value = r.total - sum(m.value for m in r.modifiers)
        extra = [m for m in r.modifiers[len(self.capacity.modifiers):]]
        parts = [str(self.capacity.value), str(die_value)] + [m.render() for m in extra]
        text = f"{head} : résultat final {' + '.join(parts)} = {r.total}"
        if r.threshold is not None:
            name = f" ({self.threshold_name})" if self.threshold_name else ""
            text += f" contre seuil {r.threshold}{name}"
        if r.success is not None:
            if self.heroic:
                text += " → RÉUSSITE HÉROÏQUE"
            elif self.dramatic:
                text += " → ÉCHEC DRAMATIQUE"
            else:
                text += " → RÉUSSITE" if r.success else " → ÉCHEC"
        if r.margin is not None:
            text += f", marge {r.margin:+d}"
        return text

    def render(self) -> str:
        lines = [self.line()]
        if self.long_action is not None:
            lines.append(f"  · {self.long_action.render()}")
        lines.extend(f"  · {n}" for n in (*self.result.notes, *self.notes))
        lines.extend(f"  ! attention : {w}" for w in self.warnings)
        lines.extend(f"  · fiche : {'.'.join(c.path)} = {c.value}" for c in self.changes)
        return "\n".join(lines)


@dataclass(frozen=True)
class CydOpposedResult:
    """An opposed test (R003.13): both sides' tests and who won."""

    actor: CydCheckResult
    opponent: CydCheckResult
    outcome: OpposedOutcome
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    changes: tuple[SheetChange, ...] = ()

    @property
    def success(self) -> bool:
        return self.outcome.winner == "actor"

    @property
    def total(self) -> int | None:
        return self.actor.total

    @property
    def critical(self) -> str | None:
        if self.actor.automatic_failure:
            return "failure"
        if self.success and self.outcome.heroic:
            return "success"
        return None

    @property
    def margin(self) -> int | None:
        a, b = self.actor.total, self.opponent.total
        return None if a is None or b is None else a - b

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.actor.total,
            "success": self.success,
            "critical": self.critical,
            "margin": self.margin,
            "dice": [d.face for d in self.actor.result.dice],
            "winner": self.outcome.winner,
            "tie": self.outcome.tie,
            "heroic_success": self.success and self.outcome.heroic,
            "opponent_heroic_success": self.outcome.winner == "opponent" and self.outcome.heroic,
            "actor": self.actor.to_json(),
            "opponent": self.opponent.to_json(),
            "notes": list(self.outcome.notes) + list(self.notes),
            "warnings": list(self.warnings),
            "sheet_changes": [{"path": list(c.path), "value": c.value} for c in self.changes],
            "rule": "R003.13",
        }

    def render(self) -> str:
        lines = [self.actor.line(), "contre " + self.opponent.line()]
        names = {"actor": self.actor.capacity.character,
                 "opponent": self.opponent.capacity.character}
        if self.outcome.winner is None:
            verdict = "→ personne ne l'emporte : ÉCHEC de l'action"
        else:
            heroic = " (réussite héroïque)" if self.outcome.heroic else ""
            verdict = f"→ {names[self.outcome.winner]} l'emporte{heroic}"
            verdict += " : RÉUSSITE" if self.success else " : ÉCHEC"
        lines.append(verdict)
        lines.extend(f"  · {n}" for n in (*self.outcome.notes, *self.actor.result.notes,
                                           *self.opponent.result.notes, *self.notes))
        lines.extend(f"  ! attention : {w}" for w in self.warnings)
        lines.extend(f"  · fiche : {'.'.join(c.path)} = {c.value}" for c in self.changes)
        return "\n".join(lines)


# ------------------------------------------------------------------ rolling


def roll_plan(plan: TestPlan, source: DiceSource, config: CydConfig,
              doc: SheetDocument | None = None) -> CydCheckResult | CydOpposedResult:
    """Roll a planned test (R003.07): the actor first, then the opponent (order of `--des`);
    the sheet changes are the prédilection box (R003.04) and the failed action (A003.16)."""
    rolled = plan.check.roll(source)
    actor = CydCheckResult(rolled, plan.die, plan.capacity, plan.threshold_name, plan.predilection)
    if plan.opponent is not None:
        assert plan.opponent_die is not None and plan.opponent_capacity is not None
        other = CydCheckResult(plan.opponent.roll(source), plan.opponent_die,
                               plan.opponent_capacity)
        outcome = opposed_outcome(rolled, plan.sides, plan.capacity.skill_value,
                                  other.result, tables.DICE[plan.opponent_die],
                                  plan.opponent_capacity.skill_value)
        success: bool | None = outcome.winner == "actor"
        changes = plan.changes + _retry(plan, doc, success, config)
        return CydOpposedResult(actor, other, outcome, plan.notes, plan.warnings, changes)
    success = rolled.success
    lng = None
    if plan.long_duration is not None:
        lng = long_action(rolled, plan.sides, plan.long_duration, config)
    changes = plan.changes + _retry(plan, doc, success, config)
    return CydCheckResult(rolled, plan.die, plan.capacity, plan.threshold_name,
                          plan.predilection, plan.notes, plan.warnings, changes, lng)


def _retry(plan: TestPlan, doc: SheetDocument | None, success: bool | None,
           config: CydConfig) -> tuple[SheetChange, ...]:
    if doc is None or plan.retry_key is None:
        return ()
    sheet = load_sheet(doc)
    return retry_changes(doc, sheet, plan.retry_key, plan.capacity.skill_value, success, config)


def run_check(req: CheckRequest, source: DiceSource, config: CydConfig
              ) -> CydCheckResult | CydOpposedResult:
    """`jdr check` for CYD (R003.05–R003.19)."""
    check_option_keys(req.options, CHECK_KEYS)
    config = config.with_options(req.options)
    die, notes = choose_die(req.die, config)
    plan = build_plan(req, config, die, rolling=True)
    if notes:
        plan = replace(plan, notes=notes + plan.notes)
    return roll_plan(plan, source, config, req.sheet)


# ------------------------------------------------------------------ odds


@dataclass(frozen=True)
class DieOdds:
    """Exact odds of one die choice. `distribution` holds the final results that are computed;
    `automatic_failure` is the rest (1/11 on the d20: no final result, R003.08)."""

    die: str
    success: Fraction | None
    critical_success: Fraction
    critical_failure: Fraction
    automatic_failure: Fraction
    distribution: tuple[tuple[int, Fraction], ...]
    nobody: Fraction | None = None  # opposed: status quo / both fail (A003.04, A003.05)
    opponent_wins: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        def f(p: Fraction | None) -> float | None:
            return None if p is None else float(p)

        data: dict[str, Any] = {
            "die": self.die,
            "success": f(self.success),
            "critical_success": f(self.critical_success),
            "critical_failure": f(self.critical_failure),
            "heroic_success": f(self.critical_success),
            "dramatic_failure": f(self.critical_failure),
            "automatic_failure": f(self.automatic_failure),
            "distribution": {str(t): float(p) for t, p in self.distribution},
        }
        if self.nobody is not None:
            data["nobody_wins"] = f(self.nobody)
            data["opponent_wins"] = f(self.opponent_wins)
        return data


def check_odds(check: Check, sides: int) -> DieOdds:
    """The odds of one test (R003.08, R003.11, R003.14, R003.15), from the check's own exact
    outcomes (Check.outcomes)."""
    success = crit_s = crit_f = auto = Fraction(0)
    judged = False
    totals: dict[int, Fraction] = {}
    for result, p in check.outcomes():
        assert isinstance(result.natural, int)
        if is_automatic_failure(sides, result.natural):
            auto += p
        else:
            totals[result.total] = totals.get(result.total, Fraction(0)) + p
        if result.success is not None:
            judged = True
            success += p if result.success else 0
        if result.critical == "success":
            crit_s += p
        elif result.critical == "failure":
            crit_f += p
    return DieOdds(f"d{sides}", success if judged else None, crit_s, crit_f, auto,
                   tuple(sorted(totals.items())))


def opposed_odds(plan: TestPlan) -> DieOdds:
    """Exact odds of an opposed test (R003.13 with A003.04 and A003.05)."""
    assert plan.opponent is not None and plan.opponent_die is not None
    assert plan.opponent_capacity is not None
    a_sides, b_sides = plan.sides, tables.DICE[plan.opponent_die]
    mine = list(plan.check.outcomes())
    theirs = list(plan.opponent.outcomes())
    win = heroic = nobody = lose = auto = Fraction(0)
    totals: dict[int, Fraction] = {}
    for a, pa in mine:
        assert isinstance(a.natural, int)
        if is_automatic_failure(a_sides, a.natural):
            auto += pa
        else:
            totals[a.total] = totals.get(a.total, Fraction(0)) + pa
        for b, pb in theirs:
            o = opposed_outcome(a, a_sides, plan.capacity.skill_value, b, b_sides,
                                plan.opponent_capacity.skill_value)
            if o.winner == "actor":
                win += pa * pb
                heroic += pa * pb if o.heroic else 0
            elif o.winner == "opponent":
                lose += pa * pb
            else:
                nobody += pa * pb
    return DieOdds(plan.die, win, heroic, auto, auto, tuple(sorted(totals.items())), nobody, lose)


@dataclass(frozen=True)
class CydOdds:
    """The odds of a test for each die the player may choose, side by side (R003.05)."""

    label: str
    capacity: Capacity
    threshold: int | None
    threshold_name: str | None
    per_die: tuple[DieOdds, ...]
    opponent: str | None = None
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "label": self.label,
            "threshold": self.threshold,
            "threshold_name": self.threshold_name,
            "capacite": self.capacity.value,
            "opponent": self.opponent,
            "dice_compared": [d.die for d in self.per_die],
            "notes": list(self.notes),
        }
        for odds in self.per_die:
            data[odds.die] = odds.to_json()
        if len(self.per_die) == 1:
            # one die asked (--de): its contract keys also at the top level
            data.update({k: v for k, v in self.per_die[0].to_json().items() if k != "die"})
        return data

    def render(self) -> str:
        against = ""
        if self.opponent is not None:
            against = f" contre {self.opponent}"
        elif self.threshold is not None:
            name = f" ({self.threshold_name})" if self.threshold_name else ""
            against = f" contre seuil {self.threshold}{name}"
        lines = [f"{self.label} — {self.capacity.describe()}{against}"]
        width = 22
        lines.append(" " * width + "".join(f"{tables.DIE_LABELS[d.die]:>16}"
                                            for d in self.per_die))
        rows: list[tuple[str, list[Fraction | None]]] = []
        if any(d.success is not None for d in self.per_die):
            rows.append(("Réussite", [d.success for d in self.per_die]))
            rows.append(("Réussite héroïque", [d.critical_success for d in self.per_die]))
        rows.append(("Échec dramatique", [d.critical_failure for d in self.per_die]))
        if any(d.nobody is not None for d in self.per_die):
            rows.append(("Personne ne gagne", [d.nobody for d in self.per_die]))
        for name, values in rows:
            lines.append(f"{name:<{width}}" + "".join(f"{_pct(v):>16}" for v in values))
        for odds in self.per_die:
            dist = ", ".join(f"{t} : {_pct(p)}" for t, p in odds.distribution)
            lines.append(f"  {odds.die} — résultats finals : {dist}")
        lines.extend(f"  · {n}" for n in self.notes)
        return "\n".join(lines)


def run_odds(req: CheckRequest, config: CydConfig) -> CydOdds:
    """`jdr odds` for CYD: the player chooses the die (R003.05), so both dice are shown side by
    side, or only the one `--de` names."""
    check_option_keys(req.options, CHECK_KEYS)
    config = config.with_options(req.options)
    dice = [die_name(req.die)] if req.die else list(tables.DICE)
    per_die: list[DieOdds] = []
    plan: TestPlan | None = None
    for die in dice:
        plan = build_plan(req, config, die, rolling=False)
        per_die.append(opposed_odds(plan) if plan.opponent is not None
                       else check_odds(plan.check, plan.sides))
    assert plan is not None
    opponent = None
    if plan.opponent_capacity is not None and not plan.passive:
        opponent = (f"{plan.opponent_capacity.character} ({plan.opponent_capacity.describe()}, "
                    f"{plan.opponent_die})")
    label = f"{plan.capacity.character} : {tables.ATTRIBUTE_LABELS[plan.capacity.attribute]} " \
            f"+ {plan.capacity.skill}"
    return CydOdds(label, plan.capacity, plan.check.threshold, plan.threshold_name,
                   tuple(per_die), opponent, plan.notes)
