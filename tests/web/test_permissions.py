"""The permission matrix, in process on SQLite and PostgreSQL: every route × every role, and every
kind of journal entry (public, MJ secret, private of each author) × every role.

Roles: the MJ, the joueur who owns « Nain A » (Lise), another joueur (Paul, owner of « Elfe B »),
a spectateur, a revoked joueur, no token, and the MJ of another table. Each cell asserts the status
(and, where it succeeds, what comes back); a refused action leaves no entry behind. The live
channel gets the same entry checks on a real server (test_live.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from web_support import ENTRIES, NAIN_YAML, ROLES, SEES, World, bearer, build, in_process, invite, roll, sheet

pytestmark = pytest.mark.anyio
OUTSIDERS = {"revoque": 401, "sans": 401, "etranger": 404}

Prepare = Callable[[World, str], Awaitable[tuple[str, Any]]]
Check = Callable[[World, str, httpx.Response], list[str]]


@dataclass
class Cell:
    name: str
    method: str
    prepare: Prepare
    allowed: dict[str, int]  # status per member role (mj, proprio, autre, spectateur)
    check: Check | None = None
    journals: bool = False


def fixed(path: str, body: Any = None) -> Prepare:
    async def prepare(world: World, _role: str) -> tuple[str, Any]:
        return path.format(t=world.table.id), body
    return prepare


def action(kind: str, params: dict[str, Any], visibilite: str = "public",
           des: list[int] | None = None) -> Prepare:
    body = {"type": kind, "params": params, "visibilite": visibilite}
    return fixed("/api/tables/{t}/actions", {**body, "des": des} if des else body)


async def _new_member(world: World, _role: str) -> tuple[str, Any]:
    _, member = await invite(world.client, world.table, "spectateur", world.unique("Passant"))
    return f"/api/tables/{world.table.id}/membres/{member}", None


async def _new_character(world: World, role: str) -> tuple[str, Any]:
    return f"/api/tables/{world.table.id}/personnages", {"yaml": sheet(world.unique(f"Recrue {role}"))}


async def _put_nain(world: World, _role: str) -> tuple[str, Any]:
    path = f"/api/tables/{world.table.id}/personnages/Nain A"
    view = await world.client.get(path, headers=bearer(world.table.mj))
    return path, {"yaml": NAIN_YAML, "version": view.json()["version"]}


def _list_check(world: World, role: str, r: httpx.Response) -> list[str]:
    names = {c["nom"] for c in r.json()}
    mine = {"mj": None, "proprio": "Nain A", "autre": "Elfe B"}[role]
    if role == "mj":
        return [] if {"Nain A", "Elfe B", "Gobelin", "Orc Rémi"} <= names else [f"mj voit {names}"]
    owners = {c["joueur"] for c in r.json()}
    return [] if mine in names and owners == {"Lise" if role == "proprio" else "Paul"} else \
        [f"{role} voit {names}"]


def _journal_check(world: World, role: str, r: httpx.Response) -> list[str]:
    seen = {e["seq"] for e in r.json()}
    bad = []
    for kind, seq in world.seqs.items():
        if (seq in seen) != (kind in SEES[role]):
            bad.append(f"journal : {role} {'voit' if seq in seen else 'ne voit pas'} {kind}")
    return bad


def _seq_null(_world: World, _role: str, r: httpx.Response) -> list[str]:
    return [] if r.json()["seq"] is None else ["odds journalisé"]


MISS = [2, 10]  # attack 2, dodge 10: a miss, nobody hurt, the matrix stays repeatable
NAIN = {"personnage": "Nain A", "competence": "hache", "seuil": "15"}
EVERYONE = {"mj": 200, "proprio": 200, "autre": 200, "spectateur": 403}  # spectateurs never act
READERS = {"mj": 200, "proprio": 200, "autre": 200, "spectateur": 200}
MJ_ONLY = {"mj": 200, "proprio": 403, "autre": 403, "spectateur": 403}
OWNER = {"mj": 200, "proprio": 200, "autre": 403, "spectateur": 403}
CELLS = [
    Cell("inviter", "POST", fixed("/api/tables/{t}/invitations", None), {"mj": 201, "proprio": 403,
         "autre": 403, "spectateur": 403}),
    Cell("lister les membres", "GET", fixed("/api/tables/{t}/membres"), MJ_ONLY),
    Cell("révoquer", "DELETE", _new_member, MJ_ONLY),
    Cell("créer un personnage", "POST", _new_character, {"mj": 201, "proprio": 201, "autre": 201,
                                                          "spectateur": 403}),
    Cell("lister les personnages", "GET", fixed("/api/tables/{t}/personnages"), EVERYONE,
         _list_check),
    Cell("lire Nain A", "GET", fixed("/api/tables/{t}/personnages/Nain A"), OWNER),
    Cell("lire Nain A (yaml)", "GET", fixed("/api/tables/{t}/personnages/Nain A?format=yaml"), OWNER),
    Cell("lire un PNJ", "GET", fixed("/api/tables/{t}/personnages/Gobelin"), MJ_ONLY),
    Cell("modifier Nain A", "PUT", _put_nain, OWNER),
    Cell("jet de Nain A", "POST", action("check", NAIN), OWNER, journals=True),
    Cell("attaque de Nain A", "POST", action("attack", {"attaquant": "Nain A", "defenseur": "Gobelin"},
                                              des=MISS),
         OWNER, journals=True),
    Cell("attaque du PNJ", "POST", action("attack", {"attaquant": "Gobelin", "defenseur": "Nain A"},
                                           des=MISS),
         MJ_ONLY, journals=True),
    Cell("chances de Nain A", "POST", action("odds", NAIN), OWNER, _seq_null),
    Cell("jet libre public", "POST", action("roll", {"expression": "1d20"}), EVERYONE, journals=True),
    Cell("jet libre privé", "POST", action("roll", {"expression": "1d20"}, "prive"), EVERYONE,
         journals=True),
    Cell("jet secret (mj)", "POST", action("roll", {"expression": "1d20"}, "mj"), MJ_ONLY, journals=True),
    Cell("annuler", "POST", fixed("/api/tables/{t}/annuler"), MJ_ONLY, journals=True),
    Cell("journal", "GET", fixed("/api/tables/{t}/journal"), READERS, _journal_check),
]
INVITE_BODY = {"role": "spectateur", "nom": "Invité"}


async def run_cell(world: World, cell: Cell, role: str) -> list[str]:
    path, body = await cell.prepare(world, role)
    if cell.name == "inviter":
        body = {**INVITE_BODY, "nom": world.unique("Invité")}
    expected = OUTSIDERS.get(role) or cell.allowed[role]
    r = await world.client.request(cell.method, path, json=body, headers=bearer(world.tokens[role]))
    where = f"{cell.name} / {role}"
    if r.status_code != expected:
        return [f"{where} : {r.status_code} au lieu de {expected} ({r.text[:120]})"]
    if expected >= 400:
        ok = r.headers["content-type"].startswith("application/json") and set(r.json()) == {"error"}
        return [] if ok else [f"{where} : erreur mal formée {r.text[:120]}"]
    if cell.journals:
        world.journaled += 1
    return [f"{where} : {p}" for p in cell.check(world, role, r)] if cell.check else []


MATRIX_CELLS = len(CELLS) * len(ROLES)
VISIBILITY_CHECKS = len(SEES) * len(ENTRIES)


async def test_permission_matrix(db_target: str) -> None:
    """18 routes × 7 roles = 126 cells, + 4 roles × 5 entry kinds = 20 visibility checks."""
    assert (MATRIX_CELLS, VISIBILITY_CHECKS) == (126, 20)
    async with in_process(db_target) as client:
        world = await build(client)
        failures: list[str] = []
        for cell in CELLS:
            for role in ROLES:
                failures += await run_cell(world, cell, role)
        journal = await client.get(f"/api/tables/{world.table.id}/journal", headers=bearer(world.table.mj))
    assert not failures, "\n".join(failures)
    assert len(journal.json()) == world.journaled  # no refused action left an entry


async def test_undo_of_a_hidden_entry_stays_hidden(db_target: str) -> None:
    """Undoing a private or secret roll: the undo entry has the audience of what it undoes."""
    async with in_process(db_target) as client:
        world = await build(client)
        table, tokens = world.table, world.tokens
        private = await roll(client, table, str(tokens["proprio"]), "prive")
        undo_private = (await client.post(f"/api/tables/{table.id}/annuler", headers=bearer(table.mj))).json()
        secret = await roll(client, table, table.mj, "mj")
        undo_secret = (await client.post(f"/api/tables/{table.id}/annuler", headers=bearer(table.mj))).json()
        assert (undo_private["undoes"], undo_secret["undoes"]) == (private["seq"], secret["seq"])
        seen = {}
        for role in ("mj", "proprio", "autre", "spectateur"):
            r = await client.get(f"/api/tables/{table.id}/journal", headers=bearer(tokens[role]))
            seen[role] = {e["seq"] for e in r.json()} & {undo_private["seq"], undo_secret["seq"]}
    assert seen == {"mj": {undo_private["seq"], undo_secret["seq"]}, "proprio": {undo_private["seq"]},
                    "autre": set(), "spectateur": set()}
