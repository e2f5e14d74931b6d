"""Sheets (SHEETS.md, maitrise): template, one French line per problem, `show`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from maitrise_support import loaded, problems

from jdr.core.sheet import SheetDocument
from jdr.errors import SheetError
from jdr.render import render
from jdr.render.json import to_json
from jdr.systems.maitrise import SYSTEM


def test_template_is_a_valid_sheet(tmp_path: Path) -> None:
    doc = SheetDocument.from_text(SYSTEM.template(), tmp_path / "t.yaml")
    assert problems(doc) == []
    assert loaded(doc).name == "Nouveau personnage"


def test_sheets_md_example_is_valid(sheet: Any) -> None:
    doc = sheet.doc(skills={"epee": 25, "arc": 0}, armure=2, faces_critiques={})
    assert problems(doc) == []


def test_skill_of_140(sheet: Any) -> None:
    assert problems(sheet.doc(skills={"epee": 140})) == [
        "competences.epee : 140 hors limites (autorisé : de 0 à 100)"]


def test_characteristic_of_0(sheet: Any) -> None:
    assert problems(sheet.doc(caracs={"force": 0})) == [
        "caracteristiques.force : 0 hors limites (autorisé : de 1 à 20)"]


def test_whole_numbers_only(sheet: Any) -> None:
    found = problems(sheet.doc(caracs={"force": 12.5}, xp=True))
    assert len(found) == 2 and all("nombre entier" in p for p in found)


@pytest.mark.parametrize(("faces", "words"), [
    ([1], "la face 1 ne peut jamais"),
    ([20], "la face 20 est déjà"),
    ([25], "25 n'est pas une face du d20 (autorisé : de 2 à 19)"),
])
def test_unknown_rank_face(sheet: Any, faces: list[int], words: str) -> None:
    found = problems(sheet.doc(skills={"epee": 100}, faces_critiques={"epee": faces}))
    assert len(found) == 1 and words in found[0]
    assert found[0].startswith("faces_critiques.epee")


def test_faces_only_at_20_plus_or_100_plus(sheet: Any) -> None:
    found = problems(sheet.doc(skills={"epee": 99}, faces_critiques={"epee": [19]}))
    assert len(found) == 1 and "niveau 100+" in found[0]
    found = problems(sheet.doc(faces_critiques={"nage": [19]}))
    assert len(found) == 1 and "ni une compétence" in found[0]
    found = problems(sheet.doc(skills={"epee": 100}, faces_critiques={"epee": [5, 5]}))
    assert found == ["faces_critiques.epee : la face 5 est choisie deux fois"]


def test_every_problem_at_once(sheet: Any) -> None:
    doc = sheet.doc(caracs={"force": 0, "adresse": 21}, skills={"epee": 140, "arc": -1},
                    faces_critiques={"epee": [1]})
    with pytest.raises(SheetError) as info:
        SYSTEM.load(doc)
    assert len(info.value.problems) == 5
    assert all(" : " in p for p in info.value.problems)


def test_unknown_characteristic_and_missing_one(sheet: Any) -> None:
    doc = sheet.doc(caracs={"chance": 3})
    assert problems(doc) == ["caracteristiques.chance = 3 : clé inconnue"]
    data = doc.plain()
    del data["caracteristiques"]["force"]
    del data["caracteristiques"]["chance"]
    doc.data = data
    assert problems(doc) == ["caracteristiques.force : champ obligatoire absent"]


def test_accents_and_case_in_names(sheet: Any) -> None:
    doc = sheet.doc(caracs={}, skills={"Équitation": 30})
    data = doc.plain()
    data["caracteristiques"]["Volonté"] = data["caracteristiques"].pop("volonte")
    doc.data = data
    char = loaded(doc).model
    assert char.skill("equitation") == 30 and char.base["volonte"] == 10


def test_two_grand_maitre_weapon_skills(sheet: Any) -> None:
    doc = sheet.doc(skills={"epee": 100, "hache": 100, "chant": 100},
                    armes=[{"nom": "Épée", "competence": "epee"},
                           {"nom": "Hache", "competence": "hache"}])
    found = problems(doc)
    assert len(found) == 1 and "A001.21" in found[0] and "hache" in found[0]


def test_show_ranks(sheet: Any) -> None:
    doc = sheet(skills={"epee": 0, "lire": 5, "chant": 20, "nage": 50, "cuisine": 80,
                        "danse": 100}, faces_critiques={"danse": [19]})
    view = SYSTEM.show(doc)
    skills = next(s for s in view.sections if s.title == "Compétences")
    ranks = {r.key: r.text.split(" — ")[1].split(",")[0].split(" (")[0] for r in skills.rows}
    assert ranks == {"epee": "Incompétent", "lire": "Novice", "chant": "Compétent",
                     "nage": "Expérimenté", "cuisine": "Maître", "danse": "Grand maître"}
    text = render(view)
    for rank in ranks.values():
        assert rank in text
    assert "100+" in text and "−7 à l'attaque" in text


def test_show_json_keys(sheet: Any) -> None:
    values = to_json(SYSTEM.show(sheet(armure=2)))["values"]
    for key in ("force", "adresse", "epee", "hit_points", "armor", "initiative", "xp", "gold",
                "state", "weapons"):
        assert key in values
    assert values["hit_points"] == 20 and values["initiative"] == 12 and values["armor"] == 2


def test_help_lists_characteristics_and_defences() -> None:
    info = SYSTEM.help()
    assert info.characteristics["volonte"] == "Volonté"
    assert info.defences == ("parade", "esquive", "aucune")
    assert "esquive" in info.skills
