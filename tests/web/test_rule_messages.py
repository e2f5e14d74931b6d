"""What the pages and the API say of the rules never asks to type a command (issue: messages in
every front end): a refusal names an option by its French label (« PV rendus »), not `--opt pv=N`,
a core parameter by its field (« Dé »), not `--de`, a rule by its name in the list, not `jdr regle
…` — while the command line keeps its own words (tests/core/test_messages.py, the CLI goldens).

Every system is walked through the pages as a hurried MJ plays it: each action of the « Action »
list, its form asked, filled with the first choices, its odds and its roll; every form, every
answer read for command-line syntax. Then a representative refusal of each kind (a required option
missing, a bad value, a number out of range, an unknown key, a system's own refusal) is asked of
the API and of the pages."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import Table, add_character, bearer, in_process, make_table, page

from jdr.core.registry import available, get_system

pytestmark = pytest.mark.anyio

CLI_SYNTAX = re.compile(r"--[a-z]|\bjdr [a-z]")


class Read(HTMLParser):
    """What a person reads of a fragment (its text, titles, placeholders), and its controls."""

    def __init__(self) -> None:
        super().__init__()
        self.read: list[str] = []
        self.controls: list[tuple[str, dict[str, str | None]]] = []
        self.options: dict[str, list[tuple[str, bool]]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.read += [v or "" for k, v in attrs if k in ("title", "placeholder", "aria-label")]
        if tag in ("select", "input"):
            self.controls.append((tag, found))
        if tag == "select":
            self._select = found.get("name") or ""
            self.options[self._select] = []
        if tag == "option" and self._select is not None:
            self.options[self._select].append((found.get("value") or "", "selected" in found))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.read.append(data.strip())


def read(html: str) -> Read:
    parser = Read()
    parser.feed(html)
    return parser


def command_syntax(html: str) -> list[str]:
    return [text for text in read(html).read if CLI_SYNTAX.search(text)]


def filled(html: str, kind: str) -> list[tuple[str, str]]:
    """A form filled as a hurried MJ does: the chosen or first value of every list (the last for
    a target), the first two boxes of a group, `1` in a required field; options left alone."""
    seen = read(html)
    out = [("type", kind), ("choix", "defaut")]
    for tag, attrs in seen.controls:
        name = attrs.get("name") or ""
        if tag == "select" and name and not name.startswith("opt.") and attrs.get("id"):
            values = [v for v, _ in seen.options.get(name, []) if v]
            chosen = [v for v, on in seen.options.get(name, []) if on]
            other = name == "defenseur" or (name.startswith("role.") and name != "role.0")
            if chosen or values:
                out.append((name, chosen[0] if chosen else values[-1 if other else 0]))
        elif tag == "input" and attrs.get("type") == "checkbox" and not attrs.get("id"):
            if sum(1 for n, _ in out if n == name) < 2:
                out.append((name, attrs.get("value") or ""))
        elif tag == "input" and "required" in attrs and attrs.get("id"):
            out.append((name, {"valeur": "-1", "expression": "1d6"}.get(name, "1")))
    return out


async def post(client: httpx.AsyncClient, table: Table, path: str,
               data: list[tuple[str, str]]) -> str:
    form: dict[str, list[str]] = {}
    for name, value in data:
        form.setdefault(name, []).append(value)
    return await page(client, table, path, form)


async def system_table(client: httpx.AsyncClient, system_id: str) -> tuple[Table, str]:
    """A table of `system_id` with two characters from the system's template: its own name
    (returned) and « Adversaire »."""
    text = get_system(system_id).template()
    name = re.search(r"^nom: *(.+?) *(#.*)?$", text, re.M)
    assert name is not None
    table = await make_table(client, systeme=system_id)
    await add_character(client, table, table.mj, text)
    await add_character(client, table, table.mj,
                        text.replace(f"nom: {name.group(1)}", "nom: Adversaire", 1))
    return table, name.group(1).strip()


@pytest.mark.parametrize("system_id", available())
async def test_every_form_and_answer_of_the_pages_reads_without_command_syntax(
        tmp_path: Path, system_id: str) -> None:
    async with in_process(str(tmp_path / "tables.jdr")) as client:
        table, me = await system_table(client, system_id)
        client.cookies.set(f"jdr_{table.id}", table.mj)
        home = (await client.get(f"/tables/{table.id}")).text
        client.cookies.clear()
        kinds = [v for v, _ in read(home).options["type"]]
        assert "check" in kinds and any(k.startswith("regle:") for k in kinds) == (
            system_id != "deuxdes")
        seen: dict[str, list[str]] = {}
        refusals = 0
        for kind in kinds:
            who = [("type", kind), ("personnage", me), ("attaquant", me), ("role.0", me),
                   ("defenseur", "Adversaire")]
            form = await post(client, table, "/f/formulaire", who)
            chosen = filled(form, kind)
            odds = await post(client, table, "/f/chances", chosen)
            played = await post(client, table, "/f/jet", chosen)
            refusals += 'class="message erreur"' in played
            seen[kind] = [*command_syntax(form), *command_syntax(odds), *command_syntax(played)]
    assert {kind: found for kind, found in seen.items() if found} == {}
    assert refusals < len(kinds)  # the walk plays actions, it is not only refused


# (system, action, params with « A » for the template's character, « B » for the other,
#  status, words the pages must say)
REFUSALS = [
    ("cydonia", "regle", {"nom": "soin", "personnages": ["A"]}, 422,
     "il manque « PV rendus » (donnée du MJ)"),
    ("cydonia", "attack", {"attaquant": "A", "defenseur": "B",
                           "opt": {"defenseur_monte": "peut-être"}}, 422,
     "« Défenseur monté » : « peut-être » n'est ni oui ni non"),
    ("cydonia", "regle", {"nom": "charge", "personnages": ["A", "B"],
                          "opt": {"course_monture": "500"}}, 422,
     "« Course de la monture » : 500 hors limites (autorisé : de 0 à 100)"),
    ("cydonia", "check", {"personnage": "A", "competence": "physique", "opt": {"zzz": "1"}}, 422,
     "option « zzz » introuvable"),
    ("cydonia", "check", {"personnage": "A", "competence": "physique", "de": "d6"}, 422,
     "« Dé » : Cydonia lance toujours 1d10"),
    ("cydonia", "check", {"personnage": "A", "competence": "physique", "seuil": "10",
                          "contre": "B"}, 400,
     "« Seuil » et « Contre un adversaire » s'excluent"),
    ("felins", "regle", {"nom": "tanniere", "personnages": ["A"]}, 422,
     "il manque « Jours à la tanière »"),
    ("felins", "check", {"personnage": "A", "competence": "agilite", "de": "d6"}, 422,
     "felins : « Dé » ne sert pas ici"),
    ("dd35", "check", {"personnage": "A", "competence": "force", "de": "d6"}, 422,
     "« Dé » (d6) : le système dd35 lance toujours 1d20"),
    ("dd35", "regle", {"nom": "tour", "personnages": ["A"]}, 422,
     "tour : précisez « Actions du tour »"),
    ("maitrise", "check", {"personnage": "A", "competence": "force", "choix": "2"}, 422,
     "« Dé gardé » : un seul d20 est lancé"),
    ("cyd", "check", {"personnage": "A", "competence": "adresse"}, 422,
     "choisissez votre dé : « Dé » (d10 prudent"),
    ("deuxdes", "attack", {"attaquant": "A", "defenseur": "B", "arme": "Lance"}, 422,
     "arme « Lance » : absente de la fiche d'Aldo"),
]


def _named(params: dict[str, Any], me: str) -> dict[str, Any]:
    names = {"A": me, "B": "Adversaire"}
    return {k: ([names.get(x, x) for x in v] if isinstance(v, list) else names.get(v, v)
                if isinstance(v, str) else v) for k, v in params.items()}


@pytest.mark.parametrize(("system_id", "kind", "params", "status", "words"), REFUSALS)
async def test_refusals_name_options_by_their_label_in_the_api_and_the_pages(
        tmp_path: Path, system_id: str, kind: str, params: dict[str, Any], status: int,
        words: str) -> None:
    async with in_process(str(tmp_path / "tables.jdr")) as client:
        table, me = await system_table(client, system_id)
        named = _named(params, me)
        r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(table.mj),
                              json={"type": kind, "params": named})
        assert r.status_code == status, r.text
        error = r.json()["error"]
        assert words in error and not CLI_SYNTAX.search(error), error
        # the same refusal in the pages (the roll box's form, as htmx sends it)
        from jdr.core.declare import form_values

        box = "regle:" + named["nom"] if kind == "regle" else kind
        fields = [(k, v) for k, v in form_values(kind, named) if k != "nom"]
        answer = await post(client, table, "/f/jet", [("type", box), *fields])
    assert 'class="message erreur"' in answer and words.replace("'", "&#39;") in answer, answer
    assert command_syntax(answer) == []


def test_the_command_line_keeps_its_own_words(tmp_path: Path) -> None:
    """The same refusal outside the pages: `--opt pv=N`, as one types it."""
    from jdr.core.actions import execute
    from jdr.core.usecase import FileWorkspace
    from jdr.errors import RuleError

    sheet = tmp_path / "perso.yaml"
    sheet.write_text(get_system("cydonia").template(), encoding="utf-8")
    with pytest.raises(RuleError) as caught:
        execute(FileWorkspace(), "regle", {"nom": "soin", "personnages": [str(sheet)]})
    assert caught.value.message == "--opt pv=N manquant : PV rendus (donnée du MJ)"
    assert caught.value.pages == "il manque « PV rendus » (donnée du MJ)"


async def test_the_odds_wait_for_a_required_option(tmp_path: Path) -> None:
    """A required option is marked in the form; a rule's odds before it is filled: the form asks
    for it, no refusal."""
    async with in_process(str(tmp_path / "tables.jdr")) as client:
        table, me = await system_table(client, "cydonia")
        form = [("type", "regle:allure"), ("role.0", me)]
        html = await post(client, table, "/f/formulaire", form)
        assert re.search(r'<select id="opt-allure" name="opt.allure"[^>]*>\s*<option value="">'
                         r"— choisir —", html), html
        care = await post(client, table, "/f/formulaire", [("type", "regle:soin"), ("role.0", me)])
        assert re.search(r'<input id="opt-pv" name="opt.pv"[^>]* required>', care), care
        waiting = await post(client, table, "/f/chances", form)
        filled_in = await post(client, table, "/f/chances", [*form, ("opt.allure", "pas")])
    assert "Remplissez le formulaire" in waiting and "erreur" not in waiting, waiting
    assert 'class="pourcent"' in filled_in, filled_in
