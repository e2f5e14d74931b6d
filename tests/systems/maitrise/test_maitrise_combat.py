"""Combat: attack vs parry / dodge, critical options, damage, hit points, initiative."""

from __future__ import annotations

from typing import Any

import pytest
from maitrise_support import apply, attack, contest_step, initiative, notes, options, reload, rules

from jdr.core.system import AttackRequest, GroupRequest, Question
from jdr.dice.source import FixedSource
from jdr.errors import FacesError, RuleError
from jdr.render import render
from jdr.render.json import to_json
from jdr.systems.maitrise import SYSTEM


def test_json_contract(sheet: Any) -> None:
    data, _ = attack(sheet(), sheet("Cible"), [12, 3, 4])
    for key in ("hit", "location", "damage", "state", "health", "steps", "critical"):
        assert key in data
    assert data["type"] == "attack" and data["weapon"] == "Épée longue"


def test_default_defence_is_parry_then_dodge(sheet: Any) -> None:
    data, _ = attack(sheet(), sheet("Cible"), [12, 3, 4])
    assert contest_step(data)["opponent"]["label"].startswith("Parade Cible — epee")
    data, _ = attack(sheet(), sheet("Cible", armes=[]), [12, 9])
    dodge = contest_step(data)["opponent"]
    assert dodge["label"].startswith("Esquive Cible") and dodge["rule"] == "R001.17"
    assert data["hit"] is False  # (9 + 12) / 2 = 10


def test_failed_attack_misses_and_rolls_no_damage(sheet: Any) -> None:
    data, changes = attack(sheet(skills={"epee": 15}), sheet("Cible"), [9, 2])
    assert data["hit"] is False and data["damage"] is None and changes == ()
    assert contest_step(data)["winner"] == "nobody"  # both fail (A001.03)


def test_parry_tie_goes_to_defender(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 30}), sheet("Cible", skills={"epee": 30})
    data, _ = attack(a, d, [12, 13])  # margins 21 and 21
    assert data["hit"] is False and contest_step(data)["tie"] is True
    assert "marges égales : le défenseur (statu quo) l'emporte" in \
        [n["text"] for n in contest_step(data)["notes"]]
    data, _ = attack(a, d, [14, 11, 1])  # 22 against 20
    assert data["hit"] is True


def test_failed_parry_does_not_stop_a_hit(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 10}), sheet("Cible", skills={"epee": 90})
    data, _ = attack(a, d, [10, 1, 1])  # the master's natural 1 fails
    assert data["hit"] is True and contest_step(data)["opponent"]["critical"] == "failure"


def test_critical_degats_adds_d10(sheet: Any) -> None:
    a, d = sheet(caracs={"force": 10}), sheet("Cible", armes=[])
    data, _ = attack(a, d, [20, 2, 3, 7], critical="degats")  # dodge 2 + 12 = 14 → 7: fails
    assert data["damage"]["suffered"] == 3 + 1 + 7 and data["damage"]["dice"] == [3, 7]
    assert data["critical"] == "success"


def test_critical_precision_sets_location(sheet: Any) -> None:
    a, d = sheet(), sheet("Cible", armes=[])
    data, _ = attack(a, d, [20, 2, 3], critical="precision", aimed="gorge")
    assert data["location"]["zone"] == "gorge"
    assert data["location"]["notes"][0]["rule"] == "R001.18"
    data, _ = attack(a, d, [19, 2, 3], critical="precision", aimed="gorge")
    assert data["location"] is None and any("ignorée" in n for n in notes(data))


def test_critical_rapidite_bonus_action(sheet: Any) -> None:
    a, d = sheet(), sheet("Cible", armes=[])
    data, _ = attack(a, d, [20, 2, 3], critical="rapidite")
    assert "A001.10" in rules(data) and any("action immédiate" in n for n in notes(data))


