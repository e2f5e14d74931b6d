"""Sheets, creation budgets and skill values (R004.02–R004.11): E004.02, E004.09, E004.10,
E004.14, T004.05, T004.06, and one French line per bad sheet."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded
from jdr.core.usecase import load
from jdr.errors import SheetError
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.sheet import (
    Cat,
    characteristic_budget,
    innate_value,
    load_cat,
    skill_points,
)

MakeSheet = Callable[..., Loaded[Cat]]


def problems(sheet: Loaded[Cat] | SheetDocument, creation: bool = False) -> list[str]:
    """What `jdr sheet check [--creation]` lists: the model's problems, then creation's."""
    doc = sheet.doc if isinstance(sheet, Loaded) else sheet
    try:
        loaded = load(SYSTEM, doc)
    except SheetError as exc:
        return exc.problems or [exc.message]
    return SYSTEM.creation_problems(loaded) if creation else []

@pytest.mark.parametrize(("values", "expected"), [((1, 2), 2), ((2, 3), 3), ((3, 4), 4),
                                                   ((4, 5), 5), ((2, 2), 2), ((3,), 3)])
def test_E004_02_average_of_two_characteristics_rounds_up(
        values: tuple[int, ...], expected: int) -> None:
    assert innate_value(values) == expected


@pytest.mark.parametrize(("rank", "budget"), [
    ("chaton", 9), ("apprenti", 16), ("apprenti_guerisseur", 16), ("guerrier", 28),
    ("lieutenant", 28), ("guerisseur", 28), ("ancien", 28), ("chef", 30), ("ancien_chef", 30)])
def test_E004_09_creation_points_by_rank(rank: str, budget: int) -> None:
    assert characteristic_budget(rank) == budget


def test_E004_09_kitten_has_all_ones(make_sheet: MakeSheet) -> None:
    ones = {k: 1 for k in ("force", "precision", "vigueur", "agilite", "intelligence",
                           "volonte", "intuition", "sociabilite", "chance")}
    assert problems(make_sheet(rang="chaton", **ones), creation=True) == []
    found = problems(make_sheet(rang="chaton", **{**ones, "force": 2}), creation=True)
    assert len(found) == 1 and "budget de 9" in found[0]


def test_E004_09_budget_spent_exactly_passes(make_sheet: MakeSheet) -> None:
    # Guerrier 28: 4 × 8 physical/mental... spread: 4,4,3,3,3,3,3,3,2 = 28
    doc = make_sheet(rang="guerrier", force=4, precision=4, vigueur=3, agilite=3,
                     intelligence=3, volonte=3, intuition=3, sociabilite=3, chance=2)
    assert problems(doc, creation=True) == []


@pytest.mark.parametrize(("intelligence", "volonte"), [(1, 1), (2, 3), (5, 5)])
def test_E004_10_skill_points(intelligence: int, volonte: int) -> None:
    assert skill_points(intelligence, volonte) == (intelligence + volonte) * 3


def test_T004_06_skill_points_int_3_vol_2() -> None:
    assert skill_points(3, 2) == 15


def test_A004_26_kitten_still_gets_skill_points() -> None:
    assert skill_points(1, 1) == 6


def test_T004_05_innate_combat_griffu(make_sheet: MakeSheet) -> None:
    cat = make_sheet(force=3, precision=4).model
    score = cat.skill_score("Combat griffu")
    assert (score.innate, score.acquired, score.total) == (4, 0, 4)


def test_R004_06_score_is_innate_plus_acquired(make_sheet: MakeSheet) -> None:
    cat = make_sheet(agilite=3, competences={"Discrétion": 2}).model
    assert cat.skill_score("discretion").total == 5


def test_A004_13_saut_and_reperer_are_halved(make_sheet: MakeSheet) -> None:
    cat = make_sheet(agilite=3, precision=4, volonte=5, intuition=2).model
    assert cat.skill_score("saut").innate == 4
    assert cat.skill_score("Repérer/Trouver").innate == 4


def test_E004_14_psychologie_humaine_3_gives_langage_humain_plus_one(
        make_sheet: MakeSheet) -> None:
    with_bonus = make_sheet(intelligence=3, competences={
        "psychologie_humaine": 3, "langage_humain": 1}).model
    without = make_sheet(intelligence=3, competences={
        "psychologie_humaine": 2, "langage_humain": 1}).model
    assert with_bonus.skill_score("langage humain").total == 3 + 1 + 1
    assert without.skill_score("langage humain").total == 3 + 1


def test_template_is_a_valid_creation_sheet(make_doc: Callable[[str], SheetDocument]) -> None:
    assert problems(make_doc(SYSTEM.template()), creation=True) == []


# ---------------------------------------------------------------- bad sheets: one French line


def test_bad_sheet_characteristic_of_6(make_sheet: MakeSheet,
                                      make_unloaded: Callable[..., SheetDocument]) -> None:
    found = problems(make_unloaded(force=6))
    assert found == ["caracteristiques.force : 6 hors limites (autorisé : de 1 à 5)"]
    with pytest.raises(SheetError):
        make_sheet(force=6)


def test_bad_sheet_budget_overspent(make_sheet: MakeSheet) -> None:
    found = problems(make_sheet(force=5), creation=True)  # 16 - 2 + 5 = 19
    assert len(found) == 1
    assert "19 points dépensés pour un budget de 16" in found[0]
    assert "3 de trop" in found[0]
    assert problems(make_sheet(force=5)) == []  # only at creation


def test_bad_sheet_chance_4_at_creation(make_sheet: MakeSheet) -> None:
    doc = make_sheet(force=1, precision=1, vigueur=1, chance=4)  # 16 total
    found = problems(doc, creation=True)
    assert found == ["caracteristiques.chance = 4 : la Chance ne peut pas dépasser 3 à la "
                        "création (autorisé : de 1 à 3)"]
    assert problems(doc) == []  # in play Chance may reach 5 (A004.07)


def test_bad_sheet_skill_points_overspent(make_sheet: MakeSheet) -> None:
    # Int 2 + Vol 2 → 12 points; combat griffu 3 = 1 + 2 + 4 = 7, saut 3 = 7 → 14
    found = problems(make_sheet(competences={"combat_griffu": 3, "saut": 3}), creation=True)
    assert len(found) == 1 and "14 points de compétence" in found[0]
    assert "au plus 12" in found[0]


def test_clan_discount_counts_at_creation(make_sheet: MakeSheet) -> None:
    # roches → discrétion: rank 4 costs 0 + 1 + 2 + 4 = 7 (normal 15 would overspend 12)
    assert problems(make_sheet(competences={"discretion": 4}), creation=True) == []
    assert problems(make_sheet(clan="eaux", competences={"discretion": 4}), creation=True) != []


def test_bad_sheet_every_problem_one_line(make_doc: Callable[[str], SheetDocument]) -> None:
    text = """systeme: felins
