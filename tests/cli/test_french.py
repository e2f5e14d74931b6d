"""typer's and click's own words in French; numbers in ASCII digits; one option, one token."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from helpers import Run, cli, ok

# Fragments click and typer would print in English; none may reach a person.
ENGLISH = [
    "Usage", "Options:", "Arguments:", "Commands", "Show this message", "[default", "[required",
    "Missing", "No such", "requires", "Got unexpected", "Invalid value", "Did you mean",
    "Possible options", "does not take", "Try '", "Error", "unexpected", "<path>", "<str>",
    "<int", "list[", "Input should", "is not a valid", "Aborted", "integer", "extra",
]


def english_in(text: str) -> list[str]:
    return [w for w in ENGLISH if w in text]


def usage_error(run: Run, *fragments: str) -> str:
    assert run.code == 2, run
    assert run.out == ""
    lines = run.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Erreur : "), run.err
    assert not english_in(run.err), english_in(run.err)
    for fragment in fragments:
        assert fragment in run.err, (fragment, run.err)
    return run.err


@pytest.mark.parametrize("args", [
    ["--help"], ["check", "--help"], ["roll", "--help"], ["sheet", "--help"], ["sheet", "new", "--help"],
    ["attack", "--help"], ["initiative", "--help"], [],  ["sheet"],
])
def test_help_is_french(args: list[str]) -> None:
    run = ok(*args)
    assert run.out.startswith("Utilisation : jdr"), run.out
    assert "Affiche cette aide et quitte." in run.out
    assert not english_in(run.out), english_in(run.out)
    assert run.err == ""


def test_help_sections_and_notes() -> None:
    top = ok("--help").out
    assert "\nCommandes :\n" in top and "COMMANDE [ARGUMENTS]..." in top
    check = " ".join(ok("check", "--help").out.split())
    assert "Arguments :" in check and "Options :" in check
    assert "[obligatoire]" in check and "[défaut : texte]" in check
    assert "FICHE <texte>" in check and "--contre FICHE[:COMPETENCE]" in check
    assert "--opt CLE=VALEUR" in check and "--seed GRAINE" in check


def test_missing_argument_names_it() -> None:
    usage_error(cli("check"), "argument FICHE manquant", "jdr check --help")
    usage_error(cli("check", "a.yaml"), "argument COMPETENCE manquant")
    usage_error(cli("roll"), "argument EXPRESSION manquant")


def test_unknown_option() -> None:
    usage_error(cli("roll", "1d6", "--x"), "option inconnue : --x")
    usage_error(cli("check", "a", "b", "--seul", "3"), "option inconnue : --seul", "vouliez-vous dire ",
                "--seuil")


def test_option_requires_a_value() -> None:
    usage_error(cli("check", "a", "b", "--contre"), "l'option --contre attend une valeur")
    usage_error(cli("roll", "1d6", "--json=1"), "l'option --json ne prend pas de valeur")


def test_extra_argument() -> None:
    usage_error(cli("roll", "1d6", "2d6"), "argument(s) en trop : 2d6")


def test_unknown_command_suggests() -> None:
    usage_error(cli("rol", "1d6"), "commande inconnue : « rol »", "vouliez-vous dire roll ?")
    usage_error(cli("sheet", "nw"), "commande inconnue : « nw »", "vouliez-vous dire new ?")
    usage_error(cli("zzz"), "commande inconnue : « zzz »")


def test_invalid_value_is_french() -> None:
    usage_error(cli("roll", "1d6", "--seed", "abc"), "--seed", "« abc » n'est pas un nombre entier")
    usage_error(cli("roll", "1d6", "--seed", "1000000000"), "--seed", "trop long")
    usage_error(cli("roll", "1d6", "--seed", "-1"), "--seed",
                "hors limites (autorisé : de 0 à 999\u202f999\u202f999)")


def test_control_characters_never_echoed_raw() -> None:
    for args in (["roll", "1d6\x1b[2J"], ["\x1b[31mrol"], ["roll", "1d6", "--x\x1b"],
                 ["roll", "1d6", "--des", "\x1b"], ["check", "\x1b[2J.yaml", "a"]):
        run = cli(*args)
        assert run.code == 2
        assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", run.err + run.out), repr(run.err)
        assert "\\x1b" in run.err


# ------------------------------------------------------------------ ASCII numbers


@pytest.mark.parametrize("des", ["²", "①", "٣", "１", "𝟏", "3.0", "1e2", "+3", "99999999"])
def test_des_ascii_digits_only(des: str) -> None:
    usage_error(cli("roll", "1d6", "--des", des), "--des")


@pytest.mark.parametrize("expression", ["٣d٦", "１d２０", "𝟏d𝟔", "1d6+²", "1d①"])
def test_dice_notation_ascii_digits_only(expression: str) -> None:
    usage_error(cli("roll", expression), "caractère inattendu")


def test_kelvin_sign_is_not_keep() -> None:
    usage_error(cli("roll", "4d6\u212ah3", "--des", "1,2,3,4"))


@pytest.mark.parametrize("bonus", ["9" * 4300, "٣", "1_000", "0x10", " ", "--5"])
def test_bonus_ascii_and_bounded(sheets: tuple[Path, Path], bonus: str) -> None:
    nain, _ = sheets
    usage_error(cli("check", nain, "hache", "--bonus", bonus, "--des", "5"), "--bonus")


def test_d10_face_zero_is_ten(sheets: tuple[Path, Path]) -> None:
    """D-ALL.03: with --des, a d10 face entered as 0 is 10."""
    nain, _ = sheets
    assert ok("roll", "1d10", "--des", "0", "--json").json()["total"] == 10
    zero = ok("check", nain, "hache", "--seuil", "15", "--des", "0", "--json").json()
    ten = ok("check", nain, "hache", "--seuil", "15", "--des", "10", "--json").json()
    assert zero == ten and zero["dice"] == [10]
    usage_error(cli("roll", "1d6", "--des", "0"), "la face 0", "d6")
    usage_error(cli("roll", "1d20", "--des", "0"), "la face 0", "d20")


def test_long_and_odd_sheet_paths(tmp_path: Path) -> None:
    usage_error(cli("check", "é" * 200, "hache"), "trop long")
    usage_error(cli("check", tmp_path, "hache"), "dossier")
    usage_error(cli("check", "a\x00b", "hache"), "caractère nul")


# ------------------------------------------------------------------ one option, one token


def test_contre_does_not_eat_json(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    run = cli("check", nain, "hache", "--contre", elfe, "--json", "--des", "8,6")
    assert run.code == 0 and run.json()["type"] == "contest"


@pytest.mark.parametrize("option", ["--opt", "--contre", "--seuil", "--des", "--bonus", "--seed"])
def test_option_value_never_an_option(sheets: tuple[Path, Path], option: str) -> None:
    nain, _ = sheets
    err = usage_error(cli("check", nain, "hache", option, "--des", "12"), option)
    assert "--des" in err


def test_opt_value_refused_under_json(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    run = cli("check", nain, "hache", "--opt", "--json")
    assert run.code == 2 and "--opt" in run.json()["error"]


# ------------------------------------------------------------------ every click error, in French


def _param(command_name: str, name: str) -> Any:
    from jdr.cli.main import command

    cmd = command(command_name).commands[command_name]
    return next(p for p in cmd.params if p.name == name)


def test_usage_message_for_each_click_error() -> None:
    from typer._click import exceptions as cx

    from jdr.cli.french import usage_message

    seuil, fiche = _param("check", "seuil"), _param("check", "personnage")
    cases = [
        (cx.MissingParameter(param=fiche), "argument FICHE manquant"),
        (cx.MissingParameter(param=seuil, param_type="option"),
         "option --seuil obligatoire absente"),
        (cx.BadParameter("Input should be a valid integer", param=seuil),
         "valeur invalide pour --seuil : valeur refusée"),
        (cx.BadParameter("Value must be an iterable.", param=seuil),
         "valeur invalide pour --seuil : plusieurs valeurs attendues"),
        (cx.NoSuchOption("--seul", possibilities=["--seuil"]),
         "option inconnue : --seul ; vouliez-vous dire --seuil ?"),
        (cx.BadOptionUsage("--contre", "Option '--contre' requires 2 arguments."),
         "l'option --contre attend 2 valeurs"),
        (cx.BadArgumentUsage("Argument 'fiches' takes 2 values."), "l'argument FICHES attend 2 valeurs"),
        (cx.UsageError("Missing command."), "commande manquante"),
        (cx.UsageError("No such command 'rol'. Did you mean 'roll', 'odds'?"),
         "commande inconnue : « rol » ; vouliez-vous dire roll, odds ?"),
        (cx.UsageError("Got unexpected extra arguments (a b)"), "argument(s) en trop : a b"),
        (cx.UsageError("Something new in a later typer."), "commande mal formée"),
    ]
    for exc, french in cases:
        assert usage_message(exc) == french, (exc, usage_message(exc))
    assert usage_message(ValueError("x")) is None
