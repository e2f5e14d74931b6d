"""The sheet form built from each system's declared schema (`core.sheetform`, `systems/*/form.py`):
French labels everywhere, enumerations complete, form → YAML → load equal to the template,
comments and unknown keys kept, and every problem with the path of its field."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from jdr.core import sheetdraft, sheetform
from jdr.core.registry import get_system
from jdr.core.sheet import SheetDocument
from jdr.errors import Problem, SheetError, locate

SYSTEMS = ["cydonia", "maitrise", "dd35", "cyd", "felins"]


def _form(system_id: str) -> tuple[Any, sheetform.FormData, sheetform.Schema]:
    system = get_system(system_id)
    data = sheetform.form_data(system)
    return system, data, sheetform.schema_of(data)


def _doc(text: str) -> SheetDocument:
    return SheetDocument.from_text(text, Path("fiche.yaml"))


def _declared(data: sheetform.FormData, schema: sheetform.Schema) -> bool:
    """The label comes from the system's declaration (or the core's pool), not from the key."""
    pattern = schema.pattern
    last = pattern.rsplit(".", 1)[-1]
    fixed = {label for keys in data.fixed.values() for _, label in keys}
    return (pattern in data.labels or last in data.labels or last in sheetform.POOL_LABELS
            or pattern in sheetform.COMMON_LABELS
            or schema.label in fixed or schema.label in data.keys.values()
            or (last == "*" and schema.label == "Nom"))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_field_has_a_declared_french_label(system_id: str) -> None:
    _, data, schema = _form(system_id)
    fields = sheetform.walk(schema)[1:]
    assert len(fields) > 10
    for field in fields:
        assert _declared(data, field), f"{system_id} : {field.pattern} sans libellé déclaré"
        assert "_" not in field.label and "›" not in field.label, field.label
        assert field.label[0].isupper(), field.label
    for key, field in schema.fields:
        assert field.label != key  # « Dextérité », never `dexterite`


def test_cydonia_labels_written_as_in_french() -> None:
    _, _, schema = _form("cydonia")
    carac = dict(dict(schema.fields)["caracteristiques"].fields)
    assert carac["dexterite"].label == "Dextérité"
    assert (carac["dexterite"].minimum, carac["dexterite"].maximum) == (1, 14)
    assert dict(schema.fields)["pa"].label == "Points d'apprentissage"


def _values(choices: tuple[tuple[str, str], ...]) -> list[str]:
    return [v for v, _ in choices]


def test_enumerations_are_complete() -> None:
    from jdr.systems.cyd import tables as cyd
    from jdr.systems.cydonia import tables as cydonia
    from jdr.systems.dd35 import tables as dd35
    from jdr.systems.felins import tables as felins

    def at(system_id: str, pattern: str) -> sheetform.Schema:
        _, _, schema = _form(system_id)
        return next(s for s in sheetform.walk(schema) if s.pattern == pattern)

    felins_fields = dict(_form("felins")[2].fields)
    assert _values(felins_fields["rang"].choices) == list(felins.RANKS)
    assert _values(felins_fields["clan"].choices) == list(felins.CLANS)
    assert _values(felins_fields["etat"].choices) == list(felins.STATES)
    assert _values(felins_fields["soins"].choices) == list(felins.CARE)
    assert felins_fields["competences"].key is not None
    assert _values(felins_fields["competences"].key.choices) == list(felins.SKILLS)
    classes = at("dd35", "classes")
    assert classes.key is not None and _values(classes.key.choices) == list(dd35.CLASSES)
    saves = at("dd35", "sauvegardes")
    assert saves.key is not None and _values(saves.key.choices) == list(dd35.SAVES)
    assert _values(at("dd35", "pv_mode").choices) == ["fixe", "lance"]
    assert _values(at("dd35", "armes.*.portee").choices) == ["contact", "distance"]
    assert _values(at("cyd", "attribut_usuel.*").choices) == list(cyd.ATTRIBUTES)
    assert _values(at("cyd", "predilections.*").choices) == list(cyd.PREDILECTION_STATES)
    zones = at("cydonia", "protections").key
    assert zones is not None and set(_values(zones.choices)) == {*cydonia.ARMOUR_ZONES, "toutes"}
    assert [k for k, _ in at("cydonia", "caracteristiques").fields] == list(cydonia.CHARACTERISTICS)
    assert _values(at("cydonia", "armes.*.equipee").choices) == ["principale", "secondaire"]
    skills = at("cydonia", "competences").key
    assert skills is not None and set(_values(skills.choices)) == set(cydonia.SKILLS)


def test_kinds_lists_and_maps() -> None:
    _, _, schema = _form("cydonia")
    fields = dict(schema.fields)
    assert fields["armes"].kind == "list" and fields["armes"].item is not None
    assert fields["armes"].item.kind == "group"
    assert fields["competences"].kind == "map" and fields["competences"].add
    assert fields["griffes"].kind == "bool"
    assert fields["pv"].pool and fields["pv"].required and not fields["mana"].required
    assert "systeme" not in fields  # the form never changes the system


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_round_trip_form_yaml_load_equals_template(system_id: str) -> None:
    system, data, schema = _form(system_id)
    template = system.template()
    shown = sheetform.nodes(schema, _doc(template).plain())
    text = sheetdraft.draft(data, template, sheetform.values_of(shown))
    assert system.load(_doc(text)) == system.load(_doc(template))
    assert [line for line in text.splitlines() if line.lstrip().startswith("#")] == \
        [line for line in template.splitlines() if line.lstrip().startswith("#")]
    assert sheetdraft.draft_problems(system, text, creating=True) == []


NAIN = """\
systeme: cydonia
nom: Nain A   # le héros
peuple: nain
notes_du_mj: garder ce texte
caracteristiques: {Physique: 7, agilite: 4, DEX: 4, sensoriel: 3, courage: 5, charisme: 2,
  mental: 1, chance: 3}
