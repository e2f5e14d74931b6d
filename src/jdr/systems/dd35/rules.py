"""The rules of dd35 that no other command plays, each a declared action (`jdr regle NOM
PERSONNAGES… --opt cle=valeur`) with its exact odds when it is a roll (`--chances`):

- `manoeuvre AUTEUR CIBLE…` (R002.15): a combat manoeuvre against as many opponents as the
  author has attacks per round; no attack roll, each opponent rolls a save against the DC;
  against several it is a Complex action (checked against `--opt tour=...`);
- `attendre PERSONNAGE` (R002.13, A002.04): the character does not act this round; when the
  round ends its initiative rises by 5 (`round_start`);
- `surprise EMBUSQUE CIBLE…` (R002.09, A002.21): one roll of the ambusher (attack by default,
  or an ability) against each target's Passive Perception; a target it equals or beats is
  surprised: flat-footed (R002.06) until the first round ends;
- `tour PERSONNAGE --opt actions=...` (R002.14, A002.14, A002.15, E002.07): whether a turn's
  declared actions are legal, and the Pas de Placement's 1.5 m.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from jdr.core.check import Check, CheckResult, Odds
from jdr.core.contest import Contest, ContestResult
from jdr.core.french import accord
from jdr.core.messages import say
from jdr.core.options import Options
from jdr.core.results import AttackReport, Line, Notes, Report
from jdr.core.system import Loaded, Outcome, SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.checks import (
    CONTEST,
    PLACEHOLDER_DC,
    ability_check,
    attack_check,
    manoeuvre_dc,
    passive_perception_check,
    saving_throw,
)
from jdr.systems.dd35.combat import resolve_manoeuvre
from jdr.systems.dd35.resolution import ability_named
from jdr.systems.dd35.sheet import Sheet
from jdr.systems.dd35.tables import ABILITIES, ABILITY_ALIASES
from jdr.systems.dd35.turn import ACTION_LABELS, check_declared_manoeuvre, parse_turn, validate_turn

DEFAULT_MANOEUVRE = "manœuvre de combat"


def cast(sheets: Sequence[Loaded[Sheet]], rule: str, least: int, most: int | None = None
         ) -> None:
    """The characters a rule names: how many, each once (a character never targets itself)."""
    if len(sheets) < least or (most is not None and len(sheets) > most):
        wanted = str(least) if most == least else f"au moins {least}"
        raise RuleError(f"règle « {rule} » : {wanted} personnage(s) attendu(s), "
                        f"{len(sheets)} donné(s)")
    names = [normalize(s.name) for s in sheets]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise RuleError(f"règle « {rule} » : « {sheets[i].name} », nom donné deux fois "
                            "(personne ne se vise soi-même)")


# ------------------------------------------------------------------ manoeuvre (R002.15)


def _manoeuvre_dc(author: Character, opts: Options) -> tuple[int, tuple[Line, ...]]:
    dc = opts.int("nd")
    if dc is not None:
        return dc, ()
    ability = ability_named(opts.text("carac_manoeuvre") or "force", opts.ref("carac_manoeuvre"))
    note = Line(PLACEHOLDER_DC + " (option « ND de la manœuvre »)", "A002.16")
    return manoeuvre_dc(author, ability, author.rules), (note,)


def manoeuvre_saves(author: Character, targets: Sequence[Character], opts: Options
                    ) -> tuple[list[Check], int, tuple[Line, ...]]:
    """R002.15: each opponent's save against the DC, one definition for the roll and the odds."""
    save = opts.text("sauvegarde")
    if save is None:
        raise RuleError(say("manœuvre : précisez ",
                            opts.ref("sauvegarde", "reflexes|vigueur|volonte")))
    if len(targets) > len(author.attacks):
        raise RuleError(f"manœuvre contre {len(targets)} adversaires : {author.name} n'a que "
                        f"{len(author.attacks)} attaque(s) par round (R002.15)")
    declared = opts.text("tour")
    if declared is not None:
        check_declared_manoeuvre(declared, len(targets), len(author.attacks))
    dc, notes = _manoeuvre_dc(author, opts)
    return [saving_throw(t, save, dc) for t in targets], dc, notes


