"""Resolution (RULES.md 2.2): the d20 check, the margin, characteristic rolls, contests.

- Skill check (R001.08, R001.09, A001.01): success iff the natural d20 reaches the rank's face
  (10/10/10/8/6/4/2); natural 20 and the chosen extra faces always succeed, 1 always fails.
- Margin (R001.10, A001.02): floor((d20 + level + mastery bonus + situational bonus) / 2), filled
  in for every roll (a failed roll's margin does not count in a contest, A001.03).
- Incompétent (R001.23, A001.05, A001.06): −7 before halving, and on the die test (d20 − 7 ≥ 10).
- Characteristic roll (R001.12, A001.04): success iff floor((d20 + characteristic) / 2) ≥ 10;
  `--seuil N` adds N to those 10 (a harder characteristic roll needs 10 + N of margin).
- On a skill roll, `--seuil N` asks for a minimum margin N on top of the die test (the MJ's call).
- D-ALL.02: an opponent who cannot act makes no roll (`unable_check`): the actor's success wins.
- Contest (R001.11, A001.27, A001.03, A001.07, A001.08 / R001.20, R001.17): `CONTEST`, one core
  `ContestRule`: a failed roll never wins and two failures give nobody; a successful dodge wins
  whatever the other margin; otherwise the larger margin wins, equal margins go to the defender
  (status quo).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jdr.core.check import Check, Modifier, Natural, NaturalRoll, SingleDie, Verdict
from jdr.core.contest import Contest, ContestRule, Criterion
from jdr.core.frozen import frozen
from jdr.core.messages import Ref, arg, say
from jdr.core.results import Line
from jdr.core.system import CheckRequest
from jdr.core.threshold import parse_threshold
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.maitrise.config import MaitriseConfig
from jdr.systems.maitrise.sheet import Character
from jdr.systems.maitrise.tables import (
    CHARACTERISTIC_MARGIN,
    CHARACTERISTICS,
    CRITICAL_FAILURE_FACE,
    DIE,
    DODGE,
    RANKS,
)

if TYPE_CHECKING:
    import icepool

MARGIN_LABEL = "marge minimale"  # how a threshold reads: in maitrise it is always a margin

# ------------------------------------------------------------------ the judge


def margin_of(total: int) -> int:
    """R001.10 / A001.02: marge = [(dé + niveau) / 2], the integer part (floor)."""
    return total // 2


@dataclass(frozen=True, slots=True)
class MasteryJudge:
    """R001.08, R001.09, R001.12, R001.13, A001.01, A001.06, A001.08, A001.09.

    `success_face` is the natural d20 a skill's rank needs (None for a characteristic roll, which
    is judged on its margin); `critical_faces` are 20 and the extra faces chosen at 20+ / 100+;
    `die_malus` is the Incompétent −7 applied to the die test; `threshold` is a required margin,
    whose making `threshold_note` explains (10 + `--seuil` on a characteristic roll).
    """

    success_face: int | None
    critical_faces: frozenset[int]
    die_malus: int = 0
    threshold_rule: str = "R001.12"
    threshold_note: str = ""

    def __call__(self, natural: Natural, total: int, threshold: int | None) -> Verdict:
        assert isinstance(natural, int)
        margin = margin_of(total)
        if natural in self.critical_faces:
            return Verdict(True, "success", margin, (
                Line(f"réussite critique ({natural}) : l'action réussit", "R001.14"),))
        if natural == CRITICAL_FAILURE_FACE:
            return Verdict(False, "failure", margin,
                           (Line("échec critique (1) : l'action échoue", "A001.08"),))
        notes: list[Line] = []
        if threshold is not None and self.threshold_note:
            notes.append(Line(self.threshold_note, self.threshold_rule))
        success = True
        if self.success_face is not None:
            die = natural + self.die_malus
            if die < self.success_face:
                success = False
                face = f"{natural}{self.die_malus:+d} = {die}" if self.die_malus else str(natural)
                notes.append(Line(f"dé {face} < {self.success_face} : échec au dé", "R001.09"))
        if threshold is not None and margin < threshold:
            success = False
            notes.append(Line(f"marge {margin} < {threshold} requise", self.threshold_rule))
        return Verdict(success, None, margin, tuple(notes))


@dataclass(frozen=True, slots=True)
class NoRoll(NaturalRoll):
    """D-ALL.02: a character who cannot act rolls nothing (natural value 0, no die)."""

    label: str = "aucun jet"
    rolls = False

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        return 0, ()

    def distribution(self) -> icepool.Die:
        import icepool

        return icepool.Die([0])


@dataclass(frozen=True, slots=True)
class Unable:
    """D-ALL.02: the judge of a character who cannot act: no success, no margin."""

    why: str

    def __call__(self, natural: Natural, total: int, threshold: int | None) -> Verdict:
        return Verdict(False, None, None, (Line(self.why, "D-ALL.02"),))


# ------------------------------------------------------------------ what is rolled


@frozen
class Stat:
    """What a roll is made on: a skill or a characteristic; `dodge` for Adresse as esquive."""

    kind: str  # "skill" | "carac"
    key: str
    dodge: bool = False


def _carac_stat(char: Character, carac: str, name: str | None) -> Stat:
    key = char.find_characteristic(carac)
    if key is None:
        raise RuleError(unknown_name_message("caractéristique", carac, CHARACTERISTICS))
    if name and normalize(name) not in (key, "") and char.find_skill(name) is not None:
        raise RuleError(
            f"en maitrise, un jet se fait sur une compétence OU sur une caractéristique, "
            f"pas les deux (« {name} » et « {carac} »)"
        )
    return Stat("carac", key)


def resolve_stat(char: Character, name: str | None, carac: str | None = None) -> Stat:
    """The skill or characteristic a request names (`esquive` = an Adresse roll, R001.17)."""
    if carac:
        return _carac_stat(char, carac, name)
    if not name:
        raise RuleError("indiquez une compétence ou une caractéristique")
    skill = char.find_skill(name)
    if skill is not None:
        return Stat("skill", skill)
    key = char.find_characteristic(name)
    if key is not None:
        return Stat("carac", key)
    if normalize(name) == DODGE:
        return Stat("carac", "adresse", dodge=True)
    known = set(char.skills) | set(char.weapon_skills) | set(CHARACTERISTICS) | {DODGE}
    raise RuleError(f"{char.name} : " + unknown_name_message("compétence", name, known))


def defence_stat(char: Character, weapon: str | None = None) -> Stat:
    """R001.15: parry with a weapon's skill (A001.05), or dodge without a weapon (R001.17)."""
    if weapon is None and not char.weapons:
        return Stat("carac", "adresse", dodge=True)
    return Stat("skill", char.weapon(weapon)[1])


