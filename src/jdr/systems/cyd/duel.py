"""Duels (R003.20 / A003.11): a sequence of opposed tests (R003.13, opposition.OPPOSED) in which
the Capacité may change from one round to the next (E003.05: in a long chase, Puissance may
replace Adresse).

The document's scoring is lost: the placeholder (configurable, `CydConfig.duel_wins`,
`--opt victoires=N`) is "the first to win N rounds", at most `duel_max_rounds` rounds. Each side
chooses its die (D-003.20: `--opt de=d10|d20`, or `de_a` / `de_b`); nobody chooses for them.
"""

from __future__ import annotations

from dataclasses import replace

from jdr.core.contest import ContestResult
from jdr.core.frozen import frozen
from jdr.core.messages import Ref, say
from jdr.core.options import Options
from jdr.core.results import Line, Report
from jdr.core.system import GroupRequest, Outcome
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.cyd.capacite import Capacity, attribute_name, capacity, make_check
from jdr.systems.cyd.config import CydConfig
from jdr.systems.cyd.opposition import opponent_capacity, roll_contest
from jdr.systems.cyd.sheet import CydSheet


@frozen
class DuelSetup:
    """Who duels with what: skills, attributes per round, dice, scoring."""

    a: CydSheet
    b: CydSheet
    skill_a: str
    skill_b: str
    attributes_a: tuple[str | None, ...]
    attributes_b: tuple[str | None, ...]
    die_a: str
    die_b: str
    wins: int
    max_rounds: int


def _per_round(text: str | None) -> tuple[str | None, ...]:
    if not text:
        return (None,)
    return tuple(attribute_name(p) for p in text.split(",") if p.strip()) or (None,)


def _die(options: Options, key: str, name: str) -> str:
    die = options.text(key) or options.text("de")
    if die is None:
        raise RuleError(say(f"duel : {name} n'a pas choisi son dé : ", options.ref("de", "d10|d20"),
                            " (les deux), ou ", options.ref(key, "d10|d20")))
    return die


def setup(request: GroupRequest[CydSheet], config: CydConfig) -> DuelSetup:
    """Read the duel's options (skills, attributes per round, dice, scoring)."""
    if len(request.sheets) != 2:
        raise RuleError("duel : il faut exactement deux personnages")
    a, b = request.sheets[0].model, request.sheets[1].model
    options = request.options
    skill_a = options.text("competence_a") or options.text("competence")
    if not skill_a:
        raise RuleError(say("duel : précisez la compétence (",
                            Ref("--opt competence=athletisme", options.ref("competence").web),
                            ", ou ", Ref("competence_a / competence_b",
                                         f"{options.ref('competence_a').web} et "
                                         f"{options.ref('competence_b').web}"), ")"))
    return DuelSetup(
        a, b, skill_a, options.text("competence_b") or options.text("competence") or skill_a,
        _per_round(options.text("attributs")), _per_round(options.text("attributs_b")),
        _die(options, "de_a", a.nom), _die(options, "de_b", b.nom),
        options.int("victoires", config.duel_wins) or config.duel_wins,
        options.int("manches_max", config.duel_max_rounds) or config.duel_max_rounds,
    )


def _capacities(duel: DuelSetup, number: int) -> tuple[Capacity, Capacity, tuple[Line, ...]]:
    """E003.05: the attribute of round `number` (the last one given stays)."""
    attr_a = duel.attributes_a[min(number - 1, len(duel.attributes_a) - 1)]
    attr_b = duel.attributes_b[min(number - 1, len(duel.attributes_b) - 1)]
    cap_a = capacity(duel.a, duel.skill_a, attr_a)
    cap_b, notes = opponent_capacity(duel.b, duel.skill_b, attr_b, cap_a.attribute)
    return cap_a, cap_b, notes


def _round(duel: DuelSetup, number: int, source: DiceSource) -> ContestResult:
    cap_a, cap_b, notes = _capacities(duel, number)
    contest = roll_contest(make_check(cap_a, duel.die_a, (), None),
                           make_check(cap_b, duel.die_b, (), None), source)
    if notes and number == 1:
        return replace(contest, notes=(*contest.notes, *notes))
    return contest


def run_duel(request: GroupRequest[CydSheet], source: DiceSource, config: CydConfig) -> Outcome:
    """A003.11 / R003.20: rounds of opposed tests until one side has won `wins` rounds."""
    duel = setup(request, config)
    names = {"actor": duel.a.nom, "opponent": duel.b.nom, "nobody": "personne"}
    rounds: list[Report] = []
    score = {"actor": 0, "opponent": 0, "nobody": 0}
    for number in range(1, duel.max_rounds + 1):
        contest = _round(duel, number, source)
        score[contest.winner] += 1
        rounds.append(Report(f"Manche {number} : {names[contest.winner]} l'emporte", (contest,)))
        if max(score["actor"], score["opponent"]) >= duel.wins:
            break
    a, b = score["actor"], score["opponent"]
    final = f"vainqueur : {duel.a.nom if a > b else duel.b.nom}" if a != b else "match nul"
    title = (f"Duel {duel.a.nom} contre {duel.b.nom} (premier à {duel.wins} manche(s), règle "
             "provisoire)")
    notes = (Line(f"score {a} à {b}, {final}", "A003.11"),)
    return Outcome(Report(title, tuple(rounds), notes, "R003.20"))
