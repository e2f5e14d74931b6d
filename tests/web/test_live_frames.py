"""The hub's delivery (`jdr.web.live.Hub._deliver`): an entry is serialised once per visibility,
its WebSocket frame built once, and the same bytes written to every member's connection that is
idle; a member busy or slow gets it queued, in order. The connections are recorders standing in
for the transport (uvicorn's, `jdr.web.protocols.GuardedWebSocket.write_frame`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from jdr.campaign.store import Campaign, Entry
from jdr.web import live
from jdr.web.auth import Caller
from jdr.web.live import Batch, Hub, Subscriber, json_frame

pytestmark = pytest.mark.anyio


class Connection:
    """What reaches the socket; `open` False: the transport is paused (a slow reader)."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.open = True

    def write(self, frame: bytes) -> bool:
        if not self.open:
            return False
        self.frames.append(frame)
        return True


def entry(seq: int, visibility: str = "public") -> Entry:
    return Entry(seq=seq, at=datetime(2026, 1, 1, tzinfo=UTC), actor="MJ", action="roll",
                 params={"expression": "1d20"}, dice=[[20, 7]], result={"type": "roll", "total": 7},
                 text="1d20 : 7", forum="1d20 : 7", changes=[], visibility=visibility, author="MJ",
                 undone_by=None, undoes=None)


def payload(frame: bytes) -> dict[str, Any]:
    """The JSON of a whole text frame sent by a server (final, unmasked)."""
    assert frame[0] == 0x81, "trame de texte finale attendue"
    assert not frame[1] & 0x80, "une trame du serveur n'est pas masquée"
    size, start = frame[1] & 0x7F, 2
    if size == 126:
        size, start = int.from_bytes(frame[2:4], "big"), 4
    assert len(frame) == start + size
    data: dict[str, Any] = json.loads(frame[start:])
    return data


@pytest.fixture
async def hub(tmp_path: Path) -> Any:
    campaign = Campaign.create(str(tmp_path / "Essai.jdr"), "Essai", "cydonia")
    hub = Hub(campaign)
    await hub.ready.wait()
    yield hub
    campaign.dispose()


def member(hub: Hub, number: int, role: str, frame: Any = json_frame) -> tuple[Subscriber, Connection]:
    connection = Connection()
    sub = Subscriber(Caller(number, f"P{number}" if role != "mj" else "MJ", role, hub.campaign), frame,
                     direct=connection.write, live=True)
    hub.subs.add(sub)
    return sub, connection


async def test_an_entry_is_serialised_once_per_visibility_and_the_same_bytes_go_to_all(
        hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []

    def counted(data: dict[str, Any], caller: Caller) -> str:  # the API's frame, counted
        made.append(data["seq"])
        return json_frame(data, caller)

    monkeypatch.setattr(live, "json_frame", counted)
    mj = member(hub, 1, "mj", counted)
    others = [member(hub, n, "joueur" if n % 4 else "spectateur", counted) for n in range(2, 300)]
    hub._deliver(Batch([(entry(1), "MJ"), (entry(2, "mj"), "MJ"), (entry(3), "MJ")], set()))

    assert made == [1, 2, 3]  # once per entry, not once per member
    assert [payload(f)["seq"] for f in mj[1].frames] == [1, 2, 3]
    for _, connection in others:  # the MJ's secret roll reaches nobody else
        assert [payload(f)["seq"] for f in connection.frames] == [1, 3]
        assert connection.frames[0] is mj[1].frames[0]  # the very same bytes, built once
        assert connection.frames[1] is mj[1].frames[2]
    assert all(not sub.pending and sub.sent == 3 for sub, _ in others)


async def test_a_slow_member_gets_its_entries_queued_in_order(hub: Hub) -> None:
    slow, connection = member(hub, 2, "joueur")
    quick, other = member(hub, 3, "joueur")
    connection.open = False  # its transport is paused
    hub._deliver(Batch([(entry(1), "MJ")], set()))
    connection.open = True  # writable again, but entry 1 is still waiting in its queue
    hub._deliver(Batch([(entry(2), "MJ")], set()))

    assert connection.frames == []  # nothing may overtake the queued entry
    assert list(slow.pending) == [
        (1, json_frame(entry(1).to_json(), slow.caller)), (2, json_frame(entry(2).to_json(), slow.caller))]
    assert [payload(f)["seq"] for f in other.frames] == [1, 2]
    assert not quick.pending


async def test_a_member_still_reading_its_backlog_gets_entries_queued(hub: Hub) -> None:
    sub, connection = member(hub, 2, "joueur")
    sub.live = False  # its sender has not finished the backlog
    sub.sent = 1  # the backlog went up to 1
    hub._deliver(Batch([(entry(1), "MJ"), (entry(2), "MJ")], set()))
    assert connection.frames == []
    assert [seq for seq, _ in sub.pending] == [2]  # 1 was already sent


async def test_a_revoked_member_gets_nothing_more(hub: Hub) -> None:
    sub, connection = member(hub, 2, "joueur")
    hub._deliver(Batch([(entry(1), "MJ")], {2}))
    assert connection.frames == []
    assert sub.closing is not None and sub.closing[0] == 4401


async def test_a_page_frame_is_made_once_for_the_mj_and_once_for_the_others(hub: Hub) -> None:
    """The journal item of a page carries the MJ's « Révéler » button: never shared with a
    joueur, whoever connected first."""
    from jdr.web.page_live import html_frame

    made: list[bool] = []

    def counted(data: dict[str, Any], caller: Caller) -> str:
        made.append(caller.is_mj)
        return html_frame(data, caller)

    _, mine = member(hub, 2, "joueur", counted)  # connected first
    _, mj_connection = member(hub, 1, "mj", counted)
    _, other_mj = member(hub, 3, "mj", counted)
    private = Entry(**{**entry(1, "prive").__dict__, "author": "P2", "actor": "P2"})
    hub._deliver(Batch([(private, "P2")], set()))
    assert "Révéler" in payload(mj_connection.frames[0])["html"]
    assert "Révéler" not in payload(mine.frames[0])["html"]
    assert other_mj.frames[0] is mj_connection.frames[0]
    assert sorted(made) == [False, True]  # once for the MJ, once for the others
