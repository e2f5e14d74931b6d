"""Combat: attack vs parry / dodge, critical options, damage, hit points, initiative."""

from __future__ import annotations

from typing import Any

import pytest

from jdr.core.system import AttackRequest
from jdr.dice.source import FixedSource
from jdr.errors import FacesError, RuleError
from jdr.systems.maitrise import SYSTEM


def attack(a: Any, d: Any, faces: list[int], **kw: Any) -> tuple[dict[str, Any], list[Any]]:
    source = FixedSource(faces)
    result, changes = SYSTEM.attack(AttackRequest(a, d, **kw), source)
    source.finish()
    assert result.render()
    return result.to_json(), changes


def test_json_contract(sheet: Any) -> None:
    data, _ = attack(sheet(), sheet("Cible"), [12, 3, 4])
    for key in ("hit", "location", "damage", "state"):
        assert key in data


def test_default_defence_is_parry_then_dodge(sheet: Any) -> None:
    data, _ = attack(sheet(), sheet("Cible"), [12, 3, 4])
    assert data["defence_kind"] == "parade"
    data, _ = attack(sheet(), sheet("Cible", armes=[]), [12, 9])
    assert data["defence_kind"] == "esquive" and data["hit"] is False  # (9 + 12) / 2 = 10


def test_failed_attack_misses_and_rolls_no_damage(sheet: Any) -> None:
    data, changes = attack(sheet(skills={"epee": 15}), sheet("Cible"), [9, 2])
    assert data["hit"] is False and data["damage"] == 0 and changes == []


def test_parry_tie_goes_to_defender(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 30}), sheet("Cible", skills={"epee": 30})
    data, _ = attack(a, d, [12, 13])  # margins 21 and 21
    assert data["hit"] is False
    data, _ = attack(a, d, [14, 11, 1])  # 22 against 20
    assert data["hit"] is True


def test_failed_parry_does_not_stop_a_hit(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 10}), sheet("Cible", skills={"epee": 90})
    data, _ = attack(a, d, [10, 1, 1])  # the master's natural 1 fails
    assert data["hit"] is True and data["defence"]["critical"] == "failure"


def test_critical_degats_adds_d10(sheet: Any) -> None:
    a, d = sheet(caracs={"force": 10}), sheet("Cible", armes=[])
    data, _ = attack(a, d, [20, 2, 3, 7], critical="degats")  # dodge 2 + 12 = 14 → 7: fails
    assert data["damage"] == 3 + 1 + 7


def test_critical_precision_sets_location(sheet: Any) -> None:
    a, d = sheet(), sheet("Cible", armes=[])
    data, _ = attack(a, d, [20, 2, 3], critical="precision", aimed="gorge")
    assert data["location"] == "gorge"
    data, _ = attack(a, d, [19, 2, 3], critical="precision", aimed="gorge")
    assert data["location"] is None and any("ignorée" in n for n in data["notes"])


def test_critical_rapidite_bonus_action(sheet: Any) -> None:
    a, d = sheet(), sheet("Cible", armes=[])
    data, _ = attack(a, d, [20, 2, 3], critical="rapidite")
    assert data["bonus_action"] is True


def test_resister_au_coup(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 90}, caracs={"force": 14}), sheet("Cible", skills={"epee": 10})
    # attack 19 + 90 → 54 ; critical parry 20 + 10 → 15, loses ; damage 6 + 5 − 1d10 (4)
    data, _ = attack(a, d, [19, 20, 6, 4], options={"critique_defense": "resister"})
    assert data["hit"] is True and data["damage"] == 6 + 5 - 4


def test_counter_attack_after_critical_rapidite_parry(sheet: Any) -> None:
    a, d = sheet(skills={"epee": 30}), sheet("Cible", skills={"epee": 30})
    data, _ = attack(a, d, [15, 20], options={"critique_defense": "rapidite"})
    assert data["hit"] is False and data["counter_attack"] is True


def test_death_at_zero(sheet: Any) -> None:
    a = sheet(caracs={"force": 20})
    d = sheet("Cible", armes=[], pv={"max": 20, "actuels": 10})
    data, changes = attack(a, d, [12, 2, 6], defence="esquive")
    assert data["damage"] == 17 and data["state"] == "mort"
    assert data["hit_points"] == {"max": 20, "before": 10, "after": 0}
    for change in changes:
        change.apply()
    assert d.plain()["pv"] == {"max": 20, "actuels": 0}
    with pytest.raises(RuleError, match="mort"):
        SYSTEM.attack(AttackRequest(d, a), FixedSource([10, 10]))


def test_wounded_state(sheet: Any) -> None:
    data, _ = attack(sheet(caracs={"force": 6}), sheet("Cible", armes=[]), [12, 2, 6],
                     defence="esquive")
    assert data["state"] == "blesse" and data["hit_points"]["after"] == 14


def test_bad_options(sheet: Any) -> None:
    a, d = sheet(), sheet("Cible")
    with pytest.raises(RuleError, match="rapidite"):
        SYSTEM.attack(AttackRequest(a, d, critical="vitesse"), FixedSource([10]))
    with pytest.raises(RuleError, match="défense"):
        SYSTEM.attack(AttackRequest(a, d, defence="fuite"), FixedSource([10]))
    with pytest.raises(RuleError, match="arme"):
        SYSTEM.attack(AttackRequest(a, d, weapon="hache"), FixedSource([10]))


def test_missing_faces_is_a_french_error(sheet: Any) -> None:
    with pytest.raises(FacesError, match="d20"):
        SYSTEM.attack(AttackRequest(sheet(), sheet("Cible")), FixedSource([12]))


# ------------------------------------------------------------------ initiative (A001.25)


def test_initiative_by_adresse_then_roll_off(sheet: Any) -> None:
    a = sheet("Agile", caracs={"adresse": 16})
    b = sheet("Lent", caracs={"adresse": 8})
    c = sheet("Moyen1", caracs={"adresse": 12})
    d = sheet("Moyen2", caracs={"adresse": 12})
    source = FixedSource([4, 9])
    result = SYSTEM.initiative([b, c, a, d], source)
    source.finish()
    names = [e["name"] for e in result.to_json()["order"]]
    assert names == ["Agile", "Moyen2", "Moyen1", "Lent"]


def test_initiative_roll_off_rerolls_ties(sheet: Any) -> None:
    c = sheet("Moyen1", caracs={"adresse": 12})
    d = sheet("Moyen2", caracs={"adresse": 12})
    source = FixedSource([7, 7, 15, 3])
    result = SYSTEM.initiative([c, d], source)
    source.finish()
    order = result.to_json()["order"]
    assert [e["name"] for e in order] == ["Moyen1", "Moyen2"]
    assert order[0]["rolls"] == [7, 15]
    assert "Initiative" in result.render()
