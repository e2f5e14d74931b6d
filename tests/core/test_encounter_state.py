"""The encounter state written as JSON: the same data as `dataclasses.asdict`, copied (changing
the JSON never changes the state), and read back to an equal state."""

from __future__ import annotations

from dataclasses import asdict

from jdr.core.encounter import Combatant, EncounterState


def _state() -> EncounterState:
    return EncounterState(round=3, turn=1, ended=False, notes=["l'ogre attend"], order=[
        Combatant("Ogre", 14, acted=True, joined_round=2,
                  data={"ko": {"tours": [1, 2]}, "attente": 5}, spent={"action": 1},
                  done=["attaque"]),
        Combatant("Nain A", 9),
    ])


def test_to_json_is_asdict_and_reads_back() -> None:
    state = _state()
    data = state.to_json()
    assert data == asdict(state)
    assert list(data) == list(asdict(state))  # same keys, same order
    assert list(data["order"][0]) == list(asdict(state)["order"][0])
    assert EncounterState.from_json(data) == state


def test_to_json_is_a_copy() -> None:
    state = _state()
    data = state.to_json()
    data["order"][0]["data"]["ko"]["tours"].append(3)
    data["order"][0]["spent"]["action"] = 2
    data["order"][0]["done"].append("charge")
    data["notes"].clear()
    assert state == _state()