competences:
  hache: 6     # son arme
  esquive: 2
  Négociation: 3
expertes: [negociation]
pv: 30
armes:
  - {nom: Hache, competence: hache, degats: "PHY+3+1d10", equipee: principale}
"""


def test_edit_adds_and_removes_keeps_comments_spelling_and_unknown_keys() -> None:
    system, data, schema = _form("cydonia")
    form = sheetform.values_of(sheetform.nodes(schema, _doc(NAIN).plain()))
    assert form["f/peuple"] == ["nain"] and form["f/pv/max"] == ["30"]
    assert form["f/caracteristiques/dexterite"] == ["4"]  # `DEX` is Dextérité (R000.02)
    form["f/caracteristiques/dexterite"] = ["5"]
    del form["f/competences/1/cle"]  # esquive removed
    form.update({"f/armes/1/_": [""], "f/armes/1/nom": ["Arc court"],
                 "f/armes/1/competence": ["arc"], "f/protections/0/_": [""],
                 "f/protections/0/cle": ["torse"], "f/protections/0/valeur": ["3"],
                 "f/griffes": ["oui"]})
    text = sheetdraft.draft(data, NAIN, form)
    assert "nom: Nain A   # le héros" in text and "hache: 6     # son arme" in text
    assert "Négociation: 3" in text and "notes_du_mj: garder ce texte" in text
    assert "{Physique: 7, agilite: 4, DEX: 5," in text  # spelling kept, value changed
    assert "pv: 30" in text  # `pv: 30` is the same as {max: 30, actuels: 30}: left as written
    assert "esquive" not in text
    assert "  - {nom: Arc court, competence: arc}" in text  # the style of the item before
    sheet = system.load(_doc(text))
    assert sheet.protections == {"torse": 3} and sheet.griffes
    assert [w.nom for w in sheet.armes] == ["Hache", "Arc court"]
    assert sheet.etat == type(sheet.etat)()
    assert "etat" not in text  # defaults are not written


def test_problems_carry_their_path() -> None:
    system, data, schema = _form("cydonia")
    form = sheetform.values_of(sheetform.nodes(schema, _doc(NAIN).plain()))
    form["f/caracteristiques/physique"] = ["30"]
    form["f/armes/0/nom"] = [""]
    problems = sheetdraft.draft_problems(system, sheetdraft.draft(data, NAIN, form), False)
    assert Problem(("caracteristiques", "physique"), "30 hors limites (autorisé : de 1 à 14)") \
        in problems
    assert Problem(("armes", "0", "nom"), "champ obligatoire absent") in problems
    # creation rules too: a dwarf starts Expert in Négociation (R000.06, D-000.50)
    form = sheetform.values_of(sheetform.nodes(schema, _doc(NAIN).plain()))
    form.pop("f/expertes/0")
    problems = sheetdraft.draft_problems(system, sheetdraft.draft(data, NAIN, form), True)
    assert [p.path for p in problems] == [("expertes",)]
    assert "Expert en Négociation" in problems[0].message


@pytest.mark.parametrize(("system_id", "change", "path"), [
    ("felins", ("f/caracteristiques/chance", "5"), ("caracteristiques", "chance")),
    ("dd35", ("f/armes/0/degats", "beaucoup"), ("armes", "0", "degats")),
    ("maitrise", ("f/caracteristiques/force", "25"), ("caracteristiques", "force")),
    ("cyd", ("f/attribut_usuel/0/cle", "crochetage"), ("attribut_usuel", "crochetage")),
])
def test_each_system_problem_placed_once_beside_its_field(system_id: str, change: tuple[str, str],
                                                          path: tuple[str, ...]) -> None:
    system, data, schema = _form(system_id)
    form = sheetform.values_of(sheetform.nodes(schema, _doc(system.template()).plain()))
    form[change[0]] = [change[1]]
    problems = sheetdraft.draft_problems(system, sheetdraft.draft(data, system.template(), form),
                                        creating=True)
    assert path in [p.path for p in problems]
    root = sheetform.form_nodes(schema, form)
    left = sheetform.place(root, problems)
    placed = [(n.where, m) for n in root.all() for m in n.problems]
    assert len(placed) + len(left) == len(problems)  # each problem once, nowhere twice
    assert any(where == path for where, _ in placed)


def test_sheet_error_details_keep_the_cli_lines() -> None:
    system, _, _ = _form("felins")
    bad = system.template().replace("force: 2", "force: 9").replace("clan: roches", "clan: lune")
    with pytest.raises(SheetError) as caught:
        system.load(_doc(bad))
    error = caught.value
    assert len(error.details) == len(error.problems) == 2
    assert [d.path for d in error.details] == [("clan",), ("caracteristiques", "force")]
    assert error.problems[1] == "caracteristiques.force : 9 hors limites (autorisé : de 1 à 5)"
    assert error.details[1].message == "9 hors limites (autorisé : de 1 à 5)"
    assert locate("expertes : un Nain part Expert") == Problem(("expertes",), "un Nain part Expert")
    assert locate("sans chemin ici") == Problem((), "sans chemin ici")


def test_new_item_and_names() -> None:
    _, _, schema = _form("cydonia")
    form = {"f/armes/0/_": [""], "f/armes/3/_": [""]}
    item = sheetform.new_item(schema, form, "f/armes")
    assert item is not None and item.name == "f/armes/4" and item.ident == "champ-armes-4"
    assert [c.name for c in item.children][:2] == ["f/armes/4/nom", "f/armes/4/competence"]
    assert dict((c.name, c.value) for c in item.children)["f/armes/4/degats"] == "0"
    entry = sheetform.new_item(schema, form, "f/competences")
    assert entry is not None and entry.kind == "entry" and entry.name == "f/competences/0"
    assert sheetform.new_item(schema, form, "f/nom") is None
    assert sheetform.new_item(schema, form, "f/../x") is None
    nodes = sheetform.form_nodes(schema, form)
    armes = next(n for n in nodes.children if n.name == "f/armes")
    assert [(c.name, c.where) for c in armes.children] == [("f/armes/0", ("armes", "0")),
                                                          ("f/armes/3", ("armes", "1"))]


def test_labels_are_french_words() -> None:
    """No identifier leaks: every label reads as French (letters, accents, spaces, signs)."""
    for system_id in SYSTEMS:
        for field in sheetform.walk(_form(system_id)[2])[1:]:
            text = unicodedata.normalize("NFC", field.label)
            assert not any(c in text for c in "_›{}"), (system_id, text)
            assert not re.search(r"[a-z]\.[a-z]", text), (system_id, text)
