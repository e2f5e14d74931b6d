"""`jdr` with CYD sheets, through the CLI in process: golden outputs (text, forum, JSON) of check,
odds and sheet show with fixed `--des`, and the unified behaviours (options refused, actions the
document lacks refused, `--contre FICHE` alone, D-003.20)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import cli, golden, ok
from jdr.systems.cyd import SYSTEM

PILLARD = """\
systeme: cyd
nom: Pillard
attributs: {adresse: 4, clairvoyance: 5, presence: 2, puissance: 6, trempe: 4}
competences: {vigilance: 3, bagarre: 4}
attribut_usuel: {vigilance: clairvoyance, bagarre: puissance}
"""

FORMATS = {"txt": ("--format", "texte"), "forum": ("--format", "forum"), "json": ("--json",)}


@pytest.fixture
def sheets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The Rôdeuse (the template) and the Pillard, in the current folder (paths stay short)."""
    monkeypatch.chdir(tmp_path)
    Path("rodeuse.yaml").write_text(SYSTEM.template(), encoding="utf-8")
    Path("pillard.yaml").write_text(PILLARD, encoding="utf-8")
    return "rodeuse.yaml", "pillard.yaml"


CASES = {
    "check_seuil": ("check", "rodeuse.yaml", "tir", "--seuil", "difficile", "--de", "d20",
                    "--des", "14", "--dry-run"),
    "check_echec_auto": ("check", "rodeuse.yaml", "tir", "--seuil", "facile", "--de", "d20",
                         "--des", "11", "--dry-run"),
    "check_contre": ("check", "rodeuse.yaml", "discretion", "--contre", "pillard.yaml:vigilance",
                     "--de", "d10", "--des", "6,5", "--dry-run"),
    "check_predilection": ("check", "rodeuse.yaml", "tir", "--seuil", "15", "--de", "d20",
                           "--opt", "predilection=oui", "--des", "1,16", "--dry-run"),
    "odds_seuil": ("odds", "rodeuse.yaml", "tir", "--seuil", "10"),
    "odds_contre": ("odds", "rodeuse.yaml", "athletisme", "--contre", "pillard.yaml"),
    "odds_de": ("odds", "rodeuse.yaml", "tir", "--seuil", "moyenne", "--de", "d20"),
    "sheet_show": ("sheet", "show", "rodeuse.yaml"),
    "duel": ("duel", "rodeuse.yaml", "pillard.yaml", "--opt", "competence=athletisme",
             "--opt", "attributs=adresse,puissance", "--opt", "de=d10", "--des", "3,7,2,9,8,8"),
    "session": ("session", "new", "rodeuse.yaml", "pillard.yaml", "--dry-run"),
}


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("case", list(CASES))
def test_golden(sheets: tuple[str, str], case: str, fmt: str) -> None:
    run = ok(*CASES[case], *FORMATS[fmt])
    golden(f"cyd/{case}.{fmt}", run.out)


def test_check_changes_the_sheet_and_keeps_comments(sheets: tuple[str, str]) -> None:
    rodeuse, _ = sheets
    ok("check", rodeuse, "tir", "--seuil", "15", "--de", "d10", "--opt", "predilection=oui",
       "--des", "2,3")
    text = Path(rodeuse).read_text(encoding="utf-8")
    assert "tir: utilisee" in text and "echecs:" in text and "# Prédilections" in text
    again = cli("check", rodeuse, "tir", "--seuil", "15", "--de", "d10", "--des", "9")
    assert again.code == 2 and "déjà échoué" in again.err
    ok("session", "new", rodeuse)
    assert "tir: disponible" in Path(rodeuse).read_text(encoding="utf-8")


@pytest.mark.parametrize(("args", "words"), [
    (("check", "rodeuse.yaml", "tir", "--seuil", "10", "--des", "4"), ("--de d10|d20",)),
    (("check", "rodeuse.yaml", "tir", "--de", "d10", "--opt", "predilecton=oui", "--des", "4"),
     ("option", "predilection")),
    (("odds", "rodeuse.yaml", "tir", "--opt", "duree=4h"), ("option",)),
    (("attack", "rodeuse.yaml", "pillard.yaml", "--des", "4"), ("ne joue pas", "attack")),
    (("initiative", "rodeuse.yaml", "pillard.yaml"), ("ne joue pas", "initiative")),
    (("xp", "rodeuse.yaml", "--competence", "tir"), ("ne joue pas", "xp")),
    (("duel", "rodeuse.yaml", "pillard.yaml", "--opt", "competence=athletisme", "--des", "4,4"),
     ("dé", "--opt de=d10|d20")),
])
def test_refusals_are_one_french_line(sheets: tuple[str, str], args: tuple[str, ...],
                                      words: tuple[str, ...]) -> None:
    run = cli(*args)
    assert run.code == 2 and run.out == ""
    assert run.err.startswith("Erreur : ") and run.err.count("\n") == 1, run.err
    for word in words:
        assert word in run.err


def test_D_ALL_03_a_d10_entered_as_0_is_10(sheets: tuple[str, str]) -> None:
    data = ok("check", "rodeuse.yaml", "tir", "--de", "d10", "--des", "0", "--json").json()
    assert data["dice"] == [10] and data["total"] == 8 + 10


def test_contre_sheet_alone_and_json_keys(sheets: tuple[str, str]) -> None:
    data = ok("check", "rodeuse.yaml", "tir", "--contre", "pillard.yaml", "--de", "d10",
              "--des", "5,5", "--dry-run", "--json").json()
    assert data["type"] == "contest" and data["winner"] == "actor"
    assert data["opponent"]["label"] == "Pillard : Adresse + tir (d10)"
    assert [m["value"] for m in data["opponent"]["modifiers"]] == [4, 0, -3]


def test_aide_and_demo(sheets: tuple[str, str]) -> None:
    aide = ok("aide", "cyd").out
    assert "Présence" in aide and "tres-difficile" in aide and "jdr duel" in aide
    assert "attack" not in ok("systems").out.split("cyd", 1)[1].split("\n")[1]
    demo = ok("demo", "cyd", "--seed", "5").out
    assert "Rôdeuse" in demo and "Pillard" in demo