nom: Brouillon
rang: soldat
clan: eaux
caracteristiques: {force: 0, precision: 2, vigueur: 2, agilite: 2, intelligence: 2,
  volonte: 2, intuition: 2, sociabilite: 2}
competences: {voler: 2, nager: 7}
reputation: 31
"""
    found = problems(make_doc(text))
    joined = "\n".join(found)
    assert len(found) == 6, joined
    assert "rang « soldat » inconnu" in joined
    assert "caracteristiques.force : 0 hors limites (autorisé : de 1 à 5)" in joined
    assert "caracteristiques.chance : champ obligatoire absent" in joined
    assert "competences.nager : 7 hors limites (autorisé : de 0 à 5)" in joined
    assert "reputation : 31 hors limites (autorisé : de 0 à 30)" in joined
    assert "competences.voler : compétence « voler » introuvable" in joined


def test_names_match_any_spelling(make_doc: Callable[[str], SheetDocument]) -> None:
    text = """systeme: Félins
nom: Accents
rang: Apprenti guérisseur
clan: Brumes
caracteristiques: {Force: 2, Précision: 2, Vigueur: 2, Agilité: 2, Intelligence: 2,
  Volonté: 2, Intuition: 2, Sociabilité: 1, Chance: 1}
competences: {Combat griffu: 1, Escalader: 1, REPÉRER/TROUVER: 1}
etat: Conscient
"""
    cat = load_cat(make_doc(text))
    assert SYSTEM.name_of(cat) == "Accents"
    assert cat.rank == "apprenti_guerisseur"
    assert cat.skills == {"combat_griffu": 1, "escalade": 1, "reperer_trouver": 1}
