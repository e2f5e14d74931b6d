"""The routes in process (httpx ASGI transport), on SQLite and PostgreSQL: tables, tokens, people,
characters, actions as the CLI runs them, undo, journal, limits and French errors."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import (
    ELFE_YAML,
    GOBELIN_YAML,
    NAIN_YAML,
    Table,
    add_character,
    bearer,
    in_process,
    invite,
    make_table,
    roll,
    sheet,
)

pytestmark = pytest.mark.anyio


async def test_table_creation_open_on_loopback_admin_token_elsewhere(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client, "La Marche")
        r = await client.post("/api/tables", json={"nom": "La Marche", "systeme": "cydonia"})
        assert r.status_code == 409 and "existe déjà" in r.json()["error"]
        r = await client.post("/api/tables", json={"nom": "Autre", "systeme": "gurps"})
        assert r.status_code == 400 and "système" in r.json()["error"]
    async with in_process(db_target, admin="secret-admin", loopback=False) as client:
        for headers in ({}, bearer("mauvais"), bearer(table.mj)):
            r = await client.post("/api/tables", json={"nom": "T2", "systeme": "dd35"}, headers=headers)
            assert r.status_code == 401 and "administration" in r.json()["error"]
        second = await make_table(client, "T2", "dd35", admin="secret-admin")
        assert second.id != table.id
    async with in_process(db_target, admin=None, loopback=False) as client:
        r = await client.post("/api/tables", json={"nom": "T3", "systeme": "dd35"})
        assert r.status_code == 403


async def test_tables_created_at_once_all_exist(db_target: str) -> None:
    """Twelve tables created at the same time (the server's thread pool): each gets its own id
    and MJ, on the server's own connections (a table no longer opens a second pool nor runs the
    migrations again, which raced on PostgreSQL)."""
    import asyncio

    async with in_process(db_target) as client:
        tables = await asyncio.gather(*(make_table(client, f"Ensemble {n}") for n in range(12)))
        assert len({t.id for t in tables}) == 12 and len({t.mj for t in tables}) == 12
        for table in tables:
            r = await client.get(f"/api/tables/{table.id}/membres", headers=bearer(table.mj))
            assert r.status_code == 200, r.text


async def test_tokens_random_and_kept_only_as_hashes(db_target: str) -> None:
    from jdr.campaign.rows import MemberRow

    async with in_process(db_target) as client:
        table = await make_table(client)
        joueur, _ = await invite(client, table, "joueur", "Lise")
        server = client._transport.app.state.server  # type: ignore[attr-defined]
        with server.session() as session:
            rows = session.rows(MemberRow, tail="ORDER BY id")
            stored = [(r.name, r.role, r.token_hash) for r in rows]
    assert len(table.mj) >= 43 and len(joueur) >= 43 and table.mj != joueur  # 256 bits each
    assert stored == [("MJ", "mj", hashlib.sha256(table.mj.encode()).hexdigest()),
                      ("Lise", "joueur", hashlib.sha256(joueur.encode()).hexdigest())]


async def test_invitations_members_and_revocation(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client)
        r = await client.post(f"/api/tables/{table.id}/invitations", headers=bearer(table.mj),
                              json={"role": "joueur", "nom": "Lise"})
        assert r.status_code == 201
        lise, lise_id = r.json()["jeton"], r.json()["membre"]["id"]
        assert r.json()["lien"].endswith(f"/table/{table.id}#jeton={lise}")
        again = await client.post(f"/api/tables/{table.id}/invitations", headers=bearer(table.mj),
                                  json={"role": "spectateur", "nom": "lise"})
        assert again.status_code == 409
        bad = await client.post(f"/api/tables/{table.id}/invitations", headers=bearer(table.mj),
                                json={"role": "mj", "nom": "Paul"})
        assert bad.status_code == 422 and "role" in bad.json()["error"]
        members = (await client.get(f"/api/tables/{table.id}/membres", headers=bearer(table.mj))).json()
        assert [(m["nom"], m["role"], m["revoque"]) for m in members] == [
            ("MJ", "mj", False), ("Lise", "joueur", False)]
        assert (await client.get(f"/api/tables/{table.id}/journal", headers=bearer(lise))).status_code == 200
        r = await client.delete(f"/api/tables/{table.id}/membres/{lise_id}", headers=bearer(table.mj))
        assert r.status_code == 200 and r.json()["revoque"] is True
        r = await client.get(f"/api/tables/{table.id}/journal", headers=bearer(lise))
        assert r.status_code == 401 and r.json() == {"error": "jeton inconnu ou révoqué"}
        assert r.headers["www-authenticate"] == "Bearer"
        self_id = members[0]["id"]
        r = await client.delete(f"/api/tables/{table.id}/membres/{self_id}", headers=bearer(table.mj))
        assert r.status_code == 409
        r = await client.delete(f"/api/tables/{table.id}/membres/999", headers=bearer(table.mj))
        assert r.status_code == 404
        relisted, _ = await invite(client, table, "joueur", "Lise")  # a new token for the same name
        assert relisted != lise


async def test_characters_validated_owned_versioned(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client)
        lise, _ = await invite(client, table, "joueur", "Lise")
        base = f"/api/tables/{table.id}/personnages"
        r = await client.post(base, json={"yaml": "systeme: cydonia\nnom: X\npv: abc\n"},
                              headers=bearer(table.mj))
        assert r.status_code == 422 and len(r.json()["problemes"]) == 2
        assert "caracteristiques" in r.json()["error"]
        r = await client.post(base, json={"yaml": "a: [1"}, headers=bearer(table.mj))
        assert r.status_code == 422 and "YAML invalide" in r.json()["error"]
        r = await client.post(base, json={"yaml": "systeme: felins\nnom: Chat\n"}, headers=bearer(table.mj))
        assert r.status_code == 422
        assert (await add_character(client, table, lise, NAIN_YAML))["joueur"] == "Lise"
        npc = await add_character(client, table, table.mj, GOBELIN_YAML)
        assert (npc["type"], npc["joueur"]) == ("pnj", None)
        given = await add_character(client, table, table.mj, ELFE_YAML, joueur="lise")
        assert (given["type"], given["joueur"]) == ("pj", "Lise")
        r = await client.post(base, json={"yaml": sheet("Orc"), "joueur": "Inconnu"},
                              headers=bearer(table.mj))
        assert r.status_code == 422 and "Inconnu" in r.json()["error"]
        r = await client.post(base, json={"yaml": NAIN_YAML}, headers=bearer(table.mj))
        assert r.status_code == 409
        r = await client.post(base, json={"yaml": sheet("Orc"), "joueur": "MJ"}, headers=bearer(lise))
        assert r.status_code == 403
        listed = (await client.get(base, headers=bearer(lise))).json()
        assert [c["nom"] for c in listed] == ["Nain A", "Elfe B"]
        view = (await client.get(f"{base}/nain a", headers=bearer(lise))).json()
        assert view["version"] == 1 and view["fiche"]["values"]["hache"] == 6 and "Hache" in view["texte"]
        r = await client.get(f"{base}/Nain A", params={"format": "yaml"}, headers=bearer(lise))
        assert r.text == NAIN_YAML and r.headers["etag"] == '"1"'
        assert r.headers["content-type"].startswith("application/yaml")
        changed = NAIN_YAML.replace("xp: 10", "xp: 12")
        r = await client.put(f"{base}/Nain A", json={"yaml": changed, "version": 1}, headers=bearer(lise))
        assert r.status_code == 200 and r.json()["version"] == 2
        r = await client.put(f"{base}/Nain A", json={"yaml": NAIN_YAML, "version": 1},
                             headers=bearer(table.mj))
        assert r.status_code == 409 and "version" in r.json()["error"]
        r = await client.put(f"{base}/Nain A", json={"yaml": sheet("Autre"), "version": 2},
                             headers=bearer(table.mj))
        assert r.status_code == 422
        r = await client.get(f"{base}/Nain A", params={"format": "yaml"}, headers=bearer(table.mj))
        assert r.text == changed  # comments and key order kept; the refused updates left nothing
        r = await client.put(f"{base}/Gobelin", json={"yaml": GOBELIN_YAML, "version": 1, "joueur": "Lise"},
                             headers=bearer(table.mj))
        assert r.status_code == 200 and r.json()["joueur"] == "Lise"
        assert (await client.get(f"{base}/Fantôme", headers=bearer(table.mj))).status_code == 404


async def _table_with_heroes(client: httpx.AsyncClient) -> tuple[Table, str]:
    table = await make_table(client)
    lise, _ = await invite(client, table, "joueur", "Lise")
    await add_character(client, table, lise, NAIN_YAML)
    await add_character(client, table, table.mj, ELFE_YAML)
    return table, lise


def _same_as_core(kind: str, params: dict[str, Any], faces: list[int], tmp_path: Path) -> dict[str, Any]:
    """The same action, files and faces, run by `core.actions` outside the server."""
    from jdr.core.actions import execute
    from jdr.core.usecase import FileWorkspace
    from jdr.dice.source import FixedSource

    files = {"Nain A": NAIN_YAML, "Elfe B": ELFE_YAML}
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / f"{name}.yaml"
        paths[name].write_text(text, encoding="utf-8")
    local = {k: str(paths[v]) if v in paths else v for k, v in params.items()
             if isinstance(v, str)}
    done = execute(FileWorkspace(), kind, local, FixedSource(faces), dry_run=True)
    result: dict[str, Any] = done.rec.result
    return result


async def test_actions_run_as_the_cli(db_target: str, tmp_path: Path) -> None:
    async with in_process(db_target) as client:
        table, lise = await _table_with_heroes(client)
        url = f"/api/tables/{table.id}/actions"
        check = {"personnage": "Nain A", "competence": "hache", "seuil": "15"}
        r = await client.post(url, headers=bearer(lise), json={"type": "check", "params": check, "des": [8]})
        assert r.status_code == 200, r.text
        entry = r.json()
        assert (entry["seq"], entry["actor"], entry["author"], entry["visibility"]) == (
            1, "Nain A", "Lise", "public")
        assert entry["result"] == _same_as_core("check", check, [8], tmp_path)
        assert "RÉUSSITE" in entry["text"] and "[b]" in entry["forum"]
        attack = {"attaquant": "Nain A", "defenseur": "Elfe B", "arme": "Hache de bûcheron"}
        r = await client.post(url, headers=bearer(lise), json={"type": "attack", "params": attack,
                                                                "des": [9, 2, 19, 10]})
        assert r.status_code == 200, r.text
        assert r.json()["result"] == _same_as_core("attack", attack, [9, 2, 19, 10], tmp_path)
        assert r.json()["changes"], "the defender's PV changed"
        elfe = (await client.get(f"/api/tables/{table.id}/personnages/Elfe B",
                                 headers=bearer(table.mj))).json()
        assert elfe["version"] == 2
        r = await client.post(url, headers=bearer(table.mj), json={"type": "roll", "graine": 7,
                                                                     "params": {"expression": "4d6kh3"}})
        again = await client.post(url, headers=bearer(table.mj), json={"type": "roll", "graine": 7,
                                                                         "params": {"expression": "4d6kh3"}})
        assert r.json()["result"] == again.json()["result"] and again.json()["seq"] == 4
        assert r.json()["actor"] == "MJ"


async def test_odds_change_nothing_and_are_not_journaled(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, lise = await _table_with_heroes(client)
        r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(lise), json={
            "type": "odds", "params": {"personnage": "Nain A", "competence": "hache", "seuil": "15"}})
        assert r.status_code == 200 and r.json()["seq"] is None
        assert "Chances" in r.json()["text"] and r.json()["result"]["success"]
        r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(lise), json={
            "type": "show", "params": {"personnage": "Nain A"}})
        assert r.status_code == 200 and r.json()["seq"] is None
        assert (await client.get(f"/api/tables/{table.id}/journal", headers=bearer(table.mj))).json() == []


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"type": "roll", "params": {"expression": "1d6"}, "des": [7]}, 400, "impossible sur un d6"),
    ({"type": "roll", "params": {"expression": "1d6"}, "des": [3, 4]}, 400, "en trop"),
    ({"type": "roll", "params": {"expression": "1d6"}, "des": [-3]}, 400, "n'est pas une face"),
    ({"type": "roll", "params": {"expression": "1d6"}, "des": [12345678]}, 400, "au plus 7"),
    ({"type": "roll", "params": {"expression": "100000d6"}}, 400, "dés"),
    ({"type": "roll", "params": {"expression": "1d6"}, "graine": -1}, 422, "graine"),
    ({"type": "roll", "params": {"expression": "1d6"}, "des": [True]}, 422, "des"),
    ({"type": "roll", "params": {"expression": "1d6"}, "des": list(range(1, 1002))}, 422, "1000"),
    ({"type": "voler", "params": {}}, 400, "inconnue"),
    ({"type": "check", "params": {"personnage": "Nain A"}}, 400, "competence"),
    ({"type": "check", "params": {"personnage": "Nain A", "competence": "hache", "couleur": "x"}}, 400,
     "paramètre"),
    ({"type": "check", "params": {"personnage": "Zorro", "competence": "hache"}}, 404, "Zorro"),
    ({"type": "check", "params": {"personnage": "Nain A", "competence": "vol", "seuil": "1"}}, 422, "vol"),
    ({"type": "roll", "params": {"expression": "1d6"}, "visibilite": "tous"}, 422, "visibilite"),
])
async def test_dice_limits_and_bad_actions_in_french(db_target: str, body: dict[str, Any], status: int,
                                                      words: str) -> None:
    async with in_process(db_target) as client:
        table, lise = await _table_with_heroes(client)
        r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(lise), json=body)
        assert r.status_code == status, r.text
        assert set(r.json()) <= {"error", "problemes"} and words in r.json()["error"], r.json()
        assert (await client.get(f"/api/tables/{table.id}/journal", headers=bearer(table.mj))).json() == []


async def test_undo_and_journal_since(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, lise = await _table_with_heroes(client)
        r = await client.post(f"/api/tables/{table.id}/annuler", headers=bearer(table.mj))
        assert r.status_code == 409 and "rien à annuler" in r.json()["error"]
        r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(lise), json={
            "type": "xp", "params": {"personnage": "Nain A", "competence": "hache"}})
        assert r.status_code == 200, r.text
        await roll(client, table, lise)
        r = await client.post(f"/api/tables/{table.id}/annuler", headers=bearer(table.mj))
        assert r.status_code == 200 and r.json()["undoes"] == 2
        r = await client.post(f"/api/tables/{table.id}/annuler", headers=bearer(table.mj))
        assert r.status_code == 200 and r.json()["undoes"] == 1
        yaml = (await client.get(f"/api/tables/{table.id}/personnages/Nain A", params={"format": "yaml"},
                                 headers=bearer(lise))).text
        assert yaml == NAIN_YAML
        journal = (await client.get(f"/api/tables/{table.id}/journal", params={"depuis": 2},
                                    headers=bearer(lise))).json()
        assert [(e["seq"], e["action"], e["undoes"]) for e in journal] == [
            (3, "annuler", 2), (4, "annuler", 1)]


async def test_every_error_is_french_json(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client)
        auth = bearer(table.mj)
        url = f"/api/tables/{table.id}/actions"
        cases = [
            (await client.get("/api/rien"), 404),
            (await client.get("/ailleurs"), 404),
            (await client.put("/api/tables"), 405),
            (await client.post(url, content=b"{", headers={**auth, "content-type": "application/json"}), 400),
            (await client.post(url, json={"type": 3, "zz": 1}, headers=auth), 422),
            (await client.post(url, json={"type": "roll", "params": {"expression": "1d6\u0000"}},
                               headers=auth), 422),
            (await client.post(url, json=["liste"], headers=auth), 422),
            (await client.post(url, json={"type": "roll"}), 401),
            (await client.post(url, json={"type": "roll"}, headers=bearer("x" * 500)), 401),
            (await client.get("/api/tables/abc/journal", headers=auth), 404),
            (await client.get("/api/tables/99999999999/journal", headers=auth), 404),
            (await client.get(f"/api/tables/{table.id}/journal", params={"depuis": -1}, headers=auth), 422),
            (await client.get(f"/api/tables/{table.id}/personnages/x", params={"format": "xml"},
                              headers=auth), 422),
        ]
        for response, status in cases:
            assert response.status_code == status, (response.request.url, response.text)
            body = response.json()
            assert set(body) == {"error"} and body["error"], body
            assert "Traceback" not in body["error"] and "field required" not in body["error"].lower()


async def test_bodies_over_64_kb_refused(db_target: str) -> None:
    async with in_process(db_target) as client:
        table = await make_table(client)
        url = f"/api/tables/{table.id}/personnages"
        big = {"yaml": "# " + "x" * 70_000}
        r = await client.post(url, json=big, headers=bearer(table.mj))
        assert r.status_code == 413 and r.json() == {"error": "corps de requête trop grand (64 Ko au plus)"}

        async def chunks() -> Any:  # no Content-Length: counted as it streams
            for _ in range(20):
                yield b"x" * 4096

        r = await client.post(url, content=chunks(),
                              headers={**bearer(table.mj), "content-type": "application/json"})
        assert r.status_code == 413 and "transfer-encoding" in r.request.headers
        small = await client.post(url, json={"yaml": sheet("Petit")}, headers=bearer(table.mj))
        assert small.status_code == 201


async def test_openapi_schema_served(db_target: str) -> None:
    async with in_process(db_target) as client:
        schema = (await client.get("/api/openapi.json")).json()
    paths = set(schema["paths"])
    assert {"/api/tables", "/api/tables/{id}/actions", "/api/tables/{id}/journal",
            "/api/tables/{id}/personnages/{nom}", "/api/tables/{id}/membres/{membre}"} <= paths
    assert "HTTPBearer" in schema["components"]["securitySchemes"]


FUZZ_VALUES: list[Any] = ["Nain A", "Elfe B", "Gobelin", "hache", "esquive", "15", "-3", "0", "abc", "",
                          "4d6kh3", "oui", ["Nain A", "Elfe B"], ["x=1"], {"a": "b"}, 3, True, None,
                          "Nain A:hache", "physique", "99999999999"]


async def test_random_actions_never_fail_the_server(tmp_path: Path) -> None:
    """300 seeded random actions (every type, known and bad values, dice by hand or seeded): each
    answers a result or a French error, never a 500."""
    import random

    from jdr.core.declare import ACTIONS, ENGINE_KINDS

    rng = random.Random(11)
    async with in_process(str(tmp_path / "fuzz.jdr")) as client:
        table = await make_table(client)
        for text in (NAIN_YAML, ELFE_YAML, GOBELIN_YAML):
            await add_character(client, table, table.mj, text)
        statuses = set()
        for _ in range(300):
            kind = rng.choice(sorted(ENGINE_KINDS))
            keys = sorted(ACTIONS[kind].names)
            params = {k: rng.choice(FUZZ_VALUES) for k in rng.sample(keys, rng.randint(0, len(keys)))}
            body: dict[str, Any] = {"type": kind, "params": params, "graine": rng.randint(0, 999)}
            if rng.random() < 0.3:
                body["des"] = [rng.randint(0, 20) for _ in range(rng.randint(1, 6))]
            r = await client.post(f"/api/tables/{table.id}/actions", json=body, headers=bearer(table.mj))
            assert r.status_code < 500, (body, r.text)
            assert r.status_code == 200 or set(r.json()) <= {"error", "problemes"}, (body, r.text)
            statuses.add(r.status_code)
    assert statuses == {200, 400, 422}
