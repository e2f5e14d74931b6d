"""Every word a person reads of an option is French (issue 15, labels): each system's `--opt`
options and each value of their closed lists carry a French label, declared by the system; the
core's own parameters too. A label is not the key typed on the command line: no `_`, an upper-case
first letter (or a digit: « 1d10 »), no rule number inside (the rule is a hint beside it), and no
word written without the accents the system's own help gives it (« Defenseur monte »)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest

from jdr.core.declare import ACTIONS
from jdr.core.options import OptionSpec
from jdr.core.registry import available, get_system

RULE_ID = re.compile(r"\b[A-Z]-?\d{3}\.\d{2}\b")
WORD = re.compile(r"[^\W\d_]+")


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def problems(label: str, key: str, accented: dict[str, str]) -> list[str]:
    """What is wrong with `label`, the French words of `key` (empty: nothing)."""
    found = []
    if not label.strip():
        return [f"{key} : aucun libellé"]
    if "_" in label:
        found.append(f"{key} : « {label} » contient un _")
    if label[0].islower() or not (label[0].isalpha() or label[0].isdigit()):
        found.append(f"{key} : « {label} » ne commence pas par une majuscule")
    if RULE_ID.search(label):
        found.append(f"{key} : « {label} » contient un numéro de règle")
    if label == key:
        found.append(f"{key} : le libellé est la clé")
    for word in WORD.findall(label):
        right = accented.get(_fold(word).lower())
        if right is not None and word.lower() != right and _fold(word) == word:
            found.append(f"{key} : « {word} » sans ses accents (« {right} »)")
    return found


def accented_words(texts: list[str]) -> dict[str, str]:
    """The accented words of these texts, by their unaccented form (« defenseur » → « défenseur »);
    not a form the texts also write without accents, a word of its own (« de », « dé »)."""
    out: dict[str, str] = {}
    plain: set[str] = set()
    for text in texts:
        for word in WORD.findall(text):
            low = word.lower()
            if _fold(low) != low:
                out.setdefault(_fold(low), low)
            else:
                plain.add(low)
    return {k: v for k, v in out.items() if k not in plain}


def system_options() -> Iterator[tuple[str, str, OptionSpec]]:
    for sid in available():
        for name, spec in get_system(sid).actions.items():
            for option in spec.options:
                yield sid, name, option


def test_every_option_of_every_system_has_a_french_label_and_its_values_too() -> None:
    options = list(system_options())
    assert len(options) > 100  # the five systems declare about 120
    texts = [o.help for _, _, o in options] + [spec.help for sid in available()
                                               for spec in get_system(sid).actions.values()]
    accented = accented_words(texts + [o.label for _, _, o in options])
    found: list[str] = []
    for sid, action, o in options:
        where = f"{sid} {action} --opt {o.name}"
        found += problems(o.label, where, accented)
        if o.choices:
            if len(o.labels) != len(o.choices):
                found.append(f"{where} : {len(o.labels)} libellés pour {len(o.choices)} valeurs")
                continue
            for value in o.choices:
                found += problems(o.shown(value), f"{where}={value}", accented)
    assert found == []


def test_the_core_parameters_have_french_labels() -> None:
    found: list[str] = []
    for kind, action in ACTIONS.items():
        found += problems(action.label, kind, {})
        for p in action.params:
            found += problems(p.label, f"{kind}.{p.name}", {})
            for value, shown in p.choices:
                found += problems(shown, f"{kind}.{p.name}={value}", {})
    assert found == []


@pytest.mark.parametrize(("label", "wrong"), [
    ("Defenseur monte", "sans ses accents"), ("defenseur_monte", "contient un _"),
    ("Défenseur monté (R000.38)", "numéro de règle"), ("tir vise", "majuscule"),
])
def test_the_walk_refuses_a_raw_label(label: str, wrong: str) -> None:
    accented = accented_words(["défenseur monté : Agilité + Équitation", "tir visé"])
    assert any(wrong in p for p in problems(label, "defenseur_monte", accented))


def test_a_label_that_needs_no_accent_passes() -> None:
    accented = accented_words(["défenseur monté"])
    assert problems("Compagnon", "compagnon", accented) == []
    assert problems("1d10", "d10", accented) == []


def test_values_are_the_data_and_labels_what_is_read() -> None:
    """The value typed (and sent by the pages) stays the key; the label is only shown."""
    repos = get_system("cydonia").actions["repos"]
    lieu = next(o for o in repos.options if o.name == "lieu")
    assert lieu.parse("belle_etoile") == "belle_etoile"
    assert lieu.shown("belle_etoile") == "À la belle étoile"
    assert "belle_etoile = À la belle étoile" in lieu.describe()


def test_labels_and_values_must_pair() -> None:
    with pytest.raises(ValueError, match="2 libellés pour 3 valeurs"):
        OptionSpec("x", "choice", "aide", choices=("a", "b", "c"), label="X", labels=("A", "B"))


def test_aide_json_gives_each_label() -> None:
    from jdr.cli.aide import data

    attack: dict[str, Any] = data("cydonia")["actions"]["attack"]
    monte = next(o for o in attack["options"] if o["name"] == "defenseur_monte")
    assert monte["label"] == "Défenseur monté" and monte["rule"] == "R000.38"
    concentration = next(o for o in attack["options"] if o["name"] == "concentration")
    assert concentration["choice_labels"] == {"jet": "Au jet", "degats": "Aux dégâts"}


def test_the_roles_of_every_rule_read_in_french() -> None:
    """A rule's characters, one control each in the pages, are named from its help's words in
    capitals (« SOIGNEUR [PATIENT] — … » → « Soigneur », « Patient »; « LOUP-GAROU » →
    « Loup-garou »)."""
    from jdr.core.declare import rule_roles, rules_of

    found: list[str] = []
    roles = 0
    for sid in available():
        system = get_system(sid)
        for name, _ in rules_of(system):
            for role, _required, _many in rule_roles(system, name):
                roles += 1
                found += problems(role.capitalize(), f"{sid} regle {name}", {})
    assert roles > 20 and found == []
    assert ("loup-garou", True, False) in rule_roles(get_system("cydonia"), "transformation")
