"""The action commands are derived from the declarations (`jdr.core.declare.ACTIONS`): every
declared parameter of every engine action is an argument or option of its command, with its
declared name, metavar and help; the common options follow the declaration (rolls, journaled,
who); a parameter added to a declaration becomes an option with no line of `cli/` changed."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
import typer

from helpers import cli, ok
from jdr.cli import derive
from jdr.cli.main import _shapes, command
from jdr.core.declare import ACTIONS, ENGINE_KINDS, Param

SHAPES = {s.kind: s for s in _shapes()}
COMMON_OPTIONS = {"des": "--des", "seed": "--seed", "dry_run": "--dry-run", "mj": "--mj",
                  "campagne": "--campagne", "as_json": "--json", "fmt": "--format",
                  "detail": "--detail"}


def _click(shape: derive.Shape) -> Any:
    """The click command `jdr` builds for a shape (as `jdr NAME` or `jdr GROUP NAME`)."""
    if shape.group:
        return command(shape.group).commands[shape.group].commands[shape.name]
    return command(shape.name).commands[shape.name]


def _played_by(kind: str) -> derive.Shape:
    """The command that plays an action: its own, or the one whose `--chances` gives its odds."""
    if kind in SHAPES:
        return SHAPES[kind]
    return next(s for s in SHAPES.values() if s.odds_flag and ACTIONS[s.kind].odds == kind)


@pytest.mark.parametrize("kind", ENGINE_KINDS)
def test_every_declared_parameter_is_on_the_command_line(kind: str) -> None:
    shape = _played_by(kind)
    click = _click(shape)
    params = {p.name: p for p in click.params}
    shown = {p.name: p for p in shape.action().params}  # with the command line's own changes
    for declared in ACTIONS[kind].params:
        p = params[declared.name]
        assert (p.param_type_name == "argument") == declared.positional, declared.name
        if declared.positional:
            assert p.metavar == shown[declared.name].cli
            assert p.required == shown[declared.name].required
        else:
            assert p.opts == [declared.cli]
            assert p.is_flag == (declared.kind == "flag")
        assert p.multiple or p.nargs == -1 or declared.kind not in ("characters", "options")
        assert declared.help[1:] in p.help and p.help == derive.param_help(shown[declared.name])
    if ACTIONS[kind].odds and shape.odds_flag:
        assert "chances" in params and params["chances"].is_flag


@pytest.mark.parametrize("kind", list(SHAPES))
def test_common_options_follow_the_declaration(kind: str) -> None:
    action = ACTIONS[kind]
    options = {p.name for p in _click(SHAPES[kind]).params} & set(COMMON_OPTIONS)
    assert ({"des", "seed"} <= options) == action.rolls
    assert ("dry_run" in options) == action.journaled
    assert "mj" not in options or (action.who == "joueur" and action.journaled)
    assert {"campagne", "as_json", "fmt", "detail"} <= options


def test_help_reads_the_declaration() -> None:
    check = re.sub(r"[ \n]+", " ", ok("test", "--help").out)  # the narrow spaces kept
    assert "Seuil : un nombre ou un nom de l'échelle (facile, difficile…)." in check
    assert "--bonus N Bonus (ou malus si négatif) du MJ, de -1\u202f000 à 1\u202f000." in check
    assert "--seed GRAINE Graine (entier de 0 à 999\u202f999\u202f999)" in check
    assert "--contre FICHE[:COMPETENCE]" in check and "--opt CLE=VALEUR" in check
    attack = " ".join(ok("attaque", "--help").out.split())
    assert "ATTAQUANT <texte> Fiche ou nom de l'attaquant." in attack
    assert "--chances Chances exactes, sans rien lancer." in attack
    duel = " ".join(ok("duel", "--help").out.split())
    assert "Personnages : le provocateur puis le provoqué (2 exactement)." in duel
    assert "Duel : le provocateur contre le provoqué." in duel


def test_a_new_declared_parameter_is_a_new_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system-neutral parameter added to a copy of `check`'s declaration: `jdr test` gains
    `--souffle N` with its help and range, and a flag `--fatigue`, built by `cli/` unchanged."""
    souffle = Param("souffle", "int", "Souffle", "ce qui reste au personnage", cli="--souffle",
                    lo=0, hi=9)
    fatigue = Param("fatigue", "flag", "Fatigue", "le personnage est fatigué", cli="--fatigue")
    check = ACTIONS["check"]
    monkeypatch.setitem(ACTIONS, "check", check._replace(params=(*check.params, souffle, fatigue)))
    app = typer.Typer()
    derive.register({"": app}, (derive.Shape("test", "check"),))
    built = typer.main.get_command(app)
    params = {p.name: p for p in built.params}
    assert params["souffle"].opts == ["--souffle"] and params["souffle"].metavar == "N"
    assert params["souffle"].help == "Souffle : ce qui reste au personnage, de 0 à 9."
    assert params["fatigue"].is_flag and params["fatigue"].help == "Fatigue : le personnage est fatigué."
    assert list(params).index("souffle") < list(params).index("des")  # declared, then common
    assert "souffle" not in {p.name for p in command("test").commands["test"].params}


def test_attack_odds_from_the_command_line(tmp_path: Any) -> None:
    """`jdr attaque A B --chances` plays `attack_odds`: nothing rolled, nothing written."""
    from sheets_data import ELFE_YAML, NAIN_YAML

    (tmp_path / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    (tmp_path / "elfe.yaml").write_text(ELFE_YAML, encoding="utf-8")
    before = (tmp_path / "elfe.yaml").read_text(encoding="utf-8")
    run = ok("attaque", tmp_path / "nain.yaml", tmp_path / "elfe.yaml", "--chances", "--json")
    odds = run.json()
    assert odds["type"] == "odds" and 0 < odds["success"] < 1
    assert (tmp_path / "elfe.yaml").read_text(encoding="utf-8") == before


def test_duel_takes_exactly_two() -> None:
    run = cli("duel", "a.yaml", "b.yaml", "c.yaml")
    assert run.code == 2 and "2 personnages exactement" in run.err, run.err


def test_start_up_imports_no_pydantic_sqlalchemy_or_system() -> None:
    """`jdr lancer` and `jdr test --help` build their command from the declarations without
    pydantic, SQLAlchemy or a system."""
    code = ("import sys; from jdr.cli.main import main; main(['lancer', '1d6', '--seed', '1']); "
            "main(['test', '--help']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'sqlalchemy')"
            " or m.startswith('jdr.systems')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[-1] == "[]", run.stdout
