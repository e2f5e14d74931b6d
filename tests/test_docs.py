"""The user documentation (docs/) stays true to the code.

- The JSON schema `docs/schema/resultat.schema.json` accepts what `jdr.render.json.to_json`
  produces for one result of each of the ten types (built directly with the core types), the
  `{"error": ...}` object, and every JSON example of `docs/json.md`; `docs/json.md` documents every
  key of every type.
- The documentation stands alone: no reference to files outside the project.
- Every rule id cited in the code is explained in `docs/regles/*.md`.
- Relative links (and their `#anchors`) in the documentation point to existing files and headings.

The validator below is a small one for the subset of JSON Schema the schema uses (type, required,
properties, additionalProperties, items, oneOf, enum, const, $ref, minimum, maximum); the
`jsonschema` package is used as well when it is installed.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from jdr.core.check import Check, KeepOne, Modifier, Odds, SingleDie, Verdict
from jdr.core.contest import Contest, ContestRule, Criterion
from jdr.core.initiative import Entrant, OrderRule, order
from jdr.core.results import (
    AttackReport,
    Damage,
    Health,
    Line,
    Location,
    Notes,
    Purchase,
    Report,
    Row,
    Section,
    SheetView,
    StateChange,
)
from jdr.dice.notation import Die, roll
from jdr.dice.odds import odds as dice_odds
from jdr.dice.source import FixedSource
from jdr.render.json import error, to_json

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCHEMA_PATH = DOCS / "schema" / "resultat.schema.json"
TYPES = ("roll", "check", "contest", "odds", "order", "attack", "sheet", "purchase", "notes",
         "report", "dice_odds")


# ------------------------------------------------------------------ a small validator

_ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs", "$comment"}
_KEYWORDS = {"type", "required", "properties", "additionalProperties", "items", "oneOf", "enum",
             "const", "$ref", "minimum", "maximum"}


def _is_type(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise AssertionError(f"type JSON inconnu du validateur : {name}")


def _resolve(root: dict[str, Any], ref: str) -> dict[str, Any]:
    assert ref.startswith("#"), f"seules les références locales sont prises en charge : {ref}"
    node: Any = root
    for part in ref[1:].split("/")[1:]:
        node = node[part]
    assert isinstance(node, dict)
    return node


def errors(schema: dict[str, Any], value: Any, root: dict[str, Any], path: str = "$") -> list[str]:
    """Every way `value` breaks `schema` (empty list: valid)."""
    found: list[str] = []
    if "$ref" in schema:
        found += errors(_resolve(root, schema["$ref"]), value, root, path)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, n) for n in names):
            return [*found, f"{path} : {value!r} n'est pas de type {names}"]
    if "const" in schema and (value != schema["const"] or type(value) is not type(schema["const"])):
        found.append(f"{path} : {value!r} ≠ {schema['const']!r}")
    if "enum" in schema and not any(value == e and type(value) is type(e) for e in schema["enum"]):
        found.append(f"{path} : {value!r} n'est pas dans {schema['enum']}")
    if "minimum" in schema and _is_type(value, "number") and value < schema["minimum"]:
        found.append(f"{path} : {value!r} < {schema['minimum']}")
    if "maximum" in schema and _is_type(value, "number") and value > schema["maximum"]:
        found.append(f"{path} : {value!r} > {schema['maximum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{path} : clé « {key} » absente")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                found += errors(props[key], item, root, f"{path}.{key}")
            elif extra is False:
                found.append(f"{path} : clé « {key} » non documentée")
            elif isinstance(extra, dict):
                found += errors(extra, item, root, f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += errors(schema["items"], item, root, f"{path}[{i}]")
    if "oneOf" in schema:
        matches = [errors(s, value, root, path) for s in schema["oneOf"]]
        ok = sum(1 for m in matches if not m)
        if ok != 1:
            detail = "" if ok else " ; " + " | ".join(m[0] for m in matches if m)
            found.append(f"{path} : {ok} branche(s) de oneOf acceptent la valeur au lieu d'une{detail}")
    return found


def _walk(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        yield schema
        for key, sub in schema.items():
            if key in ("properties", "$defs"):
                for s in sub.values():
                    yield from _walk(s)
            elif key in ("items", "additionalProperties"):
                yield from _walk(sub)
            elif key == "oneOf":
                for s in sub:
                    yield from _walk(s)


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    data = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def assert_valid(schema: dict[str, Any], value: Any, target: str | None = None) -> None:
    """`value` is valid for the whole schema (and for `$defs/target` when given)."""
    value = json.loads(json.dumps(value))  # exactly what a script reads
    problems = errors(schema, value, schema)
    if target is not None:
        problems += errors(schema["$defs"][target], value, schema)
    assert not problems, "\n".join(problems)
    try:
        import jsonschema  # type: ignore[import-untyped]
    except ImportError:
        return
    jsonschema.Draft202012Validator(schema).validate(value)


# ------------------------------------------------------------------ the schema itself


def test_schema_shape(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for name in TYPES:
        definition = schema["$defs"][name]
        assert definition["properties"]["type"] == {"const": name}
        assert "type" in definition["required"]
    top = {entry["$ref"] for entry in schema["oneOf"]}
    assert {f"#/$defs/{name}" for name in (*TYPES, "erreur")} <= top
    for node in _walk(schema):
        unknown = set(node) - _KEYWORDS - _ANNOTATIONS
        assert not unknown, f"mot-clé non pris en charge par le validateur du test : {unknown}"
        if "$ref" in node:
            _resolve(schema, node["$ref"])


def test_validator_rejects(schema: dict[str, Any]) -> None:
    good = to_json(roll("1d6+2", FixedSource([4])))
    assert not errors(schema, good, schema)
    missing = {k: v for k, v in good.items() if k != "total"}
    assert errors(schema, missing, schema)
    assert errors(schema, {**good, "total": "6"}, schema)
    assert errors(schema, {**good, "total": True}, schema)
    assert errors(schema, {**good, "nouvelle_cle": 1}, schema)
    assert errors(schema, {**good, "type": "lancer"}, schema)
    assert errors(schema, {"error": 3}, schema)


# ------------------------------------------------------------------ one result of each type


def judge(natural: Any, total: int, threshold: int | None) -> Verdict:
    """A d10 judge: 10 is a critical success, 1 a critical failure; meet the threshold."""
    critical = "success" if natural == 10 else "failure" if natural == 1 else None
    if threshold is None:
        return Verdict(None, critical, None, ("aucun seuil",))
    return Verdict(total >= threshold, critical, total - threshold)


AXE = Check("Nain A — Hache", KeepOne(2, 10),
            (Modifier(6, "Hache", "R000.22"), Modifier(4, "Dextérité", "R000.22")),
            judge, rule="R000.22", who="Nain A", stats=(("chance", 3),))
DODGE = Check("Elfe B — Esquive", SingleDie(10),
              (Modifier(5, "Esquive", "R000.22"), Modifier(6, "Agilité", "R000.22")),
              judge, rule="R000.22", who="Elfe B", stats=(("chance", 4),))
TALK = Check("Nain A — Négociation", SingleDie(10), (Modifier(5, "Négociation + Charisme"),),
             judge, threshold=15, rule="R000.13", who="Nain A")


def _contest() -> Any:
    # 8 kept (3 set aside) + 10 = 18 against 7 + 11 = 18: a tie, re-rolled; then 18 against 16.
    rule = ContestRule((Criterion("total"),), final="reroll", final_note="égalité : on relance",
                       rule="A000.02")
    return Contest(AXE, DODGE, rule).roll(FixedSource([3, 8, 7, 2, 8, 5]))


def _attack() -> AttackReport:
    contest = _contest()
    location_roll = roll("1d20", FixedSource([9]))
    return AttackReport(
        attacker="Nain A", defender="Elfe B", hit=True,
        steps=(contest, TALK.roll(FixedSource([10])), location_roll),
        damage=(Damage("PHY+3+1d10", (Die(10, 6),), 16, 3, 13, (Line("Physique 7", "D-000.46"),)),),
        location=Location(9, "Abdomen", (Die(20, 9),), (Line("protection du torse", "A000.14"),)),
        health=Health("pv", 25, 12, 25), state=StateChange("debout", "debout"),
        critical=None, notes=(Line("concentration perdue", "R000.36"),), rule="R000.23",
        weapon="Hache de bûcheron",
    )


def _examples() -> dict[str, list[Any]]:
    axe = AXE.roll(FixedSource([3, 8]))
    initiative = order(
        [Entrant("Nain A", 9, AXE.roll(FixedSource([1, 1])), (("Chance", 3),)),
         Entrant("Elfe B", 9, None, (("Chance", 3),)),
         Entrant("Orque C", 12)],
        OrderRule(rule="R000.21"), FixedSource([4, 7]))
    sheet = SheetView("cydonia", "Nain A", (
        Section("Caractéristiques", (Row("physique", "Physique", 7),
                                     Row("griffes", "Griffes", False, "non"))),
        Section("Valeurs dérivées", (Row("pv", "Points de vie", 30, "30 / 30"),
                                     Row("peuple", "Peuple", "nain"),
                                     Row("mana", "Mana", None),
                                     Row("resistance_physique", "Résistance physique", 12,
                                         "12 + 1d10", "R000.07"))),
    ), (Line("fiche valide"),))
    purchase = Purchase("Nain A", "compétence Hache", 6, 7, 2, 5, 3,
                        (Line("reste 3 XP", "R000.45"),), "R000.45")
    notes = Notes("Nouvelle séance de jeu", (Line("prédilection tir disponible", "R003.04"),),
                  "R003.04")
    attack = _attack()
    missed = AttackReport("Nain A", "Elfe B", False, (axe,))
    flurry = AttackReport("Guerrier", "Orque", True, (axe, axe),
                          damage=(Damage("1d8+3", (Die(8, 5),), 8), Damage("1d8+3", (Die(8, 2),), 5)),
                          health=Health("blessures", 0, 2), critical="success")
    extra = Odds("Rôdeuse — Tir", Fraction(1, 2), Fraction(1, 20), Fraction(1, 10),
                 ((3, Fraction(1, 2)), (13, Fraction(1, 2))), threshold=8,
                 extra=(("automatic_failure", "échec automatique", Fraction(1, 10)),))
    return {
        "roll": [roll("2d10kh1+6>=15", FixedSource([3, 8])),
                 roll("4d6kh3 + 1d6! + 3d6rr1 + PHY", FixedSource([1, 2, 3, 4, 6, 2, 1, 5, 5, 5]),
                      {"phy": 7}),
                 roll("2x 10d10cs>=7 # initiative", FixedSource(list(range(1, 11)) * 2))],
        "dice_odds": [dice_odds("10d10cs>=7"), dice_odds("1d20+5>=15 # attaque"),
                      dice_odds("1d2!")],
        "check": [axe, TALK.roll(FixedSource([1]))],
        "contest": [_contest()],
        "odds": [TALK.odds(), Contest(AXE, DODGE).odds(), extra],
        "order": [initiative],
        "attack": [attack, missed, flurry],
        "sheet": [sheet],
        "purchase": [purchase],
        "notes": [notes, Notes("Vide")],
        "report": [Report("Duel", (axe, _contest(), notes, Report("Manche 2", (purchase,))),
                          (Line("Nain A gagne", "R004.35"),), "R004.35")],
    }


EXAMPLES = _examples()


@pytest.mark.parametrize("kind", TYPES)
def test_to_json_matches_schema(schema: dict[str, Any], kind: str) -> None:
    assert EXAMPLES[kind], kind
    for result in EXAMPLES[kind]:
        data = to_json(result)
        assert data["type"] == kind
        assert_valid(schema, data, kind)


def test_examples_cover_the_interesting_cases() -> None:
    contest = to_json(EXAMPLES["contest"][0])
    assert contest["rounds"] and contest["tie"] is False
    attack = to_json(EXAMPLES["attack"][0])
    assert [s["type"] for s in attack["steps"]] == ["contest", "check", "roll"]
    assert isinstance(attack["damage"], dict)
    assert to_json(EXAMPLES["attack"][1])["damage"] is None
    assert isinstance(to_json(EXAMPLES["attack"][2])["damage"], list)
    assert to_json(EXAMPLES["odds"][1])["opponent_wins"] is not None
    assert "automatic_failure" in to_json(EXAMPLES["odds"][2])
    entries = to_json(EXAMPLES["order"][0])["order"]
    assert any(e["check"] is None for e in entries) and any(e["check"] for e in entries)


def test_error_matches_schema(schema: dict[str, Any]) -> None:
    data = json.loads(error("fiche introuvable : « nain.yaml »"))
    assert data == {"error": "fiche introuvable : « nain.yaml »"}
    assert_valid(schema, data, "erreur")


# ------------------------------------------------------------------ docs/json.md


def _json_md() -> str:
    return (DOCS / "json.md").read_text(encoding="utf-8")


def test_json_md_examples_match_schema(schema: dict[str, Any]) -> None:
    blocks = re.findall(r"```json\n(.*?)```", _json_md(), re.DOTALL)
    assert len(blocks) >= len(TYPES)
    seen: set[str] = set()
    for block in blocks:
        data = json.loads(block)
        assert_valid(schema, data)
        if isinstance(data, dict) and "type" in data:
            seen.add(data["type"])
    expected = set(TYPES) | {"simulation", "balayage"}  # jdr simuler (docs/json.md)
    assert seen == expected, f"exemples manquants dans json.md : {expected - seen}"


def test_json_md_documents_every_key(schema: dict[str, Any]) -> None:
    text = _json_md()
    sections = re.split(r"\n## ", text)
    for kind in TYPES:
        section = next((s for s in sections if s.startswith(f"`{kind}`")), None)
        assert section is not None, f"json.md : pas de section « ## `{kind}` »"
        for key in schema["$defs"][kind]["properties"]:
            assert f"`{key}`" in section, f"json.md, section {kind} : clé « {key} » non décrite"
    section = next(s for s in sections if s.startswith("`simulation`"))
    for key in schema["$defs"]["simulation"]["properties"]:
        assert f"`{key}`" in section, f"json.md, section simulation : clé « {key} » non décrite"
    for name in ("ligne", "de", "modificateur", "degats", "localisation"):
        for key in schema["$defs"][name]["properties"]:
            assert f"`{key}`" in text, f"json.md : clé « {key} » ({name}) non décrite"


# ------------------------------------------------------------------ the docs stand alone


def _doc_files() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*") if p.is_file())


def test_docs_stand_alone() -> None:
    forbidden = ("../shared", "RULES.md", "SHEETS.md", "seeds/")
    offenders = []
    for path in [*_doc_files(), ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{path.relative_to(ROOT)} : {word}" for word in forbidden if word in text]
    assert not offenders, "références hors du projet :\n" + "\n".join(offenders)


# ------------------------------------------------------------------ rule ids

RULE_ID = re.compile(r"\b[RETA][0-9]{3}\.[0-9]{2}\b|D-[0-9]{3}\.[0-9]{2}|D-ALL\.[0-9]{2}")


def test_every_rule_id_in_the_code_is_documented() -> None:
    in_code = {m for p in (ROOT / "src" / "jdr").rglob("*.py")
               for m in RULE_ID.findall(p.read_text(encoding="utf-8"))}
    documented = {m for p in (DOCS / "regles").glob("*.md")
                  for m in RULE_ID.findall(p.read_text(encoding="utf-8"))}
    missing = sorted(in_code - documented)
    assert not missing, f"{len(missing)} numéro(s) de règle absents de docs/regles/ : {missing}"


# ------------------------------------------------------------------ links

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _slug(heading: str) -> str:
    """The anchor a Markdown heading gets (GitHub's rule)."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {_slug(m) for m in re.findall(r"^#{1,6}\s+(.*?)\s*#*$", text, re.MULTILINE)}


def test_relative_links_resolve() -> None:
    broken = []
    for page in (p for p in _doc_files() if p.suffix == ".md"):
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
        for target in LINK.findall(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (page.parent / file_part).resolve() if file_part else page
            where = f"{page.relative_to(ROOT)} → {target}"
            if not resolved.exists():
                broken.append(f"{where} : fichier absent")
            elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
                broken.append(f"{where} : ancre absente")
    assert not broken, "liens cassés :\n" + "\n".join(broken)
