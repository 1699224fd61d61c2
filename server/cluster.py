"""Redis Cluster: telling one apart, the per-master doorbells, and the tail that
reads each master.

Redis refuses a command whose keys lie in different slots, even on one node, so
the single-Redis tail's one XREAD over every stream cannot run on a cluster.
Here each master has a doorbell: a capped stream whose key hashes to a slot of
that master. The writer rings the doorbell of the encounter's master after each
append (an entry naming the encounter); the tail keeps one blocking XREAD per
master on its doorbell, then reads the named streams with one pipelined,
non-blocking XREAD each (redis-py's cluster pipeline follows MOVED and ASK).
A doorbell missed while a slot moves costs a delay, never an event: each
master's streams are also all read whenever its doorbell has been quiet for a
block (docs/decisions.md).
"""

from __future__ import annotations

import asyncio
import logging
import urllib.parse
from typing import TYPE_CHECKING

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import ResponseError

from . import metrics
from .store import BELL_LENGTH, UNAVAILABLE, OnEvents, entries_of, events_key, position_key
from .tail import deliver_events, field_e

if TYPE_CHECKING:
    from .store import RedisStore

logger = logging.getLogger(__name__)

BELL_SEARCH = 100_000  # tags tried to find one slot per master (a few dozen suffice)
CLUSTER_BLOCK_MS = 1000  # the doorbell's block, and so the longest a missed ring delays an event
BACKOFF_MIN, BACKOFF_MAX = 0.05, 1.0


async def is_cluster(url: str, timeout: float) -> bool:
    """Whether the Redis at `url` is a node of a cluster (INFO cluster: cluster_enabled:1)."""
    client = aioredis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        info = await client.info("cluster")
    finally:
        await client.aclose()
    return int(info.get("cluster_enabled", 0)) == 1


def bell_key(tag: str) -> str:
    return f"fray:{{{tag}}}:bell"


class Bells:
    """Which doorbell belongs to which master, from the client's slot map. The
    search is deterministic, so every replica picks the same doorbells."""

    def __init__(self, client: RedisCluster) -> None:
        self._client = client
        self._keys: dict[str, str] = {}  # master name (host:port) -> doorbell key
        self._slots: dict[str, int] = {}

    def for_node(self, name: str) -> str:
        key = self._keys.get(name)
        if key is None or self._master_of(self._slots[name]) != name:
            self._find()
            key = self._keys.get(name)
            if key is None:
                raise RuntimeError(f"no doorbell for {name}: it serves no slot")
        return key

    def node_of(self, encounter_key: str) -> str:
        return self._master_of(key_slot(encounter_key.encode()))

    def for_key(self, encounter_key: str) -> str:
        return self.for_node(self.node_of(encounter_key))

    def _master_of(self, slot: int) -> str:
        return self._client.nodes_manager.get_node_from_slot(slot).name

    def _find(self) -> None:
        masters = {node.name for node in self._client.get_primaries()}
        keys: dict[str, str] = {}
        slots: dict[str, int] = {}
        for i in range(BELL_SEARCH):
            tag = f"bell-{i}"
            slot = key_slot(tag.encode())
            name = self._master_of(slot)
            if name in masters and name not in keys:
                keys[name], slots[name] = bell_key(tag), slot
                if len(keys) == len(masters):
                    break
        self._keys, self._slots = keys, slots


