"""Resolution (RULES.md 5.2): CHANCE d10 keep one + skill, or + 2 × characteristic.

- R004.12 skill roll, R004.13 characteristic roll, A004.05 keep the best die or the player's
  (the dice themselves: `dice.py`).
- R004.14 / D-004.31 the ladder (the core reads `--seuil`, `FelinsConfig.threshold_ladder`);
  R004.15 / A004.02 the margin counted in ladder rows.
- R004.18–R004.20 / A004.06 criticals: two 10s = critical success (automatic success, Chance +1),
  two 1s = critical failure (automatic failure, Chance −1), both in one roll cancel; Chance stays
  within 1..5 (A004.07) and is written back to the sheet.
- R004.17 voluntary failure; R004.22 / A004.20 wound malus on every roll.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from jdr.core.check import Check, CheckResult, Critical, Modifier, Natural, Verdict
from jdr.core.frozen import frozen
from jdr.core.messages import arg, say
from jdr.core.system import Chooser, Loaded, Question, SheetChange, default_choice
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.felins import tables
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.dice import DISCARDED, ChanceDice, ChanceNatural
from jdr.systems.felins.sheet import Cat

# ------------------------------------------------------------------ the judge


def chance_after(chance: int, critical: Critical) -> int:
    """R004.18/19/20 + A004.07: ±1 on a critical, clamped to 1..5 (T004.07, T004.08)."""
    step = 1 if critical == "success" else -1 if critical == "failure" else 0
    return min(tables.CHARACTERISTIC_MAX, max(tables.CHARACTERISTIC_MIN, chance + step))


def critical_of(natural: ChanceNatural) -> Critical:
    """R004.18 / R004.19 the confirmed critical; R004.20 both at once cancel (T004.09)."""
    if natural.critical_success and natural.critical_failure:
        return None
    if natural.critical_success:
        return "success"
    if natural.critical_failure:
        return "failure"
    return None


def critical_note(critical: Critical, chance: int | None) -> str:
    """French line for a critical, with the Chance it leaves (R004.18, R004.19)."""
    if critical is None:
        return ""
    moved = "" if chance is None else f", Chance {chance} → {chance_after(chance, critical)}"
    if critical == "success":
        return f"deux 10 : réussite critique, l'action réussit d'office{moved}"
    return f"deux 1 : échec critique, l'action échoue d'office{moved}"


@frozen
class FelinsJudge:
    """R004.12 total ≥ threshold; R004.18/19 criticals force the outcome; R004.20 they cancel;
    A004.02 margin in ladder rows (or raw points). `chance` is the roller's Chance, for the note
    saying what a critical does to it. The notes say which ladder row the total reaches
    (R004.14)."""

    config: FelinsConfig = DEFAULT
    chance: int | None = None

    def margin(self, total: int, threshold: int) -> int:
        difference = total - threshold
        return difference // tables.LADDER_ROW if self.config.margin == "lignes" else difference

    def notes(self, natural: ChanceNatural, total: int) -> tuple[str, ...]:
        out: list[str] = []
        reached = self.config.label_of(total)
        if reached:
            out.append(f"niveau atteint : {reached}")
        if natural.critical_success and natural.critical_failure:
            out.append("réussite critique et échec critique en même temps : ils s'annulent, "
                       "le jet se résout normalement")
        note = critical_note(critical_of(natural), self.chance)
        if note:
            out.append(note)
        return tuple(out)

    def __call__(self, natural: Natural, total: int, threshold: int | None) -> Verdict:
        assert isinstance(natural, ChanceNatural)
        critical = critical_of(natural)
        notes = self.notes(natural, total)
        if threshold is None:
            return Verdict(None, critical, None, notes)
        success = total >= threshold
        margin = self.margin(total, threshold)
        if critical == "success":
            success, margin = True, max(margin, 0)
        elif critical == "failure":
            success, margin = False, min(margin, -1)
        return Verdict(success, critical, margin, notes)


# ------------------------------------------------------------------ what is rolled


@frozen
class Target:
    """What a roll uses: a skill (R004.12) or a characteristic (R004.13), by canonical key."""

    kind: Literal["competence", "caracteristique"]
    key: str

    @property
    def name(self) -> str:
        if self.kind == "competence":
            return tables.SKILLS[self.key].name
        return tables.CHARACTERISTICS[self.key]


def resolve_name(name: str) -> Target:
    """Is `name` a skill or a characteristic? (D-ALL.01 spellings, aliases of the tables)."""
    key = normalize(name)
    key = tables.SKILL_ALIASES.get(key, key)
    if key in tables.SKILLS:
        return Target("competence", key)
    if key in tables.CHARACTERISTICS:
        return Target("caracteristique", key)
    known = list(tables.SKILLS) + list(tables.CHARACTERISTICS)
    raise RuleError(unknown_name_message("compétence ou caractéristique", name, known))


def target_of(name: str, carac: str | None) -> Target:
    """`jdr test FICHE NOM [--carac C]`: with `--carac`, a characteristic roll; a skill's
    characteristics are fixed (R004.10), so a skill name beside `--carac` is refused."""
    if not carac:
        return resolve_name(name)
    key = normalize(carac)
    if key not in tables.CHARACTERISTICS:
        raise RuleError(unknown_name_message("caractéristique", carac, tables.CHARACTERISTICS))
    if name and normalize(name) not in ("", "-", key) and resolve_name(name).kind == "competence":
        raise RuleError(say(f"« {name} » est une compétence : ses caractéristiques sont fixées "
                            "(R004.10) ; pour un jet de caractéristique, donnez seulement ",
                            arg("carac")))
    return Target("caracteristique", key)


def opposing(target: Target) -> Target:
    """R004.38 what the rules oppose by default: Repérer/Trouver to Discrétion and back, the same
    skill or characteristic otherwise."""
    if target.kind == "competence":
        return Target("competence", tables.OPPOSED_BY.get(target.key, target.key))
    return target


# ------------------------------------------------------------------ building checks


def _dice(cat: Cat, choice: int | None) -> ChanceDice:
    if choice is not None and not 1 <= choice <= cat.chance:
        raise RuleError(say(
            arg("choix", str(choice)), f" : {cat.name} lance {cat.chance} dé(s) (Chance "
            f"{cat.chance}) ; choisir un dé de 1 à {cat.chance}"))
    return ChanceDice(cat.chance, choice)


def _common(cat: Cat, bonus: int, extra: tuple[Modifier, ...]) -> tuple[Modifier, ...]:
    """The GM's bonus and R004.22 / A004.20 the wound malus, on every roll."""
    mods = list(extra)
    if bonus:
        mods.append(Modifier(bonus, "bonus du MJ" if bonus > 0 else "malus du MJ"))
    if cat.wounds:
        mods.append(Modifier(-cat.wounds, f"{cat.wounds} niveau(x) de blessure", "R004.22"))
    return tuple(mods)


