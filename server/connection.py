"""The encounter websocket: join with an invite token, then commands in and
acks, errors and view patches out. Thin: it checks who may send what and that
it is well formed, appends to the store, and leaves every game decision to the
reducer.
"""

import asyncio
import contextlib
import logging
import time

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..rules.commands import Declare, Say, Undo, UpgradeRules
from ..rules.declare import declaration
from ..rules.errors import Rejected
from ..rules.events import Actor, Event, encode_event
from ..rules.reducer import check
from . import logs, metrics, protocol, undo
from .api import claims_of
from .hub import UNKNOWN_VERSION_CLOSE, Client, Outgoing, UnknownVersion
from .limits import RateGuard, TokenBucket
from .security import EXPIRED, Access, TooManySockets
from .store import StoreUnavailable, StoreUnknown, position_key
from .tokens import BadToken

log = logging.getLogger("fray.connection")


def error_text(code: str, message: str) -> str:
    return protocol.encoder.encode(protocol.Error(code=code, message=message)).decode()


async def encounter_socket(ws: WebSocket, send=None, receive=None) -> None:
    """`send`: the connection's ASGI send, for updates straight to uvicorn (see `texts_to`);
    `receive`: its ASGI receive, which each message is read from once the socket is
    accepted (Starlette's `WebSocket.receive` checks its state and the message's type again
    at every message; the loop below tells a disconnect from a message itself)."""
    app = ws.app
    access: Access = app.state.access
    encounter = ws.path_params["id"]
    logs.encounter_id.set(encounter[:40])  # this task's log lines name it (server/logs.py)
    await ws.accept()
    if not access.origin_allowed(ws.headers.get("origin"), ws.headers.get("host")):
        await refuse(ws, "auth/origin", f"websocket connections from {ws.headers.get('origin', '')[:60]!r} are not allowed", 4403)
        return
    after = ws.query_params.get("after") or "0-0"
    try:
        position_key(after)
    except ValueError:
        await refuse(ws, "protocol/bad-position", f"'after' must be a stream position like 1795958387706-0, not {after[:40]!r}", 4400)
        return
    try:
        claims = await claims_of(app, encounter, ws.query_params.get("token"))
        room = await app.state.hub.room(encounter)
    except BadToken as e:
        await refuse(ws, "auth/bad-token", str(e), 4401)
        return
    except StoreUnavailable as e:
        await refuse(ws, "store/unavailable", str(e), 1013)
        return
    except UnknownVersion as e:  # a newer replica's fight: the client reconnects (through the balancer) to one
        await refuse(ws, e.code, str(e), UNKNOWN_VERSION_CLOSE)
        return
    if room is None:
        await refuse(ws, "encounter/unknown", f"there is no encounter {encounter!r}", 4404)
        return

    replies: Replies | None = None
    client: Client | None = None

    async def close_with(code: str, reason: str, close_code: int) -> None:
        """Close on purpose (revoked, expired, rate-limited): every command already
        stored is answered first, then the reason, then the close."""
        with contextlib.suppress(Exception):  # the socket may be gone already, or not reading
            async with asyncio.timeout(STORE_ANSWER + 2.0):
                if replies is not None:
                    await replies.settled()
                if client is not None:
                    client.push(error_text(code, reason))
                    await client.flush()
                    await ws.close(close_code, reason.encode()[:120].decode(errors="ignore"))
                else:
                    await refuse(ws, code, reason, close_code)

    try:
        seat = access.sit(claims, close_with)
    except TooManySockets as e:
        await refuse(ws, "limit/sockets", str(e), 4429)
        return
    viewer = claims.viewer()
    client = Client(viewer, texts_to(send) if send is not None else ws.send_text, ws.close, wire=wire_of(send), link=claims.i)
    client.push(room.welcome(viewer, after, claims.i))
    app.state.hub.join(room, client)
    by = Actor(role=claims.r, name=claims.n, combatants=claims.c)
    guard = RateGuard(app.state.limits, bucket=seat.bucket)  # the link's rate, across its sockets
    replies = client.replies = Replies(client.push, access.chat(claims.i))  # the link's chat rate, across its sockets
    read = receive if receive is not None else ws.receive
    try:
        while not seat.closed:
            message = await read()
            if message["type"] == "websocket.disconnect":
                break
            if seat.closed:
                break
            if claims.x and claims.x <= time.time():  # the watcher closes idle ones; this, one that keeps sending
                seat.closed = True
                await close_with("auth/expired", EXPIRED, 4401)
                break
            if not guard.admit():
                if guard.exhausted:
                    await close_with("rate/limited", f"too many messages (over {app.state.limits.rate:g} a second); closing", 1008)
                    break
                replies.answer(
                    protocol.Error(code="rate/limited", message=f"too many messages: at most {app.state.limits.rate:g} a second; this one was dropped")
                )
                continue
            text = message.get("text")
            if text is None:
                replies.answer(protocol.Error(code="protocol/binary", message="send JSON in text frames, not binary frames"))
                continue
            if replies.waiting >= IN_FLIGHT:
                await replies.settled()  # stop reading until Redis has answered what waits
            await handle(app, room, by, claims.i, text, replies)
    except WebSocketDisconnect:
        pass
    finally:
        access.leave(seat)
        await app.state.hub.leave(room, client)


