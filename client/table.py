"""A seat at a fight: one invite link's websocket, the public protocol
(docs/protocol.md) and nothing of the server's insides.

The view is kept up to date from the welcome and every update's patch, typed with
the server's own message structs (server/protocol.py, rules/view.py); the log grows
by the lines this link may read. A command goes out with an id and is awaited: its
ack, or `Refused` with the error's code. A lost connection is opened again (with
`after`, so only what was missed comes back) and every command not yet answered is
sent again with the same id, which the server applies once; so is one answered
`store/unknown` or `store/unavailable`. Closes that a reconnect cannot mend (a bad
or revoked link, an unknown or deleted fight) end the table with `Closed`.
"""

import asyncio
import time
import uuid
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..rules.commands import Command
from ..rules.model import Entry
from ..rules.view import View, Viewer
from ..server import patch, protocol
from .link import Link, parse

FINAL = frozenset({1007, 1008, 1009, 4400, 4401, 4403, 4404, 4410, 4429})  # closes a reconnect would not mend
RESENT = ("store/unknown", "store/unavailable")  # perhaps stored, not stored: send again with the same id
RESENDS = 5  # times one command is sent again after a store error
CONNECTIONS = 100_000  # connections one table opens at most (each loss is bounded by `reconnect_for`)
LINES = 10_000_000  # lines one `lines()` yields at most
BIGGEST = 1 << 26  # bytes: a welcome carries the whole log a long fight made
_decode = msgspec.json.Decoder().decode
_to_message = msgspec.convert