def manoeuvre(author: Character, targets: Sequence[Character], opts: Options,
              source: DiceSource) -> AttackReport:
    author.require_able()
    _, dc, notes = manoeuvre_saves(author, targets, opts)  # checks the request; same saves
    name = opts.text("manoeuvre") or DEFAULT_MANOEUVRE
    return resolve_manoeuvre(author, targets, name, opts.text("sauvegarde") or "", dc, source,
                             notes)


def manoeuvre_odds(author: Character, targets: Sequence[Character], opts: Options) -> Odds:
    """P(the manoeuvre affects at least one opponent), each opponent's chance, P(all), and the
    distribution of the number affected (each save independent)."""
    saves, dc, notes = manoeuvre_saves(author, targets, opts)
    affected = [1 - (s.odds().success or Fraction(0)) for s in saves]
    name = opts.text("manoeuvre") or DEFAULT_MANOEUVRE
    return count_odds(f"{author.name} — {name} (ND {dc})", affected,
                      [t.name for t in targets], ("affecté", "affectés"), notes, "R002.15",
                      each="manœuvre réussie contre")


def count_odds(label: str, chances: Sequence[Fraction], names: Sequence[str],
               verb: tuple[str, str], notes: tuple[Line, ...], rule: str,
               joint: Sequence[Fraction] | None = None, each: str = "") -> Odds:
    """Odds of a rule that reaches several characters: `distribution` is that of how many are
    reached (`joint`, or independent chances convolved), `success` P(at least one). `verb`:
    the French participle, singular and plural (of « personnage »); `each`: what befalls each
    one, before its name (« manœuvre réussie contre »)."""
    counts = list(joint) if joint is not None else _convolve(chances)
    extra = tuple((f"p_{i + 1}", f"{each} {name}", p)
                  for i, (name, p) in enumerate(zip(names, chances, strict=True)))
    if len(names) > 1:
        extra += (("p_tous", f"tous {verb[1]}", counts[-1]),)
    explained = Line(f"réussite : au moins un personnage {verb[0]} ; distribution des totaux : "
                     f"nombre de personnages {verb[1]}", rule)
    return Odds(label, 1 - counts[0], Fraction(0), Fraction(0),
                tuple((k, p) for k, p in enumerate(counts) if p), rule=rule,
                notes=(*notes, explained), extra=extra)


def _convolve(chances: Sequence[Fraction]) -> list[Fraction]:
    counts = [Fraction(1)]
    for p in chances:
        counts = [(counts[k] if k < len(counts) else 0) * (1 - p)
                  + (counts[k - 1] * p if k else 0) for k in range(len(counts) + 1)]
    return counts


# ------------------------------------------------------------------ attendre (R002.13)


def wait(sheet: Loaded[Sheet], character: Character) -> Outcome:
    character.require_able()
    lines = (Line(f"{character.name} n'agit pas ce round : son initiative augmentera de 5 à la "
                  "fin du round", "R002.13"),)
    changes = () if sheet.model.etat.attend else (
        SheetChange(sheet.doc, ("etat", "attend"), True),)
    return Outcome(Notes(f"{character.name} attend", lines, "R002.13"), changes)


# ------------------------------------------------------------------ surprise (A002.21)


def ambush_check(ambusher: Character, opts: Options) -> Check:
    """A002.21: the ambusher's roll, an attack roll by default (`--opt jet=attaque` or a weapon
    of the sheet, R002.10), or an ability test (`--opt jet=dexterite`, A002.01)."""
    ambusher.require_able()
    wanted = opts.text("jet") or "attaque"
    bonus = opts.int("circonstance", 0) or 0
    if ambusher.has_weapon(wanted) or normalize(wanted) in ("attaque", "arme"):
        weapon = ambusher.weapon(None if normalize(wanted) in ("attaque", "arme") else wanted)
        return attack_check(ambusher, weapon, None, 0, bonus, ambusher.rules)
    key = normalize(wanted)
    if ABILITY_ALIASES.get(key, key) in ABILITIES:
        return ability_check(ambusher, ability_named(wanted, opts.ref("jet")), None, bonus)
    raise RuleError(say(opts.ref("jet", wanted), " : « attaque », une arme de la fiche ou une "
                        "caractéristique (dexterite, ...)"))


