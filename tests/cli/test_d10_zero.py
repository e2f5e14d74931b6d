"""D-ALL.03 in every system: with `--des`, a d10 face entered as `0` is 10; on another die, 0 is
refused. Each system's template sheet rolls a check from a seed while every face is recorded;
the same faces given by hand, each 10 of a d10 written 0, must give the same result (with
`--dry-run`: a check may change the sheet, felins moving Chance after a critical)."""

from __future__ import annotations

from pathlib import Path

import pytest

import jdr.dice.source
from helpers import cli, ok
from jdr.core.registry import available, get_system
from jdr.core.usecase import Recording


def _check_args(system: str, sheet: Path) -> list[str]:
    """A check the template sheet can roll: its first skill, characteristic or shown value."""
    aide = ok("aide", system, "--json").json()
    shown = ok("sheet", "show", sheet, "--json").json()["values"]
    extra = ["--de", "d10"] if system == "cyd" else []
    for name in [*aide["skills"], *aide["characteristics"], *shown]:
        args = ["check", str(sheet), name, "--seuil", "10", "--dry-run", *extra]
        if cli(*args, "--seed", "1").code == 0:
            return args
    raise AssertionError(f"{system} : aucun jet possible avec la fiche modèle")


def _recorded(args: list[str], seed: int,
              monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[tuple[int, int]]]:
    """The JSON of a seeded run, and every (sides, face) rolled, in order."""
    made: list[Recording] = []
    original = jdr.dice.source.make_source

    def recording(seed: int | None = None, faces: str | None = None) -> Recording:
        made.append(Recording(original(seed, faces)))
        return made[-1]

    with monkeypatch.context() as patch:
        patch.setattr(jdr.dice.source, "make_source", recording)
        out = ok(*args, "--seed", str(seed), "--json").out
    return out, [roll for source in made for roll in source.rolls]


@pytest.mark.parametrize("system", available())
def test_d10_zero_is_ten_in_every_system(system: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = tmp_path / f"{system}.yaml"
    sheet.write_text(get_system(system).template(), encoding="utf-8")
    args = _check_args(system, sheet)
    for seed in range(300):
        out, rolls = _recorded(args, seed, monkeypatch)
        if all(sides != 10 for sides, _ in rolls):  # no d10 in this system's check: 0 refused
            run = cli(*args, "--des", ",".join(["0"] * len(rolls)), "--json")
            assert run.code == 2 and "la face 0" in run.json()["error"]
            return
        if (10, 10) in rolls:
            break
    else:
        pytest.fail(f"{system} : aucun 10 sur un d10 en 300 graines")
    by_hand = ",".join("0" if roll == (10, 10) else str(roll[1]) for roll in rolls)
    assert ok(*args, "--des", by_hand, "--json").out == out
