"""Commands on sheet files import only what they use (issue 18): never the campaign layer
(`jdr.campaign`, SQLAlchemy, Alembic), never numpy, rich nor another system than the sheet's, nor
`importlib.metadata` (pydantic's plugin search: `jdr.core.sheet`), nor `json` without `--json`;
not even the exact odds engine (icepool) for the odds of a check or an attack, whose dice count
their own law. Each command runs in a fresh interpreter, in a folder without campaign, and lists
what it imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sheets_data import ELFE_YAML, NAIN_YAML

NEVER = ("sqlalchemy", "alembic", "mako", "numpy", "psycopg", "rich", "jdr.campaign", "jdr.web", "jdr.sim",
         "json", "importlib.metadata", "jdr.systems.maitrise", "jdr.systems.dd35", "jdr.systems.cyd.",
         "jdr.systems.felins")

FILE_COMMANDS = {
    "lancer": ["lancer", "1d20", "--seed", "1"],
    "test": ["test", "nain.yaml", "hache", "--seuil", "15", "--seed", "1"],
    "chances": ["chances", "nain.yaml", "hache", "--seuil", "15"],
    "attaque": ["attaque", "nain.yaml", "elfe.yaml", "--dry-run", "--seed", "1"],
    "attaque --chances": ["attaque", "nain.yaml", "elfe.yaml", "--chances"],
    "initiative": ["initiative", "nain.yaml", "elfe.yaml", "--seed", "1"],
    "xp": ["xp", "nain.yaml", "--competence", "esquive", "--dry-run"],
    "sante": ["sante", "nain.yaml", "25", "--dry-run"],
    "fiche verifier": ["fiche", "verifier", "nain.yaml"],
    "fiche voir": ["fiche", "voir", "nain.yaml"],
    "fiche nouvelle": ["fiche", "nouvelle", "cydonia"],
}

PROBE = """\
import sys
from jdr.cli.main import main
code = main(sys.argv[1:])
modules = sorted(sys.modules)  # before the probe's own json
import json
print(json.dumps({"code": code, "modules": modules}))
"""


def _imported(folder: Path, args: list[str]) -> tuple[int, list[str]]:
    run = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=folder, capture_output=True,
                         text=True, check=False)
    last = json.loads(run.stdout.splitlines()[-1])
    return int(last["code"]), list(last["modules"])


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("fichiers")
    (here / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    (here / "elfe.yaml").write_text(ELFE_YAML, encoding="utf-8")
    return here


@pytest.mark.parametrize("name", FILE_COMMANDS)
def test_file_command_imports_no_campaign(folder: Path, name: str) -> None:
    code, modules = _imported(folder, FILE_COMMANDS[name])
    assert code == 0, name
    assert "jdr.cli.main" in modules  # the probe sees what the command imported
    found = [m for m in modules if any(m == n.rstrip(".") or m.startswith(n if n.endswith(".")
                                                                          else n + ".") for n in NEVER)]
    assert found == [], f"{name} : {found}"
    assert "icepool" not in modules, name  # Cydonia's dice count their own law (core.check)


def test_probe_sees_the_campaign_layer(folder: Path, tmp_path: Path) -> None:
    """The same probe, in a folder with a campaign, does see `jdr.campaign` (the test above can
    fail)."""
    (tmp_path / "nain.yaml").write_text(NAIN_YAML, encoding="utf-8")
    code, _ = _imported(tmp_path, ["campagne", "new", "Banc", "--systeme", "cydonia"])
    assert code == 0
    code, modules = _imported(tmp_path, ["lancer", "1d20", "--seed", "1"])
    assert code == 0 and "jdr.campaign.workspace" in modules


# Commands that roll no free notation: the notation's parser (`jdr.dice.notation`, `scanner`,
# `tree`) stays out, its die (`jdr.dice.modifiers.Die`) is enough.
NO_NOTATION = ("test", "chances", "fiche verifier", "fiche voir")


@pytest.mark.parametrize("name", NO_NOTATION)
def test_check_without_the_notation_parser(folder: Path, name: str) -> None:
    code, modules = _imported(folder, FILE_COMMANDS[name])
    assert code == 0, name
    assert "jdr.dice.modifiers" in modules  # the probe sees the dice (the test can fail)
    assert [m for m in modules if m in ("jdr.dice.notation", "jdr.dice.scanner", "jdr.dice.tree")] == [], name


def test_free_notation_still_parsed(folder: Path) -> None:
    """The other side: a roll of free notation does load the parser."""
    code, modules = _imported(folder, FILE_COMMANDS["lancer"])
    assert code == 0 and "jdr.dice.notation" in modules


def test_dice_package_names_on_first_use() -> None:
    """`from jdr.dice import roll` still works, once the parser is wanted (`jdr.dice.__getattr__`)."""
    run = subprocess.run([sys.executable, "-c", (
        "import sys, jdr.dice\n"
        "before = 'jdr.dice.notation' in sys.modules\n"
        "from jdr.dice import FixedSource, roll\n"
        "print(before, roll('2d6', FixedSource([3, 4])).total, 'jdr.dice.notation' in sys.modules)")],
        capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "7", "True"]
