"""Resolution (RULES.md 2.2): the d20 check, the margin, characteristic rolls, contests.

- Skill check (R001.08, R001.09, A001.01): success iff the natural d20 reaches the rank's face
  (10/10/10/8/6/4/2); natural 20 and the chosen extra faces always succeed, 1 always fails.
- Margin (R001.10, A001.02): floor((d20 + level + mastery bonus + situational bonus) / 2), filled
  in for every roll (a failed roll's margin does not count in a contest, A001.03).
- Incompétent (R001.23, A001.05, A001.06): −7 before halving, and on the die test (d20 − 7 ≥ 10).
- Characteristic roll (R001.12, A001.04): success iff floor((d20 + characteristic) / 2) ≥ 10.
- `--seuil N` asks for a minimum margin on top of the die test (the MJ's call).
- Contest (R001.11, A001.03, A001.07, A001.08): the larger margin of a successful roll wins;
  equal margins go to the defender (status quo); a failed roll never wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from jdr.core.check import Check, CheckResult, Modifier, Odds, SingleDie, Verdict
from jdr.core.system import CheckRequest
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
    RANKS,
)

# ------------------------------------------------------------------ the judge


def margin_of(total: int) -> int:
    """R001.10 / A001.02: marge = [(dé + niveau) / 2], the integer part (floor)."""
    return total // 2


@dataclass(frozen=True, slots=True)
class MasteryJudge:
    """R001.08, R001.09, R001.12, R001.13, A001.01, A001.06, A001.08, A001.09.

    `success_face` is the natural d20 a skill's rank needs (None for a characteristic roll, which
    is judged on its margin); `critical_faces` are 20 and the extra faces chosen at 20+ / 100+;
    `die_malus` is the Incompétent −7 applied to the die test; `threshold` is a required margin.
    """

    success_face: int | None
    critical_faces: frozenset[int]
    die_malus: int = 0

    def __call__(self, natural: Any, total: int, threshold: int | None) -> Verdict:
        assert isinstance(natural, int)
        margin = margin_of(total)
        if natural in self.critical_faces:
            return Verdict(True, "success", margin,
                           (f"réussite critique ({natural}) : l'action réussit (R001.14)",))
        if natural == CRITICAL_FAILURE_FACE:
            return Verdict(False, "failure", margin,
                           ("échec critique (1) : l'action échoue (A001.08)",))
        notes: list[str] = []
        success = True
        if self.success_face is not None:
            die = natural + self.die_malus
            if die < self.success_face:
                success = False
                shown = f"{natural}{self.die_malus:+d} = {die}" if self.die_malus else str(natural)
                notes.append(f"dé {shown} < {self.success_face} : échec au dé")
        if threshold is not None and margin < threshold:
            success = False
            notes.append(f"marge {margin} < {threshold} requise")
        return Verdict(success, None, margin, tuple(notes))


# ------------------------------------------------------------------ building checks


@dataclass(frozen=True)
class Stat:
    """What a roll is made on: a skill or a characteristic of a character."""

    kind: str  # "skill" | "carac"
    key: str


def resolve_stat(char: Character, name: str | None, carac: str | None = None) -> Stat:
    """The skill or characteristic a request names (`esquive` = Adresse roll, R001.17)."""
    if carac:
        key = char.find_characteristic(carac)
        if key is None:
            raise RuleError(unknown_name_message("caractéristique", carac, CHARACTERISTICS))
        if name and normalize(name) not in (key, "") and char.find_skill(name) is not None:
            raise RuleError(
                f"en maitrise, un jet se fait sur une compétence OU sur une caractéristique, "
                f"pas les deux (« {name} » et « {carac} », A001.06)"
            )
        return Stat("carac", key)
    if not name:
        raise RuleError("indiquez une compétence ou une caractéristique")
    skill = char.find_skill(name)
    if skill is not None:
        return Stat("skill", skill)
    key = char.find_characteristic(name)
    if key is not None:
        return Stat("carac", key)
    if normalize(name) == "esquive":
        return Stat("carac", "adresse")
    known = set(char.skills) | set(char.weapon_skills) | set(CHARACTERISTICS)
    raise RuleError(f"{char.name} : " + unknown_name_message("compétence", name, known))


def mastery_modifier(char: Character, key: str, config: MaitriseConfig) -> int:
    """A001.05: the "bonus de maîtrise" of a skill's rank (−7 for an Incompétent weapon)."""
    index = RANKS.index(char.rank(key))
    if index == 0 and not char.incompetent(key):
        return 0
    return config.mastery_bonus[index]


