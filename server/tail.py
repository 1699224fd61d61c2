"""The tail: this process's one reader of every encounter stream it watches,
a blocking XREAD on a connection of its own, delivering new events in order."""

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
from .store import UNAVAILABLE, Event, OnEvents, RedisStore, bare_connection, bulk, events_key, position_key

logger = logging.getLogger(__name__)

TAIL_BLOCK_MS = 5000
TAIL_COUNT = 500
BACKOFF_MIN, BACKOFF_MAX = 0.05, 1.0


class Tail:
    """Delivers new events of every watched encounter from one blocking XREAD.

    A private wake-up stream is part of every XREAD, so that `watch` can
    interrupt a blocked read and the new stream is included at once.
    """

    def __init__(self, store: RedisStore, on_events: OnEvents, *, block_ms: int = TAIL_BLOCK_MS, count: int = TAIL_COUNT):
        self._store = store
        self._on_events = on_events
        self._block_ms = block_ms
        self._count = count
        self._positions: dict[str, str] = {}
        # Each watched stream's XREAD arguments, packed once (RESP bulk strings): the read
        # names every watched stream, a thousand of them, and packs only what moved.
        self._packed_keys: dict[str, bytes] = {}
        self._packed_ids: dict[str, bytes] = {}
        self._names: dict[bytes, str] = {}  # stream key -> encounter
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

    @property
    def running(self) -> bool:
        """The read loop is alive (it may be waiting out a Redis outage): for /readyz."""
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        if self._task is not None:
            raise RuntimeError("Tail.start() was called twice.")
        store = self._store
        # A bare connection: one blocking XREAD at a time, its reply read as
        # Redis sends it, without a client's locks and reply callbacks.
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
        while True:
            try:
                await self._read_once()
            except UNAVAILABLE as exc:
                metrics.counts.redis_errors += 1
                logger.warning("Tail lost Redis (%s); retrying in %.2f s", exc or "no answer in time", delay)
            except Exception:
                logger.exception("Tail failed; retrying in %.2f s", delay)
            else:
                delay = BACKOFF_MIN
                continue
            # The positions stay where they were: nothing is skipped or repeated.
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)

    async def _read_once(self) -> None:
        assert self._conn is not None
        watched = dict(self._positions)
        head = [b"XREAD", b"COUNT", str(self._count).encode(), b"BLOCK", str(self._block_ms).encode(), b"STREAMS"]
        command = b"".join(
            [
                b"*%d\r\n" % (len(head) + 2 * len(watched) + 2),
                *map(bulk, head),
                *map(self._packed_keys.__getitem__, watched),
                bulk(self._wake_key.encode()),
                *map(self._packed_ids.__getitem__, watched),
                bulk(self._wake_id.encode()),
            ]
        )
        async with asyncio.timeout(self._block_ms / 1000 + self._store._timeout):
            await self._conn.send_packed_command(command, check_health=False)
            reply = await self._conn.read_response()  # None when the block timed out
        for key, entries in reply.items() if isinstance(reply, dict) else reply or ():
            encounter = self._names.get(key)
            if encounter is None:
                if key == self._wake_key.encode():
                    self._wake_id = entries[-1][0].decode()
                continue  # unwatched while the read was blocked
            # Unwatched, or watched again from elsewhere, while the read was blocked.
            if encounter not in watched or self._positions.get(encounter) != watched[encounter]:
                continue
            events = [(pos.decode(), field_e(fields)) for pos, fields in entries]
            self._positions[encounter] = last = events[-1][0]
            self._packed_ids[encounter] = bulk(last.encode())
            await deliver_events(self._on_events, encounter, events)


def field_e(fields) -> bytes:
    """An entry's one field, 'e': a flat [name, value] list (RESP2) or a map (RESP3)."""
    return fields[b"e"] if isinstance(fields, dict) else fields[fields.index(b"e") + 1]


async def deliver_events(on_events: OnEvents, encounter: str, events: list[Event]) -> None:
    # A failing subscriber must not stop delivery to every other encounter.
    try:
        result = on_events(encounter, events)
        if result is not None and inspect.isawaitable(result):  # the hub's is a plain function: no check at every delivery
            await result
    except Exception:
        logger.exception("on_events failed for encounter %s", encounter)
