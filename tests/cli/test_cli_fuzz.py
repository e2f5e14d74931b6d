"""The whole CLI, in process, with random arguments: whatever a person types, the answer is a
result (exit 0) or French error lines (exit 2), never a traceback, and no control character we
did not write reaches the terminal.

Most examples are well-formed commands (real command names, their own options, typed values,
the test sheets) so that they reach the rules; one in ten is pure noise, and any example may
get a stray token anywhere. Bounded and derandomized: CI sees the same 300 examples each run.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import cli
from jdr.cli.french import commands
from jdr.cli.main import command
from jdr.core.registry import available, get_system
from sheets_data import ELFE_YAML, NAIN_YAML

ROOT = command()


def _leaves(group: Any, prefix: list[str]) -> dict[tuple[str, ...], Any]:
    out: dict[tuple[str, ...], Any] = {}
    for name, sub in group.commands.items():
        if hasattr(sub, "commands"):
            out.update(_leaves(sub, [*prefix, name]))
        else:
            out[(*prefix, name)] = sub
    return out


LEAVES = _leaves(ROOT, [])
SYSTEM_IDS = available()
GOOD = 3 + len(SYSTEM_IDS)
# `jdr serve` runs until it is stopped: the server has its own tests (tests/web).
COMMANDS = sorted(k for k in LEAVES if k not in {("serve",), ("servir",)})  # `servir` (alias `serve`)
OPTIONS = sorted({o for c in commands(ROOT) for p in c.params for o in p.opts if o.startswith("-")}
                 | {"--help", "--version", "--x", "-z", "--opt=", "--"})

# Lines a command may write on stderr besides `Erreur : ...`: the problems `sheet check` lists.
KNOWN_STDERR = [re.compile(r"^  - "), re.compile(r"^.* : \d+ problème\(s\)$")]
RAW_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

SKILLS = ["hache", "esquive", "lame", "negociation", "Hache", "physique", "résistance", "pv"]
NUMBERS = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.integers(-10**30, 10**30).map(str),
    st.sampled_from(["9" * 4300, "٣", "²", "①", "１", "𝟏", "0", "-0", "+3", "1e3", "0x10", "1_0", ""]),
)
GOOD_DICE = st.sampled_from(["1d20", "2d10kh1+6", "4d6kh3", "1d6!", "3d6rr1", "1d20+5>=15", "d%", "1d10"])
DICE = st.one_of(GOOD_DICE, GOOD_DICE, st.sampled_from(
    ["٣d٦", "１d２０", "𝟏d𝟔", "1001d6", "(" * 60 + "1" + ")" * 60, "1d0", "PHY+1", "1d6\x1b[2J"]))
FACES = st.one_of(st.lists(st.integers(0, 21), max_size=6).map(lambda f: ",".join(map(str, f))),
                  st.sampled_from(["²", "①", "٣", "8,6,10,6", "0", "a", " ", "8;6", "99999999"]))
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
CONTROL = st.sampled_from(["\x1b[2J", "a\nb", "\r", "\x00", "\u202e", "\x9b31m", "\t", "\x7f"])
SYSTEMS = st.sampled_from(["cydonia", "maitrise", "dd35", "cyd", "felins", "pathfinder", "CYDONIA"])
OPT = st.one_of(st.sampled_from(["surprise=oui", "x=1", "depouvru=oui", "oui", "=", "a=b=c"]),
                st.tuples(TEXT, TEXT).map("=".join))
SEUIL = st.one_of(st.sampled_from(["facile", "difficile", "moyen", "très difficile", "15", "٣"]), NUMBERS)


def _noise(paths: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(paths), st.sampled_from(SKILLS), NUMBERS, DICE, FACES, TEXT, CONTROL, SYSTEMS,
        st.sampled_from(["--json", "--des", "texte", "forum", "json"]),
    )


def _sheet(paths: list[str]) -> st.SearchStrategy[str]:
    """A good sheet four times in five (the first paths: every system), else any path."""
    good = st.sampled_from(paths[:GOOD])
    return st.one_of(good, good, good, good, st.sampled_from(paths))


def _positionals(path: tuple[str, ...], paths: list[str]) -> st.SearchStrategy[list[str]]:
    sheet = _sheet(paths)
    skill = st.sampled_from(SKILLS)
    one_sheet = st.lists(sheet, min_size=1, max_size=1)
    pairs = [["nain.yaml", "elfe.yaml"], ["elfe.yaml", "nain.yaml"]]
    pairs += [[f"{s}.yaml", f"{s}-2.yaml"] for s in SYSTEM_IDS]
    pair = st.one_of(st.sampled_from(pairs), st.tuples(sheet, sheet).map(list))
    purchase = st.sampled_from([["--competence", "hache"], ["--carac", "physique"], ["--pv"], []])
    table: dict[tuple[str, ...], st.SearchStrategy[list[str]]] = {
        ("roll",): st.lists(st.one_of(DICE, DICE, TEXT), min_size=1, max_size=1),
        ("check",): st.tuples(sheet, skill).map(list), ("odds",): st.tuples(sheet, skill).map(list),
        ("attack",): pair, ("duel",): pair,
        ("xp",): st.tuples(one_sheet, purchase).map(lambda t: t[0] + t[1]),
        ("initiative",): st.lists(sheet, min_size=1, max_size=3),
        ("session", "new"): st.lists(sheet, min_size=1, max_size=2),
        ("sheet", "show"): one_sheet, ("sheet", "check"): one_sheet,
        ("aide",): st.lists(SYSTEMS, min_size=1, max_size=1), ("demo",): st.lists(SYSTEMS, max_size=1),
        ("sheet", "new"): st.lists(SYSTEMS, min_size=1, max_size=1),
    }
    return table.get(path, st.just([]))


def _option_value(option: str, paths: list[str]) -> st.SearchStrategy[str]:
    values: dict[str, st.SearchStrategy[str]] = {
        "--des": FACES, "--seed": NUMBERS, "--bonus": NUMBERS, "--choix": NUMBERS, "--seuil": SEUIL,
        "--contre": st.one_of(_sheet(paths), st.just("elfe.yaml:esquive")), "--opt": OPT,
        "--format": st.sampled_from(["texte", "forum", "json", "x"]),
        "--carac": st.sampled_from(SKILLS), "--competence": st.sampled_from(SKILLS),
        "--de": st.sampled_from(["d10", "d20", "d6", "x"]),
        "--sortie": st.sampled_from(["neuve.yaml", *paths]),
        "--defense": st.sampled_from(["esquive", "parade", "bouclier", "x"]),
    }
    return values.get(option, TEXT)


def _is_flag(command: Any, option: str) -> bool:
    return any(option in p.opts and getattr(p, "is_flag", False) for p in command.params)


@st.composite
def argv(draw: Any, paths: list[str]) -> list[str]:
    noise = _noise(paths)
    if draw(st.integers(0, 9)) == 0:
        return list(draw(st.lists(noise, max_size=4)))
    path = draw(st.sampled_from(COMMANDS))
    args = [*path, *draw(_positionals(path, paths))]
    own = sorted(o for p in LEAVES[path].params for o in p.opts if o.startswith("--"))
    for _ in range(draw(st.integers(0, 3))):
        use_own = bool(own) and draw(st.integers(0, 9)) > 0
        option = draw(st.sampled_from(own if use_own else OPTIONS))
        args.append(option)
        if not _is_flag(LEAVES[path], option) or draw(st.integers(0, 9)) == 0:
            typed = draw(st.integers(0, 9)) > 0
            args.append(draw(_option_value(option, paths) if typed else noise))
    if draw(st.integers(0, 9)) == 0:
        args.insert(draw(st.integers(0, len(args))), draw(noise))
    return args


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("table")


def _reset(folder: Path) -> list[str]:
    """Fresh sheets for each example (commands may write them), and paths to try."""
    for child in folder.iterdir():
        if child.is_file():
            child.unlink()
    (folder / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    (folder / "elfe.yaml").write_text(ELFE_YAML, encoding="utf-8")
    (folder / "liste.yaml").write_text("- 1\n", encoding="utf-8")
    for system in SYSTEM_IDS:  # one valid sheet per system: its template
        template = get_system(system).template()
        (folder / f"{system}.yaml").write_text(template, encoding="utf-8")
        (folder / f"{system}-2.yaml").write_text(template.replace("nom:", "nom: B #", 1), encoding="utf-8")
    good = ["nain.yaml", "elfe.yaml", str(folder / "nain.yaml"), *(f"{s}.yaml" for s in SYSTEM_IDS)]
    assert len(good) == GOOD
    return [*good, "elfe.yaml:esquive", "liste.yaml", "absent.yaml", ".", "x" * 300, "nain.yaml:"]


def check_run(args: list[str], code: int, out: str, err: str) -> None:
    assert code in (0, 2), (args, code, out, err)
    for line in err.splitlines():
        assert line.startswith("Erreur : ") or any(p.match(line) for p in KNOWN_STDERR), (args, err)
    assert code == 0 or err or out.startswith('{"error": '), (args, code, out, err)
    assert not RAW_CONTROL.search(out), (args, out)
    assert not RAW_CONTROL.search(err), (args, err)
    assert "Traceback" not in out + err


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_random_arguments(table: Path, data: st.DataObject) -> None:
    paths = _reset(table)
    args = data.draw(argv(paths), label="argv")
    with contextlib.chdir(table):
        run = cli(*args)
    check_run(args, run.code, run.out, run.err)