def opposed_stat(actor: Character, stat: Stat, opponent: Character, name: str | None) -> Stat:
    """What the opponent rolls: the skill named, else what the rules oppose by default — the
    defence against a weapon skill (parry, or dodge without a weapon), the same roll otherwise."""
    if name:
        return resolve_stat(opponent, name)
    if stat.kind == "skill" and actor.is_weapon_skill(stat.key):
        return defence_stat(opponent)
    if stat.kind == "carac":
        return stat
    if opponent.find_skill(stat.key) is None:
        raise RuleError(say(f"{opponent.name} n'a pas la compétence « {stat.key} » : précisez ce "
                            "qu'il oppose avec ", Ref("--contre FICHE:COMPETENCE",
                                                       "« Sa compétence », sous l'adversaire")))
    return stat


# ------------------------------------------------------------------ building checks


def mastery_modifier(char: Character, key: str, config: MaitriseConfig) -> int:
    """A001.05: the "bonus de maîtrise" of a skill's rank (−7 for an Incompétent weapon)."""
    index = RANKS.index(char.rank(key))
    if index == 0 and not char.incompetent(key):
        return 0
    return config.mastery_bonus[index]


def _skill_modifiers(char: Character, key: str, config: MaitriseConfig, bonus: int
                     ) -> tuple[tuple[Modifier, ...], int]:
    """R001.10 / R001.16 / R001.23 / A001.06: level, mastery bonus, situation; the die malus."""
    level, rank = char.skill(key), char.rank(key)
    mods = [Modifier(level, f"{key} {level}, {rank.name}", "R001.10")]
    mastery = mastery_modifier(char, key, config)
    die_malus = 0
    if mastery:
        incompetent = rank.key == "incompetent"
        mods.append(Modifier(mastery, "Incompétent" if incompetent else "bonus de maîtrise",
                             "R001.23" if incompetent else "A001.05"))
        if incompetent and config.incompetent_malus_on_die:
            die_malus = mastery
    if bonus:
        mods.append(Modifier(bonus, "bonus de situation", "A001.06"))
    return tuple(mods), die_malus


def skill_check(char: Character, key: str, config: MaitriseConfig, bonus: int = 0,
                threshold: int | None = None, label: str = "") -> Check:
    """R001.09 / R001.10 / R001.16: a skill roll (attack, parry, any action)."""
    rank = char.rank(key)
    mods, die_malus = _skill_modifiers(char, key, config, bonus)
    judge = MasteryJudge(rank.success_face, char.critical_faces(key), die_malus, "R001.11")
    title = label or f"{char.name} — {key}"
    return Check(
        label=f"{title} ({rank.name}, réussite au dé dès {rank.success_face})",
        natural=SingleDie(DIE), modifiers=mods, judge=judge, threshold=threshold,
        rule="R001.09, R001.10", who=char.name, threshold_label=MARGIN_LABEL,
    )


