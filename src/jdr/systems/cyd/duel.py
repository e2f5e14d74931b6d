"""Duels (R003.20 / A003.11): a sequence of opposed tests in which the Capacité may change from
one round to the next (E003.05: in a long chase, Puissance may replace Adresse).

The document's scoring is lost: the placeholder (configurable, `CydConfig.duel_wins`,
`--opt victoires=N`) is "the first to win N rounds", at most `duel_max_rounds` rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cyd import tables
from jdr.systems.cyd.checks import (
    CydCheckResult,
    OpposedOutcome,
    attribute_name,
    capacity,
    make_check,
    opposed_outcome,
)
from jdr.systems.cyd.config import DUEL_KEYS, CydConfig, check_option_keys, die_name, parse_int
from jdr.systems.cyd.sheet import load_sheet


@dataclass(frozen=True)
class DuelRound:
    number: int
    a: CydCheckResult
    b: CydCheckResult
    outcome: OpposedOutcome

    def to_json(self) -> dict[str, Any]:
        return {"round": self.number, "winner": self.outcome.winner, "tie": self.outcome.tie,
                "heroic": self.outcome.heroic, "a": self.a.to_json(), "b": self.b.to_json(),
                "notes": list(self.outcome.notes)}


@dataclass(frozen=True)
class DuelResult:
    a_name: str
    b_name: str
    rounds: tuple[DuelRound, ...]
    wins_needed: int

    @property
    def score(self) -> tuple[int, int]:
        a = sum(1 for r in self.rounds if r.outcome.winner == "actor")
        b = sum(1 for r in self.rounds if r.outcome.winner == "opponent")
        return a, b

    @property
    def winner(self) -> str | None:
        a, b = self.score
        if a == b:
            return None
        return self.a_name if a > b else self.b_name

    def to_json(self) -> dict[str, Any]:
        a, b = self.score
        return {"winner": self.winner, "success": a > b, "score": [a, b],
                "wins_needed": self.wins_needed,
                "rounds": [r.to_json() for r in self.rounds], "rule": "A003.11"}

    def render(self) -> str:
        lines = [f"Duel {self.a_name} contre {self.b_name} (premier à {self.wins_needed} "
                 "manche(s), règle provisoire A003.11)"]
        names = {"actor": self.a_name, "opponent": self.b_name}
        for r in self.rounds:
            who = names[r.outcome.winner] if r.outcome.winner else "personne"
            lines.append(f"Manche {r.number} : {who} l'emporte")
            lines.append(f"  {r.a.line()}")
            lines.append(f"  {r.b.line()}")
            lines.extend(f"    · {n}" for n in r.outcome.notes)
        a, b = self.score
        final = f"vainqueur : {self.winner}" if self.winner else "match nul"
        lines.append(f"→ {a} à {b}, {final}")
        return "\n".join(lines)


def _per_round(text: str | None) -> list[str | None]:
    if not text:
        return [None]
    return [attribute_name(p) for p in text.split(",") if p.strip()] or [None]


def run_duel(a_doc: SheetDocument, b_doc: SheetDocument, source: DiceSource,
             options: dict[str, str], config: CydConfig
             ) -> tuple[DuelResult, list[SheetChange]]:
    """A003.11 / R003.20: rounds of opposed tests (R003.13 with A003.04, A003.05); each side's
    attribute may change per round (`--opt attributs=adresse,adresse,puissance`: the last one
    stays), as in E003.05."""
    check_option_keys(options, DUEL_KEYS)
    opts = {normalize(k): v for k, v in options.items()}
    a_sheet, b_sheet = load_sheet(a_doc), load_sheet(b_doc)
    skill_a = opts.get("competence_a") or opts.get("competence")
    if not skill_a:
        raise RuleError("duel : précisez la compétence (--opt competence=athletisme, ou "
                        "competence_a / competence_b)")
    skill_b = opts.get("competence_b") or opts.get("competence") or skill_a
    attrs_a, attrs_b = _per_round(opts.get("attributs")), _per_round(opts.get("attributs_b"))
    die_a = die_name(opts.get("de_a") or config.default_die or "d10", "--opt de_a")
    die_b = die_name(opts.get("de_b") or config.default_die or "d10", "--opt de_b")
    wins = parse_int(opts["victoires"], "--opt victoires", 1, 20) if "victoires" in opts \
        else config.duel_wins
    cap_rounds = parse_int(opts["manches_max"], "--opt manches_max", 1, 99) \
        if "manches_max" in opts else config.duel_max_rounds
    rounds: list[DuelRound] = []
    score = [0, 0]
    for number in range(1, cap_rounds + 1):
        attr_a = attrs_a[min(number - 1, len(attrs_a) - 1)]
        attr_b = attrs_b[min(number - 1, len(attrs_b) - 1)]
        cap_a = capacity(a_sheet, skill_a, attr_a)
        cap_b = capacity(b_sheet, skill_b, attr_b)
        ra = make_check(cap_a, die_a, (), None).roll(source)
        rb = make_check(cap_b, die_b, (), None).roll(source)
        outcome = opposed_outcome(ra, tables.DICE[die_a], cap_a.skill_value,
                                  rb, tables.DICE[die_b], cap_b.skill_value)
        rounds.append(DuelRound(number, CydCheckResult(ra, die_a, cap_a),
                                CydCheckResult(rb, die_b, cap_b), outcome))
        if outcome.winner == "actor":
            score[0] += 1
        elif outcome.winner == "opponent":
            score[1] += 1
        if max(score) >= wins:
            break
    return DuelResult(a_sheet.nom, b_sheet.nom, tuple(rounds), wins), []
