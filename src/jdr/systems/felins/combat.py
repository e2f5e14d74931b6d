"""Combat (RULES.md 5.3): to-hit threshold, wounds = margin, will check, initiative, duel.

- R004.24 threshold = 5 + 2 × the defender's Agilité; R004.25 protection +1/+2; R004.26 surprise
  −1/−2; A004.22 both stack, no floor; A004.29 they move the threshold, not the roll.
- R004.30 the attack is CHANCE d10 + Combat griffu; R004.31 wounds = margin (0 = fur flies).
- R004.28 the will check after a wound; R004.32 unconscious / coma / death.
- R004.29 initiative: Agilité, then Chance, then 1d10.
- R004.27 the duel of provocation, its four outcomes and the reputation bonus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.core.check import Modifier
from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.felins import forum, tables
from jdr.systems.felins.checks import (
    RollResult,
    chance_changes,
    characteristic_check,
    roll_cat,
    skill_check,
)
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.health import (
    WoundOutcome,
    after_wounds,
    take_wounds,
    will_check,
    wound_changes,
)
from jdr.systems.felins.sheet import Cat


def cover_modifier(kind: str, value: str | None) -> tuple[str, int]:
    """R004.25 protection / R004.26 surprise: `nulle`, `partielle`, `complete` → modifier."""
    table = tables.PROTECTION if kind == "protection" else tables.SURPRISE
    key = normalize(value) if value else "nulle"
    key = {"aucune": "nulle", "non": "nulle", "totale": "complete"}.get(key, key)
    if key not in table:
        raise RuleError(unknown_name_message(kind, value or "", table))
    return table[key]


def to_hit_threshold(agilite: int, protection: str | None = None,
                     surprise: str | None = None) -> int:
    """R004.24–R004.26 5 + 2 × Agilité + protection + surprise (E004.07, E004.08, T004.03)."""
    return (tables.DEFENCE_BASE + tables.DEFENCE_FACTOR * agilite
            + cover_modifier("protection", protection)[1]
            + cover_modifier("surprise", surprise)[1])


def wounds_from_margin(hit: bool, margin: int | None) -> int:
    """R004.31 wounds = margin of success; a margin of 0 touches without wounding (E004.05)."""
    if not hit or margin is None:
        return 0
    return max(0, margin)


@dataclass(frozen=True)
class AttackResult:
    """One Combat griffu attack and what it did to the defender."""

    attacker: str
    defender: str
    roll: RollResult
    protection: str
    surprise: str
    wounds: int
    outcome: WoundOutcome
    will: RollResult | None

    @property
    def hit(self) -> bool:
        return bool(self.roll.success)

    @property
    def fled(self) -> bool:
        return self.will is not None and not self.will.success

    def to_json(self) -> dict[str, Any]:
        return {
            "hit": self.hit, "location": None, "damage": self.wounds,
            "state": self.outcome.state_after, "wounds": self.outcome.wounds_after,
            "threshold": self.roll.result.threshold, "protection": self.protection,
            "surprise": self.surprise, "attack": self.roll.to_json(),
            "unconscious_minutes": self.outcome.minutes,
            "will": None if self.will is None else self.will.to_json(),
            "fled": self.fled, "rule": "R004.24, R004.31",
        }

    def _summary(self) -> str:
        if not self.hit:
            return f"{self.attacker} manque {self.defender}"
        if self.wounds == 0:
            return f"{self.defender} est touché sans blessure : seuls les poils volent"
        return f"{self.defender} subit {self.wounds} niveau(x) de blessure"

    def _will_text(self) -> str:
        if self.will is None:
            return ""
        if self.will.success:
            return f"{self.defender} tient bon et reste dans la lutte"
        return f"{self.defender} est saisi par la peur et abandonne le combat"

    def render(self) -> str:
        out = [f"Protection {self.protection}, surprise {self.surprise}",
               *self.roll.lines(), f"→ {self._summary()}",
               *self.outcome.lines(self.defender)]
        if self.will is not None:
            out += ["Jet de Volonté pour rester dans la lutte (R004.28) :", *self.will.lines(),
                    f"→ {self._will_text()}"]
        return "\n".join(out)

    def render_forum(self) -> str:
        out = [f"{forum.b(self.attacker)} attaque {forum.b(self.defender)} "
               f"(protection {self.protection}, surprise {self.surprise})",
               *self.roll.forum_lines(), forum.b(self._summary()),
               *self.outcome.lines(self.defender)]
        if self.will is not None:
            out += [forum.i("Jet de Volonté pour rester dans la lutte"),
                    *self.will.forum_lines(), forum.b(self._will_text())]
        return forum.quote(out)


def attack(attacker: Cat, defender: Cat, source: DiceSource, options: dict[str, str],
           config: FelinsConfig = DEFAULT) -> AttackResult:
    """R004.23–R004.31 attack roll vs 5 + 2 × Agilité ± cover; wounds; will check (R004.28)."""
    attacker.require_conscious("attaquer")
    if defender.state == "mort":
        raise RuleError(f"{defender.name} est déjà mort (R004.32)")
    protection_name, _ = cover_modifier("protection", options.get("protection"))
    surprise_name, _ = cover_modifier("surprise", options.get("surprise"))
    threshold = to_hit_threshold(defender.characteristics["agilite"],
                                 options.get("protection"), options.get("surprise"))
    check = skill_check(attacker, tables.COMBAT_SKILL, threshold, config=config)
    roll = roll_cat(check, attacker, source, None, config)
    wounds = wounds_from_margin(bool(roll.success), roll.margin)
    outcome = take_wounds(defender, wounds, source, config)
    will = None
    if wounds and outcome.state_after == "conscient":
        wounded = after_wounds(defender, outcome)
        basis = outcome.wounds_after if config.will_wounds == "total" else wounds
        will = will_check(wounded, basis, source, config)
    return AttackResult(attacker.name, defender.name, roll, protection_name, surprise_name,
                        wounds, outcome, will)


def attack_changes(attacker_doc: SheetDocument, defender_doc: SheetDocument,
                   result: AttackResult) -> list[SheetChange]:
    changes = chance_changes(attacker_doc, result.roll.chance_before, result.roll.chance_after)
    changes += wound_changes(defender_doc, result.outcome)
    if result.will is not None:
        changes += chance_changes(defender_doc, result.will.chance_before,
                                  result.will.chance_after)
    return changes


# ------------------------------------------------------------------ initiative (R004.29)


@dataclass(frozen=True)
class InitiativeResult:
    """R004.29 the order of action: Agilité, then Chance, then 1d10 (re-rolled while tied)."""

    order: tuple[tuple[str, int, int, tuple[int, ...]], ...]  # name, agilité, chance, d10s

    def to_json(self) -> dict[str, Any]:
        return {"order": [{"name": n, "agilite": a, "chance": c, "dice": list(d)}
                          for n, a, c, d in self.order], "rule": "R004.29"}

    def lines(self) -> list[str]:
        out = []
        for rank, (name, agi, chance, dice) in enumerate(self.order, start=1):
            rolled = f", d10 : {', '.join(map(str, dice))}" if dice else ""
            out.append(f"{rank}. {name} (Agilité {agi}, Chance {chance}{rolled})")
        return out

    def render(self) -> str:
        return "Initiative (R004.29) :\n" + "\n".join(self.lines())

    def render_forum(self) -> str:
        return forum.quote([forum.b("Initiative"), *self.lines()])


def initiative(cats: list[Cat], source: DiceSource,
               config: FelinsConfig = DEFAULT) -> InitiativeResult:
    """R004.29 highest Agilité first; tie → Chance; still tied → 1d10 each (T004.10)."""
    if not cats:
        raise RuleError("initiative : il faut au moins une fiche")
    dice: dict[int, list[int]] = {i: [] for i in range(len(cats))}

    def order(group: list[int]) -> list[int]:
        for _ in range(config.max_rerolls):
            if len(group) < 2:
                return group
            faces = {i: source.roll(10) for i in group}
            for i, f in faces.items():
                dice[i].append(f)
            values = sorted(set(faces.values()), reverse=True)
            result: list[int] = []
            for v in values:
                result += order([i for i in group if faces[i] == v])
            return result
        return group

    keyed: dict[tuple[int, int], list[int]] = {}
    for index, cat in enumerate(cats):
        key = (cat.characteristics["agilite"], cat.chance)
        keyed.setdefault(key, []).append(index)
    ranking: list[int] = []
    for key in sorted(keyed, reverse=True):
        ranking += order(keyed[key])
    return InitiativeResult(tuple(
        (cats[i].name, cats[i].characteristics["agilite"], cats[i].chance, tuple(dice[i]))
        for i in ranking))


# ------------------------------------------------------------------ duel (R004.27)


def reputation_bonus(reputation: int) -> int:
    """R004.27 +1 to the die per full 5 points of reputation (E004.04)."""
    return reputation // tables.REPUTATION_STEP


DUEL_OUTCOMES = {
    1: "le provocant réussit, pas le provoqué : l'intimidation a réussi, {a} remporte le duel "
       "sans confrontation physique",
    2: "le provoqué réussit, pas le provocant : {b} retourne l'intimidation et remporte le duel "
       "sans confrontation physique",
    3: "les deux réussissent : {b} ne plie pas, le duel devient un combat",
    4: "les deux ratent : {a} impressionne quelque peu {b}, qui choisit d'accepter la victoire "
       "du provocant ou d'engager le combat",
}


@dataclass(frozen=True)
class DuelResult:
    """R004.27 the provoker's Sociabilité roll and the provoked's Volonté roll."""

    provoker: RollResult
    provoked: RollResult
    outcome: int
    choice: str | None = None

    @property
    def winner(self) -> str | None:
        if self.outcome == 1 or (self.outcome == 4 and self.choice == "accepter"):
            return self.provoker.cat
        if self.outcome == 2:
            return self.provoked.cat
        return None

    @property
    def fight(self) -> bool | None:
        if self.outcome == 3:
            return True
        if self.outcome == 4:
            return None if self.choice is None else self.choice == "combattre"
        return False

    def text(self) -> str:
        text = DUEL_OUTCOMES[self.outcome].format(a=self.provoker.cat, b=self.provoked.cat)
        if self.outcome == 4 and self.choice == "accepter":
            text += f" ; {self.provoked.cat} accepte : {self.provoker.cat} l'emporte"
        elif self.outcome == 4 and self.choice == "combattre":
            text += f" ; {self.provoked.cat} choisit le combat"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "winner": self.winner, "fight": self.fight,
                "choice": self.choice, "success": self.provoker.success,
                "provoker": self.provoker.to_json(), "provoked": self.provoked.to_json(),
                "rule": "R004.27"}

    def render(self) -> str:
        return "\n".join(["Duel (R004.27) — le provocant :", *self.provoker.lines(),
                          "le provoqué :", *self.provoked.lines(),
                          f"→ issue {self.outcome} : {self.text()}"])

    def render_forum(self) -> str:
        return forum.quote([forum.b("Duel de provocation"), forum.i("Le provocant"),
                            *self.provoker.forum_lines(), forum.i("Le provoqué"),
                            *self.provoked.forum_lines(),
                            forum.b(f"Issue {self.outcome} : {self.text()}")])


def duel_checks(provoker: Cat, provoked: Cat,
                config: FelinsConfig = DEFAULT) -> tuple[Any, Any]:
    """A004.15 characteristic rolls: provoker Sociabilité vs 5 + 2 × the provoked's Volonté,
    provoked Volonté vs 5 + 2 × the provoker's Sociabilité; + reputation // 5 (A004.28)."""

    def rep(cat: Cat) -> tuple[Modifier, ...]:
        bonus = reputation_bonus(cat.reputation) if config.duel_reputation else 0
        return (Modifier(bonus, f"réputation {cat.reputation}"),) if bonus else ()

    base, factor = tables.DEFENCE_BASE, tables.CHARACTERISTIC_FACTOR
    a = characteristic_check(provoker, "sociabilite",
                             base + factor * provoked.characteristics["volonte"],
                             config=config, extra=rep(provoker))
    b = characteristic_check(provoked, "volonte",
                             base + factor * provoker.characteristics["sociabilite"],
                             config=config, extra=rep(provoked))
    return a, b


def duel(provoker: Cat, provoked: Cat, source: DiceSource, options: dict[str, str],
         config: FelinsConfig = DEFAULT) -> DuelResult:
    """R004.27 four outcomes; outcome 4 is the provoked's choice (A004.16, option `choix`)."""
    provoker.require_conscious("provoquer un duel")
    provoked.require_conscious("répondre à un duel")
    raw = options.get("choix")
    choice = None
    if raw:
        choice = normalize(raw)
        choice = {"accepte": "accepter", "combat": "combattre"}.get(choice, choice)
        if choice not in ("accepter", "combattre"):
            raise RuleError(f"--opt choix={raw} : autorisé : accepter, combattre")
    check_a, check_b = duel_checks(provoker, provoked, config)
    a = roll_cat(check_a, provoker, source, None, config)
    b = roll_cat(check_b, provoked, source, None, config)
    outcome = {(True, False): 1, (False, True): 2, (True, True): 3,
               (False, False): 4}[(bool(a.success), bool(b.success))]
    return DuelResult(a, b, outcome, choice if outcome == 4 else None)
