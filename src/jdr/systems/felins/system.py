"""`FelinsSystem`: the `GameSystem` of the forum cats & clans game (RULES.md section 5)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, CheckRequest, GameSystem, SheetChange, XpRequest
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.felins import forum, tables
from jdr.systems.felins.checks import (
    CheckOdds,
    OpposedOdds,
    OpposedOutcome,
    OpposedRoll,
    OpposedRule,
    RollResult,
    VoluntaryFailure,
    chance_changes,
    characteristic_check,
    parse_threshold,
    resolve_name,
    roll_cat,
    skill_check,
)
from jdr.systems.felins.combat import (
    AttackResult,
    DuelResult,
    InitiativeResult,
    attack,
    attack_changes,
    duel,
    initiative,
)
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.health import DenResult, HealResult, den, heal, heal_changes, wound_changes
from jdr.systems.felins.sheet import TEMPLATE, Cat, load_cat, sheet_problems

_YES = {"oui", "o", "vrai", "true", "1", "yes"}


def config_from(options: dict[str, str], base: FelinsConfig = DEFAULT) -> FelinsConfig:
    """Option `marge=lignes|points` (A004.02) over the default configuration."""
    raw = options.get("marge")
    if raw is None:
        return base
    value = normalize(raw)
    if value not in ("lignes", "points"):
        raise RuleError(f"--opt marge={raw} : autorisé : lignes, points")
    return replace(base, margin="lignes" if value == "lignes" else "points")


@dataclass(frozen=True)
class SheetView:
    """`jdr sheet show`: the sheet with every computed skill score (R004.06, R004.09)."""

    cat: Cat
    scores: tuple[tuple[str, int, int, int, bool], ...]  # name, innate, acquired, total, Ω

    def to_json(self) -> dict[str, Any]:
        return {"name": self.cat.name, "rank": self.cat.rank, "clan": self.cat.clan,
                "characteristics": self.cat.characteristics, "reputation": self.cat.reputation,
                "wounds": self.cat.wounds, "state": self.cat.state,
                "skills": {n: {"innate": i, "acquired": a, "total": t, "omega": o}
                           for n, i, a, t, o in self.scores}}

    def lines(self) -> list[str]:
        c = self.cat
        caracs = ", ".join(f"{tables.CHARACTERISTICS[k]} {v}"
                           for k, v in c.characteristics.items())
        out = [f"{c.name} — {tables.RANKS[c.rank][0]}, {tables.CLANS[c.clan][0]}",
               caracs,
               f"Réputation {c.reputation}, blessures {c.wounds}, {tables.STATES[c.state]}",
               "Compétences (inné + acquis = score) :"]
        for name, innate, acquired, total, omega in self.scores:
            mark = " (Ω)" if omega else ""
            usable = " — inutilisable (Ω, rang 0)" if omega and acquired < 1 else ""
            out.append(f"  {name}{mark} : {innate} + {acquired} = {total}{usable}")
        return out

    def render(self) -> str:
        return "\n".join(self.lines())

    def render_forum(self) -> str:
        lines = self.lines()
        return forum.quote([forum.b(lines[0]), *lines[1:]])


class FelinsSystem(GameSystem):
    """Forum cats & clans game: Chance d10 keep one + skill ≥ threshold (RULES.md section 5)."""

    id = "felins"
    title = "Félins — jeu de forum des clans de chats"
    seed = "004_5e543b2922acc546.txt"

    def __init__(self, config: FelinsConfig = DEFAULT) -> None:
        self.config = config

    # -- sheets ----------------------------------------------------------------

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> Cat:
        return load_cat(doc)

    def check_sheet(self, doc: SheetDocument, creation: bool = False) -> list[str]:
        """R004.03 ranges; with `creation`: R004.04 budget, Chance ≤ 3, R004.07 skill points."""
        return sheet_problems(doc, creation, self.config)

    def show(self, doc: SheetDocument) -> SheetView:
        cat = load_cat(doc)
        scores = []
        for key, skill in tables.SKILLS.items():
            s = cat.skill_score(key, self.config)
            scores.append((skill.name, s.innate, s.acquired, s.total, skill.omega))
        return SheetView(cat, tuple(scores))

    # -- checks ----------------------------------------------------------------

    def _build(self, cat: Cat, name: str, carac: str | None, threshold: int | None,
               bonus: int, choice: int | None, config: FelinsConfig) -> tuple[Any, int]:
        """The check for a skill or characteristic roll, and the score used for ties."""
        if carac:
            key, value = cat.characteristic(carac)
            if name and normalize(name) not in ("", "-", key):
                kind, _ = resolve_name(name)
                if kind == "competence":
                    raise RuleError(
                        f"« {name} » est une compétence : ses caractéristiques sont fixées "
                        f"(R004.10) ; pour un jet de caractéristique, donnez seulement --carac")
            check = characteristic_check(cat, key, threshold, bonus, choice, config)
            return check, tables.CHARACTERISTIC_FACTOR * value
        kind, key = resolve_name(name)
        if kind == "caracteristique":
            value = cat.characteristics[key]
            check = characteristic_check(cat, key, threshold, bonus, choice, config)
            return check, tables.CHARACTERISTIC_FACTOR * value
        check = skill_check(cat, key, threshold, bonus, choice, config)
        return check, cat.skill_score(key, config).total

    def _opposed(self, request: CheckRequest, cat: Cat,
                 config: FelinsConfig) -> tuple[OpposedRoll, Cat]:
        assert request.opponent is not None
        other = load_cat(request.opponent)
        other.require_conscious("agir")
        mine, my_score = self._build(cat, request.skill, request.carac, None, request.bonus,
                                     request.choice, config)
        skill = request.opponent_skill or request.skill
        theirs, their_score = self._build(other, skill, None, None, 0, None, config)
        rule = OpposedRule(my_score, their_score, cat.chance, other.chance,
                           config.opposed_critical_wins)
        return OpposedRoll(mine, theirs, rule), other

    def check(self, request: CheckRequest,  # type: ignore[override]
              source: DiceSource) -> tuple[Any, list[SheetChange]]:
        """R004.12/R004.13 a roll against a threshold, or R004.21 an opposed roll; returns the
        result and the Chance change of a critical (R004.18–R004.20)."""
        config = config_from(request.options, self.config)
        cat = load_cat(request.sheet)
        if normalize(request.options.get("echec_volontaire", "non")) in _YES:
            return VoluntaryFailure(cat.name, request.carac or request.skill), []
        cat.require_conscious("agir")
        if request.opponent is not None:
            opposed, other = self._opposed(request, cat, config)
            outcome: OpposedOutcome = opposed.roll(cat, other, source, config)
            return outcome, outcome.changes(request.sheet, request.opponent)
        threshold = parse_threshold(request.threshold, config)
        value = None if threshold is None else threshold.value
        check, _ = self._build(cat, request.skill, request.carac, value, request.bonus,
                               request.choice, config)
        result: RollResult = roll_cat(check, cat, source,
                                      None if threshold is None else threshold.label, config)
        return result, chance_changes(request.sheet, result.chance_before, result.chance_after)

    def odds(self, request: CheckRequest) -> CheckOdds | OpposedOdds:
        """The exact odds of the very `Check` that `check` rolls (same dice model)."""
        config = config_from(request.options, self.config)
        cat = load_cat(request.sheet)
        if request.opponent is not None:
            opposed, _ = self._opposed(request, cat, config)
            return opposed.odds()
        threshold = parse_threshold(request.threshold, config)
        value = None if threshold is None else threshold.value
        check, _ = self._build(cat, request.skill, request.carac, value, request.bonus,
                               request.choice, config)
        return CheckOdds(check.odds(), None if threshold is None else threshold.label)

    # -- combat ----------------------------------------------------------------

    def attack(self, request: AttackRequest,
               source: DiceSource) -> tuple[AttackResult, list[SheetChange]]:
        """R004.23–R004.32; options `protection`, `surprise` (nulle|partielle|complete)."""
        config = config_from(request.options, self.config)
        attacker = load_cat(request.attacker)
        defender = load_cat(request.defender)
        result = attack(attacker, defender, source, request.options, config)
        return result, attack_changes(request.attacker, request.defender, result)

    def initiative(self, docs: list[SheetDocument],
                   source: DiceSource) -> InitiativeResult:
        return initiative([load_cat(d) for d in docs], source, self.config)

    def duel(self, a: SheetDocument, b: SheetDocument, source: DiceSource,
             options: dict[str, str]) -> tuple[DuelResult, list[SheetChange]]:
        """R004.27 `a` provokes `b`; option `choix=accepter|combattre` for outcome 4."""
        config = config_from(options, self.config)
        result = duel(load_cat(a), load_cat(b), source, options, config)
        changes = chance_changes(a, result.provoker.chance_before, result.provoker.chance_after)
        changes += chance_changes(b, result.provoked.chance_before, result.provoked.chance_after)
        return result, changes

    # -- healing (no CLI command yet: library entry points) --------------------

    def heal(self, healer: SheetDocument, patient: SheetDocument, source: DiceSource,
             options: dict[str, str] | None = None) -> tuple[HealResult, list[SheetChange]]:
        """R004.33 Soigner; option `seuil` (number or ladder name, default Moyen 9)."""
        opts = options or {}
        config = config_from(opts, self.config)
        threshold = parse_threshold(opts.get("seuil"), config)
        healer_cat = load_cat(healer)
        patient_cat = healer_cat if patient is healer else load_cat(patient)
        result = heal(healer_cat, patient_cat, source,
                      None if threshold is None else threshold.value, config)
        return result, heal_changes(healer, patient, result)

    def den(self, patient: SheetDocument, days: int) -> tuple[DenResult, list[SheetChange]]:
        """R004.32 days at the healer's den: one wound level per three days."""
        result = den(load_cat(patient), days, self.config)
        return result, wound_changes(patient, result.outcome)

    def xp(self, request: XpRequest) -> tuple[Any, list[SheetChange]]:
        """R004.34 / A004.24: the shop's XP prices are not in the rules."""
        raise RuleError(
            "felins : les prix de la boutique (XP) ne sont pas dans les règles du forum "
            "(A004.24) ; le coût des rangs de compétence est 1/2/4/8/16 (clan : 0/1/2/4/8)")