def skill_check(char: Character, key: str, config: MaitriseConfig, bonus: int = 0,
                threshold: int | None = None, label: str = "") -> Check:
    """R001.09 / R001.10 / R001.16: a skill roll (attack, parry, any action)."""
    level = char.skill(key)
    rank = char.rank(key)
    mods = [Modifier(level, f"{key} {level}, {rank.name}")]
    mastery = mastery_modifier(char, key, config)
    die_malus = 0
    if mastery:
        reason = "Incompétent (R001.23)" if rank.key == "incompetent" else "bonus de maîtrise"
        mods.append(Modifier(mastery, reason))
        if rank.key == "incompetent" and config.incompetent_malus_on_die:
            die_malus = mastery
    if bonus:
        mods.append(Modifier(bonus, "bonus de situation"))
    judge = MasteryJudge(rank.success_face, char.critical_faces(key), die_malus)
    title = label or f"{char.name} — {key}"
    return Check(
        label=f"{title} ({rank.name}, réussite au dé dès {rank.success_face})",
        natural=SingleDie(DIE), modifiers=tuple(mods), judge=judge, threshold=threshold,
        rule="R001.09, R001.10",
    )


def characteristic_check(char: Character, key: str, bonus: int = 0,
                         threshold: int | None = None, label: str = "") -> Check:
    """R001.12 / A001.04: a characteristic roll, success iff margin ≥ 10 (or a critical)."""
    value = char.characteristic(key)
    mods = [Modifier(value, f"{CHARACTERISTICS[key]} {value}")]
    if bonus:
        mods.append(Modifier(bonus, "bonus de situation"))
    judge = MasteryJudge(None, char.critical_faces(key))
    title = label or f"{char.name} — {CHARACTERISTICS[key]}"
    return Check(
        label=f"{title} (jet de caractéristique)", natural=SingleDie(DIE),
        modifiers=tuple(mods), judge=judge,
        threshold=CHARACTERISTIC_MARGIN if threshold is None else threshold, rule="R001.12",
    )


def stat_check(char: Character, stat: Stat, config: MaitriseConfig, bonus: int = 0,
               threshold: int | None = None) -> Check:
    if stat.kind == "skill":
        return skill_check(char, stat.key, config, bonus, threshold)
    return characteristic_check(char, stat.key, bonus, threshold)


def parse_threshold(text: str | None) -> int | None:
    """`--seuil N`: a minimum margin. This system has no named difficulty ladder."""
    if text is None:
        return None
    try:
        return int(text.strip())
    except ValueError:
        raise RuleError(
            f"--seuil « {text} » : en maitrise le seuil est une marge minimale (nombre entier) ; "
            "ce système n'a pas d'échelle de difficulté nommée"
        ) from None


def check_request_dice(request: CheckRequest) -> None:
    if request.die is not None and normalize(request.die) not in ("d20", "1d20"):
        raise RuleError(f"--de {request.die} : le système maitrise se joue au d20 (R001.08)")
    if request.choice is not None:
        raise RuleError("--choix : un seul d20 est lancé, il n'y a pas de dé à choisir")


# ------------------------------------------------------------------ results


def render_roll(result: CheckResult) -> str:
    dice = ", ".join(str(d.face) for d in result.dice)
    mods = " ".join(m.render() for m in result.modifiers)
    line = f"{result.label} : d20 [{dice}] {mods} = {result.total}, marge {result.margin}"
    if result.threshold is not None:
        line += f" (requise : {result.threshold})"
    line += " → " + ("RÉUSSITE" if result.success else "ÉCHEC")
    if result.critical == "success":
        line += " (réussite critique)"
    elif result.critical == "failure":
        line += " (échec critique)"
    for note in result.notes:
        line += f"\n  · {note}"
    return line


@dataclass(frozen=True)
class MaitriseCheckResult:
    """One roll, rendered the maitrise way (the margin is always shown)."""

    result: CheckResult

    @property
    def success(self) -> bool:
        return bool(self.result.success)

    @property
    def margin(self) -> int:
        assert self.result.margin is not None
        return self.result.margin

    def to_json(self) -> dict[str, Any]:
        data = self.result.to_json()
        data["system"] = "maitrise"
        return data

    def render(self) -> str:
        return render_roll(self.result)