def test_critical_mj_and_unused_options(sheet: Any) -> None:
    a, d = sheet(), sheet("Cible", armes=[])
    data, _ = attack(a, d, [20, 2, 3], critical="mj")
    assert any("le MJ décide" in n for n in notes(data))
    data, _ = attack(a, d, [20, 2, 3])
    # a journal note, read in the pages and on the forum too: the choices, no command to type
    assert any("option possible, à choisir parmi rapidite, degats, precision ou mj" in n
               for n in notes(data))


def test_resister_au_coup(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 90}, caracs={"force": 14}), sheet("Cible", skills={"epee": 10})
    # attack 19 + 90 → 54 ; critical parry 20 + 10 → 15, loses ; damage 6 + 5 − 1d10 (4)
    data, _ = attack(a, d, [19, 20, 6, 4], opts={"critique_defense": "resister"})
    assert data["hit"] is True and data["damage"]["suffered"] == 6 + 5 - 4
    assert data["damage"]["protection"] == 4


def test_counter_attack_after_critical_rapidite_parry(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 30}), sheet("Cible", skills={"epee": 30})
    data, _ = attack(a, d, [15, 20], opts={"critique_defense": "rapidite"})
    assert data["hit"] is False and any("contre-attaquer" in n for n in notes(data))


def test_D_001_30_zero_hit_points_is_out_of_combat(sheet: Any) -> None:
    a = sheet(caracs={"force": 20})
    d = sheet("Cible", armes=[], pv={"max": 20, "actuels": 10})
    data, changes = attack(a, d, [12, 2, 6], defence="esquive")
    assert data["damage"]["suffered"] == 17
    assert (data["state_before"], data["state"]) == ("debout", "hors_de_combat")
    assert data["health"] == {"unit": "pv", "before": 10, "after": 0, "max": 20}
    assert "D-001.30" in rules(data)
    apply(changes)
    assert d.doc.plain()["pv"] == {"max": 20, "actuels": 0}
    with pytest.raises(RuleError, match="hors de combat"):
        SYSTEM.attack(AttackRequest(reload(d), a), FixedSource([10, 10]))


def test_D_001_30_death_is_the_mj_s_call(sheet: Any) -> None:
    a = sheet(caracs={"force": 20})
    d = sheet("Cible", armes=[], pv={"max": 20, "actuels": 10})
    data, _ = attack(a, d, [12, 2, 6], defence="esquive", opts={"mort": "oui"})
    assert data["state"] == "mort"
    fresh = sheet("Cible", armes=[])
    data, _ = attack(a, fresh, [12, 2, 1], defence="esquive", opts={"mort": "oui"})
    assert data["state"] == "debout" and data["health"]["after"] == 20 - 12


def test_D_ALL_02_defender_out_of_combat_does_not_defend(sheet: Any) -> None:
    d = sheet("Cible", pv={"max": 20, "actuels": 0})
    data, _ = attack(sheet(), reload(d), [12, 3])
    assert data["hit"] is True and data["steps"][0]["type"] == "check"
    assert "D-ALL.02" in rules(data)


def test_wounded_state(sheet: Any) -> None:
    data, _ = attack(sheet(caracs={"force": 6}), sheet("Cible", armes=[]), [12, 2, 6],
                     defence="esquive")
    assert data["state"] == "debout" and data["health"]["after"] == 14


def test_bad_options(sheet: Any) -> None:
    a, d = sheet(), sheet("Cible")
    with pytest.raises(RuleError, match="rapidite"):
        SYSTEM.attack(AttackRequest(a, d, critical="vitesse"), FixedSource([10]))
    with pytest.raises(RuleError, match="défense"):
        SYSTEM.attack(AttackRequest(a, d, defence="fuite"), FixedSource([10]))
    with pytest.raises(RuleError, match="arme"):
        SYSTEM.attack(AttackRequest(a, d, weapon="hache"), FixedSource([10]))
    with pytest.raises(RuleError, match="appuis"):
        options("attack", {"critique_defense": "solide"})


def test_missing_faces_is_a_french_error(sheet: Any) -> None:
    with pytest.raises(FacesError, match="d20"):
        SYSTEM.attack(AttackRequest(sheet(), sheet("Cible")), FixedSource([12]))


