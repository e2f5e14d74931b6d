"""« Deux dés » : un système d'exemple complet pour jdr, dans sa propre distribution.

Les règles tiennent en quatre lignes :

- D2-01 un test : 2d6 + attribut (force, adresse ou esprit, de 0 à 3) ; réussi à 8 ou plus (ou
  au seuil que le MJ donne) ;
- D2-02 un double 6 est une réussite critique, un double 1 un échec critique ;
- D2-03 une attaque est un test d'adresse de l'attaquant ; touché, le défenseur perd 1d6 +
  la force de l'attaquant + les dégâts de l'arme en points de vie (PV) ;
- D2-04 à 0 PV ou moins, un personnage est hors de combat et ne peut plus agir.

Le système déclare ses actions (`actions`), lit et valide ses fiches (`load`), et répond aux
questions du cœur : jets, chances exactes (la même définition que le jet), attaque, santé, état,
et les listes que les formulaires proposent (attributs, armes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jdr.core.check import Check, Critical, Modifier, NaturalRoll, Odds, Verdict
from jdr.core.french import de
from jdr.core.messages import given, say
from jdr.core.options import ActionSpec
from jdr.core.results import AttackReport, Damage, Health, Line, Row, Section, SheetView, StateChange
from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    Choice,
    GameSystem,
    Loaded,
    Outcome,
    SheetChange,
    SystemHelp,
)
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError, SheetError
from jdr.names import normalize

ATTRIBUTES = {"force": "Force", "adresse": "Adresse", "esprit": "Esprit"}
TARGET = 8
TEMPLATE = """\
systeme: deuxdes
nom: Aldo
attributs:          # de 0 à 3
  force: 2
  adresse: 1
  esprit: 0
pv:
  max: 10
  actuels: 10
armes:              # dégâts ajoutés à 1d6 + Force
  - nom: Épée
    degats: 2