@frozen
class Roll:
    """How to build one roll of a cat: threshold, GM bonus, die chosen, extra modifiers."""

    threshold: int | None = None
    bonus: int = 0
    choice: int | None = None
    extra: tuple[Modifier, ...] = ()
    rule: str = ""


PLAIN = Roll()


def skill_check(cat: Cat, skill: str, roll: Roll = PLAIN, config: FelinsConfig = DEFAULT) -> Check:
    """R004.12 CHANCE d10 + skill (innate + acquired) ≥ threshold; R004.08 Ω needs rank 1."""
    score = cat.usable_skill(skill, config)
    name = tables.SKILLS[score.skill].name
    detail = f"inné {score.innate} + acquis {score.acquired}"
    if score.bonus:
        detail += f" + {score.bonus} (Psychologie humaine ≥ {tables.LANGUAGE_BONUS_MIN_RANK})"
    mods = (Modifier(score.total, f"{name} : {detail}", "R004.06"),
            *_common(cat, roll.bonus, roll.extra))
    return _check(cat, name, mods, roll, config, roll.rule or "R004.12", score.total)


def characteristic_check(cat: Cat, characteristic: str, roll: Roll = PLAIN,
                         config: FelinsConfig = DEFAULT) -> Check:
    """R004.13 CHANCE d10 + 2 × characteristic ≥ threshold."""
    key, value = cat.characteristic(characteristic)
    name = tables.CHARACTERISTICS[key]
    factor = tables.CHARACTERISTIC_FACTOR
    mods = (Modifier(factor * value, f"{factor} × {name} {value}", "R004.13"),
            *_common(cat, roll.bonus, roll.extra))
    return _check(cat, name, mods, roll, config, roll.rule or "R004.13", factor * value)


