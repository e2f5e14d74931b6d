"""Resolution (RULES.md 5.2): CHANCE d10 keep one + skill, or + 2 × characteristic.

- R004.12 skill roll, R004.13 characteristic roll, A004.05 keep the best die or the player's.
- R004.14 / D-004.31 the ladder; R004.15 / A004.02 the margin counted in ladder rows.
- R004.18–R004.20 / A004.06 criticals: every 10 and every 1 is rerolled once to confirm; two 10s
  = critical success (automatic success, Chance +1), two 1s = critical failure (automatic failure,
  Chance −1), both in one roll cancel; Chance stays within 1..5 (A004.07).
- R004.21 / A004.08 opposed rolls and their ties; R004.22 / A004.20 wound malus on every roll.

`ChanceDice` is the one definition of the dice: `roll()` and `distribution()` (exact, with the
confirmation rerolls) come from the same model, so `odds()` and `roll()` cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from jdr.core.check import Check, CheckResult, Modifier, Natural, NaturalRoll, Odds, Verdict
from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.felins import forum, tables
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.sheet import Cat

if TYPE_CHECKING:
    import icepool

SIDES = 10
CONFIRM_SUCCESS = "confirmation du 10"
CONFIRM_FAILURE = "confirmation du 1"

# ------------------------------------------------------------------ the dice


@dataclass(frozen=True, slots=True)
class ChanceDice(NaturalRoll):
    """R004.12 + A004.06: `count` (= Chance) d10, keep the best (or die n° `choice`); each 10 and
    each 1 is rerolled once to confirm a critical. Natural = (kept face, critical success,
    critical failure); the face kept is the original one (the reroll only confirms)."""

    count: int
    choice: int | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.count}d10, garder un dé"

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        faces = [source.roll(SIDES) for _ in range(self.count)]
        kept = self.kept_index(faces)
        dice = [Die(SIDES, f, i == kept, "" if i == kept else "écarté")
                for i, f in enumerate(faces)]
        crit_success = crit_failure = False
        for face in faces:
            if face == SIDES:
                confirm = source.roll(SIDES)
                dice.append(Die(SIDES, confirm, False, CONFIRM_SUCCESS))
                crit_success = crit_success or confirm == SIDES
            elif face == 1:
                confirm = source.roll(SIDES)
                dice.append(Die(SIDES, confirm, False, CONFIRM_FAILURE))
                crit_failure = crit_failure or confirm == 1
        return (faces[kept], crit_success, crit_failure), tuple(dice)

    def kept_index(self, faces: Sequence[int]) -> int:
        if self.choice is not None:
            return self.choice - 1
        return max(range(len(faces)), key=lambda i: (faces[i], -i))

    def distribution(self) -> icepool.Die:
        return _chance_distribution(self.count, self.choice)

    def value(self, natural: Natural) -> int:
        assert isinstance(natural, tuple)
        face = natural[0]
        assert isinstance(face, int)
        return face


def _one_die() -> list[tuple[int, bool, bool, int]]:
    """One d10 with its confirmation reroll, in hundredths: (face, crit 10, crit 1, weight)."""
    out: list[tuple[int, bool, bool, int]] = []
    for face in range(1, SIDES + 1):
        if face == SIDES:
            out += [(face, True, False, 1), (face, False, False, SIDES - 1)]
        elif face == 1:
            out += [(face, False, True, 1), (face, False, False, SIDES - 1)]
        else:
            out.append((face, False, False, SIDES))
    return out


@lru_cache(maxsize=32)
def _chance_distribution(count: int, choice: int | None) -> icepool.Die:
    """Exact joint law of (kept face, critical success, critical failure), die by die."""
    import icepool

    states: dict[tuple[int, bool, bool], int] = {(0, False, False): 1}
    for index in range(count):
        following: dict[tuple[int, bool, bool], int] = {}
        for (kept, cs, cf), weight in states.items():
            for face, s, f, w in _one_die():
                chosen = index == (choice or 0) - 1
                new_kept = max(kept, face) if choice is None else face if chosen else kept
                key = (new_kept, cs or s, cf or f)
                following[key] = following.get(key, 0) + weight * w
        states = following
    return icepool.Die(states)


# ------------------------------------------------------------------ the judge


@dataclass(frozen=True)
class FelinsJudge:
    """R004.12 total ≥ threshold; R004.18/19 criticals force the outcome; R004.20 they cancel;
    A004.02 margin in ladder rows (or raw points)."""

    margin_unit: str = "lignes"

    def margin(self, total: int, threshold: int) -> int:
        difference = total - threshold
        return difference // tables.LADDER_ROW if self.margin_unit == "lignes" else difference

    def __call__(self, natural: Natural, total: int, threshold: int | None) -> Verdict:
        assert isinstance(natural, tuple)
        _, crit_success, crit_failure = natural
        critical: Any = None
        notes: tuple[str, ...] = ()
        if crit_success and crit_failure:
            notes = ("réussite critique et échec critique simultanés : ils s'annulent (R004.20)",)
        elif crit_success:
            critical = "success"
        elif crit_failure:
            critical = "failure"
        if threshold is None:
            return Verdict(None, critical, None, notes)
        success = total >= threshold
        margin = self.margin(total, threshold)
        if critical == "success":
            success, margin = True, max(margin, 0)
        elif critical == "failure":
            success, margin = False, min(margin, -1)
        return Verdict(success, critical, margin, notes)


# ------------------------------------------------------------------ thresholds


@dataclass(frozen=True)
class Threshold:
    value: int
    label: str | None


def parse_threshold(text: str | None, config: FelinsConfig = DEFAULT) -> Threshold | None:
    """A number or a ladder name (D-004.31, D-ALL.01): `assez-difficile` → 11."""
    if text is None or not str(text).strip():
        return None
    raw = str(text).strip()
    if raw.lstrip("+-").isdigit():
        value = int(raw)
        return Threshold(value, config.label_of(value))
    ladder = config.ladder_by_name()
    key = normalize(raw)
    key = tables.LADDER_ALIASES.get(key, key)
    if key not in ladder:
        raise RuleError(unknown_name_message("seuil", raw, ladder))
    label, value = ladder[key]
    return Threshold(value, label)


def chance_after(chance: int, critical: Any) -> int:
    """R004.18/19/20 + A004.07: ±1 on a critical, clamped to 1..5 (T004.07, T004.08)."""
    step = 1 if critical == "success" else -1 if critical == "failure" else 0
    return min(tables.CHARACTERISTIC_MAX, max(tables.CHARACTERISTIC_MIN, chance + step))


def chance_changes(doc: SheetDocument | None, before: int, after: int) -> list[SheetChange]:
    if doc is None or before == after:
        return []
    return [SheetChange(doc, ("caracteristiques", "chance"), after)]


# ------------------------------------------------------------------ building checks


def _dice(cat: Cat, choice: int | None) -> ChanceDice:
    if choice is not None and not 1 <= choice <= cat.chance:
        raise RuleError(
            f"--choix {choice} : {cat.name} lance {cat.chance} dé(s) (Chance {cat.chance}) ; "
            f"choisir un dé de 1 à {cat.chance}"
        )
    return ChanceDice(cat.chance, choice)


def _common(cat: Cat, bonus: int, extra: tuple[Modifier, ...]) -> tuple[Modifier, ...]:
    mods = list(extra)
    if bonus:
        mods.append(Modifier(bonus, "bonus du MJ" if bonus > 0 else "malus du MJ"))
    if cat.wounds:
        mods.append(Modifier(-cat.wounds, f"{cat.wounds} niveau(x) de blessure (R004.22)"))
    return tuple(mods)


def skill_check(cat: Cat, skill: str, threshold: int | None = None, bonus: int = 0,
                choice: int | None = None, config: FelinsConfig = DEFAULT,
                extra: tuple[Modifier, ...] = ()) -> Check:
    """R004.12 CHANCE d10 + skill (innate + acquired) ≥ threshold; R004.08 Ω needs rank 1."""
    score = cat.usable_skill(skill, config)
    name = tables.SKILLS[score.skill].name
    detail = f"inné {score.innate} + acquis {score.acquired}"
    if score.bonus:
        detail += f" + {score.bonus} Psychologie humaine ≥ 3"
    mods = (Modifier(score.total, f"{name} : {detail}"), *_common(cat, bonus, extra))
    return Check(f"{cat.name} — {name}", _dice(cat, choice), mods,
                 FelinsJudge(config.margin), threshold, "R004.12")


def characteristic_check(cat: Cat, characteristic: str, threshold: int | None = None,
                         bonus: int = 0, choice: int | None = None,
                         config: FelinsConfig = DEFAULT,
                         extra: tuple[Modifier, ...] = ()) -> Check:
    """R004.13 CHANCE d10 + 2 × characteristic ≥ threshold."""
    key, value = cat.characteristic(characteristic)
    name = tables.CHARACTERISTICS[key]
    factor = tables.CHARACTERISTIC_FACTOR
    mods = (Modifier(factor * value, f"{factor} × {name} {value}"), *_common(cat, bonus, extra))
    return Check(f"{cat.name} — {name}", _dice(cat, choice), mods,
                 FelinsJudge(config.margin), threshold, "R004.13")


def resolve_name(name: str) -> tuple[str, str]:
    """Is `name` a skill or a characteristic? ("competence"|"caracteristique", canonical key)."""
    key = normalize(name)
    key = tables.SKILL_ALIASES.get(key, key)
    if key in tables.SKILLS:
        return "competence", key
    if key in tables.CHARACTERISTICS:
        return "caracteristique", key
    known = list(tables.SKILLS) + list(tables.CHARACTERISTICS)
    raise RuleError(unknown_name_message("compétence ou caractéristique", name, known))


# ------------------------------------------------------------------ results


def _describe_dice(dice: Sequence[Die]) -> str:
    parts = []
    for die in dice:
        if die.note.startswith("confirmation"):
            parts.append(f"{die.face} ({die.note})")
        elif die.kept:
            parts.append(f"[{die.face}]")
        else:
            parts.append(str(die.face))
    return ", ".join(parts)


def _critical_text(critical: Any, before: int, after: int) -> str:
    if critical == "success":
        return f"RÉUSSITE CRITIQUE (deux 10) : Chance {before} → {after}"
    if critical == "failure":
        return f"ÉCHEC CRITIQUE (deux 1) : Chance {before} → {after}"
    return ""


@dataclass(frozen=True)
class RollResult:
    """One roll of a cat: the core `CheckResult` plus the Chance it leaves on the sheet."""

    cat: str
    result: CheckResult
    chance_before: int
    chance_after: int
    threshold_label: str | None = None
    config: FelinsConfig = field(default=DEFAULT, repr=False, compare=False)

    @property
    def total(self) -> int:
        return self.result.total

    @property
    def success(self) -> bool | None:
        return self.result.success

    @property
    def critical(self) -> Any:
        return self.result.critical

    @property
    def margin(self) -> int | None:
        return self.result.margin

    def to_json(self) -> dict[str, Any]:
        data = self.result.to_json()
        data["natural"] = list(self.result.natural) if isinstance(
            self.result.natural, tuple) else self.result.natural
        data.update({
            "name": self.cat,
            "threshold_label": self.threshold_label,
            "reached_label": self.config.label_of(self.result.total),
            "chance_before": self.chance_before,
            "chance_after": self.chance_after,
        })
        return data

    def lines(self) -> list[str]:
        r = self.result
        mods = " ".join(m.render() for m in r.modifiers)
        line = f"{r.label} : dés {_describe_dice(r.dice)} {mods} = {r.total}"
        if r.threshold is not None:
            label = f" ({self.threshold_label})" if self.threshold_label else ""
            line += f" contre seuil {r.threshold}{label}"
            line += " → " + ("RÉUSSITE" if r.success else "ÉCHEC")
            if r.margin is not None:
                line += f", marge {r.margin:+d}"
        reached = self.config.label_of(r.total)
        out = [line]
        if reached:
            out.append(f"  · niveau atteint : {reached}")
        crit = _critical_text(r.critical, self.chance_before, self.chance_after)
        if crit:
            out.append(f"  · {crit}")
        out.extend(f"  · {n}" for n in r.notes)
        return out

    def render(self) -> str:
        return "\n".join(self.lines())

    def forum_lines(self) -> list[str]:
        r = self.result
        mods = " ".join(f"{m.value:+d} ({m.reason})" for m in r.modifiers)
        face = r.natural[0] if isinstance(r.natural, tuple) else r.natural
        out = [f"{forum.b(r.label)}",
               f"Dés (Chance {self.chance_before}) : {forum.dice(r.dice)}",
               f"Total : {face} {mods} = {forum.b(r.total)}"]
        if r.threshold is not None:
            label = f" ({self.threshold_label})" if self.threshold_label else ""
            margin = f" — marge {r.margin:+d}" if r.margin is not None else ""
            out.append(f"Seuil : {r.threshold}{label} → {forum.verdict(r.success)}{margin}")
        crit = _critical_text(r.critical, self.chance_before, self.chance_after)
        if crit:
            out.append(forum.color(forum.b(crit), forum.GOLD))
        out.extend(forum.i(n) for n in r.notes)
        return out

    def render_forum(self) -> str:
        return forum.quote(self.forum_lines())


def roll_cat(check: Check, cat: Cat, source: DiceSource, threshold_label: str | None = None,
             config: FelinsConfig = DEFAULT) -> RollResult:
    result = check.roll(source)
    return RollResult(cat.name, result, cat.chance, chance_after(cat.chance, result.critical),
                      threshold_label, config)


@dataclass(frozen=True)
class VoluntaryFailure:
    """R004.17 a player may fail on purpose (E004.13): no dice, the action fails."""

    cat: str
    action: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.cat, "label": self.action, "total": None, "success": False,
                "critical": None, "margin": None, "dice": [], "voluntary": True,
                "rule": "R004.17"}

    def render(self) -> str:
        return f"{self.cat} — {self.action} : échec volontaire (R004.17), aucun dé lancé"

    def render_forum(self) -> str:
        return forum.quote([forum.b(f"{self.cat} — {self.action}"),
                            f"{forum.verdict(False)} volontaire (le joueur choisit de rater)"])


# ------------------------------------------------------------------ opposed rolls


_CRITICAL_RANK = {"success": 1, None: 0, "failure": -1}


@dataclass(frozen=True)
class OpposedRule:
    """R004.21 the best score wins; A004.08 ties: a critical success wins and a critical failure
    loses, then higher total, then the skill used, then Chance, then both re-roll."""

    actor_skill: int
    opponent_skill: int
    actor_chance: int
    opponent_chance: int
    critical_wins: bool = True

    def outcome(self, a: CheckResult, b: CheckResult) -> tuple[int, str]:
        """+1 the actor wins, −1 the opponent wins, 0 a perfect tie (re-roll)."""
        if self.critical_wins:
            ca, cb = _CRITICAL_RANK[a.critical], _CRITICAL_RANK[b.critical]
            if ca != cb:
                return (1 if ca > cb else -1), "un critique l'emporte sur le total (A004.08)"
        if a.total != b.total:
            return (1 if a.total > b.total else -1), ""
        if self.actor_skill != self.opponent_skill:
            return ((1 if self.actor_skill > self.opponent_skill else -1),
                    "égalité : la meilleure compétence l'emporte (A004.08)")
        if self.actor_chance != self.opponent_chance:
            return ((1 if self.actor_chance > self.opponent_chance else -1),
                    "égalité : la meilleure Chance l'emporte (A004.08)")
        return 0, "égalité parfaite : on relance (A004.08)"


@dataclass(frozen=True)
class OpposedRoll:
    """R004.21 both cats roll; the best score wins (ties: A004.08)."""

    actor: Check
    opponent: Check
    rule: OpposedRule

    def roll(self, actor: Cat, opponent: Cat, source: DiceSource,
             config: FelinsConfig = DEFAULT) -> OpposedOutcome:
        rounds: list[tuple[RollResult, RollResult, int, str]] = []
        a_chance, b_chance = actor.chance, opponent.chance
        for _ in range(config.max_rerolls):
            a = self.actor.roll(source)
            b = self.opponent.roll(source)
            a_after, b_after = chance_after(a_chance, a.critical), chance_after(b_chance, b.critical)
            winner, note = self.rule.outcome(a, b)
            rounds.append((RollResult(actor.name, a, a_chance, a_after, None, config),
                           RollResult(opponent.name, b, b_chance, b_after, None, config),
                           winner, note))
            a_chance, b_chance = a_after, b_after
            if winner:
                break
        return OpposedOutcome(tuple(rounds))

    def odds(self) -> OpposedOdds:
        return _opposed_odds(self)


@dataclass(frozen=True)
class OpposedOutcome:
    """Every round of an opposed roll (several only on perfect ties) and the winner."""

    rounds: tuple[tuple[RollResult, RollResult, int, str], ...]

    @property
    def last(self) -> tuple[RollResult, RollResult, int, str]:
        return self.rounds[-1]

    @property
    def success(self) -> bool:
        return self.last[2] > 0

    def to_json(self) -> dict[str, Any]:
        a, b, winner, _ = self.last
        return {
            "total": a.total, "success": winner > 0, "critical": a.critical,
            "margin": a.total - b.total, "dice": [d.face for d in a.result.dice],
            "tie": a.total == b.total, "winner": a.cat if winner > 0 else b.cat,
            "actor": a.to_json(), "opponent": b.to_json(),
            "rounds": [{"actor": x.to_json(), "opponent": y.to_json(), "winner": w, "note": n}
                       for x, y, w, n in self.rounds],
            "rule": "R004.21",
        }

    def render(self) -> str:
        out: list[str] = []
        for index, (a, b, winner, note) in enumerate(self.rounds, start=1):
            if len(self.rounds) > 1:
                out.append(f"Manche {index} :")
            out.extend(a.lines())
            out.append("contre")
            out.extend(b.lines())
            if winner:
                out.append(f"→ {(a if winner > 0 else b).cat} l'emporte"
                           f" ({a.total} contre {b.total})")
            if note:
                out.append(f"  · {note}")
        return "\n".join(out)

    def render_forum(self) -> str:
        out: list[str] = []
        for a, b, winner, note in self.rounds:
            out.extend(a.forum_lines())
            out.append(forum.i("contre"))
            out.extend(b.forum_lines())
            if winner:
                out.append(forum.color(forum.b(f"{(a if winner > 0 else b).cat} l'emporte"),
                                       forum.GREEN))
            if note:
                out.append(forum.i(note))
        return forum.quote(out)

    def changes(self, actor_doc: SheetDocument | None,
                opponent_doc: SheetDocument | None) -> list[SheetChange]:
        first_a, first_b = self.rounds[0][0], self.rounds[0][1]
        last_a, last_b = self.last[0], self.last[1]
        return (chance_changes(actor_doc, first_a.chance_before, last_a.chance_after)
                + chance_changes(opponent_doc, first_b.chance_before, last_b.chance_after))


@dataclass(frozen=True)
class OpposedOdds:
    """Exact odds of an opposed roll; perfect ties re-roll, so success = win / (1 − tie)."""

    label: str
    success: Fraction
    tie: Fraction
    critical_success: Fraction
    critical_failure: Fraction
    distribution: tuple[tuple[int, Fraction], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label, "success": float(self.success),
            "critical_success": float(self.critical_success),
            "critical_failure": float(self.critical_failure),
            "tie": float(self.tie),
            "distribution": {str(t): float(p) for t, p in self.distribution},
        }

    def render(self) -> str:
        return (f"{self.label} : {float(self.success):.1%} de l'emporter "
                f"(égalité parfaite relancée : {float(self.tie):.1%} par manche) ; "
                f"réussite critique {float(self.critical_success):.2%}, "
                f"échec critique {float(self.critical_failure):.2%}")

    def render_forum(self) -> str:
        return forum.quote([forum.b(self.label),
                            f"Chances de l'emporter : {forum.b(f'{float(self.success):.1%}')}",
                            f"Critiques : réussite {float(self.critical_success):.2%}, "
                            f"échec {float(self.critical_failure):.2%}"])


@lru_cache(maxsize=256)
def _opposed_odds(opposed: OpposedRoll) -> OpposedOdds:
    win = tie = crit_s = crit_f = Fraction(0)
    mine = list(opposed.actor.outcomes())
    theirs = list(opposed.opponent.outcomes())
    totals: dict[int, Fraction] = {}
    for a, pa in mine:
        totals[a.total] = totals.get(a.total, Fraction(0)) + pa
        if a.critical == "success":
            crit_s += pa
        elif a.critical == "failure":
            crit_f += pa
        for b, pb in theirs:
            winner, _ = opposed.rule.outcome(a, b)
            if winner > 0:
                win += pa * pb
            elif winner == 0:
                tie += pa * pb
    success = win / (1 - tie) if tie < 1 else Fraction(1, 2)
    return OpposedOdds(f"{opposed.actor.label} contre {opposed.opponent.label}", success, tie,
                       crit_s, crit_f, tuple(sorted(totals.items())))


# ------------------------------------------------------------------ odds of one check


@dataclass(frozen=True)
class CheckOdds:
    """Exact odds of one check (the same `Check` as the roll), with French and BBCode output."""

    odds: Odds
    threshold_label: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = self.odds.to_json()
        data["threshold_label"] = self.threshold_label
        return data

    def render(self) -> str:
        o = self.odds
        head = f"{o.label}"
        if o.threshold is not None:
            label = f" ({self.threshold_label})" if self.threshold_label else ""
            head += f" contre seuil {o.threshold}{label}"
        lines = [head]
        if o.success is not None:
            lines.append(f"  réussite : {float(o.success):.2%}")
        lines.append(f"  réussite critique : {float(o.critical_success):.2%}, "
                     f"échec critique : {float(o.critical_failure):.2%}")
        lines.append(f"  total moyen : {o.mean:.2f}")
        lines.append("  totaux : " + ", ".join(f"{t}: {float(p):.1%}" for t, p in o.distribution))
        return "\n".join(lines)

    def render_forum(self) -> str:
        o = self.odds
        lines = [forum.b(o.label)]
        if o.success is not None:
            lines.append(f"Seuil {o.threshold} : réussite {forum.b(f'{float(o.success):.1%}')}")
        lines.append(f"Critiques : réussite {float(o.critical_success):.2%}, "
                     f"échec {float(o.critical_failure):.2%}")
        return forum.quote(lines)