def surprise_contests(ambusher: Character, targets: Sequence[Character], opts: Options
                      ) -> list[Contest]:
    """One definition: the ambusher's check against each target's Passive Perception, decided
    as every opposed roll (R002.08/R002.09: a roll that equals the passive value wins)."""
    mine = ambush_check(ambusher, opts)
    return [Contest(mine, passive_perception_check(t, None), CONTEST) for t in targets]


def surprise(ambusher: Character, targets: Sequence[Loaded[Sheet]], characters: Sequence[Character],
             opts: Options, source: DiceSource) -> Outcome:
    contests = surprise_contests(ambusher, characters, opts)
    rolled = contests[0].actor.roll(source)
    results: list[ContestResult] = []
    lines: list[Line] = []
    changes: list[SheetChange] = []
    for contest, target in zip(contests, targets, strict=True):
        result = contest.resolve(rolled, contest.opponent.roll(source))
        results.append(result)
        if result.winner == "actor":
            caught = accord(target.genre, "surpris, donc pris", "surprise, donc prise",
                            "surprise réussie : au dépourvu")
            lines.append(Line(f"{target.name} : {caught} au dépourvu (CA sans Dextérité) jusqu'à "
                              "la fin du premier round", "A002.21"))
            if not target.model.etat.surpris:
                changes.append(SheetChange(target.doc, ("etat", "surpris"), True))
        else:
            lines.append(Line(f"{target.name} : " + accord(target.genre, "pas surpris",
                              "pas surprise", "la surprise échoue"), "A002.21"))
    title = _surprise_title(ambusher, characters)
    return Outcome(Report(title, tuple(results), tuple(lines), "A002.21"), tuple(changes))


def surprise_odds(ambusher: Character, targets: Sequence[Character], opts: Options) -> Odds:
    """Exact: one roll of the ambusher against every passive value, so the number surprised is
    counted over that roll's outcomes (not as independent chances)."""
    contests = surprise_contests(ambusher, targets, opts)
    passives = [c.opponent.resolve(0) for c in contests]
    joint = [Fraction(0)] * (len(targets) + 1)
    each = [Fraction(0)] * len(targets)
    for result, p in contests[0].actor.outcomes():
        won = [_wins(result, passive) for passive in passives]
        joint[sum(won)] += p
        for i, w in enumerate(won):
            each[i] += p if w else 0
    return count_odds(_surprise_title(ambusher, targets), each, [t.name for t in targets],
                      ("surpris", "surpris"), (), "A002.21", joint, "surprise réussie contre")


def _surprise_title(ambusher: Character, targets: Sequence[Character]) -> str:
    return f"Surprise : {ambusher.name} contre " + ", ".join(t.name for t in targets)


def _wins(result: CheckResult, passive: CheckResult) -> bool:
    return CONTEST.decide(result, passive)[0] == "actor"


# ------------------------------------------------------------------ tour (R002.14)


def turn(character: Character, opts: Options) -> Outcome:
    """R002.14 + A002.14/A002.15/A002.20: a declared turn, legal or refused (one French line)."""
    declared = opts.text("actions")
    if declared is None:
        raise RuleError(say("tour : précisez ", opts.ref("actions", "..."),
                            " (" + ", ".join(ACTION_LABELS) + ")"))
    actions = parse_turn(declared)
    verdict = validate_turn(actions, len(character.attacks), opts.flag("terrain_difficile"))
    if not verdict.valid:
        raise RuleError("tour illégal : " + " ; ".join(verdict.problems))
    lines = [Line("tour légal : " + " + ".join(ACTION_LABELS[a.kind] for a in actions),
                  "R002.14")]
    if verdict.distance_step_m is not None:
        metres = f"{verdict.distance_step_m:.1f}".replace(".", ",")
        lines.append(Line(f"Pas de Placement : {metres} m (1 case)", "E002.07"))
    return Outcome(Notes(f"{character.name} — actions du tour", tuple(lines), "R002.14"))