def characteristic_margin(seuil: int | None) -> tuple[int, str]:
    """R001.12: the margin a characteristic roll needs — 10, plus `--seuil N` when the MJ makes
    it harder (N is added to the 10, never replaces them), and how that reads."""
    if seuil is None:
        return CHARACTERISTIC_MARGIN, ""
    needed = CHARACTERISTIC_MARGIN + seuil
    return needed, (f"marge minimale {CHARACTERISTIC_MARGIN} des jets de caractéristique "
                    f"{seuil:+d} (--seuil) = {needed}")


def characteristic_check(char: Character, key: str, bonus: int = 0,
                         seuil: int | None = None, label: str = "",
                         dodge: bool = False) -> Check:
    """R001.12 / A001.04: a characteristic roll, success iff margin ≥ 10 (+ `--seuil`), or a
    critical; A001.26: the same roll dodges traps and other non-attacks.
    R001.17: a dodge is the Adresse roll, marked so that contests let it win on success."""
    value = char.characteristic(key)
    mods = [Modifier(value, f"{CHARACTERISTICS[key]} {value}", "R001.12")]
    if bonus:
        mods.append(Modifier(bonus, "bonus de situation", "A001.06"))
    needed, how = characteristic_margin(seuil)
    judge = MasteryJudge(None, char.critical_faces(key), threshold_note=how)
    kind = "esquive, jet d'Adresse" if dodge else "jet de caractéristique"
    title = label or f"{char.name} — {CHARACTERISTICS[key]}"
    return Check(
        label=f"{title} ({kind})", natural=SingleDie(DIE), modifiers=tuple(mods), judge=judge,
        threshold=needed, rule="R001.17" if dodge else "R001.12", who=char.name,
        stats=((DODGE, 1),) if dodge else (), threshold_label=MARGIN_LABEL,
    )


def unable_check(char: Character, label: str = "") -> Check:
    """D-ALL.02: what a character who cannot act opposes: nothing (no die, no success)."""
    why = char.incapacity()
    text = f"{char.name} ne peut pas agir : {why.text if why else 'hors de combat'}"
    return Check(label=f"{label or char.name} (aucun jet)", natural=NoRoll(), modifiers=(),
                 judge=Unable(text), rule="D-ALL.02", who=char.name)


def stat_check(char: Character, stat: Stat, config: MaitriseConfig, bonus: int = 0,
               seuil: int | None = None, label: str = "") -> Check:
    """A skill roll (`--seuil` = minimum margin) or a characteristic roll (10 + `--seuil`)."""
    if stat.kind == "skill":
        return skill_check(char, stat.key, config, bonus, seuil, label)
    return characteristic_check(char, stat.key, bonus, seuil, label, stat.dodge)


# ------------------------------------------------------------------ contests (R001.11)

CONTEST = ContestRule(
    criteria=(
        Criterion("success", note="un jet raté ne l'emporte jamais sur un jet réussi",
                  nobody_if_both_low=True,
                  nobody_note="les deux jets échouent : aucune action n'aboutit"),
        Criterion(f"stat:{DODGE}",
                  note="l'esquive réussie évite le coup, quelle que soit la marge adverse"),
        Criterion("margin"),
    ),
    final="opponent",
    final_note="marges égales : le défenseur (statu quo) l'emporte",
    rule="R001.11, A001.03, A001.07, R001.17",
)


def contest(actor: Check, opponent: Check) -> Contest:
    """R001.11: two rolls on the margin, rolled and counted by the same `CONTEST` rule."""
    return Contest(actor, opponent, CONTEST)


# ------------------------------------------------------------------ requests


def margin_threshold(text: str | None) -> int | None:
    """`--seuil N`: a minimum margin. This system has no named difficulty ladder."""
    try:
        return parse_threshold(text, None)
    except RuleError as exc:
        raise RuleError(say(Ref(exc.message, exc.pages), " ; en maitrise le seuil est une marge "
                            "minimale (nombre entier), ce système n'a pas d'échelle de difficulté "
                            "nommée")) from None


def check_request_dice(request: CheckRequest[Character]) -> None:
    if request.die is not None and normalize(request.die) not in ("d20", "1d20"):
        raise RuleError(say(arg("de", request.die), " : le système maitrise se joue au d20"))
    if request.choice is not None:
        raise RuleError(say(arg("choix"), " : un seul d20 est lancé, il n'y a pas de dé à "
                            "choisir"))


def request_checks(request: CheckRequest[Character], config: MaitriseConfig
                   ) -> Check | Contest:
    """The check (or contest) a `check` / `odds` request asks for."""
    check_request_dice(request)
    char = request.actor.model
    stat = resolve_stat(char, request.skill, request.carac)
    check = stat_check(char, stat, config, request.bonus, margin_threshold(request.threshold))
    if request.opponent is None:
        return check
    other = request.opponent.model
    if not other.can_act():
        return contest(check, unable_check(other))
    other_stat = opposed_stat(char, stat, other, request.opponent_skill)
    return contest(check, stat_check(other, other_stat, config))
