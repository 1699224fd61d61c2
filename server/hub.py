"""The hub: each encounter with viewers in this process is a Room that folds its
stream with the pure reducer and fans each change out, encoded once per audience.

Writes never touch a Room: a command is appended to Redis, and every replica
(this one included) learns of it from its tail, so all fold the same order.
"""

import asyncio
import contextlib
import hashlib
import logging
import os
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, cast

import msgspec

from ..rules import RULES_VERSION
from ..rules.events import decode_event
from ..rules.model import Encounter, Entry
from ..rules.reducer import BUG, canonical, folding
from ..rules.ruleset import kept
from ..rules.upgrade import version_needed
from ..rules.view import View, Viewer, log_for
from . import metrics, protocol
from .store import position_key
from .views import Views, sender_lines, senders

if TYPE_CHECKING:
    from .connection import Replies  # which imports this module

log = logging.getLogger("fray.hub")
_snapshot_decoder = msgspec.msgpack.Decoder(Encounter)
_log_encoder = msgspec.msgpack.Encoder()
_log_decoder = msgspec.msgpack.Decoder(list[tuple[str, Entry]])

WELCOME_LOG = 200  # at most this many log entries in a welcome; the log endpoint has all
SEEN = 1_000  # recent command ids a room remembers, to acknowledge retries without a round trip (older: the store checks)
# Seconds an encounter goes unchanged before its views are let go (Room.rest): rebuilt from
# its state when it changes again or someone joins (~60 KB an encounter; issue 24). Waking
# costs ~0.3 ms, a command's CPU again: a table's pause to think (often longer than 5 s) must
# not pay it at every command, and a thousand tables waking at once stall the loop (a
# p99 of 1.4 s at 1,000 encounters at 1/s woken together, against 78 ms never resting).
REST_AFTER = float(os.environ.get("FRAY_REST_AFTER", "60"))
SNAPSHOT_EVERY = int(os.environ.get("FRAY_SNAPSHOT_EVERY", "500"))  # events between snapshots
# The close code of a socket whose fight this replica does not fold: its rules version is
# newer than this replica knows (a rolling upgrade). The client reconnects, through the
# balancer, to a replica that knows it (docs/protocol.md, docs/operations.md).
UNKNOWN_VERSION_CLOSE = 4012


class UnknownVersion(Exception):
    """A fight whose rules version this replica does not know: it is not folded here."""

    code = "rules/unknown-version"

    def __init__(self, encounter: str, version: int, newest: int) -> None:
        if version:
            said = f"encounter {encounter} is played under rules version {version}; this server knows versions up to {newest}: reconnect to another"
        else:  # an event of a newer release's shape (a command or field this code lacks)
            said = f"encounter {encounter} holds an event this server cannot read (a newer release's): reconnect to another"
        super().__init__(said)
        self.version = version


