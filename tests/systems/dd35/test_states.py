"""dd35 states (D-ALL.02): who cannot act is refused everywhere, results say the state, the
encounter table's hooks, and a surprised defender's defence (A002.21)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from helpers import cli
from jdr.core.actions import commit, execute
from jdr.core.results import AttackReport, Health
from jdr.core.sheet import SheetDocument
from jdr.core.usecase import FileWorkspace, load
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.render.json import to_json
from jdr.systems.dd35 import SYSTEM
from jdr.systems.dd35.demo import document

SWORD = {"nom": "Épée longue", "degats": "1d8", "zone_critique": 19, "multiplicateur": 2}
CLUB = {"nom": "Massue", "degats": "2d8"}

# The issue's ogre: hors de combat at −1 HP, it dealt 19 damage with its club.
OGRE = {"nom": "Ogre", "classes": {"barbare": 4}, "abilities": {"force": 21},
        "pv": {"max": 30, "actuels": -1}, "armes": [CLUB]}


@pytest.fixture
def ogre(tmp_path: Path) -> Path:
    return Path(document(tmp_path, "ogre", **OGRE).path)


@pytest.fixture
def hero(tmp_path: Path) -> Path:
    return Path(document(tmp_path, "hero", nom="Héros", pv={"max": 40, "actuels": 40},
                         armes=[SWORD]).path)


def _run(kind: str, params: Mapping[str, object], *faces: int) -> object:
    done = execute(FileWorkspace(), kind, params, FixedSource(faces))
    commit(FileWorkspace(), done)
    return done.result


def test_D_ALL_02_ogre_below_0_hp_deals_no_damage(ogre: Path, hero: Path) -> None:
    before = hero.read_text(encoding="utf-8")
    with pytest.raises(RuleError, match=r"^Ogre ne peut pas agir : hors de combat \(-1 PV : 0 ou "
                                        r"moins\) \(D-ALL\.02\)$"):
        _run("attack", {"attaquant": str(ogre), "defenseur": str(hero)}, 20, 8, 8, 8, 8)
    for kind, params in (
        ("check", {"personnage": str(ogre), "competence": "massue", "seuil": "10"}),
        ("check", {"personnage": str(ogre), "competence": "embuscade", "seuil": "10"}),
        ("regle", {"nom": "manoeuvre", "personnages": [str(ogre), str(hero)],
                   "opt": {"sauvegarde": "reflexes", "nd": "15"}}),
        ("regle", {"nom": "attendre", "personnages": [str(ogre)]}),
        ("regle", {"nom": "surprise", "personnages": [str(ogre), str(hero)]}),
    ):
        with pytest.raises(RuleError, match="hors de combat"):
            _run(kind, params, 10, 10)
    assert hero.read_text(encoding="utf-8") == before


def test_D_ALL_02_refused_through_the_cli(ogre: Path, hero: Path) -> None:
    before = hero.read_text(encoding="utf-8")
    for args in (("attack", ogre, hero, "--des", "20,8,8,8,8"),
                 ("attack", ogre, hero, "--opt", "manoeuvre=croc", "--opt", "sauvegarde=reflexes",
                  "--des", "3"),
                 ("check", ogre, "massue", "--seuil", "10", "--des", "15")):
        run = cli(*args)
        assert run.code == 2 and run.out == ""
        assert run.err.strip().splitlines() == [
            "Erreur : Ogre ne peut pas agir : hors de combat (-1 PV : 0 ou moins) (D-ALL.02)"]
    assert hero.read_text(encoding="utf-8") == before


def test_D_ALL_02_the_system_refuses_too_when_called_directly(tmp_path: Path) -> None:
    """Without the core in front (a library call), the rules still refuse."""
    from jdr.core.system import AttackRequest
    from jdr.core.usecase import options

    ogre, hero = document(tmp_path, "o", **OGRE), document(tmp_path, "h", armes=[SWORD])
    request = AttackRequest(load(SYSTEM, ogre), load(SYSTEM, hero),
                            options=options(SYSTEM, "attack", {}))
    with pytest.raises(RuleError, match="hors de combat"):
        SYSTEM.attack(request, FixedSource([20, 8, 8]))


def test_D_ALL_02_hooks(tmp_path: Path) -> None:
    down = load(SYSTEM, document(tmp_path, "o", **OGRE))
    up = load(SYSTEM, document(tmp_path, "h", classes={"guerrier": 3}))   # HP computed: 26
    assert (SYSTEM.state(down), SYSTEM.state(up)) == ("hors_de_combat", "debout")
    why = SYSTEM.incapacity(down)
    assert why is not None and why.rule == "D-ALL.02" and SYSTEM.incapacity(up) is None
    assert SYSTEM.health(down) == Health("pv", -1, -1, 30)
    assert SYSTEM.health(up) == Health("pv", 26, 26, 26)
    assert SYSTEM.conditions(up) == ()
    flagged = load(SYSTEM, document(tmp_path, "f", etat={"surpris": True, "attend": True}))
    assert SYSTEM.conditions(flagged) == ("au dépourvu (surprise)",
                                          "attend (n'agit pas ce round)")


def test_D_ALL_02_saves_and_passive_values_stay_with_the_system(tmp_path: Path) -> None:
    """The system lets a character hors de combat roll a save (a reaction) and keeps its
    Passive Perception; the core's `incapacity` cannot tell them apart (see the report)."""
    from jdr.core.system import CheckRequest
    from jdr.core.usecase import options

    down = load(SYSTEM, document(tmp_path, "o", **OGRE))
    for skill in ("vigueur", "perception_passive"):
        request = CheckRequest(down, skill, threshold="5", options=options(SYSTEM, "check", {}))
        assert SYSTEM.check(request, FixedSource([10])).result is not None


def test_knock_out_reported_and_then_refused(tmp_path: Path, hero: Path) -> None:
    foe = Path(document(tmp_path, "foe", nom="Gobelin", pv={"max": 8, "actuels": 5},
                        armes=[SWORD]).path)
    result = _run("attack", {"attaquant": str(hero), "defenseur": str(foe)}, 15, 6)
    assert isinstance(result, AttackReport)
    assert result.state is not None
    assert (result.state.before, result.state.after) == ("debout", "hors_de_combat")
    assert load(SYSTEM, SheetDocument.load(foe)).model.pv.actuels == -1
    with pytest.raises(RuleError, match="Gobelin ne peut pas agir"):
        _run("attack", {"attaquant": str(foe), "defenseur": str(hero)}, 20, 8, 8)


# ------------------------------------------------------------------ surprised defender


def test_A002_21_surprised_defender_is_flat_footed(tmp_path: Path) -> None:
    a = Path(document(tmp_path, "a", nom="A", armes=[SWORD]).path)   # +1 to hit
    d = Path(document(tmp_path, "d", nom="D", abilities={"dexterite": 18},   # AC 14, flat 10
                      etat={"surpris": True}).path)
    hit = _run("attack", {"attaquant": str(a), "defenseur": str(d)}, 9, 3)
    assert isinstance(hit, AttackReport) and hit.hit
    assert any(n.rule == "A002.21" and "CA 10" in n.text for n in hit.notes)
    check = _run("check", {"personnage": str(a), "competence": "épée longue", "contre": str(d)}, 9)
    assert to_json(check)["threshold"] == 10
    miss = _run("attack", {"attaquant": str(a), "defenseur": str(d),
                           "opt": {"depourvu": "non"}}, 9)
    assert isinstance(miss, AttackReport) and not miss.hit
