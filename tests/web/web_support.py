"""Helpers of the web tests: the app in process (httpx ASGI transport), a real server (uvicorn in a
subprocess on a free loopback port), tables, invitations, WebSocket reading."""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from jdr.web.app import create_app
from jdr.web.limits import Limits
from jdr.web.origin import csrf_token
from sheets_data import ELFE_YAML, NAIN_YAML

GOBELIN_YAML = """\
systeme: cydonia
nom: Gobelin
caracteristiques: {physique: 3, agilite: 5, dexterite: 4, sensoriel: 4, courage: 2, charisme: 1,
  mental: 2, chance: 3}
competences: {petite_lame: 3, esquive: 4}
pv: 12
"""

__all__ = ["ELFE_YAML", "GOBELIN_YAML", "NAIN_YAML"]
# The tests act far faster than people: the rate of actions is tested on its own (test_limits).
UNLIMITED = Limits(actions_burst=100_000)


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def sheet(name: str, base: str = GOBELIN_YAML) -> str:
    """Another valid sheet, named `name`."""
    return base.replace("nom: Gobelin", f"nom: {name}")


@asynccontextmanager
async def in_process(db: str, admin: str | None = None, loopback: bool = True,
                     limits: Limits = UNLIMITED) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(db, admin, loopback, limits=limits)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://jdr.test",
                                 timeout=STARTUP_SECONDS) as client:  # a loaded machine is slow
        yield client
    app.state.server.dispose()


@dataclass
class Table:
    id: int
    mj: str


TABLES = itertools.count(1)


async def make_table(client: httpx.AsyncClient, nom: str | None = None, systeme: str = "cydonia",
                     admin: str | None = None) -> Table:
    """A new table; its name, unless given, is new too (« La Marche 1 »…): a shared server
    (`shared_live`) holds the tables of many tests."""
    r = await client.post("/api/tables", json={"nom": nom or f"La Marche {next(TABLES)}", "systeme": systeme},
                          headers=bearer(admin))
    assert r.status_code == 201, r.text
    return Table(r.json()["id"], r.json()["jeton"])


async def invite(client: httpx.AsyncClient, table: Table, role: str, nom: str) -> tuple[str, int]:
    r = await client.post(f"/api/tables/{table.id}/invitations", json={"role": role, "nom": nom},
                          headers=bearer(table.mj))
    assert r.status_code == 201, r.text
    return r.json()["jeton"], r.json()["membre"]["id"]


async def add_character(client: httpx.AsyncClient, table: Table, token: str, yaml: str,
                        joueur: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"yaml": yaml}
    if joueur:
        body["joueur"] = joueur
    r = await client.post(f"/api/tables/{table.id}/personnages", json=body, headers=bearer(token))
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


async def roll(client: httpx.AsyncClient, table: Table, token: str, visibilite: str = "public",
               expression: str = "1d6") -> dict[str, Any]:
    r = await client.post(f"/api/tables/{table.id}/actions", headers=bearer(token), json={
        "type": "roll", "params": {"expression": expression}, "visibilite": visibilite})
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


# ------------------------------------------------------------------ a table with everyone

ROLES = ("mj", "proprio", "autre", "spectateur", "revoque", "sans", "etranger")
ENTRIES = ("public", "secret_mj", "prive_mj", "prive_proprio", "prive_autre")
# Which entries each role sees (by any route: journal here, live channel in test_live.py).
SEES = {
    "mj": set(ENTRIES),
    "proprio": {"public", "prive_proprio"},
    "autre": {"public", "prive_autre"},
    "spectateur": {"public"},
}


@dataclass
class World:
    client: httpx.AsyncClient
    table: Table
    tokens: dict[str, str | None]
    seqs: dict[str, int]
    journaled: int = 0
    counter: dict[str, int] = field(default_factory=dict)

    def unique(self, prefix: str) -> str:
        self.counter[prefix] = self.counter.get(prefix, 0) + 1
        return f"{prefix} {self.counter[prefix]}"


