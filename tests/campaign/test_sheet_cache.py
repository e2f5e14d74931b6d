"""Sheets read once: within a transaction each sheet is one handle (its YAML parsed only if the
document is used), and across transactions the kept model and tree are those of the exact
text: a change committed by another handle, or rolled back, is never served stale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jdr.campaign.sheets import DOCS, MODELS
from jdr.campaign.store import Campaign
from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.core.usecase import apply_changes
from sheets_data import ELFE_YAML, NAIN_YAML


class Boom(Exception):
    pass


def _campaign(db_target: str) -> Campaign:
    campaign = Campaign.create(db_target, "Cache", "cydonia")
    with campaign.transaction() as tx:
        for text in (NAIN_YAML, ELFE_YAML):
            tx.add(SheetDocument.from_text(text, Path("fiche.yaml")))
    return campaign


def _hit(campaign: Campaign, name: str, pv: int) -> None:
    with campaign.transaction() as tx:
        system, (sheet,) = tx.load([name])
        change = SheetChange(sheet.doc, ("pv",), pv, pool=True)
        docs, _ = apply_changes(system, [change])
        tx.save(list(docs))


def test_one_handle_per_sheet_and_no_parse_to_read(db_target: str) -> None:
    campaign = _campaign(db_target)
    MODELS.clear()
    DOCS.clear()
    with campaign.reading() as tx:
        _, first = tx.load(["Nain A", "elfe b"])
        _, again = tx.load(["nain a"])
        assert again[0] is first[0]  # one handle per sheet in a transaction
        assert [s.name for s in first] == ["Nain A", "Elfe B"]
        assert DOCS.misses == 2  # cold: each text parsed once, to validate it ...
        assert not any(s.doc.parsed for s in first)  # type: ignore[attr-defined]  # ... not copied
        assert first[0].doc.plain()["pv"]["actuels"] == 30 and DOCS.misses == 2  # kept tree
        assert first[0].doc.data["nom"] == "Nain A"  # a document to change: a copy of that tree,
        assert first[0].doc.parsed and DOCS.misses == 2  # type: ignore[attr-defined]  # not parsed
        kept = DOCS.get("yaml", first[0].doc.text)  # type: ignore[attr-defined]
        assert kept is not None and first[0].doc.data is not kept[0]  # the kept tree never handed out
    with campaign.reading() as tx:  # another action: the models are kept, nothing is parsed
        hits = MODELS.hits
        _, later = tx.load(["Nain A", "Elfe B"])
        assert MODELS.hits == hits + 2
        assert later[0].model.pv.actuels == 30 and not later[0].doc.parsed  # type: ignore[attr-defined]
    campaign.dispose()


def test_a_change_is_seen_and_a_rollback_is_not(db_target: str) -> None:
    campaign = _campaign(db_target)
    with campaign.reading() as tx:
        assert tx.load(["Nain A"])[1][0].model.pv.actuels == 30
    _hit(campaign, "Nain A", 21)
    with campaign.reading() as tx:
        sheet = tx.load(["Nain A"])[1][0]
        assert sheet.model.pv.actuels == 21
        assert sheet.doc.plain()["pv"]["actuels"] == 21
    with pytest.raises(Boom), campaign.transaction() as tx:
        system, (sheet,) = tx.load(["Nain A"])
        docs, _ = apply_changes(system, [SheetChange(sheet.doc, ("pv",), 5, pool=True)])
        tx.save(list(docs))
        assert tx.load(["Nain A"])[1][0].model.pv.actuels == 5  # this transaction sees it
        raise Boom
    with campaign.reading() as tx:  # rolled back: neither the model nor the tree is 5
        sheet = tx.load(["Nain A"])[1][0]
        assert sheet.model.pv.actuels == 21
        assert sheet.doc.plain()["pv"]["actuels"] == 21
        assert "# le nain de l'exemple" in sheet.doc.dump()  # the person's comments kept
    campaign.dispose()


ODD = """\
# en-tête
systeme: cydonia   # le système
nom: "Brunhilde"
base: &base {physique: 7, agilite: 4}
copie: *base
armes:
  - {nom: Hache, degats: "PHY+3+1d10"}   # la préférée
  - nom: Arc
    notes: |
      une ligne
      deux lignes
liste: [1, 2, 3]
date: 2026-12-02
reel: 1.50
hexa: 0x1F
ens: !!set {a, b}
ordre: !!omap [{a: 1}, {b: 2}]
"""


def _trees() -> list[Any]:
    from jdr.core.registry import available, get_system

    texts = [NAIN_YAML, ELFE_YAML, ODD] + [get_system(name).template() for name in available()]
    return [SheetDocument.from_text(text, Path("fiche.yaml")).data for text in texts]


def _dump(tree: Any) -> str:
    import io

    from jdr.core.sheet import _yaml

    stream = io.StringIO()
    _yaml().dump(tree, stream)
    return stream.getvalue()


def test_the_tree_copy_is_a_deep_copy() -> None:
    """`copy_tree` makes what `copy.deepcopy` makes: the same text written out, the same
    values, aliases still one object, and nothing of the original changed through the copy."""
    import copy

    from ruamel.yaml.comments import Anchor, Comment, Format, LineCol, Tag, merge_attrib

    from jdr.campaign.sheets import _ATTRIBUTES, copy_tree
    from jdr.core.sheet import to_plain

    assert set(_ATTRIBUTES) == {Comment.attrib, Format.attrib, LineCol.attrib, Anchor.attrib,
                                Tag.attrib, merge_attrib}  # ruamel's names, as they are today
    for tree in _trees():
        before = _dump(tree)
        copied = copy_tree(tree)
        assert _dump(copied) == _dump(copy.deepcopy(tree)) == before
        assert to_plain(copied) == to_plain(tree)
        copied["nom"] = "Autre"
        copied.setdefault("armes", []).append({"nom": "Dague"})
        copied.yaml_add_eol_comment("changé", "nom")
        for value in copied.values():
            if hasattr(value, "fa"):
                value.fa.set_block_style()  # a flow table of the copy written in blocks
        _dump(copied)  # writing a copy out touches its own comments only
        assert _dump(tree) == before
    odd = copy_tree(_trees()[2])
    assert odd["base"] is odd["copie"]
    assert type(odd["ordre"]).__name__ == "CommentedOrderedMap"


def test_an_action_leaves_older_objects_out_of_the_collectors_scans(db_target: str) -> None:
    """Within a transaction (writing or reading), what the process held before it is frozen
    (`jdr.core.heap`), and given back afterwards (issue 18: no full collection over every
    object of the process in the middle of an action on 1,000 combatants)."""
    import gc

    campaign = _campaign(db_target)
    gc.unfreeze()
    for block in (campaign.transaction, campaign.reading):
        with block() as tx:
            assert gc.get_freeze_count() > 0
            tx.load(["Nain A"])
        assert gc.get_freeze_count() == 0
    campaign.dispose()