"""


@dataclass(frozen=True)
class Weapon:
    name: str
    damage: int


@dataclass(frozen=True)
class Hero:
    """A validated sheet, as the rules read it."""

    name: str
    attributes: Mapping[str, int]
    hp_max: int
    hp: int
    weapons: tuple[Weapon, ...]

    @property
    def state(self) -> str:
        return "hors_de_combat" if self.hp <= 0 else "debout"


class TwoD6(NaturalRoll):
    """D2-01: two six-sided dice, added; the natural value is the pair (for the doubles)."""

    label = "2d6"

    def roll(self, source: DiceSource) -> tuple[Any, tuple[Die, ...]]:
        a, b = source.roll(6), source.roll(6)
        return (a, b), (Die(6, a), Die(6, b))

    def distribution(self) -> Any:
        import icepool

        return icepool.tupleize(icepool.d6, icepool.d6)

    def value(self, natural: Any) -> int:
        return int(natural[0]) + int(natural[1])


def judge(natural: Any, total: int, threshold: int | None) -> Verdict:
    """D2-01, D2-02."""
    target = TARGET if threshold is None else threshold
    a, b = natural
    critical: Critical = "success" if (a, b) == (6, 6) else "failure" if (a, b) == (1, 1) else None
    success = critical == "success" or (critical is None and total >= target)
    return Verdict(success, critical, total - target)


def _problems(data: Mapping[str, Any]) -> list[str]:
    out = []
    if not str(data.get("nom") or "").strip():
        out.append("nom : le nom du personnage manque")
    attributes = data.get("attributs")
    if not isinstance(attributes, Mapping):
        out.append("attributs : force, adresse et esprit (de 0 à 3)")
    else:
        for key in ATTRIBUTES:
            value = attributes.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
                out.append(f"attributs.{key} : un entier de 0 à 3")
        for key in attributes:
            if normalize(str(key)) not in ATTRIBUTES:
                out.append(f"attributs.{key} : attribut inconnu (force, adresse, esprit)")
    pv = data.get("pv")
    if not isinstance(pv, Mapping) or not all(isinstance(pv.get(k), int) for k in ("max", "actuels")):
        out.append("pv : max et actuels, deux entiers")
    elif not 1 <= pv["max"] <= 99 or not -99 <= pv["actuels"] <= pv["max"]:
        out.append("pv : max de 1 à 99, actuels de -99 au maximum")
    for i, weapon in enumerate(data.get("armes") or []):
        if not isinstance(weapon, Mapping) or not str(weapon.get("nom") or "").strip() \
                or not isinstance(weapon.get("degats", 0), int):
            out.append(f"armes.{i} : nom et dégâts (un entier)")
    return out


class DeuxDes(GameSystem[Hero]):
    id = "deuxdes"
    title = "Deux dés : 2d6 + attribut contre 8 (système d'exemple)"
    states = ("debout", "hors_de_combat")
    actions: Mapping[str, ActionSpec] = {
        "check": ActionSpec("check", "2d6 + attribut, réussi à 8 ou plus (D2-01, D2-02)",
                            dice="les deux d6"),
        "odds": ActionSpec("odds", "chances exactes d'un test", rolls=False),
        "attack": ActionSpec("attack", "test d'adresse ; touché : 1d6 + Force + dégâts de l'arme "
                             "(D2-03)", dice="les deux d6 d'attaque, puis le d6 de dégâts"),
    }

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> Hero:
        data = doc.plain()
        problems = _problems(data)
        if problems:
            raise SheetError(f"{doc.path} : {len(problems)} problème(s)\n"
                             + "\n".join(f"  - {p}" for p in problems), problems)
        attributes = {normalize(str(k)): int(v) for k, v in data["attributs"].items()}
        weapons = tuple(Weapon(str(w["nom"]), int(w.get("degats", 0))) for w in data.get("armes") or [])
        return Hero(str(data["nom"]), attributes, int(data["pv"]["max"]), int(data["pv"]["actuels"]),
                    weapons)

    def show(self, sheet: Loaded[Hero]) -> SheetView:
        hero = sheet.model
        rows = tuple(Row(k, v, hero.attributes[k]) for k, v in ATTRIBUTES.items())
        health = (Row("pv", "Points de vie", hero.hp, f"{hero.hp}/{hero.hp_max}"),
                  Row("etat", "État", hero.state))
        weapons = tuple(Row(normalize(w.name), w.name, w.damage, f"+{w.damage} dégâts")
                        for w in hero.weapons)
        return SheetView(self.id, hero.name, (Section("Attributs", rows), Section("Santé", health),
                                              Section("Armes", weapons)))

    def help(self) -> SystemHelp:
        return SystemHelp(characteristics=ATTRIBUTES, skills={},
                          notes=("2d6 + attribut contre 8 ; double 6 : critique ; double 1 : "
                                 "échec critique (D2-01, D2-02).",))

    # -- the rules -----------------------------------------------------------

    def _check(self, hero: Hero, attribute: str, bonus: int = 0, threshold: int = TARGET) -> Check:
        key = normalize(attribute)
        if key not in ATTRIBUTES:
            raise RuleError(f"« {attribute[:40]} » : attribut inconnu (force, adresse, esprit)")
        modifiers: tuple[Modifier, ...] = (Modifier(hero.attributes[key], ATTRIBUTES[key]),)
        if bonus:
            modifiers += (Modifier(bonus, "bonus du MJ"),)
        name = ATTRIBUTES[key]
        label = f"Test d'{name}" if normalize(name)[0] in "aeiouy" else f"Test de {name}"
        return Check(label, TwoD6(), modifiers, judge, threshold, "D2-01",
                     hero.name)

    def _request_check(self, request: CheckRequest[Hero]) -> Check:
        from jdr.core.threshold import parse_threshold

        if request.opponent is not None:
            raise RuleError("deuxdes : pas de jet opposé ; un test se fait contre 8 ou le seuil du MJ")
        threshold = parse_threshold(request.threshold, None)
        return self._check(request.actor.model, request.skill, request.bonus,
                           TARGET if threshold is None else threshold)

    def check(self, request: CheckRequest[Hero], source: DiceSource) -> Outcome:
        return Outcome(self._request_check(request).roll(source))

    def odds(self, request: CheckRequest[Hero]) -> Odds:
        return self._request_check(request).odds()

    def _weapon(self, hero: Hero, name: str | None) -> Weapon | None:
        if name is None:
            return hero.weapons[0] if hero.weapons else None
        for weapon in hero.weapons:
            if normalize(weapon.name) == normalize(name):
                return weapon
        raise RuleError(say(given("arme", name[:40]), f" : absente de la fiche {de(hero.name)}"))

    def attack_odds(self, request: AttackRequest[Hero]) -> Odds:
        """D2-03: the very test `attack` rolls."""
        self._weapon(request.attacker.model, request.weapon)
        return self._check(request.attacker.model, "adresse").odds()

    def attack(self, request: AttackRequest[Hero], source: DiceSource) -> Outcome:
        """D2-03, D2-04."""
        attacker, defender = request.attacker.model, request.defender.model
        weapon = self._weapon(attacker, request.weapon)
        roll = self._check(attacker, "adresse").roll(source)
        if not roll.success:
            return Outcome(AttackReport(attacker.name, defender.name, False, (roll,), rule="D2-03",
                                        weapon=weapon.name if weapon else "mains nues"))
        face = source.roll(6)
        extra = weapon.damage if weapon else 0
        total = face + attacker.attributes["force"] + extra
        after = defender.hp - total
        state = "hors_de_combat" if after <= 0 else "debout"
        report = AttackReport(
            attacker.name, defender.name, True, (roll,),
            (Damage(f"1d6+{attacker.attributes['force']}+{extra}", (Die(6, face),), total, 0, total),),
            None, Health("pv", defender.hp, after, defender.hp_max),
            StateChange(defender.state, state) if state != defender.state else None, roll.critical,
            (Line(f"{defender.name} est hors de combat", "D2-04"),) if state != defender.state else (),
            "D2-03", weapon.name if weapon else "mains nues")
        return Outcome(report, (SheetChange(request.defender.doc, ("pv",), after, pool=True),))

    # -- states and the forms' lists -----------------------------------------

    def state(self, sheet: Loaded[Hero]) -> str:
        return sheet.model.state

    def incapacity(self, sheet: Loaded[Hero]) -> Line | None:
        from jdr.core.french import they_are

        return Line(they_are("hors_de_combat", sheet.genre), "D2-04") if sheet.model.hp <= 0 else None

    def health(self, sheet: Loaded[Hero]) -> Health:
        return Health("pv", sheet.model.hp, sheet.model.hp, sheet.model.hp_max)

    def weapon_choices(self, sheet: Loaded[Hero]) -> tuple[Choice, ...]:
        return tuple(Choice(w.name, f"{w.name} (+{w.damage})") for w in sheet.model.weapons)


SYSTEM = DeuxDes()