def decide(actor: CheckResult, opponent: CheckResult) -> tuple[bool, bool, tuple[str, ...]]:
    """R001.11, A001.03, A001.07, A001.08: (actor wins, tie, notes)."""
    if not actor.success and not opponent.success:
        return False, False, ("les deux jets échouent : aucune action n'aboutit (A001.03)",)
    if not actor.success:
        return False, False, ()
    if not opponent.success:
        return True, False, ()
    a, b = actor.margin or 0, opponent.margin or 0
    if a == b:
        return False, True, ("marges égales : le défenseur (statu quo) l'emporte (A001.07)",)
    return a > b, False, ()


@dataclass(frozen=True)
class ContestResult:
    """R001.11: two rolls on the margin."""

    actor: CheckResult
    opponent: CheckResult
    success: bool
    tie: bool
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "system": "maitrise",
            "total": self.actor.total,
            "success": self.success,
            "critical": self.actor.critical,
            "margin": self.actor.margin,
            "opponent_margin": self.opponent.margin,
            "tie": self.tie,
            "dice": [d.face for d in self.actor.dice],
            "actor": self.actor.to_json(),
            "opponent": self.opponent.to_json(),
            "rule": "R001.11",
            "notes": list(self.notes),
        }

    def render(self) -> str:
        lines = [render_roll(self.actor), "contre " + render_roll(self.opponent)]
        lines.append("→ " + ("l'action l'emporte" if self.success else "l'action ne l'emporte pas")
                     + (" (égalité)" if self.tie else ""))
        lines.extend(f"  · {n}" for n in self.notes)
        return "\n".join(lines)


@dataclass(frozen=True)
class Contest:
    """Two checks against each other, decided by margins; rolled and counted the same way."""

    actor: Check
    opponent: Check

    def resolve(self, a: CheckResult, b: CheckResult) -> ContestResult:
        success, tie, notes = decide(a, b)
        return ContestResult(a, b, success, tie, notes)

    def roll(self, source: DiceSource) -> ContestResult:
        a = self.actor.roll(source)
        b = self.opponent.roll(source)
        return self.resolve(a, b)

    def odds(self) -> ContestOdds:
        win = tie = Fraction(0)
        mine = list(self.actor.outcomes())
        theirs = list(self.opponent.outcomes())
        for a, pa in mine:
            for b, pb in theirs:
                success, is_tie, _ = decide(a, b)
                if success:
                    win += pa * pb
                if is_tie:
                    tie += pa * pb
        return ContestOdds(OddsResult(self.actor.odds(), self.actor.label), win, tie,
                           OddsResult(self.opponent.odds(), self.opponent.label))


# ------------------------------------------------------------------ odds


def _pct(p: Fraction | None) -> str:
    return "—" if p is None else f"{float(p) * 100:.2f} %"


def margin_distribution(odds: Odds) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for total, p in odds.distribution:
        m = margin_of(total)
        out[m] = out.get(m, Fraction(0)) + p
    return out


@dataclass(frozen=True)
class OddsResult:
    """Exact odds of one check (the same judge as the roll)."""

    odds: Odds
    label: str

    def to_json(self) -> dict[str, Any]:
        data = self.odds.to_json()
        data["system"] = "maitrise"
        data["margin_distribution"] = {
            str(m): float(p) for m, p in sorted(margin_distribution(self.odds).items())
        }
        return data

    def render(self) -> str:
        o = self.odds
        lines = [f"{self.label} : réussite {_pct(o.success)}",
                 f"  réussite critique {_pct(o.critical_success)}, "
                 f"échec critique {_pct(o.critical_failure)}"]
        if o.threshold is not None:
            lines.append(f"  marge requise : {o.threshold}")
        return "\n".join(lines)


@dataclass(frozen=True)
class ContestOdds:
    actor: OddsResult
    success: Fraction
    tie: Fraction
    opponent: OddsResult

    def to_json(self) -> dict[str, Any]:
        data = self.actor.to_json()
        data["success"] = float(self.success)
        data["tie"] = float(self.tie)
        data["opponent"] = self.opponent.to_json()
        return data

    def render(self) -> str:
        return (f"{self.actor.label} contre {self.opponent.label} : l'emporte "
                f"{_pct(self.success)} (égalité de marges {_pct(self.tie)})\n"
                f"  réussite critique {_pct(self.actor.odds.critical_success)}, "
                f"échec critique {_pct(self.actor.odds.critical_failure)}")