def texts_to(send) -> "TextsTo":
    """Text frames straight to the ASGI send. Starlette's `send_text` re-checks the
    socket's state on every message; an update goes out while the socket is open,
    and a send to a closed one fails either way (the writer then stops)."""
    return TextsTo(send)


class TextsTo:
    """`texts_to`'s sender: one a socket, so an object of one slot (~50 bytes), not a closure (~250)."""

    __slots__ = ("_send",)

    def __init__(self, send) -> None:
        self._send = send

    async def __call__(self, text: str) -> None:
        await self._send({"type": "websocket.send", "text": text})


class UvicornWire:
    """Frames straight onto the transport of uvicorn's websockets-sansio protocol,
    while the socket is open and its transport takes more (uvicorn's own send checks
    the same, then frames and writes each message for each socket): an audience's
    update is framed once (hub.Outgoing) and written to each of its sockets.
    It reads uvicorn's private attributes (WIRE_READS): `wire_of` makes one only when
    the protocol object has every one of them (docs/decisions.md, issue 24)."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol) -> None:
        self._protocol = protocol

    def ready(self) -> bool:
        p = self._protocol
        return p.writable.is_set() and not p.close_sent and not p.disconnected

    def write(self, frame: bytes) -> None:
        self._protocol.transport.write(frame)


# What the wire reads of uvicorn's protocol object, and of the websockets connection
# inside it: none of it is a documented interface, so each is checked once per socket.
WIRE_READS = ("transport", "writable", "close_sent", "disconnected", "handshake_complete", "conn")
_told: set[str] = set()


def _path(said: str, *args) -> None:
    """Say once, at INFO, which way this process sends websocket messages."""
    if said not in _told:
        _told.add(said)
        log.info(said, *args)


def wire_of(send) -> UvicornWire | None:
    """A wire for the ASGI `send` of an accepted websocket, if it is uvicorn's
    websockets-sansio protocol without extensions (frames as we build them) and has
    every attribute the wire reads; otherwise None, and every message goes through
    `send`. The handshake uvicorn keeps is let go either way (`drop_handshake`)."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:
        _path("websocket messages go through the ASGI send: uvicorn's websockets-sansio protocol is not installed")
        return None
    protocol = getattr(send, "__self__", None)
    if not isinstance(protocol, WebSocketsSansIOProtocol):
        _path("websocket messages go through the ASGI send: the server is not uvicorn's websockets-sansio protocol")
        return None
    if getattr(protocol, "handshake_complete", False):
        drop_handshake(protocol)
    missing = [name for name in WIRE_READS if not hasattr(protocol, name)]
    missing += [f"conn.{name}" for name in ("extensions",) if hasattr(protocol, "conn") and not hasattr(protocol.conn, name)]
    missing += [f"{a}.{b}" for a, b in (("writable", "is_set"), ("transport", "write")) if a not in missing and not hasattr(getattr(protocol, a), b)]
    if missing:
        _path("websocket messages go through the ASGI send: uvicorn's protocol object has no %s (a release other than constraints.txt's?)", ", ".join(missing))
        return None
    if not protocol.handshake_complete or protocol.conn.extensions:
        return None
    _path("websocket messages are framed once and written onto uvicorn's transport (connection.UvicornWire)")
    return UvicornWire(protocol)


def drop_handshake(protocol) -> None:
    """uvicorn keeps the opening handshake's request and response (their headers, ~5 KB
    a socket) for the connection's life and reads them only before it accepts: after,
    they are let go. The request's headers are emptied too (websockets' `Headers.clear`):
    websockets' parser keeps the request for the connection's life (a local of its
    generator). The ASGI scope has its own copy. Only what holds a handshake is touched."""
    from websockets.http11 import Request, Response

    if isinstance(request := getattr(protocol, "request", None), Request):
        request.headers.clear()
        protocol.request = None
    if isinstance(getattr(protocol, "response", None), Response):
        protocol.response = None


