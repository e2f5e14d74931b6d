"""Cydonia's and Félins' attack tables from the laws of their parts (`attack_law`) are the default
enumeration's tables (`compile_outcomes`: `attack` itself run on every sequence of faces), on
small sheets where enumerating stays cheap: an aimed blow, an expert's two dice, a knock-out
roll, the location table with its extra dice, Chance 1 and 2, the will check. What is too long
to enumerate whole (Félins' 3d10 × 5 minutes after a fall: 1,000 sequences behind every hit) is
compared on its own."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from jdr.core.compile import compile_outcomes, effect_from
from jdr.core.registry import get_system
from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest
from jdr.core.usecase import load
from jdr.dice.enumerate import enumerate_outcomes

MAX_PATHS = 5_000  # every case below takes fewer face sequences (the default budget is 2,000)


def _load(system_id: str, text: str, name: str) -> Any:
    return load(get_system(system_id), SheetDocument.from_text(text, Path(f"{name}.yaml")))


def _enumerated(request: AttackRequest[Any], system_id: str) -> dict[Any, Fraction] | None:
    system = get_system(system_id)
    return compile_outcomes(lambda source: system.attack(request, source),
                            (request.attacker.doc, request.defender.doc), MAX_PATHS)


# ------------------------------------------------------------------ Cydonia


def cydonia(name: str, carac: str = "physique: 3, dexterite: 4, courage: 3",
            skills: str = "{lame: 3, esquive: 2}", experts: str = "[]",
            weapon: str = '{nom: Dague, competence: lame, degats: "1d4", equipee: principale}',
            pv: str = "{max: 20, actuels: 6}", armour: str = "{}", etat: str = "{}") -> Any:
    return _load("cydonia", f"""\
systeme: cydonia
nom: {name}
caracteristiques: {{{carac}, agilite: 4, sensoriel: 3, charisme: 2, mental: 2, chance: 3}}
competences: {skills}
expertes: {experts}
pv: {pv}
armes: [{weapon}]
protections: {armour}
etat: {etat}
""", name)


BARE_HANDS = '{nom: Dague, competence: lame, degats: "2"}'  # not drawn: bare hands, PHY
CYDONIA = {
    # attack against an active defence, aimed (no location die), 1d4 + Physique on a vital zone
    "visee": (lambda: cydonia("A", skills="{lame: 8}"), lambda: cydonia("D"), "abdomen"),
    # bare hands on the head of a paralysed defender (no defence roll): the knock-out roll
    "assommement": (lambda: cydonia("B", "physique: 6, dexterite: 4, courage: 3",
                                    "{corps_a_corps: 2}", weapon=BARE_HANDS),
                    lambda: cydonia("P", "physique: 1, dexterite: 4, courage: 1",
                                    pv="{max: 20, actuels: 20}", etat="{paralyse: true}"), "tete"),
    # an expert's 2d10, the better die kept, on the hand-to-hand table
    "experte": (lambda: cydonia("E", skills="{corps_a_corps: 2}", experts="[corps_a_corps]",
                                weapon='{nom: Gantelet, competence: corps_a_corps, degats: "1d4", '
                                       'equipee: principale}'),
                lambda: cydonia("Q", etat="{paralyse: true}"), "abdomen"),
    # the weapons' location table, small margins (a malus): Gorge 2d10, Tête 1d20 and its
    # knock-out roll, protections by zone, dying and death
    "localisation": (lambda: cydonia("M", "physique: 3, dexterite: 1, courage: 3", "{lame: 0}",
                                     weapon='{nom: Dague, competence: lame, degats: "2", '
                                            'equipee: principale}', etat="{malus: 8}"),
                     lambda: cydonia("R", pv="{max: 20, actuels: 9}",
                                     armour="{torse: 2, bras: 1}", etat="{paralyse: true}"),
                     None),
    # the hand-to-hand table with a formula naming PHY: Glotte 2d10, Bijoux de famille
    # (paralysis roll), the head of one knocked out already (no new roll)
    "corps_a_corps": (lambda: cydonia("C", "physique: 4, dexterite: 1, courage: 3",
                                      "{corps_a_corps: 0}", weapon=BARE_HANDS, etat="{malus: 9}"),
                      lambda: cydonia("K", pv="{max: 20, actuels: 7}", etat="{assomme: 3}"),
                      None),
}


@pytest.mark.parametrize("case", list(CYDONIA))
def test_cydonia_table_is_the_enumeration(case: str) -> None:
    attacker, defender, aimed = CYDONIA[case]
    request = AttackRequest(attacker(), defender(), aimed=aimed)
    fast = get_system("cydonia").attack_outcomes(request)
    assert fast is not None and sum(fast.values()) == 1 and len(fast) >= 2
    assert fast == _enumerated(request, "cydonia")


def test_cydonia_demo_attack_compiles_and_hits_as_often_as_its_odds_say() -> None:
    """The demo's dwarf on its goblin (about 327,000 face sequences: never enumerated): a
    table, and the blows that touch the goblin's sheet are the hits of `attack_odds`."""
    system = get_system("cydonia")
    nain, _, gobelin = (_load("cydonia", t, str(i)) for i, t in enumerate(system.demo_sheets()))
    request = AttackRequest(nain, gobelin)
    table = system.attack_outcomes(request)
    assert table is not None and sum(table.values()) == 1
    hit = sum((p for effect, p in table.items() if any(c[0] == 1 for c in effect)), Fraction(0))
    assert hit == system.attack_odds(request).success
    assert len(table) > 20  # hit points left, dying, dead, knocked out


