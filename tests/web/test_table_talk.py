"""Talking and playing together, in process on SQLite and PostgreSQL: the roll modes × roles
matrix, messages (whispers, /me, inline rolls), the MJ's reveal, roll requests, and the turn rules
of an encounter (one action per turn, in turn; the MJ's override journaled).

People: the MJ, Lise (joueur, « Nain A »), Paul (joueur, « Elfe B »), Sam (spectateur)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from web_support import ELFE_YAML, NAIN_YAML, Table, add_character, bearer, in_process, invite, make_table

from jdr.web.live import BLIND_TEXT

pytestmark = pytest.mark.anyio
FULL, MASKED = "tout", "masque"
# mode → what (MJ, the roller, the other player, the spectateur) see of a player's roll
MATRIX: dict[str, tuple[str | None, str | None, str | None, str | None]] = {
    "public": (FULL, FULL, FULL, FULL),
    "prive": (FULL, FULL, None, None),
    "aveugle": (FULL, MASKED, None, None),
    "moi": (None, FULL, None, None),
}
VIEWERS = ("mj", "lise", "paul", "sam")


async def _people(client: httpx.AsyncClient) -> tuple[Table, dict[str, str]]:
    table = await make_table(client)
    lise, _ = await invite(client, table, "joueur", "Lise")
    paul, _ = await invite(client, table, "joueur", "Paul")
    sam, _ = await invite(client, table, "spectateur", "Sam")
    await add_character(client, table, lise, NAIN_YAML)
    await add_character(client, table, paul, ELFE_YAML)
    return table, {"mj": table.mj, "lise": lise, "paul": paul, "sam": sam}


async def _journal(client: httpx.AsyncClient, table: Table, token: str) -> dict[int, dict[str, Any]]:
    r = await client.get(f"/api/tables/{table.id}/journal", headers=bearer(token))
    assert r.status_code == 200, r.text
    return {e["seq"]: e for e in r.json()}


def _sight(entry: dict[str, Any] | None) -> str | None:
    if entry is None:
        return None
    return MASKED if entry.get("masked") else FULL


async def _post(client: httpx.AsyncClient, table: Table, token: str, path: str,
                body: dict[str, Any] | None = None) -> httpx.Response:
    return await client.post(f"/api/tables/{table.id}{path}", json=body or {}, headers=bearer(token))


async def test_roll_modes_by_role(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        seqs = {}
        for mode in MATRIX:
            r = await _post(client, table, tokens["lise"], "/actions", {
                "type": "roll", "params": {"expression": "2d6"}, "visibilite": mode, "des": [5, 6]})
            assert r.status_code == 200, r.text
            seqs[mode] = r.json()["seq"]
            if mode == "aveugle":  # the roller's own answer is masked too
                assert r.json()["text"] == BLIND_TEXT and r.json()["dice"] == []
                assert "11" not in str(r.json()["result"])
        r = await _post(client, table, tokens["mj"], "/actions", {
            "type": "roll", "params": {"expression": "1d6"}, "visibilite": "mj"})
        secret = r.json()["seq"]
        r = await _post(client, table, tokens["lise"], "/actions", {
            "type": "roll", "params": {"expression": "1d6"}, "visibilite": "mj"})
        assert r.status_code == 403
        seen = {who: await _journal(client, table, tokens[who]) for who in VIEWERS}
        for mode, expected in MATRIX.items():
            got = tuple(_sight(seen[who].get(seqs[mode])) for who in VIEWERS)
            assert got == expected, mode
        masked = seen["lise"][seqs["aveugle"]]
        assert masked["dice"] == [] and masked["text"] == BLIND_TEXT and masked["params"] == {}
        assert [d["face"] for d in seen["mj"][seqs["aveugle"]]["dice"]] == [5, 6]
        assert tuple(_sight(seen[w].get(secret)) for w in VIEWERS) == (FULL, None, None, None)


async def test_pour_moi_seul_never_changes_a_sheet(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        r = await _post(client, table, tokens["mj"], "/actions", {
            "type": "sante", "params": {"personnage": "Nain A", "valeur": "-3"}, "visibilite": "moi"})
        assert r.status_code == 422 and "pour moi seul" in r.json()["error"]
        assert await _journal(client, table, tokens["mj"]) == {}


async def test_messages_whispers_and_inline_rolls(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        say = {}
        cases = {
            "texte": ("lise", {"texte": "J'attaque [[1d20+5]] puis [[2d6]]", "des": [12, 3, 4]}),
            "emote": ("lise", {"texte": "/me dégaine sa hache"}),
            "a_paul": ("lise", {"texte": "/w Paul on la laisse passer ?"}),
            "a_elfe": ("lise", {"texte": "/w Elfe B psst"}),
            "au_mj": ("lise", {"texte": "/w MJ je garde la clé"}),
            "mj_a_lise": ("mj", {"texte": "/w \"Lise\" tu entends un bruit"}),
        }
        for name, (who, body) in cases.items():
            r = await _post(client, table, tokens[who], "/messages", body)
            assert r.status_code == 200, r.text
            say[name] = r.json()
        parts = say["texte"]["result"]["parts"]
        assert [p.get("total") for p in parts if "roll" in p] == [17, 7]
        assert [d["face"] for d in say["texte"]["dice"]] == [12, 3, 4]
        assert say["texte"]["text"] == "Lise : J'attaque [1d20+5 = 17 : 12] puis [2d6 = 7 : 3, 4]"
        assert say["emote"]["text"] == "Lise dégaine sa hache"
        assert say["a_elfe"]["params"]["a"] == "Paul"  # a character's name reaches its player
        seen = {who: await _journal(client, table, tokens[who]) for who in VIEWERS}
        expected = {  # (MJ, Lise, Paul, Sam)
            "texte": (True, True, True, True), "emote": (True, True, True, True),
            "a_paul": (False, True, True, False), "a_elfe": (False, True, True, False),
            "au_mj": (True, True, False, False), "mj_a_lise": (True, True, False, False),
        }
        for name, row in expected.items():
            assert tuple(say[name]["seq"] in seen[w] for w in VIEWERS) == row, name
        for body, status, words in [({"texte": "/w Personne x"}, 422, "membres : "),
                                    ({"texte": "/w Lise moi"}, 422, "soi-même"),
                                    ({"texte": "/danse"}, 422, "commande inconnue"),
                                    ({"texte": "[[1d6+]]"}, 422, "[[1d6+]]")]:
            r = await _post(client, table, tokens["lise"], "/messages", body)
            assert r.status_code == status and words in r.json()["error"], r.text
        r = await _post(client, table, tokens["sam"], "/messages", {"texte": "bonjour"})
        assert r.status_code == 403
        r = await _post(client, table, tokens["mj"], "/annuler")  # a message is not undone
        assert r.status_code == 409 and "rien à annuler" in r.json()["error"]


async def test_the_mj_reveals_a_blind_roll_to_everyone(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        r = await _post(client, table, tokens["lise"], "/actions", {
            "type": "check", "params": {"personnage": "Nain A", "competence": "hache",
                                        "seuil": "10"}, "visibilite": "aveugle", "des": [8]})
        blind = r.json()["seq"]
        assert (await _post(client, table, tokens["lise"], f"/reveler/{blind}")).status_code == 403
        r = await _post(client, table, tokens["mj"], f"/reveler/{blind}")
        assert r.status_code == 200, r.text
        shown = r.json()
        assert shown["visibility"] == "public" and shown["params"] == {"seq": blind}
        for who in VIEWERS:
            entry = (await _journal(client, table, tokens[who]))[shown["seq"]]
            assert [d["face"] for d in entry["dice"]] == [8] and "Révélé par le MJ" in entry["text"]
        assert (await _post(client, table, tokens["mj"], f"/reveler/{blind}")).status_code == 409
        assert (await _post(client, table, tokens["mj"], f"/reveler/{shown['seq']}")).status_code == 409


async def test_a_roll_request_is_rolled_in_one_click(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        r = await _post(client, table, tokens["mj"], "/demandes", {
            "personnage": "nain a", "competence": "hache", "seuil": "10", "visibilite": "prive"})
        assert r.status_code == 201, r.text
        asked = r.json()["seq"]
        assert r.json()["text"] == "Le MJ demande à Nain A un test de hache (seuil 10)"
        r = await client.get(f"/api/tables/{table.id}/demandes", headers=bearer(tokens["lise"]))
        assert [d["seq"] for d in r.json()] == [asked]
        r = await client.get(f"/api/tables/{table.id}/demandes", headers=bearer(tokens["paul"]))
        assert r.json() == []
        assert asked not in await _journal(client, table, tokens["paul"])
        r = await _post(client, table, tokens["paul"], f"/demandes/{asked}/lancer", {"des": [8]})
        assert r.status_code == 404
        r = await _post(client, table, tokens["lise"], f"/demandes/{asked}/lancer", {"des": [8]})
        assert r.status_code == 200, r.text
        rolled = r.json()
        assert rolled["action"] == "check" and rolled["visibility"] == "prive"
        assert rolled["params"]["competence"] == "hache" and rolled["result"]["success"] is True
        r = await client.get(f"/api/tables/{table.id}/demandes", headers=bearer(tokens["lise"]))
        assert r.json() == []
        r = await _post(client, table, tokens["lise"], f"/demandes/{asked}/lancer", {"des": [8]})
        assert r.status_code == 404
        r = await _post(client, table, tokens["lise"], "/demandes", {
            "personnage": "Nain A", "competence": "hache"})
        assert r.status_code == 403


async def _start_combat(client: httpx.AsyncClient, table: Table) -> None:
    from jdr.web.origin import csrf_token

    cookie = {"Cookie": f"jdr_{table.id}={table.mj}", "X-JDR-CSRF": csrf_token(table.mj)}
    r = await client.post(f"/tables/{table.id}/f/combat/debut", headers=cookie,
                          content="personnages=Nain%20A&personnages=Elfe%20B")
    assert "Le combat commence" in r.text, r.text


async def test_one_attack_per_turn_in_turn_and_the_mj_override(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        await _start_combat(client, table)
        r = await client.get(f"/api/tables/{table.id}/tour", headers=bearer(tokens["paul"]))
        assert r.json() == {"rencontre": True, "courant": "Elfe B", "round": 1, "a_moi": True}
        elfe = {"type": "attack", "params": {"attaquant": "Elfe B", "defenseur": "Nain A"}}
        nain = {"type": "attack", "params": {"attaquant": "Nain A", "defenseur": "Elfe B"}}
        r = await _post(client, table, tokens["lise"], "/actions", nain)
        assert r.status_code == 422
        assert r.json()["error"] == ("ce n'est pas le tour de Nain A mais celui d'Elfe B : chacun "
                                     "agit à son tour (R000.21)")
        # dice without a critical (a random one may paralyse Nain A, whose turn is then lost)
        r = await _post(client, table, tokens["paul"], "/actions", {**elfe, "des": [5, 5]})
        assert r.status_code == 200, r.text
        r = await _post(client, table, tokens["paul"], "/actions", elfe)
        assert r.status_code == 422
        assert r.json()["error"].startswith("Elfe B a déjà agi ce tour (une attaque) : une action "
                                            "par tour")
        assert "(R000.22)" in r.json()["error"]
        r = await _post(client, table, tokens["paul"], "/actions", {**elfe, "derogation": True})
        assert r.status_code == 403
        r = await _post(client, table, tokens["mj"], "/actions", {**nain, "derogation": True})
        assert r.status_code == 200, r.text
        forced = r.json()
        assert forced["params"]["derogation"].startswith("dérogation du MJ : ce n'est pas le tour")
        assert "dérogation du MJ" in forced["text"]
        r = await _post(client, table, tokens["mj"], "/annuler")  # the count is undone with it
        assert r.status_code == 200, r.text
        r = await _post(client, table, tokens["lise"], "/actions", nain)
        assert r.status_code == 422 and "pas le tour de Nain A" in r.json()["error"]


async def test_concentration_counts_once_per_turn(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        await _start_combat(client, table)
        rule = {"type": "regle", "params": {"nom": "concentration", "personnages": ["Elfe B"]}}
        r = await _post(client, table, tokens["paul"], "/actions", rule)
        assert r.status_code == 200 and "1 tour(s) : +2" in r.json()["text"], r.text
        r = await _post(client, table, tokens["paul"], "/actions", rule)
        assert r.status_code == 422
        assert "la concentration compte une fois par tour" in r.json()["error"]
        assert "R000.36" in r.json()["error"]
