"""The limits of `jdr serve` (issue 16, item 5), on a real server with short limits set by the
environment: half-sent heads and bodies closed in time (408), a silent WebSocket dropped after
its unanswered ping, the connection caps per address and in all, the rate of actions per token
(429, `Retry-After`, French message). The numbers are those of `docs/api.md` when not set."""

from __future__ import annotations

import base64
import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_support import Live, http, live_server

from jdr.errors import RuleError
from jdr.web.limits import ActionRate, Limits

LIMITS = {"JDR_DELAI_ENTETES": "0,5", "JDR_DELAI_CORPS": "0.5", "JDR_DELAI_INACTIF": "0.5",
          "JDR_CONNEXIONS_MAX": "6", "JDR_CONNEXIONS_PAR_ADRESSE": "3", "JDR_WS_PING": "0.3",
          "JDR_WS_PONG": "0.3", "JDR_ACTIONS_RAFALE": "3", "JDR_ACTIONS_PAR_SECONDE": "0.1"}
MARGIN = 3.0  # a loaded machine: the server may be that late to close (never, before)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    db = tmp_path_factory.mktemp("limites") / "t.jdr"
    with live_server(str(db), env_extra=LIMITS) as server:
        yield server


def port_of(live: Live) -> int:
    return int(live.url.rsplit(":", 1)[1])


def dial(live: Live, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port_of(live)))
    return sock


def read_all(sock: socket.socket) -> tuple[bytes, float]:
    """Everything until the server closes; how long that took."""
    started, data = time.monotonic(), b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data, time.monotonic() - started


def answer(sock: socket.socket) -> bytes:
    sock.settimeout(5)
    try:
        return sock.recv(4096)
    except TimeoutError:
        return b""


def held(sock: socket.socket) -> bool:
    """The server kept this connection: a complete request on it is answered."""
    sock.sendall(b"GET /api/sante HTTP/1.1\r\nHost: t\r\n\r\n")
    data = answer(sock)
    while data.startswith(b"HTTP/1.1 200") and not data.endswith(b"}"):
        more = answer(sock)
        if not more:
            break
        data += more
    return data.startswith(b"HTTP/1.1 200")


def test_half_sent_heads_and_bodies_closed_in_time(live: Live) -> None:
    sources = ("127.0.0.2", "127.0.0.3")
    heads = [dial(live, sources[0]) for _ in range(3)]
    for sock in heads:
        sock.sendall(b"GET /api/sante HTTP/1.1\r\nHost: t\r\nX-Lent: ")
    bodies = [dial(live, sources[1]) for _ in range(3)]
    for sock in bodies:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"nom\": ")
    for sock in heads + bodies:
        data, waited = read_all(sock)
        assert waited < 0.5 + MARGIN, waited
        assert data.startswith(b"HTTP/1.1 408"), data
        assert "requête trop lente" in data.decode() and "0,5 s au plus" in data.decode()
        sock.close()
    idle = dial(live, sources[0])
    assert held(idle)  # the slots are given back; then an idle kept-alive connection is closed
    data, waited = read_all(idle)
    assert data == b"" and waited < 0.5 + MARGIN


def test_connection_caps_per_address_and_in_all(live: Live) -> None:
    first = [dial(live, "127.0.0.4") for _ in range(3)]
    extra = dial(live, "127.0.0.4")
    refused, _ = read_all(extra)
    assert refused.startswith(b"HTTP/1.1 429") and b"retry-after: 5" in refused
    assert "trop de connexions depuis votre adresse (au plus 3)" in refused.decode()
    second = [dial(live, "127.0.0.5") for _ in range(3)]
    full, _ = read_all(dial(live, "127.0.0.6"))
    assert full.startswith(b"HTTP/1.1 503") and "serveur plein : 6 connexions" in full.decode()
    assert all(held(s) for s in first + second)
    for sock in first + second:
        sock.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the server sees the closes: room again
        if held(dial(live, "127.0.0.6")):
            break
        time.sleep(0.05)
    else:
        raise AssertionError("les connexions fermées ne sont pas rendues")


def _table(live: Live) -> tuple[int, str]:
    r = http().post(f"{live.url}/api/tables", json={"nom": f"T{time.monotonic_ns()}",
                                                    "systeme": "cydonia"}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["jeton"]


def test_websocket_without_pong_is_closed_and_capped(live: Live) -> None:
    table, token = _table(live)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /api/tables/{table}/direct?token={token} HTTP/1.1\r\nHost: t\r\n"
               f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode()
    silent = [dial(live, "127.0.0.7") for _ in range(3)]
    for sock in silent:
        sock.sendall(request)
        assert answer(sock).startswith(b"HTTP/1.1 101")
    fourth = dial(live, "127.0.0.7")
    fourth.sendall(request)
    assert answer(fourth).startswith(b"HTTP/1.1 429")
    for sock in silent:  # never answers the pings: closed after one ping and its wait
        data, waited = read_all(sock)
        assert waited < 0.3 + 0.3 + MARGIN, waited
        assert b"\x89" in data  # a ping frame came first
        sock.close()


def test_rate_of_actions_per_token(live: Live) -> None:
    table, mj = _table(live)
    other, mj2 = _table(live)
    roll = {"type": "roll", "params": {"expression": "1d6"}}

    def act(tid: int, token: str) -> httpx.Response:
        return http().post(f"{live.url}/api/tables/{tid}/actions", json=roll, timeout=10,
                           headers={"Authorization": f"Bearer {token}"})

    assert [act(table, mj).status_code for _ in range(3)] == [200, 200, 200]
    r = act(table, mj)
    wait = int(r.headers["retry-after"])
    assert r.status_code == 429 and 1 <= wait <= 10
    assert r.json() == {"error": f"trop d'actions : réessayez dans {wait} s (au plus 3 d'affilée, "
                                 "puis 0,1 par seconde)"}
    assert act(other, mj2).status_code == 200  # another token: its own rate
    assert http().get(f"{live.url}/api/tables/{table}/journal", timeout=10,
                      headers={"Authorization": f"Bearer {mj}"}).status_code == 200  # reads free


def test_token_bucket_and_settings_from_the_environment() -> None:
    rate = ActionRate(None, Limits(actions_burst=2, actions_per_second=1))  # type: ignore[arg-type]
    assert [rate.take("a", 0.0), rate.take("a", 0.0)] == [0.0, 0.0]
    assert rate.take("a", 0.0) == pytest.approx(1.0)
    assert rate.take("a", 0.5) == pytest.approx(0.5)
    assert rate.take("a", 1.0) == 0.0 and rate.take("b", 1.0) == 0.0
    assert Limits.from_env({}) == Limits()
    assert Limits.from_env({"JDR_DELAI_ENTETES": "2,5", "JDR_CONNEXIONS_MAX": "9"}) == Limits(
        head_timeout=2.5, max_connections=9)
    bad: list[dict[str, Any]] = [{"JDR_CONNEXIONS_MAX": "1.5"}, {"JDR_DELAI_CORPS": "0"},
                                 {"JDR_WS_PING": "vite"}]
    messages = []
    for env in bad:
        with pytest.raises(RuleError) as caught:
            Limits.from_env(env)
        messages.append(caught.value.message)
    assert messages == [
        "JDR_CONNEXIONS_MAX : « 1.5 » n'est pas un nombre entier",
        "JDR_DELAI_CORPS : 0 hors limites (autorisé : 0,1 à 3600)",
        "JDR_WS_PING : « vite » n'est pas un nombre (secondes, ex. 10 ou 0,5)"]
