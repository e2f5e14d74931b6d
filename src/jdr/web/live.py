"""The live channel: `WS /api/tables/{id}/direct?token=…&depuis=N`.

One `Hub` per table and per process holds the connected members. After a journal commit the hub
is woken (locally at once; by PostgreSQL `LISTEN jdr_journal` from any process; by a safety poll
every few seconds otherwise), reads the new entries from the database ONCE, and hands each one to
the members who may see it: serialised once per visibility (and per channel: JSON for the API,
HTML for the pages), made into one WebSocket frame, whose very bytes are written to each idle
member's connection at once (`GuardedWebSocket.write_frame`, under uvicorn); a member still
reading its backlog, or whose connection is slow, gets it queued and sent in order by its own
sender. The payload of a notification is only `<table>:<seq>`: an entry's
content never leaves the database except towards a member allowed to see it.

No gap, no duplicate: a member is registered in the hub before its backlog (`depuis`) is read; an
entry committed after that read is necessarily fetched by the hub later; the sender skips every
seq it has already passed. A client that reconnects with `depuis` = the last seq it saw misses
nothing. On SQLite, one process is the documented limit (a second process sees the other's
entries only through the safety poll).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.routing import compile_path
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from jdr.core.heap import Settled
from jdr.web.auth import FULL, Caller
from jdr.web.errors import ApiError
from jdr.web.visibility import any_touches, caller_key, live_texts

if TYPE_CHECKING:
    from jdr.campaign.sql import Session
    from jdr.campaign.store import Campaign, Entry
    from jdr.web.state import Server

LOG = logging.getLogger("jdr.web")
POLL_SECONDS = 2.0
# With PostgreSQL's LISTEN connected, every commit wakes its hub and a reconnection wakes them all:
# the safety poll is only a last resort, and waking every hub of the process (one database read
# each, a thousand tables per process) every two seconds would cost more than the deliveries.
LISTENING_POLL_SECONDS = 30.0
MAX_QUEUE = 2000
PAGE = 500
Item = tuple[int, str] | None
Frame = Callable[[dict[str, Any], Caller], str]  # the text one channel sends for an entry (JSON)
Channel = Callable[[WebSocket], Awaitable[None]]


def entry_text(entry: Entry) -> str:
    return json.dumps(entry.to_json(), ensure_ascii=False)


def json_frame(data: dict[str, Any], caller: Caller) -> str:
    """The API channel's frame: the entry as JSON (the same for every member who may see it)."""
    return json.dumps(data, ensure_ascii=False)


BLIND_TEXT = "Jet aveugle : seul le MJ en voit les dés et le résultat."


def masked(entry: Entry) -> dict[str, Any]:
    """A blind roll as its roller sees it: that it rolled, not the dice nor the result."""
    return {"seq": entry.seq, "at": entry.at.isoformat(), "actor": entry.actor,
            "action": entry.action, "params": {}, "dice": [], "result": {"type": "masque"},
            "text": BLIND_TEXT, "forum": BLIND_TEXT, "changes": [], "visibility": entry.visibility,
            "author": entry.author, "undone_by": entry.undone_by, "undoes": entry.undoes,
            "masked": True}


def target_of(entry: Entry) -> str | None:
    """The member a whisper is for (`params.a`)."""
    target = entry.params.get("a") if entry.visibility == "chuchote" else None
    return str(target) if target is not None else None


def seen(caller: Caller, entry: Entry, owner: str | None) -> dict[str, Any] | None:
    """The entry as this caller may see it (whole, masked), or None."""
    sight = caller.sight(entry.visibility, owner, target_of(entry))
    if sight is None:
        return None
    return entry.to_json() if sight == FULL else masked(entry)


# ------------------------------------------------------------------ reading the database


def owners(tx: Any, entries: list[Entry]) -> list[tuple[Entry, str | None]]:
    """Each entry with whose private entry it is (an undo of a private entry is the roller's)."""
    out = []
    for entry in entries:
        owner = entry.author
        if entry.undoes is not None and entry.visibility in ("prive", "aveugle", "moi"):
            row = tx.entry_row(entry.undoes)
            owner = row.author if row is not None else None
        out.append((entry, owner))
    return out


def read_entries(campaign: Campaign, since: int, limit: int = PAGE) -> list[tuple[Entry, str | None]]:
    with campaign.reading() as tx:
        return owners(tx, tx.entries(since=since, limit=limit))


