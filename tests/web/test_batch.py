"""Actions of one table written together (`jdr.web.batch`), in process on SQLite and PostgreSQL.

The actions are queued in one go, as requests arriving together are: they make one batch, one
transaction. Each is answered with its own entry, the entries follow one another without a gap,
an attack sees the wound of the one before (no lost update), a refused action leaves the others
written, and an action failing inside the batch costs the others nothing (they are played again
alone, the failing one is not written)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from itertools import pairwise
from typing import Any

import httpx
import pytest
from web_support import GOBELIN_YAML, NAIN_YAML, UNLIMITED, Table, add_character, bearer, invite, make_table

from jdr.errors import JdrError
from jdr.web.app import create_app
from jdr.web.errors import ApiError
from jdr.web.models import Action
from jdr.web.play import action_job
from jdr.web.state import Server

pytestmark = pytest.mark.anyio
CIBLE = GOBELIN_YAML.replace("nom: Gobelin", "nom: Cible").replace(
    "pv: 12", "pv: {max: 1000000, actuels: 1000000}")
ROLL = {"type": "roll", "params": {"expression": "1d20"}}
CHECK = {"type": "check", "params": {"personnage": "Nain A", "competence": "hache", "seuil": "15"}}
# dice by hand (attack 9, defence 1, location, damage): every attack wounds; left to chance, the
# five attacks of a batch all missed once in a while, and there was no wound to follow
ATTACK = {"type": "attack", "params": {"attaquant": "Nain A", "defenseur": "Cible"},
          "des": [9, 1, 10, 6]}
WRONG = {"type": "check", "params": {"personnage": "Nain A", "competence": "voler", "seuil": "15"}}


@asynccontextmanager
async def served(db: str) -> AsyncIterator[tuple[httpx.AsyncClient, Server]]:
    app = create_app(db, None, True, limits=UNLIMITED)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://jdr.test", timeout=120) as client:
        yield client, app.state.server
    app.state.server.dispose()


async def table_with_fighters(client: httpx.AsyncClient) -> Table:
    table = await make_table(client)
    await add_character(client, table, table.mj, NAIN_YAML)
    await add_character(client, table, table.mj, CIBLE)
    return table


async def together(server: Server, table: Table, sends: list[tuple[str, dict[str, Any]]]
                   ) -> list[dict[str, Any] | BaseException]:
    """Every action queued before the batch's thread starts (as requests arriving together)."""
    callers = {token: await asyncio.to_thread(server.authenticate, token, table.id)
               for token in {t for t, _ in sends}}
    jobs = [action_job(server, callers[token], Action.model_validate(body)) for token, body in sends]
    campaign = callers[sends[0][0]].campaign
    return list(await asyncio.gather(*(server.batches.run(campaign, job) for job in jobs),
                                     return_exceptions=True))


async def journal(client: httpx.AsyncClient, table: Table) -> list[dict[str, Any]]:
    r = await client.get(f"/api/tables/{table.id}/journal", headers=bearer(table.mj))
    assert r.status_code == 200, r.text
    entries: list[dict[str, Any]] = r.json()
    return entries


def pv_changes(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for e in sorted(entries, key=lambda e: e["seq"]) for c in e["changes"]
            if c["path"] == ["pv"]]


async def test_actions_sent_together_share_one_transaction(db_target: str) -> None:
    async with served(db_target) as (client, server):
        table = await table_with_fighters(client)
        bodies = [(ROLL, CHECK, ATTACK)[i % 3] for i in range(15)]
        answers = await together(server, table, [(table.mj, b) for b in bodies])
        assert list(server.batches.sizes) == [15]  # one transaction, not fifteen
        assert all(isinstance(a, dict) for a in answers), answers
        seqs = [a["seq"] for a in answers if isinstance(a, dict)]
        assert seqs == list(range(1, 16))  # in the order they were queued
        entries = await journal(client, table)
        for answer, entry, body in zip(answers, entries, bodies, strict=True):
            assert isinstance(answer, dict)
            assert (entry["seq"], entry["action"]) == (answer["seq"], body["type"])
            assert entry["result"] == answer["result"]
        wounds = pv_changes(entries)
        assert wounds and wounds[0]["before"] == 1_000_000
        for before, after in pairwise(wounds):
            assert after["before"] == before["after"]  # each attack saw the one before
        r = await client.get(f"/api/tables/{table.id}/personnages/Cible?format=yaml",
                             headers=bearer(table.mj))
        assert r.status_code == 200, r.text
        assert f"actuels: {wounds[-1]['after']}" in r.text


async def test_a_refused_action_leaves_the_others_of_its_batch(db_target: str) -> None:
    async with served(db_target) as (client, server):
        table = await table_with_fighters(client)
        lise, _ = await invite(client, table, "joueur", "Lise")  # owns no character
        not_dice = {**ROLL, "des": [-3]}
        sends = [(table.mj, ROLL), (table.mj, ATTACK), (lise, CHECK), (table.mj, ATTACK),
                 (table.mj, not_dice), (lise, ROLL)]
        answers = await together(server, table, sends)
        assert list(server.batches.sizes) == [6]
        refused = answers[2]
        assert isinstance(refused, ApiError) and refused.status == 403
        assert refused.message == "« Nain A » n'est pas un de vos personnages"
        assert isinstance(answers[4], JdrError) and "-3" in answers[4].message
        written = [a for a in answers if isinstance(a, dict)]
        assert [a["seq"] for a in written] == [1, 2, 3, 4]
        assert [e["seq"] for e in await journal(client, table)] == [1, 2, 3, 4]


async def test_an_action_failing_in_its_batch_is_alone_not_written(db_target: str) -> None:
    async with served(db_target) as (client, server):
        table = await table_with_fighters(client)
        sends = [(table.mj, b) for b in (ROLL, ATTACK, WRONG, ATTACK, CHECK)]
        answers = await together(server, table, sends)
        assert list(server.batches.sizes) == [5]  # rolled back, then each action played alone
        failed = answers[2]
        assert isinstance(failed, Exception) and "voler" in str(failed)
        written = [a for a in answers if isinstance(a, dict)]
        assert [a["seq"] for a in written] == [1, 2, 3, 4]  # nothing left by the batch undone
        entries = await journal(client, table)
        assert [(e["seq"], e["action"]) for e in entries] == [
            (1, "roll"), (2, "attack"), (3, "attack"), (4, "check")]
        wounds = pv_changes(entries)
        for before, after in pairwise(wounds):
            assert after["before"] == before["after"]
        r = await client.post(f"/api/tables/{table.id}/actions", json=WRONG, headers=bearer(table.mj))
        assert r.status_code == 422 and "voler" in r.json()["error"]  # the same answer over HTTP
