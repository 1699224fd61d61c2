"""The tail: this process's one reader of every encounter stream it watches,
on a connection of its own, delivering new events in order.

While it watches a few streams (up to TAIL_DIRECT) it blocks on them, one XREAD.
With more it blocks on a doorbell instead: every append script rings the
doorbell (a capped stream, `fray:bell`) with the key of the stream it grew, and
the tail then reads just the streams named, one non-blocking XREAD. Blocking on
every watched stream made Redis register and unregister a thousand keys at each
read (half a core at 1,000 encounters), while the doorbell wakes every replica
at every append anywhere (docs/decisions.md). On the doorbell, every watched
stream is also read whenever a block passes without a full read, so an append
that rang no bell (a replica of an older version, a bell trimmed past us) waits
at most a block.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import secrets

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from . import metrics
from .store import BELL_KEY, BELL_LENGTH, UNAVAILABLE, Event, OnEvents, RedisStore, bare_connection, bulk, events_key, position_key

logger = logging.getLogger(__name__)

TAIL_BLOCK_MS = 1000  # the block, and so the longest an append that rang no bell waits
TAIL_COUNT = 500
TAIL_DIRECT = 64  # streams watched up to which the tail blocks on them, not on the doorbell
BACKOFF_MIN, BACKOFF_MAX = 0.05, 1.0


class Tail:
    """Delivers new events of every watched encounter: blocks on the streams while
    they are at most `direct_up_to`, else on the doorbell, then reads the streams it names.

    A private wake-up stream is part of every blocking read, so that `watch` can
    interrupt it and the new stream is read at once.
    """

    def __init__(
        self, store: RedisStore, on_events: OnEvents, *, block_ms: int = TAIL_BLOCK_MS, count: int = TAIL_COUNT, direct_up_to: int = TAIL_DIRECT
    ) -> None:
        self._store = store
        self._on_events = on_events
        self._block_ms = block_ms
        self._count = count
        self._direct_up_to = direct_up_to
        self._positions: dict[str, str] = {}
        # Each watched stream's XREAD arguments, packed once (RESP bulk strings): a full
        # read names every watched stream, a thousand of them, and packs only what moved.
        self._packed_keys: dict[str, bytes] = {}
        self._packed_ids: dict[str, bytes] = {}
        self._names: dict[bytes, str] = {}  # stream key -> encounter
        self._fresh: set[str] = set()  # watched since the last read: read at the next
        self._bell_id = ""  # the doorbell's last entry seen; "" after a (re)connect: read everything
        self._full_at = 0.0  # the loop's time of the last read of every watched stream
        self._wake_key = f"fray:tail:{secrets.token_hex(8)}:wake"
        self._wake_id = "0-0"  # an explicit id, not "$": a wake-up sent early still counts
        self._wake_pending = False
        self._wakers: set[asyncio.Task[None]] = set()
        self._conn: aioredis.Connection | None = None
        self._task: asyncio.Task[None] | None = None

    def watch(self, encounter: str, after: str = "0-0") -> None:
        position_key(after)  # a malformed position fails here, not in every later XREAD
        self._positions[encounter] = after
        key = events_key(encounter).encode()
        self._packed_keys[encounter] = bulk(key)
        self._packed_ids[encounter] = bulk(after.encode())
        self._names[key] = encounter
        self._fresh.add(encounter)
        if self._task is not None and not self._wake_pending:
            self._wake_pending = True
            waker = asyncio.get_running_loop().create_task(self._wake())
            self._wakers.add(waker)
            waker.add_done_callback(self._wakers.discard)

    def unwatch(self, encounter: str) -> None:
        # No wake-up needed: events of an unwatched stream are dropped on arrival.
        self._positions.pop(encounter, None)
        self._packed_keys.pop(encounter, None)
        self._packed_ids.pop(encounter, None)
        self._names.pop(events_key(encounter).encode(), None)
        self._fresh.discard(encounter)

    @property
    def running(self) -> bool:
        """The read loop is alive (it may be waiting out a Redis outage): for /readyz."""
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        if self._task is not None:
            raise RuntimeError("Tail.start() was called twice.")
        store = self._store
        # A bare connection: one read at a time, its reply read as Redis sends it,
        # without a client's locks and reply callbacks.
        # Its socket timeout outlasts the block and the round trip: a quiet Redis is not a lost one.
        self._conn = bare_connection(
            store.url,
            store._timeout,
            Retry(NoBackoff(), 0),  # the loop below retries, with backoff
            socket_timeout=self._block_ms / 1000 + 2 * store._timeout,
        )
        self._task = asyncio.create_task(self._run(), name="fray-store-tail")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        # Cancel until done: on Python 3.11, asyncio.wait_for (used inside
        # redis-py) loses a cancel that lands just as its inner call finishes.
        pending = {task, *self._wakers}
        while pending:
            for t in pending:
                t.cancel()
            _, pending = await asyncio.wait(pending, timeout=0.1)
        assert self._conn is not None
        await self._conn.disconnect()
        if self._store._redis is not None:
            with contextlib.suppress(*UNAVAILABLE):
                await self._store._redis.delete(self._wake_key)

    async def _wake(self) -> None:
        # Cleared before sending: a watch made from here on needs its own wake-up.
        self._wake_pending = False
        with contextlib.suppress(*UNAVAILABLE):  # the loop reconnects and sees the watch anyway
            async with self._store._client().pipeline(transaction=False) as pipe:
                pipe.xadd(self._wake_key, {"w": b""}, maxlen=10, approximate=True)
                pipe.expire(self._wake_key, 86400)  # a crashed process's key goes away
                await pipe.execute()

    async def _run(self) -> None:
        delay = BACKOFF_MIN
        named: set[str] | None = None  # the streams to read next; None: every watched stream
        while True:
            try:
                named = await self._read_once(named)
            except UNAVAILABLE as exc:
                metrics.counts.redis_errors += 1
                logger.warning("Tail lost Redis (%s); retrying in %.2f s", exc or "no answer in time", delay)
            except Exception:
                logger.exception("Tail failed; retrying in %.2f s", delay)
            else:
                delay = BACKOFF_MIN
                continue
            # The positions stay where they were: nothing is skipped or repeated.
            self._bell_id, named = "", None
            assert self._conn is not None
            await self._conn.disconnect()
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)

    async def _read_once(self, named: set[str] | None) -> set[str] | None:
        """Read the streams `named` (or every watched one) and, when none has more
        waiting, block on the doorbell; what to read next. A few streams: one
        blocking read of them all."""
        if len(self._positions) <= self._direct_up_to:
            self._bell_id = ""  # on the doorbell again, from its end and after a read of every stream
            await self._read_streams(list(self._positions), block=True)
            return None
        loop = asyncio.get_running_loop()
        if not self._bell_id:  # the doorbell's end first: whatever rings later is after the full read
            last = await self._command(b"XREVRANGE", BELL_KEY.encode(), b"+", b"-", b"COUNT", b"1")
            self._bell_id, named = (last[0][0].decode() if last else "0-0"), None
        if named is not None and loop.time() - self._full_at >= self._block_ms / 1000:
            named = None
        if named is None:
            self._full_at = loop.time()
        more = await self._read_streams(list(self._positions) if named is None else [*named, *self._fresh])
        if more:
            return more
        reply = await self._command(
            b"XREAD", b"COUNT", b"%d" % BELL_LENGTH, b"BLOCK", b"%d" % self._block_ms, b"STREAMS",
            BELL_KEY.encode(), self._wake_key.encode(), self._bell_id.encode(), self._wake_id.encode(),
        )  # fmt: skip
        if not reply:  # a quiet block
            return None
        named = set()
        for key, entries in reply.items() if isinstance(reply, dict) else reply:
            last = entries[-1][0].decode()
            if key == self._wake_key.encode():
                self._wake_id = last
                continue
            self._bell_id = last
            if len(entries) == BELL_LENGTH:  # perhaps behind a trim: read everything
                return None
            for _, fields in entries:
                encounter = self._names.get(field_e(fields, b"k"))
                if encounter is not None:
                    named.add(encounter)
        return named

    async def _command(self, *args: bytes):
        assert self._conn is not None
        command = b"*%d\r\n%s" % (len(args), b"".join(map(bulk, args)))
        return await self._round_trip(command)

    async def _round_trip(self, command: bytes):
        assert self._conn is not None
        async with asyncio.timeout(self._block_ms / 1000 + self._store._timeout):
            await self._conn.send_packed_command(command, check_health=False)
            return await self._conn.read_response()

    async def _read_streams(self, encounters: list[str], block: bool = False) -> set[str]:
        """Read and deliver what is new in these streams (one XREAD; `block`: waiting
        for it, and for a wake-up); the ones that may have more."""
        self._fresh.clear()
        watched = {e: self._positions[e] for e in encounters if e in self._positions}
        more: set[str] = set()
        if not watched and not block:
            return more
        head = [b"XREAD", b"COUNT", b"%d" % self._count, *((b"BLOCK", b"%d" % self._block_ms) if block else ()), b"STREAMS"]
        wake = (bulk(self._wake_key.encode()),) if block else ()
        command = b"".join(
            [
                b"*%d\r\n" % (len(head) + 2 * (len(watched) + len(wake))),
                *map(bulk, head),
                *map(self._packed_keys.__getitem__, watched),
                *wake,
                *map(self._packed_ids.__getitem__, watched),
                *((bulk(self._wake_id.encode()),) if block else ()),
            ]
        )
        reply = await self._round_trip(command)  # None when nothing was new (or the block ran out)
        for key, entries in reply.items() if isinstance(reply, dict) else reply or ():
            encounter = self._names.get(key)
            if encounter is None and key == self._wake_key.encode():
                self._wake_id = entries[-1][0].decode()
            # Unwatched, or watched again from elsewhere, while the read was under way.
            if encounter is None or encounter not in watched or self._positions.get(encounter) != watched[encounter]:
                continue
            events = [(pos.decode(), field_e(fields)) for pos, fields in entries]
            self._positions[encounter] = last = events[-1][0]
            self._packed_ids[encounter] = bulk(last.encode())
            if len(events) == self._count:
                more.add(encounter)
            await deliver_events(self._on_events, encounter, events)
        return more


def field_e(fields, name: bytes = b"e") -> bytes:
    """An entry's field `name` (an event's one field, 'e'): from a flat [name, value] list (RESP2) or a map (RESP3)."""
    return fields[name] if isinstance(fields, dict) else fields[fields.index(name) + 1]


async def deliver_events(on_events: OnEvents, encounter: str, events: list[Event]) -> None:
    # A failing subscriber must not stop delivery to every other encounter.
    try:
        result = on_events(encounter, events)
        if result is not None and inspect.isawaitable(result):  # the hub's is a plain function: no check at every delivery
            await result
    except Exception:
        logger.exception("on_events failed for encounter %s", encounter)
