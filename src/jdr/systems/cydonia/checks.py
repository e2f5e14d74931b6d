"""Cydonia, resolution (RULES.md 1.2): Caractéristique + Compétence + 1D10 (R000.01, R000.11),
against a threshold or an opposed roll (R000.13). Dressage against an animal's training
difficulty is a threshold roll (A000.44).

One judge (`judge`) decides every Cydonia roll against a threshold; `Check` gives both the roll
and its exact odds, and `CONTEST` (strictly greater, a tie to the defender) every opposed roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jdr.core.check import (
    Check,
    CheckResult,
    Critical,
    KeepOne,
    Modifier,
    Natural,
    NaturalRoll,
    SingleDie,
    Verdict,
)
from jdr.core.contest import Contest, ContestResult, ContestRule, Criterion
from jdr.core.french import Genre, is_state, state_label
from jdr.core.frozen import frozen
from jdr.core.messages import Ref, arg, say
from jdr.core.system import Chooser, Question, default_choice
from jdr.dice.modifiers import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    CHARACTERISTICS,
    SKILL_ALIASES,
    SKILLS,
    WEAPON_SKILLS,
    skill_label,
)

if TYPE_CHECKING:
    import icepool

    from jdr.core.results import Result

D10 = SingleDie(10)
SPECIAL = ("resistance_physique", "resistance_mentale", "initiative", "reveil")


class Passive(NaturalRoll):
    """D-000.47: a defender who cannot act rolls nothing; its natural value (and total) is 0."""

    label = "aucun jet"
    rolls = False

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        return 0, ()

    def distribution(self) -> icepool.Die:
        import icepool

        return icepool.Die([0])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Passive)

    def __hash__(self) -> int:
        return hash("Passive")


PASSIVE = Passive()


def _verdict(natural: Natural, total: int, threshold: int | None, inclusive: bool) -> Verdict:
    critical: Critical = "success" if natural == 10 else "failure" if natural == 1 else None
    if threshold is None:
        return Verdict(None, critical, None)
    reached = total >= threshold if inclusive else total > threshold
    notes: tuple[str, ...] = ()
    if critical is None and not inclusive and total == threshold:
        notes = ("égalité : il faut un total strictement supérieur",)
    elif critical == "success" and not reached:
        notes = ("réussite critique : réussit quel que soit le total",)
    elif critical == "failure" and reached:
        notes = ("échec critique : échoue quel que soit le total",)
    success = True if critical == "success" else False if critical == "failure" else reached
    return Verdict(success, critical, total - threshold, notes)


def judge(natural: Natural, total: int, threshold: int | None) -> Verdict:
    """R000.14, R000.18, A000.01, A000.03, D-000.03.

    Natural 10 on the kept die is a critical success, natural 1 a critical failure. Against a
    threshold, success is total ≥ threshold (A000.01), a critical success always succeeds and a
    critical failure always fails (D-000.03). Without a threshold (opposed rolls) only the
    criticals are reported.
    """
    return _verdict(natural, total, threshold, CONFIG.threshold_inclusive)


def strict_judge(natural: Natural, total: int, threshold: int | None) -> Verdict:
    """R000.41, D-000.49: rolls the text says must be "supérieur" (waking up): total > threshold."""
    return _verdict(natural, total, threshold, False)


# R000.15, A000.02: the actor must be strictly greater; a tie goes to the defender.
CONTEST = ContestRule(
    criteria=(Criterion("total"),), final="opponent",
    final_note="égalité : l'action échoue, le défenseur l'emporte", rule="R000.15",
)
ATTACK_CONTEST = ContestRule(
    criteria=(Criterion("total"),), final="opponent",
    final_note="égalité : le défenseur l'emporte", rule="R000.23",
)

# R000.16: the roll that opposes an active skill by default (else the same skill; A000.17:
# Psychologie is the defence against Persuasion, Baratin and Séduction).
OPPOSITION: dict[str, str] = {
    "larcin": "observation", "discretion": "observation", "piegeage": "observation",
    "persuasion": "psychologie", "baratin": "psychologie", "seduction": "psychologie",
    "intimidation": "courage", "torture": "resistance_mentale",
    **{skill: "esquive" for skill in (*WEAPON_SKILLS, "lancer", "corps_a_corps")},
}


@frozen
class Character:
    """A validated sheet seen through the rules: effective values with their item bonuses."""

    sheet: CydoniaSheet

    @property
    def name(self) -> str:
        return self.sheet.nom

    @property
    def genre(self) -> Genre:
        """`f`, `m` or None (neutral wording): how messages about this character agree."""
        return self.sheet.genre

    def _items(self, stat: str) -> int:
        total = 0
        for item in self.sheet.objets:
            if item.equipe:
                for key, bonus in item.bonus.items():
                    if ABBREVIATIONS.get(key, key) == stat:
                        total += int(bonus)
        return total

    def characteristic(self, name: str) -> int:
        """Base + item bonuses (R000.53) + werewolf transformation (R000.40)."""
        value = int(self.sheet.caracteristiques[name]) + self._items(name)
        if self.sheet.etat.transformation and name in ("physique", "agilite"):
            value += self.skill("transformation")
        return value

    def skill(self, name: str) -> int:
        return int(self.sheet.competences.get(name, 0)) + self._items(name)

    def is_expert(self, skill: str) -> bool:
        return any(SKILL_ALIASES.get(normalize(s), normalize(s)) == skill
                   for s in self.sheet.expertes)

    def skill_characteristic(self, skill: str) -> str | None:
        if skill in self.sheet.competences_libres:
            return str(self.sheet.competences_libres[skill])
        return SKILLS[skill]

    @property
    def malus(self) -> int:
        """A000.16: the malus in progress, as a positive amount taken off every roll (a sheet
        may write it `3` or `-3`: a malus is never a bonus)."""
        return abs(int(self.sheet.etat.malus))

    @property
    def state(self) -> str:
        """R000.34, R000.41: `mort`, `mourant`, `assomme` or `debout`."""
        etat = self.sheet.etat
        return ("mort" if etat.mort else "mourant" if etat.mourant
                else "assomme" if etat.assomme else "debout")

    @property
    def status(self) -> str:
        """The state in French, with a paralysis (R000.27) when standing."""
        if self.state == "debout" and self.sheet.etat.paralyse:
            return state_label("paralyse", self.genre)
        return state_label(self.state, self.genre)

    @property
    def can_act(self) -> bool:
        """D-ALL.02: the dead, the dying, the knocked out and the paralysed (R000.27) cannot act."""
        return self.state == "debout" and not self.sheet.etat.paralyse

    def resolve_skill(self, name: str) -> tuple[str, str]:
        """('skill'|'carac'|'special', canonical name) for a name typed by a person (D-ALL.01:
        case, accents, spaces and hyphens do not matter)."""
        key = normalize(name)
        if key in SPECIAL:
            return "special", key
        key = ABBREVIATIONS.get(key, key)
        if key in CHARACTERISTICS:
            return "carac", key
        key = SKILL_ALIASES.get(key, key)
        if key in SKILLS or key in self.sheet.competences_libres:
            return "skill", key
        known = [*SKILLS, *self.sheet.competences_libres, *CHARACTERISTICS, *SPECIAL]
        raise RuleError(unknown_name_message("compétence", name, known))




def _natural(character: Character, skill: str | None, choice: int | None) -> NaturalRoll:
    """R000.06 / R000.17: an expert skill rolls 2D10 and keeps one (the better by default)."""
    if skill is not None and character.is_expert(skill):
        if choice is not None and choice not in (1, 2):
            raise RuleError(say(arg("choix", str(choice)), " : un jet expert garde le dé 1 ou le dé 2"))
        return KeepOne(2, 10, choice)
    if choice is not None:
        raise RuleError(say(arg("choix"), " : seul un jet de compétence experte lance deux dés "
                            "(R000.06)"))
    return D10


def malus_modifiers(character: Character) -> tuple[Modifier, ...]:
    """A000.16, R000.20: the malus in progress is taken off every roll."""
    if not character.malus:
        return ()
    return (Modifier(-character.malus, "malus en cours", "A000.16"),)


def _common(character: Character, bonus: int, extra: tuple[Modifier, ...]) -> tuple[Modifier, ...]:
    mods = [*extra, *malus_modifiers(character)]
    if bonus:
        mods.append(Modifier(bonus, "bonus du MJ" if bonus > 0 else "malus du MJ"))
    return tuple(mods)


def skill_check(
    character: Character,
    name: str,
    *,
    carac: str | None = None,
    threshold: int | None = None,
    bonus: int = 0,
    choice: int | None = None,
    extra: tuple[Modifier, ...] = (),
) -> Check:
    """R000.11: Compétence + Caractéristique + 1D10 (R000.12 for rolls without a skill)."""
    kind, key = character.resolve_skill(name)
    if kind == "special":
        if key == "initiative":
            raise RuleError(say("l'initiative n'est pas un jet : voir ",
                                Ref("« jdr initiative »", "l'action « Initiative »"), " (R000.21)"))
        if key == "reveil":
            raise RuleError(Ref("le jet de réveil se fait avec « jdr test FICHE reveil » (D-000.49)",
                                "le jet de réveil se fait par un test de « reveil » (D-000.49)"))
        return resistance_check(character, key, threshold=threshold, bonus=bonus, extra=extra)
    if kind == "carac":
        if carac is not None:
            raise RuleError(say(arg("carac"), " ne s'emploie qu'avec une compétence"))
        return characteristic_check(character, key, threshold=threshold, bonus=bonus,
                                    choice=choice, extra=extra)
    linked = character.skill_characteristic(key)
    if carac is not None:
        wanted = ABBREVIATIONS.get(normalize(carac), normalize(carac))
        if wanted not in CHARACTERISTICS:
            raise RuleError(unknown_name_message("caractéristique", carac, CHARACTERISTICS))
        # R000.04: Métier may use Dex or Men; for any other skill the MJ may call for another.
        linked = wanted
    mods_list = [Modifier(character.skill(key), skill_label(key))]
    if linked is not None:
        mods_list.insert(0, Modifier(character.characteristic(linked), CHARACTERISTICS[linked]))
    label = skill_label(key) + (f" ({CHARACTERISTICS[linked]})" if linked else "")
    mods = (*mods_list, *_common(character, bonus, extra))
    rule = "R000.11" + (", R000.06" if character.is_expert(key) else "")
    if key == "transformation":
        rule = "R000.40, A000.41"
    return Check(label, _natural(character, key, choice), mods, judge, threshold, rule,
                 character.name)


def characteristic_check(
    character: Character, key: str, *, threshold: int | None = None, bonus: int = 0,
    choice: int | None = None, extra: tuple[Modifier, ...] = (),
) -> Check:
    """R000.12: a characteristic alone + 1D10 (Courage is always rolled this way)."""
    value = character.characteristic(key)
    rule = "R000.12" if key == "courage" else "R000.12 (caractéristique seule)"
    mods = (Modifier(value, CHARACTERISTICS[key]), *_common(character, bonus, extra))
    return Check(CHARACTERISTICS[key], _natural(character, None, choice), mods, judge,
                 threshold, rule, character.name)


def resistance_check(
    character: Character, which: str, *, threshold: int | None = None, bonus: int = 0,
    extra: tuple[Modifier, ...] = (), strict: bool = False, label: str | None = None,
) -> Check:
    """R000.07: Résistance Physique = Courage + Physique + 1D10; Mentale = Courage + Mental + 1D10.

    `strict`: the roll must be greater than the threshold (waking up, D-000.49)."""
    second = "physique" if which == "resistance_physique" else "mental"
    name = "Résistance Physique" if second == "physique" else "Résistance Mentale"
    mods = (
        Modifier(character.characteristic("courage"), "Courage"),
        Modifier(character.characteristic(second), CHARACTERISTICS[second]),
        *_common(character, bonus, extra),
    )
    return Check(label or name, D10, mods, strict_judge if strict else judge, threshold,
                 "R000.07", character.name)


def wake_check(character: Character, turn: int, bonus: int = 0) -> Check:
    """R000.41, A000.29, D-000.49: Résistance Physique strictly greater than damage − turn."""
    damage = int(character.sheet.etat.assomme)
    if not damage:
        state = is_state(character.name, character.state, character.genre)
        raise RuleError(f"pas de jet de réveil : {state} (R000.41)")
    difficulty = max(0, damage - turn)
    return resistance_check(character, "resistance_physique", threshold=difficulty, bonus=bonus,
                            strict=True, label=f"Réveil (Résistance Physique, tentative {turn})")


def passive_check(character: Character, what: str = "défense") -> Check:
    """D-000.47: no roll, total 0 (a defender who cannot act)."""
    return Check(f"aucun jet de {what} ({character.status})", PASSIVE, (), judge,
                 None, "D-000.47", character.name)


def raw_check(label: str, parts: tuple[Modifier, ...], threshold: int | None = None,
              rule: str = "", who: str = "") -> Check:
    """A roll of the standard form (values + 1D10) that is not a sheet skill (mounts, Kravkar)."""
    return Check(label, D10, parts, judge, threshold, rule, who)


def opposing_skill(character: Character, name: str) -> str:
    """R000.16: what the rules oppose to `name` when `--contre` names no skill."""
    kind, key = character.resolve_skill(name)
    if kind == "skill":
        return OPPOSITION.get(key, key)
    return key


# ------------------------------------------------------------------ the expert's choice, after the dice


def keep_other(check: Check, result: CheckResult, chooser: Chooser = default_choice,
               shown: Result | None = None) -> CheckResult:
    """R000.06, R000.17: once the two dice of an expert roll are shown, the player keeps either
    one — asked through `chooser` (default: the better die). A die named in advance (`--choix`)
    or two equal faces ask nothing. `shown`: what the question shows (the roll so far)."""
    natural = check.natural
    if not isinstance(natural, KeepOne) or natural.choice is not None or len(result.dice) != 2:
        return result
    a, b = (d.face for d in result.dice)
    if a == b:
        return result
    kept = next(i for i, d in enumerate(result.dice) if d.kept)
    prompt = (f"{check.who or check.label} — {check.label}, compétence experte : dés {a} et {b} ; "
              f"garder le dé 1 ({a}) ou le dé 2 ({b}) ?")
    labels = (f"Garder le dé 1 ({a})", f"Garder le dé 2 ({b})")
    answer = chooser(Question(prompt, ("1", "2"), str(kept + 1),
                              shown if shown is not None else result, labels, check.who))
    if answer not in ("1", "2"):
        raise RuleError(f"jet expert : réponse « {str(answer)[:20]} » (autorisé : 1, 2)")
    index = int(answer) - 1
    if index == kept:
        return result
    dice = tuple(Die(d.sides, d.face, i == index, "" if i == index else "écarté")
                 for i, d in enumerate(result.dice))
    return check.resolve(dice[index].face, dice)


def roll_check(check: Check, source: DiceSource, chooser: Chooser = default_choice) -> CheckResult:
    """Roll, show, then let an expert keep the other die (R000.17)."""
    return keep_other(check, check.roll(source), chooser)


def roll_contest(contest: Contest, source: DiceSource,
                 chooser: Chooser = default_choice) -> ContestResult:
    """R000.15 with R000.17: both sides roll, then each expert (the actor first) may keep its
    other die, seeing the opposed roll so far; the tie rule then decides once."""
    a = contest.actor.roll(source)
    b = contest.opponent.roll(source)
    a = keep_other(contest.actor, a, chooser, contest.resolve(a, b))
    b = keep_other(contest.opponent, b, chooser, contest.resolve(a, b))
    return contest.resolve(a, b)


def opposing_check(character: Character, skill: str) -> Check:
    """The roll that opposes an action: the skill, or no roll at all (total 0) from a character
    who cannot act (D-000.47)."""
    return skill_check(character, skill) if character.can_act else passive_check(character, "opposition")


def amount_judge(natural: Natural, total: int, threshold: int | None) -> Verdict:
    """A roll that only gives an amount (hit points recovered, metres): no success, no critical."""
    return Verdict(None)
