"""Sheets (SHEETS.md, maitrise): template, one French line per problem, `show`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jdr.core.sheet import SheetDocument
from jdr.errors import SheetError
from jdr.systems.maitrise import SYSTEM


def test_template_is_a_valid_sheet(tmp_path: Path) -> None:
    doc = SheetDocument.from_text(SYSTEM.template(), tmp_path / "t.yaml")
    assert SYSTEM.check_sheet(doc) == []
    assert SYSTEM.load(doc).name == "Nouveau personnage"


def test_sheets_md_example_is_valid(sheet: Any) -> None:
    doc = sheet(skills={"epee": 25, "arc": 0}, armure=2, faces_critiques={})
    assert SYSTEM.check_sheet(doc) == []


def test_skill_of_140(sheet: Any) -> None:
    problems = SYSTEM.check_sheet(sheet(skills={"epee": 140}))
    assert problems == ["competences.epee : 140 hors limites (autorisé : de 0 à 100)"]


def test_characteristic_of_0(sheet: Any) -> None:
    problems = SYSTEM.check_sheet(sheet(caracs={"force": 0}))
    assert problems == ["caracteristiques.force : 0 hors limites (autorisé : de 1 à 20)"]


@pytest.mark.parametrize(("faces", "words"), [
    ([1], "la face 1 ne peut jamais"),
    ([20], "la face 20 est déjà"),
    ([25], "25 n'est pas une face du d20 (autorisé : de 2 à 19)"),
])
def test_unknown_rank_face(sheet: Any, faces: list[int], words: str) -> None:
    problems = SYSTEM.check_sheet(sheet(skills={"epee": 100}, faces_critiques={"epee": faces}))
    assert len(problems) == 1 and words in problems[0]
    assert problems[0].startswith("faces_critiques.epee")


def test_faces_only_at_20_plus_or_100_plus(sheet: Any) -> None:
    problems = SYSTEM.check_sheet(sheet(skills={"epee": 99}, faces_critiques={"epee": [19]}))
    assert len(problems) == 1 and "niveau 100+" in problems[0]
    problems = SYSTEM.check_sheet(sheet(faces_critiques={"nage": [19]}))
    assert len(problems) == 1 and "ni une compétence" in problems[0]
    problems = SYSTEM.check_sheet(sheet(skills={"epee": 100}, faces_critiques={"epee": [5, 5]}))
    assert problems == ["faces_critiques.epee : la face 5 est choisie deux fois"]


def test_every_problem_at_once(sheet: Any) -> None:
    doc = sheet(caracs={"force": 0, "adresse": 21}, skills={"epee": 140, "arc": -1},
                faces_critiques={"epee": [1]})
    with pytest.raises(SheetError) as info:
        SYSTEM.load(doc)
    assert len(info.value.problems) == 5
    assert all(" : " in p for p in info.value.problems)


def test_unknown_characteristic_and_missing_one(sheet: Any) -> None:
    doc = sheet(caracs={"chance": 3})
    problems = SYSTEM.check_sheet(doc)
    assert problems == ["caracteristiques.chance = 3 : clé inconnue"]
    data = doc.plain()
    del data["caracteristiques"]["force"]
    del data["caracteristiques"]["chance"]
    doc.data = data
    assert SYSTEM.check_sheet(doc) == ["caracteristiques.force : champ obligatoire absent"]


def test_accents_and_case_in_names(sheet: Any) -> None:
    doc = sheet(caracs={}, skills={"Équitation": 30})
    data = doc.plain()
    data["caracteristiques"]["Volonté"] = data["caracteristiques"].pop("volonte")
    doc.data = data
    char = SYSTEM.load(doc)
    assert char.skill("equitation") == 30 and char.base["volonte"] == 10


def test_two_grand_maitre_weapon_skills(sheet: Any) -> None:
    doc = sheet(skills={"epee": 100, "hache": 100, "chant": 100},
                armes=[{"nom": "Épée", "competence": "epee"},
                       {"nom": "Hache", "competence": "hache"}])
    problems = SYSTEM.check_sheet(doc)
    assert len(problems) == 1 and "A001.21" in problems[0] and "hache" in problems[0]


def test_show_ranks(sheet: Any) -> None:
    doc = sheet(skills={"epee": 0, "lire": 5, "chant": 20, "nage": 50, "cuisine": 80,
                        "danse": 100}, faces_critiques={"danse": [19]})
    view = SYSTEM.show(doc)
    ranks = {s["key"]: s["rank"] for s in view.to_json()["skills"]}
    assert ranks == {"epee": "Incompétent", "lire": "Novice", "chant": "Compétent",
                     "nage": "Expérimenté", "cuisine": "Maître", "danse": "Grand maître"}
    text = view.render()
    for rank in ranks.values():
        assert rank in text
    assert "100+" in text and "−7 à l'attaque" in text
