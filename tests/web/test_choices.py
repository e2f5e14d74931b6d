"""A roll waiting for its player's choice (issue 17.4), in process on SQLite and PostgreSQL.

Nain A's Négociation is an expert skill (R000.06): two d10, the player keeps either die once they
are shown (R000.17). Rolled 3 and 8 by hand, the better (8) is the default. At the table the roll
stops there: the roller and the MJ get a notice with the dice, the player chooses, the action
completes with that choice — one journal entry, the dice already rolled. Another player sees
nothing until then.

People: the MJ, Lise (joueur, « Nain A »), Paul (joueur, « Elfe B »)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from web_support import ELFE_YAML, NAIN_YAML, Table, add_character, bearer, in_process, invite, make_table

pytestmark = pytest.mark.anyio
EXPERT = {"type": "check", "params": {"personnage": "Nain A", "competence": "negociation",
                                      "seuil": "10"}, "des": [3, 8]}


async def _people(client: httpx.AsyncClient) -> tuple[Table, dict[str, str]]:
    table = await make_table(client)
    lise, _ = await invite(client, table, "joueur", "Lise")
    paul, _ = await invite(client, table, "joueur", "Paul")
    await add_character(client, table, lise, NAIN_YAML)
    await add_character(client, table, paul, ELFE_YAML)
    return table, {"mj": table.mj, "lise": lise, "paul": paul}


async def _call(client: httpx.AsyncClient, table: Table, token: str, method: str, path: str,
                body: dict[str, Any] | None = None) -> httpx.Response:
    return await client.request(method, f"/api/tables/{table.id}{path}", json=body,
                                headers=bearer(token))


async def _journal(client: httpx.AsyncClient, table: Table, token: str) -> list[dict[str, Any]]:
    r = await _call(client, table, token, "GET", "/journal")
    assert r.status_code == 200, r.text
    return list(r.json())


async def test_the_player_chooses_the_die_once_shown(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        r = await _call(client, table, tokens["lise"], "POST", "/actions", EXPERT)
        assert r.status_code == 202, r.text
        notice = r.json()
        waiting = notice["attente"]
        assert notice["action"] == "attente" and notice["visibility"] == "prive"
        assert [d["face"] for d in notice["dice"]] == [3, 8]
        assert waiting["defaut"] == "2" and waiting["peut_repondre"] and waiting["repond"] == "lanceur"
        assert [c["libelle"] for c in waiting["choix"]] == ["Garder le dé 1 (3)",
                                                            "Garder le dé 2 (8)"]
        assert "garder le dé 1 (3) ou le dé 2 (8)" in notice["text"]
        # the roller and the MJ see it; Paul sees nothing, neither notice nor waiting roll
        for who, seen in (("lise", 1), ("mj", 1), ("paul", 0)):
            listed = (await _call(client, table, tokens[who], "GET", "/attentes")).json()
            assert len(listed) == seen, who
            journal = await _journal(client, table, tokens[who])
            assert sum(e["action"] == "attente" for e in journal) == seen, who
        assert not [e for e in await _journal(client, table, tokens["mj"]) if e["action"] == "check"]
        # nothing else on Nain A meanwhile (its sheet stays the one the dice were rolled on)
        other = {"type": "check", "params": {"personnage": "Nain A", "competence": "hache"},
                 "des": [5]}
        refused = await _call(client, table, tokens["lise"], "POST", "/actions", other)
        assert refused.status_code == 422 and "attend un choix" in refused.json()["error"]
        r = await _call(client, table, tokens["paul"], "POST",
                        f"/attentes/{notice['seq']}/choix", {"choix": "1"})
        assert r.status_code == 404  # Paul does not even know it exists
        r = await _call(client, table, tokens["lise"], "POST",
                        f"/attentes/{notice['seq']}/choix", {"choix": "1"})
        assert r.status_code == 200, r.text
        done = r.json()
        assert done["action"] == "check" and done["visibility"] == "public"
        assert [d["face"] for d in done["dice"]] == [3, 8]  # the same dice: a choice never rerolls
        assert done["result"]["natural"] == 3 and done["result"]["success"] is False
        for who in ("lise", "mj", "paul"):
            checks = [e for e in await _journal(client, table, tokens[who]) if e["action"] == "check"]
            assert len(checks) == 1 and checks[0]["seq"] == done["seq"], who  # journaled once
            assert (await _call(client, table, tokens[who], "GET", "/attentes")).json() == []
        r = await _call(client, table, tokens["lise"], "POST",
                        f"/attentes/{notice['seq']}/choix", {"choix": "2"})
        assert r.status_code == 404


async def test_mj_settles_with_the_default_and_a_bad_answer_is_refused(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        notice = (await _call(client, table, tokens["lise"], "POST", "/actions", EXPERT)).json()
        path = f"/attentes/{notice['seq']}"
        r = await _call(client, table, tokens["lise"], "POST", path + "/choix", {"choix": "3"})
        assert r.status_code == 422 and "Garder le dé 2 (8)" in r.json()["error"]
        r = await _call(client, table, tokens["lise"], "POST", path + "/defaut")
        assert r.status_code == 403
        r = await _call(client, table, tokens["mj"], "POST", path + "/defaut")
        assert r.status_code == 200, r.text
        assert r.json()["result"]["natural"] == 8 and r.json()["result"]["success"] is True
        assert [d["face"] for d in r.json()["dice"]] == [3, 8]


async def test_the_default_at_once_when_asked_and_the_wait_ends(db_target: str) -> None:
    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        r = await _call(client, table, tokens["lise"], "POST", "/actions",
                        {**EXPERT, "choix": "defaut"})
        assert r.status_code == 200 and r.json()["result"]["natural"] == 8
        notice = (await _call(client, table, tokens["lise"], "POST", "/actions", EXPERT)).json()
        _expire(client, table)
        listed = (await _call(client, table, tokens["mj"], "GET", "/attentes")).json()
        assert listed == []  # the wait is over: the default was taken
        checks = [e for e in await _journal(client, table, tokens["paul"]) if e["action"] == "check"]
        assert [c["result"]["natural"] for c in checks] == [8, 8]
        assert checks[-1]["seq"] > notice["seq"]


def _expire(client: httpx.AsyncClient, table: Table) -> None:
    """The delay of every waiting roll is over (its row says when it ends)."""
    from datetime import UTC, datetime

    app: Any = client._transport.app  # type: ignore[attr-defined]
    with app.state.server.session() as session:
        session.execute("UPDATE jdr_attentes SET expires_at = :at WHERE campaign_id = :c",
                        {"at": datetime(2000, 1, 1, tzinfo=UTC), "c": table.id})


async def test_seance_dice_of_a_waiting_roll_stay_verifiable(db_target: str) -> None:
    """The dice are drawn for the notice's number (`tirage`): another entry between the notice
    and the answer takes its own number, and the journal checks out once the seed is shown."""
    from jdr.dice.verifiable import verify_journal

    async with in_process(db_target) as client:
        table, tokens = await _people(client)
        assert (await _call(client, table, tokens["mj"], "POST", "/seance/ouvrir")).status_code == 201
        roll = {k: v for k, v in EXPERT.items() if k != "des"}
        for _ in range(20):  # two equal faces ask nothing (one time in ten): roll again
            r = await _call(client, table, tokens["lise"], "POST", "/actions", roll)
            if r.status_code == 202:
                break
        assert r.status_code == 202, r.text
        notice = r.json()
        other = {"type": "check", "params": {"personnage": "Elfe B", "competence": "lame"}}
        between = (await _call(client, table, tokens["paul"], "POST", "/actions", other)).json()
        r = await _call(client, table, tokens["lise"], "POST",
                        f"/attentes/{notice['seq']}/choix", {"choix": "1"})
        done = r.json()
        assert notice["seq"] < between["seq"] < done["seq"]
        assert done["verif"]["tirage"] == notice["seq"] and done["verif"]["verifiable"]
        assert done["dice"][:2] == notice["dice"]
        assert (await _call(client, table, tokens["mj"], "POST", "/seance/fermer")).status_code == 200
        entries = await _journal(client, table, tokens["mj"])
        verdict = verify_journal(entries)
        assert verdict.ok, verdict.to_json()
        assert {c.seq: c.status for c in verdict.checks}[done["seq"]] == "ok"
        forged = [dict(e, verif={**e["verif"], "tirage": between["seq"]}) if e["seq"] == done["seq"]
                  else e for e in entries]  # the dice of another number: refused
        assert not verify_journal(forged).ok


async def test_a_predilection_asks_twice_and_ticks_the_box(db_target: str) -> None:
    """CYD R003.04: the first roll shown, the player rerolls with the prédilection, then keeps
    either result — two questions, one journal entry, the box ticked in it."""
    from jdr.core.registry import get_system

    async with in_process(db_target) as client:
        table = await make_table(client, systeme="cyd")
        lise, _ = await invite(client, table, "joueur", "Lise")
        await add_character(client, table, lise, get_system("cyd").template())
        roll = {"type": "check", "params": {"personnage": "Rôdeuse", "competence": "tir",
                                            "de": "d10", "seuil": "10"}, "des": [2, 9]}
        first = await _call(client, table, lise, "POST", "/actions", roll)
        assert first.status_code == 202, first.text
        question = first.json()["attente"]
        assert [c["libelle"] for c in question["choix"]] == ["Garder ce jet",
                                                             "Relancer le dé (prédilection)"]
        path = f"/attentes/{first.json()['seq']}/choix"
        second = await _call(client, table, lise, "POST", path, {"choix": "oui"})
        assert second.status_code == 202, second.text
        again = second.json()["attente"]
        assert [c["valeur"] for c in again["choix"]] == ["1", "2"] and again["defaut"] == "2"
        assert [d["face"] for d in again["des"]] == [2, 9]
        done = await _call(client, table, lise, "POST", path, {"choix": "1"})
        assert done.status_code == 200, done.text
        entry = done.json()
        assert [d["face"] for d in entry["dice"]] == [2, 9]
        assert [c["path"] for c in entry["changes"]] == [["predilections", "tir"]]
        journal = await _journal(client, table, lise)
        assert [e["action"] for e in journal] == ["attente", "check"]
