"""dd35 sheets (SHEETS.md): validation in French, the template, `show`, creation checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.usecase import load
from jdr.errors import SheetError
from jdr.render.json import to_json
from jdr.render.text import to_text
from jdr.systems.dd35 import SYSTEM
from jdr.systems.dd35.demo import document


def _problems(doc: SheetDocument, creation: bool = False) -> list[str]:
    """What `jdr sheet check [--creation]` reports."""
    try:
        loaded = load(SYSTEM, doc)
    except SheetError as exc:
        return exc.problems
    return SYSTEM.creation_problems(loaded) if creation else []


def _sheet_problems(tmp_path: Path, **overrides: object) -> list[str]:
    return _problems(document(tmp_path, **overrides))


def _values(doc: SheetDocument) -> dict[str, Any]:
    values: dict[str, Any] = to_json(SYSTEM.show(load(SYSTEM, doc)))["values"]
    return values


def test_template_is_a_valid_sheet(tmp_path: Path) -> None:
    path = tmp_path / "modele.yaml"
    path.write_text(SYSTEM.template(), encoding="utf-8")
    doc = SheetDocument.load(path)
    assert _problems(doc, creation=True) == []
    view = SYSTEM.show(load(SYSTEM, doc))
    base = next(r for s in view.sections for r in s.rows if r.key == "base_attack")
    assert base.text == "+8/+3"  # guerrier 6 (+6) + mage 4 (+2)


def test_unknown_class_one_french_line(tmp_path: Path) -> None:
    problems = _sheet_problems(tmp_path, classes={"sorcier": 3})
    assert len(problems) == 1
    assert problems[0].startswith("classes.sorcier")
    assert "classe inconnue" in problems[0] and "guerrier" in problems[0]


def test_level_25_one_french_line(tmp_path: Path) -> None:
    problems = _sheet_problems(tmp_path, classes={"guerrier": 25})
    assert problems == ["classes.guerrier : 25 hors limites (autorisé : de 1 à 20)"]


def test_character_level_above_20(tmp_path: Path) -> None:
    problems = _sheet_problems(tmp_path, classes={"guerrier": 12, "mage": 10})
    assert len(problems) == 1
    assert "niveau de personnage 22 hors limites" in problems[0]


def test_negative_ac_bonus_one_french_line(tmp_path: Path) -> None:
    problems = _sheet_problems(tmp_path, armure={"nom": "Cuir", "bonus_ca": -2, "malus": 0})
    assert problems == ["armure.bonus_ca : -2 hors limites (autorisé : au moins 0)"]


def test_every_problem_reported_at_once(tmp_path: Path) -> None:
    problems = _sheet_problems(tmp_path, classes={"sorcier": 3, "guerrier": 25},
                               armure={"nom": "Cuir", "bonus_ca": -2, "malus": 0},
                               armes=[{"nom": "X", "degats": "1d8+2"}])
    assert len(problems) == 4
    with pytest.raises(SheetError) as info:
        SYSTEM.load(document(tmp_path, classes={"sorcier": 3}))
    assert "1 problème" in info.value.message


def test_unknown_armour_without_numbers(tmp_path: Path) -> None:
    problems = _sheet_problems(tmp_path, armure={"nom": "Cuir clouté"})
    assert len(problems) == 1
    assert "table des armures" in problems[0]


def test_accents_and_aliases_in_names(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"Rôdeur": 2, "Prêtre": 1},
                   caracteristiques={"FOR": 12, "Dextérité": 10, "con": 10, "int": 10, "sag": 10,
                                     "cha": 10})
    c = SYSTEM.character(load(SYSTEM, doc))
    assert dict(c.sheet.classes) == {"rodeur": 2, "pretre": 1}
    assert c.mod("force") == 1


def test_missing_ability(tmp_path: Path) -> None:
    problems = _problems(document(tmp_path, caracteristiques={"force": 10}))
    assert len(problems) == 5
    assert all("champ obligatoire absent" in p for p in problems)


@pytest.mark.parametrize(("score", "mod"), [(1, -5), (8, -1), (9, -1), (10, 0), (11, 0),
                                            (12, 1), (17, 3), (18, 4)])
def test_A002_01_ability_modifier(tmp_path: Path, score: int, mod: int) -> None:
    c = SYSTEM.character(load(SYSTEM, document(tmp_path, abilities={"force": score})))
    assert c.mod("force") == mod


def test_show_gives_every_value(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 8},
                   abilities={"force": 16, "dexterite": 14, "sagesse": 12, "constitution": 14},
                   armure={"nom": "Harnois"}, bouclier={"nom": "Pavois"},
                   dons={"initiative": 4, "rd": 1})
    data = _values(doc)
    assert data["base_attack"] == 8
    assert data["armor_class"] == 10 + 8 + 4 + 2
    assert data["flat_footed_armor_class"] == 10 + 8 + 4
    assert data["damage_reduction"] == 8 + 1  # min(6 + 10, 8) + feat DR
    assert data["melee_attack"] == 8 + 3
    assert data["ranged_attack"] == 8 + 2
    assert data["initiative"] == 2 + 4
    assert data["passive_perception"] == 10 + 8 + 1
    assert data["hit_points_max"] == 10 + 2 + 7 * (8 + 2)
    assert data["force"] == 16 and data["guerrier"] == 8 and data["level"] == 8
    text = to_text(SYSTEM.show(load(SYSTEM, doc)))
    assert "+8/+3" in text
    assert "CA pris au dépourvu            22" in text
    assert "9 (armure 8/Magie + dons 1)" in text  # D-002.40: only the armour's part is /Magie


def test_creation_checks_fixed_hp(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 2}, pv=30)
    assert _problems(doc) == []
    problems = _problems(doc, creation=True)
    assert problems == ["pv.max = 30 : en pv_mode fixe, le calcul donne 18 (R002.02)"]


def test_creation_rolled_hp_needs_pv(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 2}, pv_mode="lance")
    assert _problems(doc, creation=True) == [
        "pv : obligatoire en pv_mode lance (écrivez le total des dés lancés)"]


def test_A002_12_flat_footed_keeps_a_dex_penalty(tmp_path: Path) -> None:
    c = SYSTEM.character(load(SYSTEM, document(tmp_path, abilities={"dexterite": 6})))
    assert c.ac == 8
    assert c.flat_footed_ac == 8


def test_A002_13_minimum_one_hp_per_level(tmp_path: Path) -> None:
    c = SYSTEM.character(load(SYSTEM, document(tmp_path, classes={"mage": 3},
                                               abilities={"constitution": 1})))
    assert c.mod("constitution") == -5
    assert c.max_hp == 1 + 1 + 1
