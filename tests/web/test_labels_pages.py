"""What a French player reads in the pages (issue 15, labels): a system's options by their French
label (« Défenseur monté », not « Defenseur monte »), their rule a hint beside the label and never
inside it (the accessible name), each value of a closed list by its label while the value sent
stays the data; the table's header names its game (« Cydonia », « Félins »), not the system's id;
numbers of a thousand or more grouped (« 20 000 »)."""

from __future__ import annotations

import re

import pytest
from web_support import GOBELIN_YAML, NAIN_YAML, add_character, in_process, make_table, page

pytestmark = pytest.mark.anyio


async def nain_page(db: str, path: str) -> str:
    """A page of a new table with one character (Nain A), as its MJ sees it."""
    async with in_process(db) as client:
        table = await make_table(client)
        await add_character(client, table, table.mj, NAIN_YAML)
        return await page(client, table, path)


def labels(html: str) -> dict[str, str]:
    """Each control's label text (what names it), by the control's id."""
    return {m[1]: re.sub(r"<[^>]+>", "", m[2]).strip()
            for m in re.finditer(r'<label for="([^"]+)">(.*?)</label>', html, re.S)}


async def test_combat_panel_reads_french_labels_with_the_rule_beside(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client)
        await add_character(client, table, table.mj, NAIN_YAML)
        await add_character(client, table, table.mj, GOBELIN_YAML)
        started = await page(client, table, "/f/combat/debut", {"personnages": ["Nain A", "Gobelin"]})
        assert "commence" in started, started
        html = await page(client, table, "/combat")
    named = labels(html)
    assert named["opt-defenseur_monte"] == "Défenseur monté"
    assert named["opt-monte"] == "Attaquant monté"
    assert named["opt-letal"] == "Intention de tuer"
    assert not any(re.search(r"R\d{3}\.\d{2}|_", text) for text in named.values()), named
    # the rule is a discreet hint beside its label, not inside it
    assert re.search(r'<label for="opt-defenseur_monte">Défenseur monté</label> <small class="regle" '
                     r'[^>]*>règle R000\.38</small>', html), html
    assert "Defenseur monte" not in html and "(R000.38)" not in html
    # a closed list: each value by its label, the value sent stays the data
    choices = html[html.index('id="opt-concentration"'):]
    choices = choices[:choices.index("</select>")]
    assert '<option value="jet">Au jet</option>' in choices
    assert '<option value="degats">Aux dégâts</option>' in choices
    yes_no = html[html.index('id="opt-morsure"'):]
    yes_no = yes_no[:yes_no.index("</select>")]
    # nothing chosen sends nothing: the system's default, said in words
    assert ('<option value="">— par défaut : Non —</option><option value="oui">Oui</option>'
            '<option value="non">Non</option>') in yes_no


@pytest.mark.parametrize(("system", "name"), [("cydonia", "Cydonia"), ("felins", "Félins")])
async def test_header_names_the_game_not_its_id(db_target: str, system: str, name: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client, systeme=system)
        html = await page(client, table, "/combat")
        home = (await client.get("/")).text
    header = re.search(r'<span class="nom-table">(.*?)</span>', html, re.S)
    assert header is not None
    assert f">({name})</small>" in header[1] and f"({system})" not in header[1]
    assert f'<option value="{system}" title="' in home and f">{name}</option>" in home


async def test_header_does_not_repeat_a_game_the_table_name_says(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client, nom="Démo Félins du quartier", systeme="felins")
        html = await page(client, table, "/combat")
    header = re.search(r'<span class="nom-table">(.*?)</span>', html, re.S)
    assert header is not None and header[1].strip() == "Démo Félins du quartier"


async def test_simulation_form_groups_thousands(db_target: str) -> None:
    html = await nain_page(db_target, "/combat")
    named = labels(html)
    assert named["sim-n"] == "Nombre de combats (de 1 à 20\u202f000)", named
    assert named["sim-graine"] == "Graine (de 0 à 999\u202f999\u202f999)"


async def test_a_long_help_is_shown_whole_under_its_field(db_target: str) -> None:
    """A placeholder is cut at the field's width (375 px on a phone): a help longer than a short
    hint is written under the field, whole, and read with it; a short one stays the placeholder."""
    html = await nain_page(db_target, "")
    seuil = re.search(r'<input id="([^"]*seuil)"[^>]*>', html)
    assert seuil is not None and "placeholder" not in seuil[0]
    assert f'aria-describedby="{seuil[1]}-aide"' in seuil[0]
    shown = re.search(rf'<small class="indice" id="{seuil[1]}-aide">(.*?)</small>', html, re.S)
    assert shown is not None and "facile" in shown[1] and "…" in shown[1]  # whole, not cut
    bonus = re.search(r'<input id="[^"]*bonus"[^>]*>', html)
    assert bonus is not None and 'placeholder="' in bonus[0] and "aria-describedby" not in bonus[0]


async def test_the_rules_list_writes_their_french_names(db_target: str) -> None:
    """A rule typed `elan` reads « élan » in the pages' list of actions; the value sent stays
    the typed name."""
    html = await nain_page(db_target, "")
    assert '<option value="regle:elan">Règle : élan — ' in html
    assert '<option value="regle:negociation">Règle : négociation — ' in html
    assert "Règle : elan" not in html


async def test_a_negative_bound_reads_with_a_true_minus(db_target: str) -> None:
    html = await nain_page(db_target, "")
    named = labels(html)
    bonus = next(v for k, v in named.items() if k.endswith("bonus"))
    assert bonus == "Bonus (de \u22121\u202f000 à 1\u202f000)", bonus