class Outgoing:
    """One text message, for one socket or a whole audience: its JSON encoded once, and
    its websocket frame built once, on first use, for every socket that writes frames
    onto its transport itself (a `wire`, server/connection.py)."""

    __slots__ = ("_frame", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._frame: bytes | None = None

    @property
    def text(self) -> str:
        return self.data.decode()

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            self._frame = text_frame(self.data)
        return self._frame


def text_frame(data: bytes) -> bytes:
    """A websocket text frame as a server sends it (RFC 6455 5.2): final, unmasked, no
    extension, then the payload's length in 7, 16 or 64 bits. websockets' own
    `Frame.serialize` takes ~6 us, most of it checks, and runs once per audience."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + data
    return b"\x81\x7f" + n.to_bytes(8, "big") + data


def outgoing(message: "str | Outgoing") -> Outgoing:
    return message if isinstance(message, Outgoing) else Outgoing(message.encode())


class Wire(Protocol):
    """A socket's transport, written to directly: `ready` while it is open and not
    pushing back (its buffer below the high-water mark)."""

    def ready(self) -> bool: ...
    def write(self, frame: bytes) -> None: ...


class Client:
    """One websocket. A bounded outbox and a writer task while anything waits in it:
    a slow client is dropped with a reason instead of slowing the table. With a `wire`,
    a message goes straight onto the socket's transport when nothing waits before it
    and the transport takes it (most of the time): no task switch, no copy a socket.
    An idle client holds no text and no task (a welcome is several KB)."""

    __slots__ = ("_close", "_send_text", "_sending", "_wire", "closing", "dropped", "limit", "link", "outbox", "replies", "viewer", "writer")

    def __init__(self, viewer: Viewer, send_text, close, outbox: int = 256, wire: Wire | None = None, link: str = "") -> None:
        self.viewer = viewer
        self.link = link  # its token id: a player's lines for a sender alone go to the link that sent them (server.views.senders)
        self._send_text = send_text
        self._close = close
        self._wire = wire
        self.limit = outbox
        self.outbox: list[Outgoing] = []  # short-lived and short: a list is 56 bytes idle, a deque 600
        self.dropped: str | None = None
        self.closing: tuple[int, str] | None = None  # close with this once the outbox is sent (a shutdown)
        self.replies: Replies | None = None  # the connection's pending answers (server/connection.py), for a shutdown to wait on
        self._sending = False
        self.writer: asyncio.Task | None = None  # started when something has to wait; ends when the outbox is empty

    def push(self, message: "str | Outgoing") -> None:
        if self.dropped:
            return
        if not self.outbox and not self._sending and self.writer is None and self._wire is not None and self._wire.ready():
            self._wire.write(outgoing(message).frame)
            return
        if len(self.outbox) >= self.limit:
            self.dropped = "too slow: the update queue filled up; reconnect to catch up"
            self.outbox.clear()
            metrics.counts.outbox_drops += 1
        else:
            self.outbox.append(outgoing(message))
        self._wake_writer()

    def _wake_writer(self) -> None:
        if self.writer is None:  # else the writer, busy sending, sees the outbox next
            self.writer = asyncio.create_task(self._write())

    def close_after_outbox(self, code: int, reason: str) -> None:
        """Send what waits, then close with `code`: a shutdown loses no update."""
        if self.dropped:  # closed already, with its reason
            return
        self.closing = (code, reason)
        self._wake_writer()

    async def _write(self) -> None:
        try:
            while not self.dropped:
                if not self.outbox:
                    if self.closing is not None:
                        await self._close(*self.closing)
                        self.dropped = "closed"  # on purpose: nothing more is sent
                    return  # nothing waits: the next push writes, or starts a writer again
                message = self.outbox.pop(0)
                if self._wire is not None and self._wire.ready():
                    self._wire.write(message.frame)
                    continue
                self._sending = True
                await self._send_text(message.text)
                self._sending = False
        except Exception:  # the socket went away; the reader notices and leaves
            self.dropped = self.dropped or "the socket went away"  # no writer again for it
            return
        finally:
            self._sending = False
            if self.writer is asyncio.current_task():
                self.writer = None
        await self._close(1008, self.dropped[:120])

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (bounded) until everything pushed so far is sent: a socket closed
        on purpose says every answer it owes first."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (self.outbox or self._sending) and not self.dropped and self.writer is not None:
            if asyncio.get_running_loop().time() > deadline:
                return
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        if self.writer is None:
            return
        self.writer.cancel()
        try:
            await self.writer
        except (asyncio.CancelledError, Exception):
            pass


class Room:
    def __init__(self, encounter: str, newest: int = RULES_VERSION) -> None:
        self.id = encounter
        self.newest = newest  # the newest rules version this replica folds
        self.unknown: UnknownVersion | None = None  # set by an event this replica must not fold; nothing after it is
        self.state: Encounter | None = None
        self.position = "0-0"
        self.clients: set[Client] = set()
        self.audiences: dict[Viewer, list[Client]] = {}  # the clients by what they see (join, leave)
        self.log: deque[tuple[str, Entry]] = deque(maxlen=WELCOME_LOG)  # the recent log; the endpoint folds it all
        self.seen: OrderedDict[str, str] = OrderedDict()  # event id -> position: retries are acknowledged, not re-appended
        self._folded: asyncio.Future[None] | None = None  # settled by the next fold; made only when someone waits (reached)
        self.views = Views()
        self.resting = False  # its views let go and its log packed while nothing changes (rest, wake)
        self._packed_log = b""
        self.changed_at = time.monotonic()
        self.snapshot_seq = 0

    def rest(self) -> None:
        """Nothing has changed for a while: let go of the views, and hold the recent log
        packed (msgpack: a third of its objects' memory). Views are a pure function of the
        state and the viewer, so `wake` builds from the state what every audience holds,
        and the next patch is what it would have been."""
        if not self.resting and self.state is not None:
            self.views = Views()
            self._packed_log = _log_encoder.encode(list(self.log))
            self.log.clear()
            self.resting = True

    def wake(self) -> None:
        """Before the next change or welcome: the log as it was, and each audience's view as it holds it."""
        if self.resting:
            self.resting = False
            assert self.state is not None
            self.log.extend(_log_decoder.decode(self._packed_log))
            self._packed_log = b""
            for viewer in self.audiences:
                self.views.of(self.state, viewer)

    async def reached(self, position: str, timeout: float = 2.0) -> bool:
        """Wait (bounded) until this room has folded `position`: a sender's next
        command is checked against a state that includes its previous one."""
        target = position_key(position)
        deadline = asyncio.get_running_loop().time() + timeout
        while position_key(self.position) < target:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                return False
            try:
                if self._folded is None:
                    self._folded = asyncio.get_running_loop().create_future()
                await asyncio.wait_for(asyncio.shield(self._folded), remaining)
            except TimeoutError:
                return False
        return True

    def fold(self, events: Iterable[tuple[str, bytes]]) -> list[Entry]:
        new: list[Entry] = []
        batch = []
        for position, payload in events:  # DESIGN: a replica never folds a fight under rules it does not know
            try:
                event = decode_event(payload)
            except msgspec.ValidationError:  # a newer release's event: fold nothing from it on
                self.unknown = UnknownVersion(self.id, 0, self.newest)
                break
            if (version := version_needed(event.command)) > self.newest:
                self.unknown = UnknownVersion(self.id, version, self.newest)
                break
            batch.append((position, event))
        # One copy of the state for the whole batch (rules.reducer.folding).
        for (position, event), state in zip(batch, folding((e for _, e in batch), self.state), strict=True):
            self.state = state
            self.position = position
            self.seen[event.id] = position
            if len(self.seen) > SEEN:
                self.seen.popitem(last=False)  # older retries are caught by the store's own check
            for entry in self.state.recent:
                self.log.append((position, entry))
                new.append(entry)
                if entry.code == BUG:
                    log.error("Rule bug in encounter %s at event %d (%s, command %s): %s", self.id, entry.seq, position, event.id, entry.text)
        if self._folded is not None:
            if not self._folded.done():
                self._folded.set_result(None)
            self._folded = None
        return new

    def welcome(self, viewer: Viewer, after: str = "0-0", link: str = "") -> Outgoing:
        assert self.state is not None
        self.wake()
        start = position_key(after)
        entries = [e for p, e in self.log if position_key(p) > start][-WELCOME_LOG:]
        shown = self.views.of(self.state, viewer)
        data = protocol.encoder.encode(
            protocol.Welcome(
                encounter=self.id,
                viewer=viewer,
                position=self.position,
                # The view as builtins (server/views.py), encoded exactly as a View
                # would be; a Struct does not check the types of its fields.
                view=cast(View, shown),
                log=senders(log_for(entries, self.state, viewer), link if viewer.role == "player" else ""),
                rules_version=kept(self.state.rules_version),
                rules_newest=self.newest,
            )
        )
        return Outgoing(data)

    def join(self, client: Client) -> None:
        self.clients.add(client)
        self.audiences.setdefault(client.viewer, []).append(client)

    def leave(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        audience = self.audiences[client.viewer]
        audience.remove(client)
        if not audience:  # nobody sees it this way now: its views go too
            del self.audiences[client.viewer]
            self.views.forget(lambda v: v in self.audiences)

    def fan_out(self, new: list[Entry]) -> None:
        """Encode each update once per audience, not once per socket: the patch
        from what that audience saw last to what it sees now."""
        assert self.state is not None
        made: list[tuple[list, list[Entry], Outgoing]] = []  # audiences whose patch and lines are alike share one message
        for viewer, clients in self.audiences.items():
            ops = self.views.patch(self.state, viewer)
            lines = log_for(new, self.state, viewer, sides=self.views.sides(viewer))
            if viewer.role == "player" and sender_lines(lines):  # rare (a whisper, a rejection): one message a link
                for link in {client.link for client in clients}:
                    message = Outgoing(protocol.encoder.encode(protocol.Update(position=self.position, patch=ops, log=senders(lines, link))))
                    for client in clients:
                        if client.link == link:
                            client.push(message)
                continue
            # Most changes read alike to many audiences (a declaration in an open fight: the
            # position and one line), their ops the same objects (server/views.py), which
            # compare by identity: finding the match costs less than encoding again.
            update = next((m for o, ls, m in made if o == ops and ls == lines), None)
            if update is None:
                update = Outgoing(protocol.encoder.encode(protocol.Update(position=self.position, patch=ops, log=lines)))
                made.append((ops, lines, update))
            for client in clients:
                client.push(update)
        self.views.settle()


def _report_snapshot(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception():
        log.warning("snapshot failed: %s", task.exception())


class Hub:
    def __init__(self, store, newest: int = RULES_VERSION) -> None:
        self.store = store
        self.newest = newest  # the newest rules version folded here (setting --rules-version)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.tail = store.tail(self._on_events)
        self.joined = self.departed = 0  # clients ever (server/collector.py sweeps after many have left)
        self._rester: asyncio.Task | None = None

    async def start(self) -> None:
        await self.tail.start()
        self._rester = asyncio.get_running_loop().create_task(self._resting(), name="fray-rest")

    async def _resting(self) -> None:
        while True:
            await asyncio.sleep(max(0.5, REST_AFTER / 4))
            try:
                self.rest_idle(time.monotonic() - REST_AFTER)
            except Exception:  # resting saves memory; it must never stop the server
                log.exception("resting idle encounters failed")

    def rest_idle(self, before: float) -> int:
        """Rest every room unchanged since `before` (a monotonic time); how many."""
        idle = [room for room in self.rooms.values() if not room.resting and room.changed_at < before]
        for room in idle:
            room.rest()
        return len(idle)

    async def drain(self, timeout: float, reason: str = "server restarting; reconnect to resume") -> None:
        """A graceful shutdown: answer what each connection waits for from Redis,
        send every outbox, then close each socket with 1012 (service restart) so
        its client resumes on another replica. Bounded by `timeout`."""
        clients = [c for room in self.rooms.values() for c in room.clients]
        if not clients:
            return
        log.info("draining %d connections", len(clients))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                pending = [c.replies.settled() for c in clients if c.replies is not None]
                await asyncio.gather(*pending, return_exceptions=True)
                for client in clients:
                    client.close_after_outbox(1012, reason)
                writers = [c.writer for c in clients if c.writer is not None]
                if writers:
                    await asyncio.wait(writers)

    async def stop(self) -> None:
        if self._rester is not None:
            self._rester.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._rester
        await self.tail.stop()
        for room in self.rooms.values():
            for client in list(room.clients):
                await client.stop()

    async def room(self, encounter: str) -> Room | None:
        """The live room, loaded (folded from the stream) on first use; None if no such encounter.
        Raises UnknownVersion for a fight of rules newer than this replica knows."""
        room = self.rooms.get(encounter)
        if room is not None:
            return room
        lock = self._loading.setdefault(encounter, asyncio.Lock())
        async with lock:
            room = self.rooms.get(encounter)
            if room is not None:
                return room
            room = Room(encounter, self.newest)
            await self._restore(room)
            room.fold(await self.store.read(encounter, after=room.position))
            if room.unknown is not None:
                self._handed_off(room)
                raise room.unknown
            if room.state is None:
                return None
            self.rooms[encounter] = room
            self.tail.watch(encounter, room.position)
            return room

    async def _restore(self, room: Room) -> None:
        """Start from the latest snapshot, if it is one this code can trust: made
        by the same rules version, and its bytes hash to what it claims."""
        snapshot = await self.store.load_snapshot(room.id)
        if snapshot is None or snapshot.get("rules_version") != str(RULES_VERSION).encode():
            return
        data = snapshot["state"]
        if hashlib.sha256(data).hexdigest().encode() != snapshot["sha256"]:
            log.warning("snapshot of %s does not match its hash; folding from the start", room.id)
            return
        state = _snapshot_decoder.decode(data)
        if state.rules_version > self.newest:
            return  # folded from the stream, to meet the event that needs the newer rules
        room.state = state
        room.position = snapshot["position"].decode()
        room.snapshot_seq = room.state.seq

    def _snapshot(self, room: Room) -> None:
        """Snapshots are caches: written in the background, and a failed one costs nothing."""
        assert room.state is not None
        room.snapshot_seq = room.state.seq
        try:
            data = canonical(room.state)
        except Exception:  # a state no encoder writes is a bug, logged; the fold and the table go on (issue 27)
            log.exception("snapshot of %s not made: its state did not encode", room.id)
            return
        fields = {
            "position": room.position.encode(),
            "seq": str(room.state.seq).encode(),
            "rules_version": str(RULES_VERSION).encode(),
            "sha256": hashlib.sha256(data).hexdigest().encode(),
            "state": data,
        }
        task = asyncio.ensure_future(self.store.save_snapshot(room.id, fields))
        task.add_done_callback(_report_snapshot)

    def forget(self, encounter: str) -> None:
        """The encounter was deleted: hold and tail it no more (its sockets are closed by Access)."""
        if self.rooms.pop(encounter, None) is not None:
            self.tail.unwatch(encounter)
        self._loading.pop(encounter, None)

    def join(self, room: Room, client: Client) -> None:
        room.join(client)
        self.joined += 1

    async def leave(self, room: Room, client: Client) -> None:
        room.leave(client)
        self.departed += 1
        if not room.clients and self.rooms.get(room.id) is room:
            # Nobody watches it here now: drop it (before any await, so no join slips
            # in between) rather than fold and hold every fight this process ever served.
            del self.rooms[room.id]
            self._loading.pop(room.id, None)
            self.tail.unwatch(room.id)
        await client.stop()

    def _handed_off(self, room: Room) -> None:
        assert room.unknown is not None
        metrics.counts.handed_off += 1
        log.warning("not folding %s: %s", room.id, room.unknown)

    def _hand_off(self, room: Room) -> None:
        """The fight moved on to rules this replica does not know (the GM's upgrade_rules
        from a newer replica): its sockets are closed with UNKNOWN_VERSION_CLOSE once their
        outboxes are sent, so their clients resume on a replica that knows it."""
        self._handed_off(room)
        version = room.unknown.version if room.unknown else 0
        reason = f"{UnknownVersion.code}: " + (f"rules version {version} is not known here; reconnect" if version else "a newer release's fight; reconnect")
        for client in list(room.clients):
            client.close_after_outbox(UNKNOWN_VERSION_CLOSE, reason[:120])
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self._loading.pop(room.id, None)
            self.tail.unwatch(room.id)

    def _on_events(self, encounter: str, events: list[tuple[str, bytes]]) -> None:
        room = self.rooms.get(encounter)
        if room is None:
            return
        start = position_key(room.position)
        events = [(p, e) for p, e in events if position_key(p) > start]
        if not events:
            return
        started = time.perf_counter()
        room.wake()
        room.changed_at = time.monotonic()
        new = room.fold(events)
        room.fan_out(new)
        if room.unknown is not None:
            self._hand_off(room)
            return
        metrics.counts.fold.observe(time.perf_counter() - started)
        metrics.delivered(room.position)
        assert room.state is not None  # it has just folded at least one event
        if room.state.seq - room.snapshot_seq >= SNAPSHOT_EVERY:
            self._snapshot(room)