def _check(cat: Cat, name: str, mods: tuple[Modifier, ...], roll: Roll, config: FelinsConfig,
           rule: str, score: int) -> Check:
    """The check, with the skill used and Chance as stats (A004.08 opposed ties)."""
    return Check(f"{cat.name} — {name}", _dice(cat, roll.choice), mods,
                 FelinsJudge(config, cat.chance), roll.threshold, rule, who=cat.name,
                 stats=(("skill", score), ("chance", cat.chance)))


def target_check(cat: Cat, target: Target, roll: Roll = PLAIN,
                 config: FelinsConfig = DEFAULT) -> Check:
    if target.kind == "competence":
        return skill_check(cat, target.key, roll, config)
    return characteristic_check(cat, target.key, roll, config)


def with_chance(check: Check, chance: int) -> Check:
    """The same check rolled with another Chance (A004.07: a critical moves it before the next
    roll): as many dice, the player's die kept if it still exists."""
    natural = check.natural
    assert isinstance(natural, ChanceDice)
    judge = check.judge
    assert isinstance(judge, FelinsJudge)
    choice = natural.choice if natural.choice is not None and natural.choice <= chance else None
    stats = tuple((k, chance if k == "chance" else v) for k, v in check.stats)
    return Check(check.label, ChanceDice(chance, choice), check.modifiers,
                 replace(judge, chance=chance), check.threshold, check.rule, check.who, stats)


def keep_choice(check: Check, result: CheckResult, chooser: Chooser = default_choice
                ) -> CheckResult:
    """R004.12 / A004.05 once the dice are shown, the player keeps the die they wish (asked
    through `chooser`, default the best). A die named in advance (`--choix`), a single die or
    equal faces ask nothing. The criticals come from every die (A004.06), not the kept one."""
    natural = check.natural
    if not isinstance(natural, ChanceDice) or natural.choice is not None or not result.dice:
        return result
    rolled = result.dice[:natural.count]
    faces = [d.face for d in rolled]
    if len(set(faces)) < 2:
        return result
    kept = next(i for i, d in enumerate(rolled) if d.kept)
    choices = tuple(str(i + 1) for i in range(len(faces)))
    listed = ", ".join(f"{i + 1} ({f})" for i, f in enumerate(faces))
    prompt = f"{check.label} : dés {listed} ; garder quel dé ?"
    labels = tuple(f"Garder le dé {i + 1} ({f})" for i, f in enumerate(faces))
    answer = chooser(Question(prompt, choices, str(kept + 1), result, labels, check.who))
    if answer not in choices:
        raise RuleError(f"dé gardé : réponse « {str(answer)[:20]} » (autorisé : "
                        f"{', '.join(choices)})")
    index = int(answer) - 1
    if index == kept:
        return result
    dice = tuple(Die(d.sides, d.face, i == index, "" if i == index else DISCARDED)
                 for i, d in enumerate(rolled)) + result.dice[natural.count:]
    assert isinstance(result.natural, ChanceNatural)
    return check.resolve(result.natural._replace(face=faces[index]), dice)


def roll_kept(check: Check, source: DiceSource, chooser: Chooser = default_choice) -> CheckResult:
    """Roll, show, then let the player keep another die (A004.05)."""
    return keep_choice(check, check.roll(source), chooser)


def chance_of(result: CheckResult) -> int:
    """The Chance a roll was made with (its stat)."""
    return dict(result.stats)["chance"]


# ------------------------------------------------------------------ results and sheet changes


def chance_change(sheet: Loaded[Cat] | None, before: int, after: int) -> tuple[SheetChange, ...]:
    """A004.07 the new Chance, written on the sheet."""
    if sheet is None or before == after:
        return ()
    return (SheetChange(sheet.doc, ("caracteristiques", "chance"), after),)


def roll_changes(sheet: Loaded[Cat] | None, result: CheckResult) -> tuple[SheetChange, ...]:
    """The Chance a roll's critical leaves on the roller's sheet."""
    before = chance_of(result)
    return chance_change(sheet, before, chance_after(before, result.critical))


def voluntary_failure(cat: Cat, target: Target, threshold: int | None) -> CheckResult:
    """R004.17 a player may fail on purpose (E004.13): no dice, the action fails."""
    return CheckResult(
        label=f"{cat.name} — {target.name}", total=0, natural=0, dice=(), modifiers=(),
        threshold=threshold, success=False, critical=None, margin=None, rule="R004.17",
        notes=("échec volontaire : le joueur choisit de rater, aucun dé lancé",), who=cat.name)
