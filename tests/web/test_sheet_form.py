"""The sheet form's routes in process, on SQLite and PostgreSQL: creation through the API's path
(owner, creation rules), every problem once beside its field, edition with the version read
(a stale one refused, nothing written), roles."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from web_support import NAIN_YAML, Table, add_character, in_process, invite, make_table

from jdr.core import sheetform
from jdr.core.registry import get_system
from jdr.core.sheet import SheetDocument

pytestmark = pytest.mark.anyio


def _form(yaml: str) -> dict[str, list[str]]:
    from pathlib import Path

    schema = sheetform.schema_of(sheetform.form_data(get_system("cydonia")))
    return sheetform.values_of(sheetform.nodes(schema, SheetDocument.from_text(
        yaml, Path("f.yaml")).plain()))


async def _post(client: httpx.AsyncClient, table: Table, token: str, path: str,
                form: dict[str, Any]) -> httpx.Response:
    from jdr.web.origin import csrf_token

    client.cookies.set(f"jdr_{table.id}", token)
    return await client.post(f"/tables/{table.id}{path}", data=form,
                             headers={"X-JDR-CSRF": csrf_token(token)})  # the pages' form token


def _slot(html: str, ident: str) -> str:
    found = re.search(rf'<p class="erreur-champ" id="{ident}-err"[^>]*>(.*?)</p>', html, re.S)
    assert found, ident
    return found.group(1)


async def test_creation_checked_as_typed_then_made_by_the_players_path(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client)
        lise, _ = await invite(client, table, "joueur", "Lise")
        sam, _ = await invite(client, table, "spectateur", "Sam")
        client.cookies.set(f"jdr_{table.id}", lise)
        page = await client.get(f"/tables/{table.id}/nouvelle-fiche")
        assert page.status_code == 200
        assert '<label for="champ-caracteristiques-dexterite">Dextérité' in page.text
        assert 'id="champ-armes-0-equipee"' in page.text and "<select" in page.text
        assert '<option value="">— neutre (sans accord) —</option>' in page.text  # genre left empty

        form = _form(get_system("cydonia").template())
        form.update({"f/nom": ["Brunehilde"], "f/peuple": ["nain"],
                     "f/caracteristiques/physique": ["30"]})
        answer = await _post(client, table, lise, "/f/fiche/valider", form)
        assert _slot(answer.text, "champ-caracteristiques-physique") == \
            "30 hors limites (autorisé : de 1 à 14)"
        assert answer.text.count("hors limites") == 1  # once, beside its field
        assert _slot(answer.text, "champ-nom") == ""  # every place is emptied too
        form["f/caracteristiques/physique"] = ["7"]
        answer = await _post(client, table, lise, "/f/fiche/valider", form)
        assert "Expert en Négociation" in _slot(answer.text, "champ-expertes")
        refused = await _post(client, table, lise, "/nouvelle-fiche", form)
        assert "corrigez les champs signalés" in refused.text and "HX-Redirect" not in refused.headers
        assert (await client.get(f"/api/tables/{table.id}/personnages",
                                 headers={"Authorization": f"Bearer {lise}"})).json() == []

        form.update({"f/expertes/0/_": [""], "f/expertes/0": ["negociation"]})
        made = await _post(client, table, lise, "/nouvelle-fiche", form)
        assert made.headers["HX-Redirect"] == f"/tables/{table.id}/fiches/Brunehilde"
        yaml = (await client.get(f"/api/tables/{table.id}/personnages/Brunehilde?format=yaml",
                                 headers={"Authorization": f"Bearer {lise}"})).text
        assert "expertes: [negociation]" in yaml and "# Fiche Cydonia" in yaml
        people = (await client.get(f"/api/tables/{table.id}/personnages",
                                   headers={"Authorization": f"Bearer {table.mj}"})).json()
        assert [(p["nom"], p["joueur"]) for p in people] == [("Brunehilde", "Lise")]

        again = await _post(client, table, lise, "/nouvelle-fiche", form)  # same name: 409
        assert "existe déjà" in again.text
        form["joueur"] = ["Paul"]
        other = await _post(client, table, lise, "/nouvelle-fiche", {**form, "f/nom": ["Autre"]})
        assert "un joueur ne crée que ses propres personnages" in other.text
        spectator = await _post(client, table, sam, "/nouvelle-fiche", form)
        assert spectator.status_code == 403

        client.cookies.set(f"jdr_{table.id}", table.mj)  # the MJ may give it to a player
        page = await client.get(f"/tables/{table.id}/nouvelle-fiche")
        assert '<select id="fiche-joueur" name="joueur">' in page.text
        assert "<option>Lise</option>" in page.text
        npc = await _post(client, table, table.mj, "/nouvelle-fiche",
                          {**form, "f/nom": ["Gorm"], "joueur": [""]})
        assert npc.headers["HX-Redirect"].endswith("/fiches/Gorm")


async def test_edition_every_key_with_the_version_read(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client)
        lise, _ = await invite(client, table, "joueur", "Lise")
        made = await add_character(client, table, lise, NAIN_YAML, joueur=None)
        client.cookies.set(f"jdr_{table.id}", lise)
        page = await client.get(f"/tables/{table.id}/fiches/Nain A")
        assert 'name="version" value="1"' in page.text
        form = _form(NAIN_YAML)
        form.update({"personnage": ["Nain A"], "version": [str(made["version"])],
                     "f/protections/0/_": [""], "f/protections/0/cle": ["tete"],
                     "f/protections/0/valeur": ["2"]})
        saved = await _post(client, table, lise, "/f/fiche/enregistrer", form)
        assert saved.headers["HX-Redirect"] == f"/tables/{table.id}/fiches/Nain%20A"
        bearer = {"Authorization": f"Bearer {lise}"}
        after = await client.get(f"/api/tables/{table.id}/personnages/Nain A?format=yaml",
                                 headers=bearer)
        assert "tete: 2" in after.text
        stale = await _post(client, table, lise, "/f/fiche/enregistrer",
                            {**form, "f/xp": ["99"]})
        assert "version périmée" in stale.text
        again = await client.get(f"/api/tables/{table.id}/personnages/Nain A?format=yaml",
                                 headers=bearer)
        assert again.text == after.text

        item = await _post(client, table, lise, "/f/fiche/element", {**form, "liste": ["f/armes"]})
        assert 'name="f/armes/1/nom"' in item.text and 'id="champ-armes-1-competence"' in item.text
        wrong = await _post(client, table, lise, "/f/fiche/element", {"liste": ["f/nom"]})
        assert wrong.status_code == 422


async def test_xp_form_is_the_declaration(tmp_path: Any) -> None:
    """The sheet page's XP form is the `xp` declaration's (its lists the sheet's own): the cost
    first (nothing written), then the purchase carried by the preview's hidden fields."""
    from jdr.core.declare import ACTIONS

    async with in_process(str(tmp_path / "t.jdr")) as client:
        table = await make_table(client)
        lise, _ = await invite(client, table, "joueur", "Lise")
        await add_character(client, table, lise, NAIN_YAML, joueur=None)
        client.cookies.set(f"jdr_{table.id}", lise)
        page = (await client.get(f"/tables/{table.id}/fiches/Nain A")).text
        xp = page[page.index('<form id="xp"'):page.index('<div id="xp-cout"')]
        for p in ACTIONS["xp"].params:
            if p.kind not in ("character", "options"):  # the page's own character; no option
                assert f'name="{p.name}"' in xp and f"{p.label}" in xp, p.name
        assert '<option value="esquive">' in xp and "achat" not in xp
        cost = await _post(client, table, lise, "/f/fiches/Nain A/xp", {"competence": "esquive"})
        assert '<b id="xp-prix">2 XP</b>' in cost.text
        assert '<input type="hidden" name="competence" value="esquive">' in cost.text
        bearer = {"Authorization": f"Bearer {lise}"}
        sheet = (await client.get(f"/api/tables/{table.id}/personnages/Nain A", headers=bearer))
        assert sheet.json()["fiche"]["values"]["xp"] == 10
        bought = await _post(client, table, lise, "/f/fiches/Nain A/xp/achat",
                             {"competence": "esquive"})
        assert bought.status_code == 200
        sheet = (await client.get(f"/api/tables/{table.id}/personnages/Nain A", headers=bearer))
        assert sheet.json()["fiche"]["values"]["xp"] == 8