def read_seq(campaign: Campaign) -> int:
    with campaign.reading() as tx:
        seq = tx.session.scalar("SELECT journal_seq FROM jdr_campaigns WHERE id = :id",
                                {"id": campaign.id})
    return int(seq or 0)


def heads(session: Session, ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each table's last seq and its number of revoked members (what the safety poll compares),
    in two queries per thousand tables (the ids are this process's own integers)."""
    out: dict[int, tuple[int, int]] = {}
    for start in range(0, len(ids), 1000):
        listed = ",".join(str(int(i)) for i in ids[start:start + 1000])
        seqs = session.all(f"SELECT id, journal_seq FROM jdr_campaigns WHERE id IN ({listed})")
        revoked = dict(session.all(
            "SELECT campaign_id, count(*) FROM jdr_members WHERE revoked = :yes AND "
            f"campaign_id IN ({listed}) GROUP BY campaign_id", {"yes": True}))
        for table, seq in seqs:
            out[int(table)] = (int(seq or 0), int(revoked.get(table, 0)))
    return out


def read_head(campaign: Campaign) -> tuple[int, int]:
    """`heads` of one table."""
    with campaign.reading() as tx:
        return heads(tx.session, [campaign.id]).get(campaign.id, (0, 0))


def read_heads(server: Server, ids: list[int]) -> dict[int, tuple[int, int]]:
    """`heads` of many tables, outside any campaign's lock."""
    with server.session() as session:
        return heads(session, ids)


@dataclass
class Batch:
    entries: list[tuple[Entry, str | None]]
    revoked: set[int]
    # encounter entries as each non-MJ member may see them (`jdr.web.visibility.live_texts`)
    filtered: dict[tuple[str, str, int], str] = field(default_factory=dict)


def read_batch(campaign: Campaign, since: int) -> Batch:
    """Every entry after `since`, and the members revoked since (they get nothing more)."""
    out: list[tuple[Entry, str | None]] = []
    with campaign.reading() as tx:
        while True:
            page = owners(tx, tx.entries(since=since, limit=PAGE))
            out += page
            if len(page) < PAGE:
                break
            since = page[-1][0].seq
        revoked = set(tx.session.scalars(
            "SELECT id FROM jdr_members WHERE campaign_id = :c AND revoked = :yes",
            {"c": campaign.id, "yes": True}))
    return Batch(out, revoked)


# ------------------------------------------------------------------ hubs


Direct = Callable[[bytes], bool]  # writes a ready-made frame at once, or says it cannot
DIRECT = "jdr.direct"  # the scope's extension holding it (`jdr.web.protocols.GuardedWebSocket`)


def wire(text: str) -> bytes:
    """The WebSocket frame (text, final, unmasked as the server sends it, no extension) of
    `text`: the same bytes for every connection, built once per entry and visibility."""
    from websockets.frames import Frame, Opcode

    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


@dataclass(eq=False)
class Subscriber:
    """One connected member. While nothing waits for it (`live`: the backlog sent, nothing
    pending nor in flight), the hub writes each frame straight to its connection (`direct`);
    else the frame waits in `pending` and the connection's sender, started only then
    (`wake_sender`, set once the backlog is sent), sends it in order and stops when all is sent.
    An idle member costs no task of its own: 5,000 connections in a process are that many fewer
    tasks, queues and futures the collector walks."""

    caller: Caller
    frame: Frame = json_frame
    pending: deque[Item] = field(default_factory=deque)
    closing: tuple[int, str] | None = None
    direct: Direct | None = None
    live: bool = False
    sent: int = 0  # the last seq handed to the connection
    key: tuple[str, str] = ("", "")  # `caller_key`: what decides what it sees
    wake_sender: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        self.key = caller_key(self.caller)

    def offer(self, seq: int, text: str, frame: bytes) -> None:
        """Hand an entry over: written at once when possible, else queued."""
        if seq <= self.sent:
            return
        if self.live and self.closing is None and self.direct is not None and self.direct(frame):
            self.sent = seq
            return
        self.push(seq, text)

    def push(self, seq: int, text: str) -> None:
        if self.closing is not None:
            return
        if len(self.pending) >= MAX_QUEUE:
            self.close(1013, "trop de retard : reconnectez-vous avec depuis")
            return
        self.live = False
        self.pending.append((seq, text))
        if self.wake_sender is not None:
            self.wake_sender()

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            self.live = False
            self.pending.append(None)
            if self.wake_sender is not None:
                self.wake_sender()


class Hub:
    """The connected members of one table, in this process."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.subs: set[Subscriber] = set()
        self.last = 0
        self.ready = asyncio.Event()
        self.revoked = 0  # members revoked, as last read
        self.dirty = False
        self.task: asyncio.Task[None] | None = None
        self.init_task = asyncio.create_task(self._start())

    async def _start(self) -> None:
        while True:
            try:
                self.last, self.revoked = await run_in_threadpool(read_head, self.campaign)
                break
            except Exception as exc:
                LOG.warning("table %s : lecture du journal impossible (%s)", self.campaign.id,
                            type(exc).__name__)
                await asyncio.sleep(1)
        self.ready.set()
        if self.dirty:
            self.wake()

    def wake(self) -> None:
        self.dirty = True
        if self.ready.is_set() and (self.task is None or self.task.done()):
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self.dirty and self.subs:
            self.dirty = False
            try:
                batch = await run_in_threadpool(read_batch, self.campaign, self.last)
                fresh = [e for e, _ in batch.entries if e.seq > self.last]
                if any_touches(fresh) and any(not s.caller.is_mj for s in self.subs):
                    batch.filtered = await run_in_threadpool(
                        live_texts, self.campaign, [s.caller for s in self.subs], fresh)
            except Exception as exc:  # the safety poll will try again
                LOG.warning("table %s : lecture du journal impossible (%s)", self.campaign.id,
                            type(exc).__name__)
                return
            self._deliver(batch)

    def _deliver(self, batch: Batch) -> None:
        self.revoked = len(batch.revoked)
        for sub in list(self.subs):
            if sub.caller.member_id in batch.revoked:
                sub.close(4401, "jeton révoqué")
        for entry, owner in batch.entries:
            if entry.seq <= self.last:
                continue
            self.last = entry.seq
            # Each frame (JSON for the API, rendered HTML for the pages) is made once per entry,
            # whatever the number of members who may see it, then only handed out; only a fight
            # a member sees otherwise (`live_texts`) gets its own.
            frames: dict[tuple[Frame, bool], tuple[str, bytes]] = {}
            seq, visibility, target = entry.seq, entry.visibility, target_of(entry)
            sights: dict[tuple[str, str], str | None] = {}  # by role and name: the same for all
            for sub in self.subs:
                if visibility == "public":
                    sight: str | None = FULL
                elif sub.key in sights:
                    sight = sights[sub.key]
                else:
                    sight = sights[sub.key] = sub.caller.sight(visibility, owner, target)
                if sight == FULL:
                    special = batch.filtered.get((*sub.key, seq)) if batch.filtered else None
                    if special is not None:  # a fight this member sees otherwise (not shared)
                        text = special if sub.frame is json_frame else sub.frame(
                            json.loads(special), sub.caller)
                        sub.offer(seq, text, wire(text))
                        continue
                    # the API's JSON is the same for all; a page's HTML shows the MJ's buttons
                    kind = (sub.frame, sub.frame is not json_frame and sub.caller.is_mj)
                    shared = frames.get(kind)
                    if shared is None:
                        text = sub.frame(entry.to_json(), sub.caller)
                        shared = frames[kind] = (text, wire(text))
                    sub.offer(seq, *shared)
                elif sight is not None:  # a blind roll's roller: that it rolled, nothing more
                    text = sub.frame(masked(entry), sub.caller)
                    sub.offer(seq, text, wire(text))


class Hubs:
    """Every hub of this process, the PostgreSQL listener and the safety poll."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.hubs: dict[int, Hub] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.listening = False  # PostgreSQL's LISTEN connected (`jdr.web.listen`)
        self.settled = Settled()  # the live connections, set aside from the collector

    def wake(self, table_id: int) -> None:
        hub = self.hubs.get(table_id)
        if hub is not None:
            hub.wake()

    def on_notify(self, payload: str) -> None:
        head = payload.partition(":")[0]
        if head.isdigit() and len(head) < 12:
            self.wake(int(head))

    def kick(self, table_id: int, member_id: int) -> None:
        hub = self.hubs.get(table_id)
        for sub in list(hub.subs if hub is not None else ()):
            if sub.caller.member_id == member_id:
                sub.close(4401, "jeton révoqué")

    async def subscribe(self, caller: Caller, frame: Frame = json_frame, direct: Direct | None = None
                        ) -> tuple[Hub, Subscriber]:
        self._start()
        table_id = caller.campaign.id
        hub = self.hubs.get(table_id)
        if hub is None:
            hub = self.hubs[table_id] = Hub(caller.campaign)
        sub = Subscriber(caller, frame, direct=direct)
        hub.subs.add(sub)
        try:
            await asyncio.wait_for(hub.ready.wait(), timeout=30)
        except TimeoutError:
            self.unsubscribe(hub, sub)
            raise ApiError(503, "base de données injoignable") from None
        return hub, sub

    def unsubscribe(self, hub: Hub, sub: Subscriber) -> None:
        hub.subs.discard(sub)
        if not hub.subs and self.hubs.get(hub.campaign.id) is hub:
            del self.hubs[hub.campaign.id]

    def _start(self) -> None:
        if self.tasks:
            return
        self.tasks.append(asyncio.create_task(self._poll()))
        if self.server.postgres:
            from jdr.web.listen import listen

            self.tasks.append(asyncio.create_task(listen(self)))

    async def _poll(self) -> None:
        last = asyncio.get_running_loop().time()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            now = asyncio.get_running_loop().time()
            if not self.listening or now - last >= LISTENING_POLL_SECONDS:
                last = now
                await self.poll()

    async def poll(self) -> None:
        """Wake the hubs whose table moved (a new entry, a member revoked) since they last read:
        one query for all of them. Waking every hub instead (one read each, a thousand tables
        per process) held the thread pool and the connections for seconds every poll, and the
        actions of that moment waited behind (issue 18: the tail of 10,000 live clients)."""
        hubs = {i: h for i, h in self.hubs.items() if h.ready.is_set()}
        if not hubs:
            return
        try:
            heads = await run_in_threadpool(read_heads, self.server, list(hubs))
        except Exception as exc:
            LOG.warning("lecture des tables impossible (%s)", type(exc).__name__)
            return
        for table, hub in hubs.items():
            seq, revoked = heads.get(table, (0, 0))
            if seq > hub.last or revoked != hub.revoked:
                hub.wake()

    async def stop(self) -> None:
        tasks, self.tasks = self.tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


# ------------------------------------------------------------------ the WebSocket route


TokenOf = Callable[[WebSocket, int], "str | None"]


def _query_token(websocket: WebSocket, _table: int) -> str | None:
    return websocket.query_params.get("token")


async def direct(websocket: WebSocket) -> None:
    """`WS /api/tables/{id}/direct?token=…&depuis=N`: backlog after N, then each new entry."""
    await serve_channel(websocket, _query_token)


async def serve_channel(websocket: WebSocket, token_of: TokenOf, frame: Frame = json_frame) -> None:
    """One live channel (the API's, or the pages' with the cookie's token): the backlog after
    `depuis` the caller may see, then each new entry, filtered by `Caller.may_see`, each sent
    as `frame` makes it (the entry's JSON, or for the pages the entry ready to show)."""
    server: Server = websocket.app.state.server
    await websocket.accept()
    try:
        caller, since = await _open(server, websocket, token_of)
        writer = (websocket.scope.get("extensions") or {}).get(DIRECT)
        hub, sub = await server.hubs.subscribe(caller, frame, writer["write"] if writer else None)
    except ApiError as exc:
        await _refuse(websocket, exc)
        return
    settled = False
    sender: asyncio.Task[None] | None = None  # the sender while it runs

    def wake_sender() -> None:
        nonlocal sender
        if sender is None or sender.done():
            sender = asyncio.create_task(_send(websocket, sub))

    try:
        sent = await _backlog(websocket, caller, since, frame)
        sub.sent = max(sub.sent, sent)
        sub.wake_sender = wake_sender
        if sub.pending:
            wake_sender()  # what came during the backlog
        else:
            sub.live = True  # idle: the hub may write to the connection itself
        server.hubs.settled.joined()  # what the connection holds for its life is made
        settled = True
        await _drain(websocket)
    except Exception as exc:  # a client gone mid-send, the database gone: close, say why
        LOG.info("canal direct fermé (%s)", type(exc).__name__)
        await _refuse(websocket, ApiError(503, "canal interrompu : reconnectez-vous avec depuis"))
    finally:
        sub.wake_sender = None
        server.hubs.unsubscribe(hub, sub)
        if settled:
            server.hubs.settled.left()
        if sender is not None:
            sender.cancel()


async def _open(server: Server, websocket: WebSocket, token_of: TokenOf
                ) -> tuple[Caller, int | None]:
    from jdr.errors import JdrError
    from jdr.web.errors import from_jdr

    raw_id = str(websocket.path_params.get("id", ""))
    if not (raw_id.isascii() and raw_id.isdigit()) or len(raw_id) > 9:
        raise ApiError(404, "table introuvable")
    raw_since = websocket.query_params.get("depuis")
    since: int | None = None
    if raw_since is not None:
        if not (raw_since.isascii() and raw_since.isdigit()) or len(raw_since) > 9:
            raise ApiError(400, "depuis : nombre entier positif attendu")
        since = int(raw_since)
    try:
        caller = await run_in_threadpool(server.authenticate, token_of(websocket, int(raw_id)),
                                         int(raw_id))
    except JdrError as exc:
        raise from_jdr(exc) from None
    return caller, since


CLOSE_CODES = {400: 4400, 401: 4401, 403: 4403, 404: 4404}


async def _refuse(websocket: WebSocket, exc: ApiError) -> None:
    try:
        await websocket.send_text(json.dumps({"error": exc.message}, ensure_ascii=False))
        await websocket.close(code=CLOSE_CODES.get(exc.status, 1011), reason=str(exc.status))
    except Exception as error:  # the client left first
        LOG.info("canal direct refusé puis fermé (%s)", type(error).__name__)


async def _backlog(websocket: WebSocket, caller: Caller, since: int | None,
                   frame: Frame = json_frame) -> int:
    """Send what the caller may see after `since`; the last seq passed."""
    if since is None:
        return await run_in_threadpool(read_seq, caller.campaign)
    while True:
        page = await run_in_threadpool(read_entries, caller.campaign, since)
        entries = [e for e, _ in page]
        filtered = {} if caller.is_mj or not any_touches(entries) else await run_in_threadpool(
            live_texts, caller.campaign, [caller], entries)
        for entry, owner in page:
            sight = caller.sight(entry.visibility, owner, target_of(entry))
            if sight == FULL:
                special = filtered.get((*caller_key(caller), entry.seq))
                if special is not None and frame is json_frame:
                    await websocket.send_text(special)
                else:
                    data = json.loads(special) if special is not None else entry.to_json()
                    await websocket.send_text(frame(data, caller))
            elif sight is not None:  # a blind roll's roller: that it rolled, nothing more
                await websocket.send_text(frame(masked(entry), caller))
            since = entry.seq
        if len(page) < PAGE:
            return since


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it leaves."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


async def _send(websocket: WebSocket, sub: Subscriber) -> None:
    """Send what is pending, in order, then leave the connection to the hub's direct writes;
    on closing, the reason then the close (the client's reader then sees it leave)."""
    try:
        while sub.pending:
            item = sub.pending.popleft()
            if item is None:
                code, reason = sub.closing or (1000, "")
                await websocket.send_text(json.dumps({"error": reason}, ensure_ascii=False))
                await websocket.close(code=code, reason=reason)
                return
            seq, text = item
            if seq <= sub.sent:
                continue
            await websocket.send_text(text)  # meanwhile, what comes is pending behind it
            sub.sent = seq
        if sub.closing is None:
            sub.live = True  # all sent: the hub may write to the connection itself
    except Exception as exc:  # the client gone mid-send: its reader sees it leave
        LOG.info("canal direct : %s", type(exc).__name__)


class LiveDoor:
    """ASGI middleware, the innermost of ours: a live channel's WebSocket goes straight to its
    handler, past the router, the exception middleware and FastAPI's dependency resolution.

    A connection lives for the whole evening and every layer it crosses stays suspended on it as
    long: 191 objects per connection through the whole stack, 31 of them coroutines. A process
    holding 5,000 connections kept about a million objects the collector walked at each full
    collection (up to two seconds, the server stopped). The middlewares outside this one still
    see the handshake (`OriginGuard` checks the pages' channel's origin); any other WebSocket
    goes on to the router as before."""

    def __init__(self, app: ASGIApp, channels: Mapping[str, Channel]) -> None:
        self.app = app
        self.channels = [(compile_path(path)[0], handler) for path, handler in channels.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path = scope["path"]
            for pattern, handler in self.channels:
                match = pattern.match(path)
                if match is not None:
                    scope["path_params"] = match.groupdict()
                    await handler(WebSocket(scope, receive, send))
                    return
        await self.app(scope, receive, send)