@pytest.mark.parametrize("fmt", ["texte", "forum", "json"])
def test_every_format_renders(sheet: Any, fmt: str) -> None:
    source = FixedSource([19, 20, 7, 1])
    outcome = SYSTEM.attack(AttackRequest(sheet(skills={"epee": 60}), sheet("Cible"),
                                          options=options("attack", {"critique_defense": "appuis"})),
                            source)
    assert "Cible" in render(outcome.result, fmt)


# ------------------------------------------------------------------ initiative (A001.25)


def test_initiative_by_adresse_then_roll_off(sheet: Any) -> None:
    a = sheet("Agile", caracs={"adresse": 16})
    b = sheet("Lent", caracs={"adresse": 8})
    c = sheet("Moyen1", caracs={"adresse": 12})
    d = sheet("Moyen2", caracs={"adresse": 12})
    data = initiative([b, c, a, d], [4, 9])
    assert [e["name"] for e in data["order"]] == ["Agile", "Moyen2", "Moyen1", "Lent"]
    assert data["rule"] == "A001.25" and [e["score"] for e in data["order"]] == [16, 12, 12, 8]


def test_initiative_roll_off_rerolls_ties(sheet: Any) -> None:
    c = sheet("Moyen1", caracs={"adresse": 12})
    d = sheet("Moyen2", caracs={"adresse": 12})
    data = initiative([c, d], [7, 7, 15, 3])
    order = data["order"]
    assert [e["name"] for e in order] == ["Moyen1", "Moyen2"]
    assert order[0]["rolloffs"] == [7, 15]
    outcome = SYSTEM.initiative(GroupRequest((c, d)), FixedSource([7, 7, 15, 3]))
    assert "initiative" in render(outcome.result)


def test_initiative_notes_who_is_out_of_combat(sheet: Any) -> None:
    down = sheet("Tombé", pv={"max": 20, "actuels": 0}, caracs={"adresse": 15})
    data = initiative([sheet("Debout"), down], [])
    assert [e["name"] for e in data["order"]] == ["Tombé", "Debout"]
    assert any("hors de combat" in n["text"] for n in data["notes"])


# ------------------------------------------------------------------ choices after the dice


def test_critical_option_asked_after_the_die(sheet: Any) -> None:
    """R001.18 / R001.19: the option of a critical is chosen once the 20 is seen."""
    asked: list[tuple[str, ...]] = []

    def chooser(question: Question) -> str:
        asked.append(question.choices)
        return "degats" if "degats" in question.choices else "rapidite"

    a, d = sheet(caracs={"force": 10}), sheet("Cible", skills={"epee": 30})
    source = FixedSource([20, 20, 3, 7])
    outcome = SYSTEM.attack(AttackRequest(a, d, options=options("attack", None),
                                          chooser=chooser), source)
    data = to_json(outcome.result)
    assert asked == [("rapidite", "degats", "precision", "mj", "aucune"),
                     ("rapidite", "appuis", "resister", "mj", "aucune")]
    exchange = contest_step(data)  # 22 against 25 + 10: the parry wins, no damage die rolled
    assert exchange["opponent"]["margin"] == 35 and data["hit"] is False
    assert any("contre-attaquer" in n for n in notes(data))
    assert source.position == 2


def test_nobody_asked_means_no_option(sheet: Any) -> None:
    data, _ = attack(sheet(), sheet("Cible", armes=[]), [20, 2, 3])
    assert data["damage"]["dice"] == [3]
    assert any("option possible" in n for n in notes(data))


def test_states_for_encounters(sheet: Any) -> None:
    up, down = sheet(), sheet("Tombé", pv={"max": 20, "actuels": 0})
    assert SYSTEM.state(up) == "debout" and SYSTEM.incapacity(up) is None
    assert SYSTEM.state(down) == "hors_de_combat"
    why = SYSTEM.incapacity(down)
    assert why is not None and "D-001.30" in why.rule
    health = SYSTEM.health(down)
    assert health is not None and (health.after, health.max) == (0, 20)