class Refused(Exception):
    """The server's `error` for a command: nothing was stored."""

    def __init__(self, code: str, message: str, id: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.id = code, message, id


class Closed(Exception):
    """The table is closed: by `close()`, by the server for good (`code`), or lost too long."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class _Pending:
    __slots__ = ("text", "answer", "resends")

    def __init__(self, text: str) -> None:
        self.text = text
        self.answer: asyncio.Future[protocol.Ack] = asyncio.get_running_loop().create_future()
        self.resends = 0


class Table:
    """`await Table(link).open()`, or `async with join(link) as table`. `reconnect_for`:
    seconds a lost connection is tried again before the table gives up; `timeout`:
    seconds to connect, and to wait for a command's answer."""

    def __init__(self, link: str | Link, *, reconnect_for: float = 60.0, timeout: float = 10.0) -> None:
        self.link = parse(link) if isinstance(link, str) else link
        self.reconnect_for, self.timeout = reconnect_for, timeout
        self.view: View | None = None
        self.viewer: Viewer | None = None
        self.log: list[Entry] = []  # every line this link may read, in order, from the fight's first
        self.position = "0-0"  # the stream position the view reflects
        self.welcomes = 0  # one a connection: more than one means it reconnected
        self.resent = 0  # commands sent again after a store error (store/unknown, store/unavailable)
        self.errors: list[protocol.Error] = []  # errors that answer no command of ours (rate/limited, a close's reason)
        self.closed: Closed | None = None
        self._doc: Any = None  # the view as JSON, which the patches change
        self._ws: ClientConnection | None = None
        self._pending: dict[str, _Pending] = {}
        self._tick = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._sending: set[asyncio.Task] = set()  # resends under way (kept, so none is collected)

    async def open(self) -> "Table":
        """Connect and wait for the welcome; `Closed` if the server refuses the link."""
        self._task = asyncio.create_task(self._run(), name=f"fray table {self.link.encounter}")
        try:
            await self.wait(lambda t: t.view is not None, self.timeout + self.reconnect_for)
        except BaseException:
            await self.close()
            raise
        return self

    async def __aenter__(self) -> "Table":
        return await self.open()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # --- commands ---------------------------------------------------------------

    async def send(self, command: Command, id: str = "") -> protocol.Ack:
        """Send a command and wait for its ack; `Refused` with the error's code. A connection
        lost meanwhile is opened again and the command sent again with the same id."""
        if self.closed is not None:
            raise self.closed
        id = id or uuid.uuid4().hex
        pending = self._pending.setdefault(id, _Pending(protocol.encoder.encode(protocol.CommandMessage(id=id, command=command)).decode()))
        await self._put(pending.text)
        try:
            async with asyncio.timeout(self.timeout + self.reconnect_for):
                return await asyncio.shield(pending.answer)
        finally:
            self._pending.pop(id, None)  # answered, refused, or given up: never sent again

    async def _put(self, text: str) -> None:
        ws = self._ws
        if ws is None:
            return  # sent when the next welcome comes
        try:
            await ws.send(text)
        except ConnectionClosed:
            pass  # the reader reconnects, and every command still waiting goes again

    # --- waiting for the fight ----------------------------------------------------

    async def wait(self, ready, timeout: float) -> None:
        """Until `ready(self)` is true, at most `timeout` seconds (TimeoutError); `Closed` if the table closes first."""
        async with asyncio.timeout(timeout):
            while not ready(self):
                if self.closed is not None:
                    raise self.closed
                await self._tick.wait()

    def reached(self, position: str) -> bool:
        """Does the view reflect the stream position `position` (an ack's) yet?"""
        return order(self.position) >= order(position)

    async def until(self, position: str, timeout: float | None = None) -> None:
        """Until the view reflects `position`, e.g. a command's ack's (TimeoutError after `timeout`)."""
        await self.wait(lambda t: t.reached(position), self.timeout if timeout is None else timeout)

    async def lines(self, timeout: float = 3600.0):
        """Each log line as it comes, from the first this link may read, until the table
        closes or `timeout` seconds pass with no new line."""
        seen = 0
        while seen < LINES:
            while seen < len(self.log):
                seen += 1
                yield self.log[seen - 1]
            if self.closed is not None:
                return
            try:
                await self.wait(lambda t, seen=seen: len(t.log) > seen, timeout)
            except (Closed, TimeoutError):
                return

    def _changed(self) -> None:
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()

    # --- the connection -------------------------------------------------------------

    async def close(self) -> None:
        """Close the socket (1000) and stop; commands still waiting get `Closed`."""
        self._finish(Closed("client/closed", "the table was closed"))
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def _finish(self, reason: Closed) -> None:
        if self.closed is None:
            self.closed = reason
        for pending in self._pending.values():
            if not pending.answer.done():
                pending.answer.set_exception(self.closed)
        self._changed()

    async def _run(self) -> None:
        try:
            await self._connections()
        except msgspec.DecodeError as e:  # (ValidationError is one) a message of another protocol version
            self._finish(Closed("client/unreadable", f"a message from the server could not be read: {e}"))
        except Exception as e:
            self._finish(Closed("client/failed", f"the client failed: {e!r}"))
            raise

    async def _connections(self) -> None:
        lost_at, attempt = 0.0, 0
        for _ in range(CONNECTIONS):
            if self.closed is not None:
                return
            code, why = 0, ""
            try:
                async with connect(self.link.socket_url(self.position), open_timeout=self.timeout, proxy=None, max_size=BIGGEST) as ws:
                    self._ws = ws
                    try:
                        async for text in ws:
                            if self._take(text):
                                lost_at, attempt = 0.0, 0
                    except ConnectionClosed:
                        pass
                    code, why = ws.close_code or 1006, ws.close_reason or ""
            except (OSError, TimeoutError, InvalidHandshake) as e:
                why = str(e) or type(e).__name__
            finally:
                self._ws = None
            if code in FINAL:
                last = self.errors[-1] if self.errors else None
                self._finish(Closed(last.code, last.message) if last else Closed(f"close/{code}", why))
            elif self.closed is None:
                lost_at = lost_at or time.monotonic()
                if time.monotonic() - lost_at > self.reconnect_for:
                    self._finish(Closed("connection/lost", f"no connection for {self.reconnect_for:g} s: {why}"))
                else:
                    await asyncio.sleep(min(2.0, 0.05 * 2**attempt))
                    attempt += 1
        self._finish(Closed("connection/lost", f"{CONNECTIONS} connections opened: giving up"))

    def _take(self, text: str | bytes) -> bool:
        """One server message; True for a welcome."""
        raw = _decode(text)
        message = _to_message(raw, protocol.ServerMessage)
        welcomed = False
        match message:
            case protocol.Welcome():
                self._doc, self.view, self.viewer = raw["view"], message.view, message.viewer
                self.log.extend(message.log)
                self.position, self.welcomes, welcomed = message.position, self.welcomes + 1, True
                for waiting in self._pending.values():  # not answered on the lost connection: again, same id
                    self._resend(waiting)
            case protocol.Update():
                self._doc = patch.apply(self._doc, message.patch)
                self.view = msgspec.convert(self._doc, View)
                self.log.extend(message.log)
                self.position = message.position
            case protocol.Ack():
                acked = self._pending.get(message.id)
                if acked is not None and not acked.answer.done():
                    acked.answer.set_result(message)
            case protocol.Error():
                self._refused(message)
            case _:  # a pong
                pass
        self._changed()
        return welcomed

    def _resend(self, pending: _Pending) -> None:
        if pending.answer.done() or self.closed is not None:
            return
        task = asyncio.ensure_future(self._put(pending.text))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def _refused(self, error: protocol.Error) -> None:
        pending = self._pending.get(error.id) if error.id else None
        if pending is None or pending.answer.done():
            self.errors.append(error)
        elif error.code in RESENT and pending.resends < RESENDS:
            pending.resends += 1
            self.resent += 1
            asyncio.get_running_loop().call_later(0.2 * pending.resends, self._resend, pending)
        else:
            pending.answer.set_exception(Refused(error.code, error.message, error.id))


def order(position: str) -> tuple[int, int]:
    """A stream position ('1795958387706-0') as what orders it (milliseconds, then sequence)."""
    ms, _, seq = position.partition("-")
    return int(ms), int(seq or 0)


def join(link: str | Link, **options) -> Table:
    """`async with join(link) as table:` (options: Table's)."""
    return Table(link, **options)