class ClusterTail:
    """The cluster's tail, with the contract of server.tail.Tail."""

    def __init__(self, store: RedisStore, on_events: OnEvents, *, block_ms: int = CLUSTER_BLOCK_MS, count: int = 500):
        self._store = store
        self._client: RedisCluster = store._client()  # type: ignore[assignment]
        assert store._bells is not None  # a cluster store has its bells from start()
        self._bells: Bells = store._bells
        self._on_events = on_events
        self._block_ms = block_ms
        self._count = count
        self._positions: dict[str, str] = {}
        self._readers: dict[str, asyncio.Task[None]] = {}
        self._wakers: set[asyncio.Task[None]] = set()
        self._running = False

    def watch(self, encounter: str, after: str = "0-0") -> None:
        position_key(after)
        self._positions[encounter] = after
        if self._running:
            waker = asyncio.get_running_loop().create_task(self._ring(events_key(encounter)))
            self._wakers.add(waker)
            waker.add_done_callback(self._wakers.discard)

    def unwatch(self, encounter: str) -> None:
        self._positions.pop(encounter, None)

    @property
    def running(self) -> bool:
        """Started, with a live reader for some master (one may be waiting out an outage): for /readyz."""
        return self._running and any(not t.done() for t in self._readers.values())

    async def start(self) -> None:
        if self._running:
            raise RuntimeError("Tail.start() was called twice.")
        self._running = True
        self._sync_readers()

    async def stop(self) -> None:
        self._running = False
        pending = {*self._readers.values(), *self._wakers}
        self._readers.clear()
        while pending:  # cancel until done, as server.tail.Tail.stop does
            for t in pending:
                t.cancel()
            _, pending = await asyncio.wait(pending, timeout=0.1)

    def _sync_readers(self) -> None:
        """One reader per master; a master that appeared (a failover, a new node) gets one."""
        for node in self._client.get_primaries():
            if node.name not in self._readers or self._readers[node.name].done():
                self._readers[node.name] = asyncio.create_task(self._read_node(node.name), name=f"fray-tail-{node.name}")

    async def _ring(self, encounter_key: str) -> None:
        try:
            await self._client.xadd(self._bells.for_key(encounter_key), {"w": b""}, maxlen=BELL_LENGTH, approximate=True)
        except UNAVAILABLE:
            pass  # the reader's timeout reads the stream anyway

    def _connect(self, name: str) -> aioredis.Connection:
        host, _, port = name.rpartition(":")
        parts = urllib.parse.urlsplit(self._store.url)
        timeout = self._store._timeout
        return aioredis.Connection(
            host=host,
            port=int(port),
            username=parts.username,
            password=parts.password,
            socket_connect_timeout=timeout,
            socket_timeout=self._block_ms / 1000 + 2 * timeout,
        )

    async def _read_node(self, name: str) -> None:
        conn = self._connect(name)
        delay = BACKOFF_MIN
        bell, bell_id = "", ""
        named: set[str] | None = None  # None: read every stream of this master
        try:
            while self._running:
                try:
                    if bell != self._bells.for_node(name):
                        bell = self._bells.for_node(name)
                        last = await self._command(conn, "XREVRANGE", bell, "+", "-", "COUNT", 1)
                        bell_id, named = (last[0][0].decode() if last else "0-0"), None
                    mine = [e for e in self._positions if (named is None and self._node_of(e) == name) or (named and e in named)]
                    more = await self._read_streams(mine)
                    if more:
                        named = more
                        continue
                    reply = await self._command(conn, "XREAD", "COUNT", BELL_LENGTH, "BLOCK", self._block_ms, "STREAMS", bell, bell_id)
                    named = None
                    if reply:
                        entries = entries_of(reply)
                        bell_id = entries[-1][0].decode()
                        rung = [fields_of(f) for _, f in entries]
                        if len(entries) < BELL_LENGTH and all(b"e" in f for f in rung):
                            named = {f[b"e"].decode() for f in rung}
                    self._sync_readers()
                    delay = BACKOFF_MIN
                except UNAVAILABLE as exc:
                    await conn.disconnect()
                    metrics.counts.redis_errors += 1
                    logger.warning("Tail lost the cluster node %s (%s); retrying in %.2f s", name, exc or "no answer in time", delay)
                except ResponseError as exc:  # MOVED: the doorbell's slot moved; find the doorbells again
                    await conn.disconnect()
                    bell, named = "", None
                    logger.info("Tail on %s: %s; reading the slot map again", name, exc)
                    if await self._remap(name):
                        continue
                    return  # no longer a master: its streams are read by the other masters' readers
                except Exception:
                    await conn.disconnect()
                    bell, named = "", None
                    logger.exception("Tail on the cluster node %s failed; retrying in %.2f s", name, delay)
                else:
                    continue
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)
        finally:
            await conn.disconnect()

    async def _remap(self, name: str) -> bool:
        """Read the slot map again; whether `name` is still a master."""
        try:
            await self._client.nodes_manager.initialize()
        except UNAVAILABLE:
            await asyncio.sleep(BACKOFF_MAX)  # the next pass tries again
            return True
        return name in {n.name for n in self._client.get_primaries()}

    async def _command(self, conn: aioredis.Connection, *args):
        async with asyncio.timeout(self._block_ms / 1000 + self._store._timeout):
            await conn.send_command(*args, check_health=False)
            return await conn.read_response()

    def _node_of(self, encounter: str) -> str:
        return self._bells.node_of(events_key(encounter))

    async def _read_streams(self, encounters: list[str]) -> set[str]:
        """Read and deliver what is new in these streams; the ones that may have more."""
        watched = {e: self._positions[e] for e in encounters if e in self._positions}
        if not watched:
            return set()
        async with self._client.pipeline(transaction=False) as pipe:
            for e, after in watched.items():
                pipe.xread({events_key(e): after}, count=self._count)
            replies = await pipe.execute()
        more = set()
        for (e, after), reply in zip(watched.items(), replies):
            entries = entries_of(reply)
            # Unwatched, watched again, or read by another master's reader meanwhile.
            if not entries or self._positions.get(e) != after:
                continue
            events = [(pos.decode(), field_e(fields)) for pos, fields in entries]
            self._positions[e] = events[-1][0]
            if len(events) == self._count:
                more.add(e)
            await deliver_events(self._on_events, e, events)
        return more


def fields_of(fields) -> dict[bytes, bytes]:
    """An entry's fields as a dict, from a flat [name, value, ...] list (RESP2) or a map (RESP3)."""
    return fields if isinstance(fields, dict) else dict(zip(fields[::2], fields[1::2]))
