"""Surprise (R001.11, A001.24): « une surprise contre une résistance à la surprise ».

The seed names this contest as an example of the margin rule but not its skills: the MJ names
both (`--opt competence=…` for who surprises, `--opt resistance=…` for the targets; each a skill
or a characteristic of the sheet). One roll for who surprises, one resistance roll per target, each
pair decided on the margin by `checks.CONTEST` (a failed roll never wins; both failing, nobody;
equal margins, the target: the status quo, A001.07). A target who cannot act (hors de combat,
mort) rolls nothing and is surprised if the roll succeeds (D-ALL.02). What being surprised does
is not in the seed: the MJ decides (A001.24).

`jdr regle surprise QUI CIBLE [CIBLE…] --opt competence=discretion --opt resistance=vigilance`;
`--chances` gives the exact odds (for several targets: all surprised, and each one).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import Check, CheckResult, Odds
from jdr.core.contest import ContestResult
from jdr.core.french import accord
from jdr.core.frozen import frozen
from jdr.core.messages import say
from jdr.core.options import ActionSpec, OptionSpec
from jdr.core.results import Line, Report
from jdr.core.system import Loaded, Outcome, RuleRequest
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.maitrise.checks import CONTEST, contest, resolve_stat, stat_check, unable_check
from jdr.systems.maitrise.config import MaitriseConfig
from jdr.systems.maitrise.sheet import Character

NAME = "surprise"
RULE = "R001.11, A001.24"

OPTIONS = (
    OptionSpec("competence", "text", "compétence ou caractéristique de celui qui surprend (le "
               "MJ la choisit : discretion, adresse…)", None, "A001.24",
               label="Compétence de la surprise"),
    OptionSpec("resistance", "text", "compétence ou caractéristique des cibles qui résistent à "
               "la surprise (le MJ la choisit : vigilance, intelligence…)", None, "A001.24",
               label="Résistance des cibles"),
    OptionSpec("bonus", "int", "modificateur de situation de celui qui surprend, ajouté avant la "
               "division par 2", 0, "A001.06", -1000, 1000,
               label="Modificateur de celui qui surprend"),
    OptionSpec("bonus_resistance", "int", "modificateur de situation des cibles, ajouté avant "
               "la division par 2", 0, "A001.06", -1000, 1000,
               label="Modificateur des cibles"),
)

SPEC = ActionSpec(
    NAME, "surprise contre résistance à la surprise, à la marge : le premier personnage surprend, "
    "les suivants résistent (compétences au choix du MJ, A001.24)", OPTIONS,
    dice="un d20 pour celui qui surprend, puis un d20 par cible dans l'ordre donné (aucun pour "
         "une cible hors de combat ou morte)")


@frozen
class SurprisePlan:
    """The checks of one surprise: who surprises, and each target's resistance."""

    actor: Check
    targets: tuple[Check, ...]


def _option(request: RuleRequest[Character], key: str, what: str) -> str:
    value = request.options.text(key)
    if value is None:
        raise RuleError(say(f"surprise : les règles ne disent pas quelle compétence {what} "
                            "(A001.24) ; le MJ la choisit : ", request.options.ref(key, "COMPETENCE"),
                            " (ou une caractéristique)"))
    return value


def _target_check(target: Character, name: str, bonus: int, config: MaitriseConfig) -> Check:
    if not target.can_act():
        return unable_check(target, f"Résistance {target.name}")
    return stat_check(target, resolve_stat(target, name), config, bonus,
                      label=f"Résistance à la surprise {target.name}")


def plan(request: RuleRequest[Character], config: MaitriseConfig) -> SurprisePlan:
    """Checked before any die: two characters at least, the MJ's two skills, all known."""
    if len(request.sheets) < 2:
        raise RuleError("surprise : donnez celui qui surprend puis au moins une cible")
    names = [s.name for s in request.sheets]
    if len(set(names)) != len(names):
        raise RuleError("surprise : un même personnage est nommé deux fois")
    skill = _option(request, "competence", "sert à surprendre")
    resist = _option(request, "resistance", "résiste à la surprise")
    actor = request.sheets[0].model
    actor.refuse_if_unable()
    check = stat_check(actor, resolve_stat(actor, skill), config,
                       request.options.int("bonus", 0) or 0, label=f"Surprise {actor.name}")
    bonus = request.options.int("bonus_resistance", 0) or 0
    targets = tuple(_target_check(s.model, resist, bonus, config) for s in request.sheets[1:])
    return SurprisePlan(check, targets)


def _verdict(result: ContestResult, target: Loaded[Character]) -> ContestResult:
    if result.winner == "actor":
        caught = accord(target.genre, "surpris", "surprise", "surprise réussie")
        line = Line(f"{target.name} : {caught} ; l'effet en est laissé au MJ", "A001.24")
    elif result.winner == "opponent":
        line = Line(f"{target.name} : " + accord(target.genre, "pas surpris", "pas surprise",
                                                 "la surprise échoue"), "R001.11")
    else:
        line = Line("personne ne l'emporte : pas de surprise", "A001.03")
    return replace(result, notes=(*result.notes, line))


def play(request: RuleRequest[Character], config: MaitriseConfig, source: DiceSource) -> Outcome:
    """One roll for who surprises, then one per target, each contest on the margin."""
    surprise = plan(request, config)
    first = surprise.actor.roll(source)
    parts = []
    for target, check in zip(request.sheets[1:], surprise.targets, strict=True):
        pair = contest(surprise.actor, check).resolve(first, check.roll(source))
        parts.append(_verdict(pair, target))
    caught = sum(1 for p in parts if p.winner == "actor")
    title = (f"Surprise : {request.sheets[0].name} contre "
             + ", ".join(s.name for s in request.sheets[1:]))
    notes = (Line(f"{caught} cible(s) surprise(s) sur {len(parts)}", RULE),)
    return Outcome(Report(title, tuple(parts), notes, RULE))


# ------------------------------------------------------------------ exact odds


def _weighted(check: Check) -> list[tuple[CheckResult, Fraction]]:
    return list(check.outcomes())


def _p_caught(first: CheckResult, target: list[tuple[CheckResult, Fraction]]) -> Fraction:
    """P(this target is surprised | the surprise roll `first`)."""
    return sum((p for b, p in target if CONTEST.decide(first, b)[0] == "actor"), Fraction(0))


def odds(request: RuleRequest[Character], config: MaitriseConfig) -> Odds:
    """One target: the core contest odds. Several: P(all surprised) and each target's chance,
    the targets' rolls being independent once the surprise roll is known."""
    surprise = plan(request, config)
    if len(surprise.targets) == 1:
        return contest(surprise.actor, surprise.targets[0]).odds()
    mine = _weighted(surprise.actor)
    targets = [_weighted(t) for t in surprise.targets]
    everyone = Fraction(0)
    each = [Fraction(0)] * len(targets)
    for first, p in mine:
        chances = [_p_caught(first, t) for t in targets]
        product = p
        for i, c in enumerate(chances):
            each[i] += p * c
            product *= c
        everyone += product
    base = surprise.actor.odds()
    extra = tuple((f"surpris_{i + 1}", f"surprise réussie contre {s.name}", each[i])
                  for i, s in enumerate(request.sheets[1:]))
    return replace(base, label=f"Surprise : {request.sheets[0].name} contre toutes ses cibles",
                   success=everyone, threshold=None, extra=extra, rule=RULE,
                   notes=(Line("réussite : toutes les cibles surprises", RULE),))