UNCHANGED = "declare/unchanged"  # a declaration the same as the one standing: not stored
STORE_ANSWER = 20.0  # seconds: longer than the store's tries of one append take to fail
IN_FLIGHT = 64  # a connection's commands appended but not yet answered; then it stops reading


class Replies:
    """A connection's answers, in the order its messages came. A command is
    appended without waiting for Redis, so the next message is read at once; its
    ack goes out when Redis answers, and any answer after it waits its turn."""

    __slots__ = ("_push", "_queue", "chat", "last_position")  # one per socket: kept small

    def __init__(self, push, chat: TokenBucket | None = None) -> None:
        self._push = push
        self.chat = chat  # this link's chat rate (rules.chat, Access.chat): `say` past it gets chat/too-fast
        self._queue: list[tuple[asyncio.Future | None, Outgoing | str, float]] = []  # (append, message id, when), or (None, text, 0); short (IN_FLIGHT)
        self.last_position = "0-0"  # of this connection's last acknowledged command

    @property
    def waiting(self) -> int:
        return len(self._queue)

    def answer(self, message: protocol.Message) -> None:
        metrics.answered(message)
        text = Outgoing(protocol.encoder.encode(message))
        if self._queue:
            self._queue.append((None, text, 0.0))
        else:
            self._push(text)

    def ack_when_appended(self, id: str, append: asyncio.Future) -> None:
        self._queue.append((append, id, time.perf_counter()))  # the append's time, observed when it is answered
        append.add_done_callback(self._settle)

    async def settled(self) -> str:
        """Wait until every command appended so far is answered; the last acknowledged position."""
        latest = next((append for append, _, _ in reversed(self._queue) if append is not None), None)
        if latest is not None:
            await asyncio.wait([latest])  # the store answers in order: the latest settles last
        return self.last_position

    def _settle(self, _: asyncio.Future) -> None:
        while self._queue:
            append, item, started = self._queue[0]
            if append is None:
                text = item
            elif not append.done():
                return
            else:
                assert isinstance(item, str)  # a command's id
                metrics.counts.append.observe(time.perf_counter() - started)
                answer = self._ack(item, append)
                metrics.answered(answer)
                text = Outgoing(protocol.encoder.encode(answer))
            del self._queue[0]
            self._push(text)

    def _ack(self, id: str, append: asyncio.Future) -> protocol.Message:
        if append.cancelled():
            return protocol.Error(id=id, code="store/unavailable", message="the append was cancelled; send the command again")
        error = append.exception()
        if isinstance(error, StoreUnknown):  # sent, never answered: it may be stored
            return protocol.Error(id=id, code="store/unknown", message=str(error))
        if isinstance(error, StoreUnavailable):  # known not stored
            return protocol.Error(id=id, code="store/unavailable", message=str(error))
        if error is not None:
            log.error("appending %s failed", id, exc_info=error)
            return protocol.Error(id=id, code="server/internal", message="the server could not store that command (a bug, logged)")
        position, created = append.result()
        self.last_position = position
        return protocol.Ack(id=id, position=position, duplicate=not created)


async def refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    await ws.send_text(error_text(code, message))
    await ws.close(close_code, message.encode()[:120].decode(errors="ignore"))


async def handle(app, room, by: Actor, token_id: str, text: str, replies: Replies) -> None:
    """One client message: its answer goes to `replies`, an ack once its append is stored."""
    logs.command_id.set("")  # set by judge once the message has an id
    reply = await judge(app, room, by, token_id, text, replies)
    if isinstance(reply, tuple):
        replies.ack_when_appended(*reply)
    else:
        replies.answer(reply)