async def build(client: httpx.AsyncClient) -> World:
    table = await make_table(client)
    other = await make_table(client, f"Autre table {next(TABLES)}", "dd35")
    lise, _ = await invite(client, table, "joueur", "Lise")
    paul, _ = await invite(client, table, "joueur", "Paul")
    sam, _ = await invite(client, table, "spectateur", "Sam")
    remi, remi_id = await invite(client, table, "joueur", "Rémi")
    await add_character(client, table, lise, NAIN_YAML)
    await add_character(client, table, paul, ELFE_YAML)
    await add_character(client, table, table.mj, GOBELIN_YAML)
    await add_character(client, table, table.mj, sheet("Orc Rémi"), joueur="Rémi")
    r = await client.delete(f"/api/tables/{table.id}/membres/{remi_id}", headers=bearer(table.mj))
    assert r.status_code == 200
    seqs = {
        "public": (await roll(client, table, table.mj))["seq"],
        "secret_mj": (await roll(client, table, table.mj, "mj"))["seq"],
        "prive_mj": (await roll(client, table, table.mj, "prive"))["seq"],
        "prive_proprio": (await roll(client, table, lise, "prive"))["seq"],
        "prive_autre": (await roll(client, table, paul, "prive"))["seq"],
    }
    tokens: dict[str, str | None] = {"mj": table.mj, "proprio": lise, "autre": paul, "spectateur": sam,
                                     "revoque": remi, "sans": None, "etranger": other.mj}
    return World(client, table, tokens, seqs, journaled=len(seqs))


# ------------------------------------------------------------------ a real server


@functools.cache
def http() -> httpx.Client:
    """The client of this process for plain HTTP calls to a real server (`http().get(url)`).

    `httpx.get(url)` makes a new client, which loads the CA certificates (about 20 ms of CPU,
    even for http://): while a server starts, its readiness polls took CPU from it. No
    connection is kept between calls, as with a client per call (a server counts the
    connections of each address)."""
    return httpx.Client(timeout=10, limits=httpx.Limits(max_keepalive_connections=0))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Live:
    url: str
    ws: str
    process: subprocess.Popen[str]


@contextmanager
def live_server(db: str, admin: str | None = None, env_extra: dict[str, str] | None = None,
                args: tuple[str, ...] = ()) -> Iterator[Live]:
    """`python -m jdr.web.serve` on a free loopback port, until the block ends."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "JDR_ADMIN_TOKEN"}
    env["JDR_ACTIONS_RAFALE"] = "100000"
    env.update(env_extra or {})
    if admin:
        env["JDR_ADMIN_TOKEN"] = admin
    process = subprocess.Popen([sys.executable, "-m", "jdr.web.serve", "--db", db, "--port", str(port),
                                *args],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, process)
        yield Live(url, f"ws://127.0.0.1:{port}", process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


STARTUP_SECONDS = 180  # a loaded machine (eight test runs on two cores) needs far more than 30 s


def _wait_up(url: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = process.stdout.read() if process.stdout else ""
            raise AssertionError(f"le serveur s'est arrêté ({process.returncode}) : {out}")
        try:
            if http().get(f"{url}/api/sante", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError("le serveur ne répond pas")


async def receive_until(ws: Any, seq: int, timeout: float = 10) -> list[dict[str, Any]]:
    """Every message until the entry `seq` (included) arrives."""
    got: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while not got or got[-1].get("seq") != seq:
            got.append(json.loads(await ws.recv()))
            assert "error" not in got[-1], got[-1]
            assert got[-1]["seq"] <= seq, got
    return got


async def receive_for(ws: Any, seconds: float) -> list[dict[str, Any]]:
    """Every message arriving within `seconds`."""
    got: list[dict[str, Any]] = []
    try:
        async with asyncio.timeout(seconds):
            while True:
                got.append(json.loads(await ws.recv()))
    except TimeoutError:
        pass
    return got


async def page(client: httpx.AsyncClient, table: Table, path: str,
               data: dict[str, list[str]] | None = None) -> str:
    """A page of the table as its MJ sees it (GET, or POST of the form `data` with its token)."""
    client.cookies.set(f"jdr_{table.id}", table.mj)
    try:
        if data is None:
            r = await client.get(f"/tables/{table.id}{path}")
        else:
            r = await client.post(f"/tables/{table.id}{path}", data=data,  # type: ignore[arg-type]
                                  headers={"X-JDR-CSRF": csrf_token(table.mj)})
    finally:
        client.cookies.clear()
    assert r.status_code == 200, r.text
    return r.text