# ------------------------------------------------------------------ Félins


def cat(name: str, chance: int = 1, combat: int = 2, vigueur: int = 2, agilite: int = 2,
        wounds: int = 0, state: str = "conscient") -> Any:
    return _load("felins", f"""\
systeme: felins
nom: {name}
rang: guerrier
clan: roches
caracteristiques: {{force: 2, precision: 2, vigueur: {vigueur}, agilite: {agilite},
  intelligence: 2, volonte: 2, intuition: 2, sociabilite: 1, chance: {chance}}}
competences: {{combat_griffu: {combat}}}
blessures: {wounds}
etat: {state}
""", name)


FELINS = {
    # Chance 1 each: the wounds, then the will check of a cat still conscious (Chance moved)
    "volonte": (lambda: cat("A", combat=4), lambda: cat("D", vigueur=5, agilite=1)),
    # Chance 2 (two d10, the better kept, each 1 and 10 confirmed) on an unconscious cat: coma
    "chance_2": (lambda: cat("B", chance=2, combat=3),
                 lambda: cat("U", wounds=3, state="inconscient")),
    # and on a cat in a coma: death
    "coma": (lambda: cat("B", chance=2, combat=3), lambda: cat("C", wounds=3, state="coma")),
}


@pytest.mark.parametrize("case", list(FELINS))
def test_felins_table_is_the_enumeration(case: str) -> None:
    attacker, defender = FELINS[case]
    request = AttackRequest(attacker(), defender())
    fast = get_system("felins").attack_outcomes(request)
    assert fast is not None and sum(fast.values()) == 1 and len(fast) >= 2
    assert fast == _enumerated(request, "felins")


def test_felins_fall_is_its_three_d10() -> None:
    """A hit that knocks a cat out rolls its 3d10 × 5 minutes (1,000 sequences): `wound_law`
    (the law of that check) gives what `take_wounds` writes, sequence by sequence."""
    from jdr.systems.felins.config import DEFAULT
    from jdr.systems.felins.health import take_wounds, wound_changes, wound_law

    sheet = cat("F", vigueur=2, wounds=1)
    docs = (sheet.doc,)
    exact = {effect_from(wound_changes(sheet, outcome), docs): p
             for outcome, p in wound_law(sheet.model, 2, DEFAULT)}
    rolled = enumerate_outcomes(lambda source: effect_from(
        wound_changes(sheet, take_wounds(sheet.model, 2, source, DEFAULT)), docs))
    assert exact == rolled and len(exact) == 28  # 15 to 150 minutes


def test_felins_chance_3_compiles_without_enumerating() -> None:
    """Chance 3 against Chance 3 (483,679 face sequences): a table, and a critical success
    raises the attacker's Chance as often as the odds say."""
    system = get_system("felins")
    attacker, defender = cat("G", chance=3, combat=3), cat("H", chance=3, vigueur=3)
    request = AttackRequest(attacker, defender)
    table = system.attack_outcomes(request)
    assert table is not None and sum(table.values()) == 1
    raised = sum((p for effect, p in table.items()
                  if (0, ("caracteristiques", "chance"), "4", False) in effect), Fraction(0))
    assert raised == system.attack_odds(request).critical_success
