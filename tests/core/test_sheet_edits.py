"""A change that only replaces whole numbers is written by rewriting those numbers in the text
the sheet was read from (`jdr.core.edits.Edits`); anything else writes the whole tree out. Either
way the text written reads back as exactly the tree in memory."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdr.campaign.journal import _delete
from jdr.core.sheet import SheetDocument, _yaml, to_plain

SHEET = """systeme: cydonia   # la fiche de Brunhilde
nom: Brunhilde
caracteristiques: {physique: 7, agilite: 4, dexterite: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}
pv: {max: 30, actuels: 30}    # blessée au chapitre 2
xp:   12
competences:
    hache: 6     # sa préférée
    esquive: 2
"""


def full_dump(doc: SheetDocument) -> str:
    stream = io.StringIO()
    _yaml().dump(doc.data, stream)
    return stream.getvalue()


def reread(text: str) -> Any:
    return to_plain(_yaml().load(text))


def doc_of(text: str) -> SheetDocument:
    return SheetDocument.from_text(text, Path("fiche.yaml"))


def test_hit_points_and_xp_are_rewritten_in_place_layout_and_comments_kept() -> None:
    doc = doc_of(SHEET)
    doc.set_pool("PV", 21)
    doc.set(("xp",), 7)
    doc.set(("compétences", "hache"), 7)
    expected = (SHEET.replace("actuels: 30}", "actuels: 21}").replace("xp:   12", "xp:   7")
                .replace("hache: 6 ", "hache: 7 "))
    assert doc.dump() == expected
    assert full_dump(doc) != expected  # the whole tree written out would have moved things
    assert reread(doc.dump()) == to_plain(doc.data)


def test_a_number_changed_twice_is_written_once_with_its_last_value() -> None:
    doc = doc_of(SHEET)
    doc.set_pool("pv", 25)
    doc.set_pool("pv", 1000)
    assert doc.dump() == SHEET.replace("actuels: 30}", "actuels: 1000}")


@pytest.mark.parametrize(("text", "change"), [
    ("nom: A\npv: +30\n", ("pv",)),  # a sign: not written as str(30)
    ("nom: A\npv: 0x1E\n", ("pv",)),  # hexadecimal
    ("nom: A\npv: 3_0\n", ("pv",)),  # separators
    ("nom: A\npv: {actuels: 30, max: 30}\n", ("pv", "actuels")),  # something follows on the line
    ("nom: A\npv: 30#x\n", ("pv",)),  # a string, not a number and a comment
    ("nom: A\r\npv: 30\r\n", ("pv",)),  # other line breaks
    ("\ufeffnom: A\npv: 30\n", ("pv",)),  # a byte order mark shifts the first line
    ("nom: A\npv: 30\n", ("pv", "max")),  # a new table
    ("nom: A\n", ("pv",)),  # a new key
    ("nom: A\npv: '30'\n", ("pv",)),  # a quoted string
])
def test_anything_else_writes_the_whole_tree(text: str, change: tuple[str, ...]) -> None:
    text = text.replace("nom: A", "nom:    A")  # the whole tree written out reads « nom: A »
    doc = doc_of(text)
    doc.set(change, 12)
    assert doc.dump() == full_dump(doc)
    assert "nom: A" in doc.dump()
    assert reread(doc.dump()) == to_plain(doc.data)


def test_a_pool_made_from_a_bare_number_writes_the_whole_tree() -> None:
    doc = doc_of("nom: A\npv: 30\n")
    doc.set_pool("pv", 12)
    assert doc.dump() == full_dump(doc) == "nom: A\npv: {max: 30, actuels: 12}\n"


def test_a_change_made_to_the_tree_another_way_is_never_lost() -> None:
    doc = doc_of(SHEET)
    doc.set_pool("pv", 12)
    doc.data["competences"]["esquive"] = 3  # not through set: not noted
    assert doc.dump() == full_dump(doc)
    assert reread(doc.dump())["competences"]["esquive"] == 3


def test_undo_deleting_a_key_after_a_change_writes_the_whole_tree() -> None:
    doc = doc_of(SHEET)
    doc.set(("xp",), 3)
    _delete(doc, ("competences", "esquive"))
    assert "esquive" not in doc.dump()
    assert doc.dump() == full_dump(doc)


KEYS = st.sampled_from(["pv", "xp", "force", "mana"])
VALUES = st.one_of(st.integers(-50, 100_000), st.booleans())
LAYOUTS = st.sampled_from(["{k}: {v}\n", "{k}:   {v}   # note\n", "{k}: {{max: 40, actuels: {v}}}\n",
                           "{k}:\n  actuels: {v}\n  max: 40\n", "{k}: [{v}, 2]\n",
                           "{k}: {{actuels: {v}, max: 40}}\n"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(KEYS, LAYOUTS, st.one_of(st.integers(0, 999).map(str),
                                                     st.sampled_from(["true", "false"]))),
                         min_size=1, max_size=4,
                unique_by=lambda t: t[0]),
       st.lists(st.tuples(KEYS, st.booleans(), VALUES), max_size=5))
def test_what_is_written_always_reads_back_as_the_tree(
        fields: list[tuple[str, str, str]], changes: list[tuple[str, bool, int | bool]]) -> None:
    text = "nom: A\n" + "".join(layout.format(k=k, v=v) for k, layout, v in fields)
    doc = doc_of(text)
    for key, pool, value in changes:
        if pool:
            if not isinstance(doc.data.get(key), list):
                doc.set_pool(key, int(value))
        else:
            doc.set((key,), value)
    written = doc.dump()
    assert reread(written) == to_plain(doc.data)
    if not changes:
        assert written == full_dump(doc)


def test_a_yes_no_is_rewritten_and_the_same_value_again_changes_nothing() -> None:
    text = "nom: A\npv: {max: 30, actuels: 30}\netat: {mourant: false, mort: false}   # en vie\n"
    doc = doc_of(text.replace("nom: A", "nom:   A"))
    doc.set(("etat", "mourant"), False)  # the same value again
    doc.set(("etat", "mort"), True)
    doc.set_pool("pv", 0)
    assert doc.dump() == text.replace("nom: A", "nom:   A").replace("mort: false}", "mort: true}") \
        .replace("actuels: 30", "actuels: 0")
    doc.set(("etat", "mourant"), 1)  # a number where a yes/no was: the whole tree
    assert doc.dump() == full_dump(doc)
