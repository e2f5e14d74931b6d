"""Dice chips (issue 17.6): every die of an initiative is labelled from the result's data — the
initiative roll of each character, and each roll-off that broke a tie (« départage d'Aude »)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jdr.core.actions import execute
from jdr.core.registry import get_system
from jdr.core.usecase import FileWorkspace, Recording
from jdr.dice.source import RandomSource
from jdr.web.dice_view import groups

WITH_INITIATIVE = [s for s in ("cydonia", "maitrise", "dd35", "felins")
                   if "initiative" in get_system(s).actions]


@pytest.mark.parametrize("system_id", WITH_INITIATIVE)
def test_every_initiative_die_has_its_label(tmp_path: Path, system_id: str) -> None:
    template = get_system(system_id).template()
    paths = []
    for name in ("Aude", "Olivier", "Yvain"):  # the same sheet three times: ties, roll-offs
        path = tmp_path / f"{name}.yaml"
        path.write_text(re.sub(r"^nom: *.*$", f"nom: {name}", template, count=1, flags=re.M),
                        encoding="utf-8")
        paths.append(str(path))
    source = Recording(RandomSource(4))
    done = execute(FileWorkspace(), "initiative", {"personnages": paths}, source)
    chips = groups(done.rec.result)
    faces = [d["face"] for g in chips for d in g["dice"]]
    assert sorted(faces) == sorted(d["face"] for d in done.rec.dice)  # each die, once
    labels = {g["label"] for g in chips}
    assert all(re.fullmatch(r"(initiative|départage) (d'Aude|d'Olivier|d'Yvain)", label)
               for label in labels), labels
    rolled = any(label.startswith("initiative") for label in labels)
    assert rolled or any(label.startswith("départage") for label in labels)  # equal scores


def test_rolloffs_name_each_character() -> None:
    result = {"type": "order", "order": [{"name": "Léo", "check": None}],
              "rolloffs": [{"names": ["Léo", "Orque 3"], "faces": [4, 9], "sides": 10}]}
    assert [(g["label"], g["dice"][0]["face"]) for g in groups(result)] == [
        ("départage de Léo", 4), ("départage d'Orque 3", 9)]