async def judge(app, room, by: Actor, token_id: str, text: str, replies: Replies) -> protocol.Message | tuple[str, asyncio.Future]:
    """One client message -> its answer, or (its id, its append) for a command taken."""
    try:
        message = protocol.client_decoder.decode(text)
    except msgspec.ValidationError as e:
        return protocol.Error(code="protocol/invalid", message=f"that message is not valid: {e}")
    except msgspec.DecodeError as e:
        return protocol.Error(code="protocol/bad-json", message=f"that message is not JSON: {e}")
    except RecursionError:
        return protocol.Error(code="protocol/too-deep", message="that message nests arrays or objects too deeply")
    if isinstance(message, protocol.Ping):
        return protocol.Pong(id=message.id)
    if not message.id or len(message.id) > 100:
        return protocol.Error(code="protocol/bad-id", message="a command needs an id of 1 to 100 characters")
    if "system" in message.command.roles:  # create, restore: the server alone writes them
        tag = message.command.__struct_config__.tag
        return protocol.Error(id=message.id, code="auth/forbidden", message=f"a {by.role} may not send '{tag}': only the server writes it")
    if isinstance(message.command, Say) and replies.chat is not None and not replies.chat.take():
        limits = app.state.limits
        return protocol.Error(
            id=message.id,
            code="chat/too-fast",
            message=f"at most {limits.chat_burst} chat messages at once, then one every {1 / limits.chat_rate:g} s: this one was not sent",
        )
    if not isinstance(message.command, Say) and (where := protocol.unplain(message.command)) is not None:  # `say`: rules.chat's own check
        return protocol.Error(id=message.id, code=protocol.BAD_TEXT, message=protocol.bad_text(where))
    logs.command_id.set(message.id[:100])
    if isinstance(message.command, UpgradeRules):  # to this replica's newest rules, unless it names a version
        if message.command.version > app.state.rules_version:
            return protocol.Error(id=message.id, code="upgrade/unknown-version", message=f"this server knows rules versions up to {app.state.rules_version}")
        if not message.command.version:
            message.command = UpgradeRules(version=app.state.rules_version)
    event = Event(id=f"{token_id}.{message.id}", by=by, command=message.command, at=int(time.time() * 1000))
    if (seen := room.seen.get(event.id)) is not None:
        return protocol.Ack(id=message.id, position=seen, duplicate=True)
    try:
        rejected = check(room.state, event)
        if rejected is not None:
            # Refused by a state that may not yet hold this sender's own earlier
            # commands (a quick 'start' then 'declare'): wait for them to be stored
            # and folded, then judge again. Waiting only then keeps a pipelining
            # client's commands flowing.
            judged_at = room.position
            last = await replies.settled()
            if position_key(room.position) < position_key(last):
                await room.reached(last)
            if room.position != judged_at:
                rejected = check(room.state, event)
    except Exception:  # a bug in a rule's check: refuse the command, keep the connection
        log.exception("checking %s failed", message.command)
        return protocol.Error(id=message.id, code="server/internal", message="the server could not check that command (a bug, logged)")
    if rejected is not None:
        return protocol.Error(id=message.id, code=rejected.code, message=rejected.message)
    if isinstance(event.command, Declare) and (made := declaration(room.state, event.command.actor)) is not None and made.action == event.command.action:
        # Checked after `check`, so only for a combatant the sender controls. Stored, it would change
        # nothing but the stream's length (issue 28: a fight flooded past what a replay reads).
        return protocol.Error(id=message.id, code=UNCHANGED, message=f"{event.command.actor} has already declared exactly that: nothing was stored")
    if isinstance(event.command, Undo):  # stored as the restore computed for it (server/undo.py)
        try:
            event = await undo.compensate(app.state.store, room.id, event)
        except Rejected as r:
            return protocol.Error(id=message.id, code=r.code, message=r.message)
        except StoreUnavailable as e:
            return protocol.Error(id=message.id, code="store/unavailable", message=str(e))
        except Exception:
            log.exception("undoing with %s failed", message.command)
            return protocol.Error(id=message.id, code="server/internal", message="the server could not compute that undo (a bug, logged)")
    try:
        payload = encode_event(event)
    except (OverflowError, ValueError) as e:  # JSON ints are unbounded; the stream's msgpack is 64-bit
        return protocol.Error(id=message.id, code="protocol/invalid", message=f"a number in that command is out of range: {e}")
    except Exception:  # an event no encoder writes is a bug: it costs this command, not the connection (issue 27)
        log.exception("encoding %s failed", message.command)
        return protocol.Error(id=message.id, code="server/internal", message="the server could not store that command (a bug, logged)")
    return message.id, app.state.store.submit(room.id, event.id, payload)


class _InvalidUtf8(logging.Filter):
    """uvicorn closes a text frame that is not UTF-8 with 1007, as it should, but
    logs it as an ERROR with a traceback: a client's fault, not the server's. It
    becomes one INFO line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError):
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args = "a client sent a text frame that is not UTF-8: closed with 1007", ()
            return logging.getLogger(record.name).isEnabledFor(logging.INFO)
        return True


def quiet_invalid_utf8() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _InvalidUtf8) for f in logger.filters):
        logger.addFilter(_InvalidUtf8())
