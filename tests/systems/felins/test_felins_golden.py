"""Golden outputs of felins through the CLI, with fixed `--des`: text, forum and JSON of check,
opposed check, odds, attack, initiative, duel and sheet show (`JDR_UPDATE_GOLDEN=1` rewrites).

The sheets are the rules' own test vectors: Ombre is T004.01 (Chance 3, Discrétion 3 + 2),
Griffe and Proie are T004.04 (Combat griffu 6 against Agilité 3, partial cover, complete surprise:
threshold 10, total 15, two wounds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import golden, ok

SHEETS = {
    "ombre": """\
systeme: felins
nom: Ombre
rang: apprenti
clan: roches
caracteristiques: {force: 1, precision: 2, vigueur: 2, agilite: 3, intelligence: 2, volonte: 2,
  intuition: 1, sociabilite: 1, chance: 3}
competences: {discretion: 2}
reputation: 5
""",
    "guet": """\
systeme: felins
nom: Guet
rang: apprenti
clan: plaines
caracteristiques: {force: 2, precision: 2, vigueur: 2, agilite: 2, intelligence: 1, volonte: 3,
  intuition: 2, sociabilite: 1, chance: 1}
competences: {reperer_trouver: 1}
""",
    "griffe": """\
systeme: felins
nom: Griffe
rang: guerrier
clan: brumes
caracteristiques: {force: 4, precision: 4, vigueur: 3, agilite: 3, intelligence: 3, volonte: 3,
  intuition: 3, sociabilite: 3, chance: 2}
competences: {combat_griffu: 2}
reputation: 12
""",
    "proie": """\
systeme: felins
nom: Proie
rang: apprenti
clan: eaux
caracteristiques: {force: 1, precision: 2, vigueur: 4, agilite: 3, intelligence: 1, volonte: 2,
  intuition: 1, sociabilite: 1, chance: 1}
blessures: 0
etat: conscient
""",
    "brume": """\
systeme: felins
nom: Brume
rang: chaton
clan: brumes
caracteristiques: {force: 1, precision: 1, vigueur: 1, agilite: 3, intelligence: 1, volonte: 1,
  intuition: 1, sociabilite: 1, chance: 1}
""",
}

CASES = {
    # T004.01: keep 7 → 12 against Assez facile 7: margin +2 rows
    "check": ["check", "ombre", "discretion", "--seuil", "assez-facile", "--des", "4,7,2"],
    # R004.18: a 10 confirmed by a 10, and a 1 not confirmed
    "check_critique": ["check", "ombre", "Discrétion", "--seuil", "impossible", "--des",
                       "10,1,2,10,4"],
    # R004.38: Repérer/Trouver opposed to Discrétion by default
    "contre": ["check", "ombre", "discretion", "--contre", "guet", "--des", "5,3,2,6"],
    "odds": ["odds", "ombre", "discretion", "--seuil", "11"],
    "odds_contre": ["odds", "ombre", "discretion", "--contre", "guet"],
    # T004.03 / T004.04: threshold 10, 9 + 6 = 15, margin 2, will check 6 + 4 − 2 = 8 ≥ 7
    "attack": ["attack", "griffe", "proie", "--opt", "protection=partielle", "--opt",
               "surprise=complete", "--des", "9,5,6"],
    # R004.29: Agilité 3 but Guet's 2; then Chance 3 (Ombre), 2 (Griffe); Proie and Brume tie
    # on Agilité 3 and Chance 1: 1d10 each, 4 and 4 again, then 2 against 8
    "initiative": ["initiative", "proie", "guet", "ombre", "brume", "griffe", "--des", "4,4,2,8"],
    # T004.11-like: Griffe's reputation 12 gives +2
    "duel": ["duel", "griffe", "guet", "--des", "6,2,9"],
    "show": ["sheet", "show", "ombre"],
}
FORMATS = {"txt": [], "forum": ["--format", "forum"], "json": ["--json"]}


@pytest.fixture
def sheets(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, text in SHEETS.items():
        paths[name] = tmp_path / f"{name}.yaml"
        paths[name].write_text(text, encoding="utf-8")
    return paths


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, fmt: str, sheets: dict[str, Path]) -> None:
    args = [str(sheets[a]) if a in sheets else a for a in CASES[case]]
    if args[0] in ("check", "attack", "duel"):
        args.append("--dry-run")
    run = ok(*args, *FORMATS[fmt])
    assert str(sheets["ombre"].parent) not in run.out
    golden(f"felins/{case}.{fmt}", run.out)
