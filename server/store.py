"""The event store: one Redis stream per encounter.

Use: `store = RedisStore(url); await store.start()` ... `await store.close()`.
Every append goes through one writer task, on a connection of its own, that
sends whatever has queued up in one write, so a thousand concurrent appends
cost a few round trips and one connection, not a thousand. New events are
read back by the tail (server/tail.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import AskError, ClusterDownError, ClusterError, MovedError, NoScriptError, ResponseError, SlotNotCoveredError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from . import metrics

if TYPE_CHECKING:
    from redis.typing import EncodableT, FieldT

    from .cluster import Bells, ClusterTail
    from .tail import Tail

logger = logging.getLogger(__name__)

Event = tuple[str, bytes]  # (stream position, payload)
# redis-py types each reply for either decode_responses (bytes | str, and an entry's
# fields may be None); these clients never decode, and a stream entry has its fields.
Entries = list[tuple[bytes, dict[bytes, bytes]]]
OnEvents = Callable[[str, list[Event]], Any]  # may return an awaitable

ENCOUNTERS = "fray:encounters"
# A cluster without a master for a slot is as unreachable as a stopped Redis.
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError, ClusterDownError, SlotNotCoveredError)
# A cluster's answers that a command did not run, for now: its slot is being moved (TRYAGAIN: its
# keys are split between two masters; MOVED or ASK not followed). Nothing was stored: the
# sender is told so (store/unavailable) and sends it again.
NOT_RUN = (TryAgainError, AskError, MovedError)
MAX_CONNECTIONS = 64  # for reads; appends use one connection at a time
APPEND_RETRIES = 2  # a new connection, after one that died with a restarted Redis

# The single Redis's doorbell (server.tail): a capped stream each append script rings
# with the key of the stream it grew. A cluster has one a master (server.cluster).
BELL_KEY = "fray:bell"
BELL_LENGTH = 1000  # entries kept (approximately); a tail further behind reads every stream

# KEYS: one encounter's events stream and command ids hash, and the doorbell to
# ring (none on a cluster, or for a campaign's stream). ARGV: command id,
# payload, command id, payload, ... (one or more appends, in order). Returns,
# per append, position and 1 for a new event, or the original position and 0
# for a retry. One script per encounter per batch: the doorbell rings once,
# after the script, so the tail reads the whole batch in one reply.
APPEND = """
local out = {}
local added = false
for i = 1, #ARGV, 2 do
  local pos = redis.call('HGET', KEYS[2], ARGV[i])
  if pos then
    out[#out + 1] = pos
    out[#out + 1] = 0
  else
    pos = redis.call('XADD', KEYS[1], '*', 'e', ARGV[i + 1])
    redis.call('HSET', KEYS[2], ARGV[i], pos)
    out[#out + 1] = pos
    out[#out + 1] = 1
    added = true
  end
end
if added and KEYS[3] then
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', '{BELL_LENGTH}', '*', 'k', KEYS[1])
end
return out
""".replace("{BELL_LENGTH}", str(BELL_LENGTH))


class StoreUnavailable(Exception):
    pass


class StoreUnknown(StoreUnavailable):
    """An append was sent but no answer came: Redis may have stored it (or may
    yet, a frozen one once it resumes). The client resends with the same id."""


class _SentUnanswered(Exception):
    """From `_evalsha`: its last error came after the script may have reached Redis."""


def events_key(encounter: str) -> str:
    # The braces are a Redis Cluster hash tag: one encounter, one slot.
    return f"fray:{{{encounter}}}:events"


def cmds_key(encounter: str) -> str:
    return f"fray:{{{encounter}}}:cmds"


def meta_key(encounter: str) -> str:
    return f"fray:{{{encounter}}}:meta"


def snapshot_key(encounter: str) -> str:
    return f"fray:{{{encounter}}}:snapshot"


def position_key(position: str) -> tuple[int, int]:
    """Positions compare as (milliseconds, sequence), not as strings.

    Raises ValueError for anything that is not a stream id."""
    ms, _, seq = position.partition("-")
    return int(ms), int(seq or 0)


def _mapping(fields: dict[str, str] | dict[str, bytes]) -> Mapping[FieldT, EncodableT]:
    # redis-py's `mapping` has an invariant key type, so it refuses a dict[str, ...]
    # that it accepts at run time.
    return cast("Mapping[FieldT, EncodableT]", fields)


class _Append(NamedTuple):
    encounter: str
    command_id: str
    payload: bytes
    future: asyncio.Future[tuple[str, bool]]


def connect(url: str, *, cluster: bool, max_connections: int, timeout: float, **options: Any) -> aioredis.Redis | RedisCluster:
    """A client of one Redis, or of the cluster `url` names a node of; a burst waits
    for a free connection (up to `timeout`) rather than failing."""
    if cluster:
        return RedisCluster.from_url(url, max_connections=max_connections, socket_timeout=timeout, socket_connect_timeout=timeout, **options)
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=max_connections, timeout=timeout, socket_timeout=timeout, socket_connect_timeout=timeout, **options
    )
    return aioredis.Redis.from_pool(pool)


class RedisStore:
    def __init__(self, url: str, *, max_batch: int = 256, timeout: float = 5.0, cluster: bool | None = None) -> None:
        """`cluster`: True for a Redis Cluster (`url` names any node), False for one Redis,
        None to ask the Redis (INFO cluster) at start."""
        self.url = url
        self.cluster = cluster
        self._max_batch = max_batch
        self._timeout = timeout
        self._redis: aioredis.Redis | RedisCluster | None = None
        self._bells: Bells | None = None
        self._sha = ""
        self._queue: asyncio.Queue[_Append | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._appender: aioredis.Connection | None = None
        self._closing = False

    async def start(self) -> None:
        if self._redis is not None:
            raise RuntimeError("RedisStore.start() was called twice.")
        if self.cluster is None:
            from .cluster import is_cluster

            with self._translate():
                self.cluster = await is_cluster(self.url, self._timeout)
        # A retry replaces a pooled connection that died with a restarted
        # Redis; retrying an append is safe because the script is idempotent.
        self._redis = connect(
            self.url, cluster=self.cluster, max_connections=MAX_CONNECTIONS, timeout=self._timeout, retry=Retry(ExponentialBackoff(cap=0.1, base=0.01), 2)
        )
        if self.cluster:
            from .cluster import Bells

            try:
                with self._translate():
                    await self._redis.initialize()  # type: ignore[union-attr]
                self._bells = Bells(self._redis)  # type: ignore[arg-type]
            except BaseException:
                await self._redis.aclose()
                self._redis = None
                raise
        # The writer's own connection: an append is one round trip, without the
        # pool's checkout and retry wrappers (about 100 us of CPU each, measured).
        # Its socket timeout is only a backstop, longer than the `asyncio.timeout` that bounds each round trip.
        self._appender = (
            None
            if self.cluster
            else bare_connection(self.url, self._timeout, Retry(ExponentialBackoff(cap=0.1, base=0.01), 2), socket_timeout=2 * self._timeout)
        )
        try:
            with self._translate():
                self._sha = await self._redis.script_load(APPEND)
        except BaseException:
            await self._redis.aclose()
            self._redis = None
            raise
        self._writer = asyncio.create_task(self._write_loop(), name="fray-store-writer")

    async def close(self) -> None:
        if self._redis is None:
            return
        self._closing = True
        if self._writer is not None:
            self._queue.put_nowait(None)  # after every queued append: they get written first
            await self._writer
            self._writer = None
        if self._appender is not None:
            await self._appender.disconnect()
            self._appender = None
        await self._redis.aclose()
        self._redis = None

    async def append(self, encounter: str, command_id: str, payload: bytes) -> tuple[str, bool]:
        """(position, True) for a new event; (the original position, False) for a command id seen before."""
        return await self.submit(encounter, command_id, payload)

    def submit(self, encounter: str, command_id: str, payload: bytes) -> asyncio.Future[tuple[str, bool]]:
        """`append` without waiting: queued now, in order, settled when Redis has answered.
        A connection submits its commands one after another without a round trip each."""
        if self._writer is None or self._closing:
            raise RuntimeError("RedisStore.append() needs start() first and cannot follow close().")
        future: asyncio.Future[tuple[str, bool]] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Append(encounter, command_id, payload, future))
        return future

    async def read(self, encounter: str, after: str = "0-0", count: int | None = None) -> list[Event]:
        position_key(after)  # ValueError for a malformed position, as in MemoryStore
        with self._translate():
            entries = cast(Entries, await self._client().xrange(events_key(encounter), f"({after}", "+", count=count))
        return [(pos.decode(), fields[b"e"]) for pos, fields in entries]

    async def exists(self, encounter: str) -> bool:
        with self._translate():
            return await self._client().exists(events_key(encounter), meta_key(encounter)) > 0

    async def set_meta(self, encounter: str, fields: dict[str, str]) -> None:
        with self._translate():
            async with self._client().pipeline(transaction=False) as pipe:
                if fields:
                    pipe.hset(meta_key(encounter), mapping=_mapping(fields))
                pipe.sadd(ENCOUNTERS, encounter)
                await pipe.execute()

    async def get_meta(self, encounter: str) -> dict[str, str]:
        with self._translate():
            raw = cast(dict[bytes, bytes], await self._client().hgetall(meta_key(encounter)))
        return {k.decode(): v.decode() for k, v in raw.items()}

    async def save_snapshot(self, encounter: str, fields: dict[str, bytes]) -> None:
        """A cache of derived state (server/hub.py says what the fields are):
        losing it loses nothing, so it is simply overwritten."""
        with self._translate():
            await self._client().hset(snapshot_key(encounter), mapping=_mapping(fields))

    async def load_snapshot(self, encounter: str) -> dict[str, bytes] | None:
        with self._translate():
            raw = cast(dict[bytes, bytes], await self._client().hgetall(snapshot_key(encounter)))
        return {k.decode(): v for k, v in raw.items()} or None

    async def list_encounters(self) -> list[str]:
        with self._translate():
            members = cast(set[bytes], await self._client().smembers(ENCOUNTERS))
        return sorted(m.decode() for m in members)

    # --- a fight's data (server/archive.py): its length, its last event, deleting it

    async def length(self, encounter: str) -> int:
        with self._translate():
            return await self._client().xlen(events_key(encounter))

    async def last(self, encounter: str) -> Event | None:
        with self._translate():
            entries = cast(Entries, await self._client().xrevrange(events_key(encounter), "+", "-", count=1))
        return (entries[0][0].decode(), entries[0][1][b"e"]) if entries else None

    async def delete(self, encounter: str, also: tuple[str, ...] = ()) -> None:
        """Every key of the encounter (with `also`, keys of its under the same hash tag), and its listing."""
        with self._translate():
            async with self._client().pipeline(transaction=False) as pipe:
                pipe.delete(events_key(encounter), cmds_key(encounter), meta_key(encounter), snapshot_key(encounter), *also)
                pipe.srem(ENCOUNTERS, encounter)
                await pipe.execute()

    def tail(self, on_events: OnEvents, **options) -> Tail | ClusterTail:
        """This process's one reader of every watched stream (server.tail; on a cluster, server.cluster)."""
        # The tails read through this store: imported here, not at the top.
        if self.cluster:
            from .cluster import ClusterTail

            return ClusterTail(self, on_events, **options)
        from .tail import Tail

        return Tail(self, on_events, **options)

    def _client(self) -> aioredis.Redis | RedisCluster:
        if self._redis is None:
            raise RuntimeError("RedisStore is not started; await store.start() first.")
        return self._redis

    def _unavailable(self, exc: BaseException) -> StoreUnavailable:
        metrics.counts.redis_errors += 1
        parts = urllib.parse.urlsplit(self.url)
        where = self.url
        if "@" in parts.netloc:  # never put a password in a message
            where = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
        detail = str(exc) or (f"no answer within {self._timeout:g} s" if isinstance(exc, TimeoutError) else type(exc).__name__)
        return StoreUnavailable(f"The event store (Redis at {where}) is unreachable: {detail}")

    def _unknown(self, exc: BaseException) -> StoreUnknown:
        said = str(self._unavailable(exc))
        return StoreUnknown(f"{said}; the command was sent and may have been stored: send it again with the same id")

    @contextlib.contextmanager
    def _translate(self) -> Iterator[None]:
        try:
            yield
        except UNAVAILABLE as exc:
            raise self._unavailable(exc) from exc

    async def _write_loop(self) -> None:
        stop = False
        while not stop:
            item = await self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < self._max_batch and not self._queue.empty():
                item = self._queue.get_nowait()
                if item is None:
                    stop = True
                    break
                batch.append(item)
            error = await self._write(batch)
            if error is not None:
                # Redis is down: fail what is queued now rather than let each
                # batch wait out its own timeout. Later appends try again.
                while not self._queue.empty():
                    item = self._queue.get_nowait()
                    if item is None:
                        stop = True
                    elif not item.future.done():
                        item.future.set_exception(self._unavailable(error))

    async def _write(self, batch: list[_Append]) -> Exception | None:
        """Write one batch and settle its futures; the error if Redis was unreachable."""
        batch = [a for a in batch if not a.future.done()]  # skip cancelled callers
        if not batch:
            return None
        by_encounter: dict[str, list[_Append]] = {}
        for a in batch:
            by_encounter.setdefault(a.encounter, []).append(a)
        groups = list(by_encounter.values())
        try:
            replies = await self._evalsha(groups)
            # NOSCRIPT: the script cache was emptied (restart, failover, SCRIPT
            # FLUSH). Those scripts did not run, so running them again is safe.
            missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
            if missing:
                self._sha = await self._client().script_load(APPEND)
                again = await self._evalsha([groups[i] for i in missing])
                for i, reply in zip(missing, again):
                    replies[i] = reply
        except (*UNAVAILABLE, _SentUnanswered) as exc:
            unknown = isinstance(exc, _SentUnanswered)
            cause = exc.__cause__ if unknown and isinstance(exc.__cause__, Exception) else exc
            for a in batch:
                if not a.future.done():
                    a.future.set_exception(self._unknown(cause) if unknown else self._unavailable(cause))
            return cause
        except Exception as exc:  # a bug here must not stop every later append
            logger.exception("Appending a batch of %d events failed", len(batch))
            for a in batch:
                if not a.future.done():
                    a.future.set_exception(exc)
            return None
        for group, reply in zip(groups, replies):
            for i, a in enumerate(group):
                if a.future.done():
                    continue
                if isinstance(reply, NOT_RUN):
                    a.future.set_exception(self._unavailable(reply))
                elif isinstance(reply, ClusterError):
                    # The cluster client gave up following a slot on the move ("TTL exhausted":
                    # MOVED, ASK and TRYAGAIN again and again, or a connection lost on the way):
                    # the script may have run, so it is unknown, and sent again with the same id.
                    a.future.set_exception(self._unknown(reply))
                elif isinstance(reply, Exception):
                    a.future.set_exception(reply)
                else:
                    a.future.set_result((reply[2 * i].decode(), reply[2 * i + 1] == 1))
        return None

    async def _evalsha(self, groups: list[list[_Append]]) -> list[Any]:
        """The script's reply for each group (one encounter's appends), or the
        error Redis gave for it (NOSCRIPT among them). A connection that died (a
        restarted Redis) or did not answer in time is replaced and the batch sent
        again: the script is idempotent."""
        if self.cluster:
            return await self._evalsha_cluster(groups)
        conn = self._appender
        assert conn is not None
        # Packed here (RESP): redis-py's pack_commands checks and copies each argument.
        sha, bell = bulk(self._sha.encode()), bulk(BELL_KEY.encode())
        parts: list[bytes] = []
        for group in groups:
            parts += (b"*%d\r\n$7\r\nEVALSHA\r\n" % (6 + 2 * len(group)), sha, b"$1\r\n3\r\n", bulk(events_key(group[0].encounter).encode()))
            parts += (bulk(cmds_key(group[0].encounter).encode()), bell)
            for a in group:
                parts += (bulk(a.command_id.encode()), b"$%d\r\n" % len(a.payload), a.payload, b"\r\n")
        command = b"".join(parts)
        maybe_sent = False  # once the script may have reached Redis, a failure is "unknown", not "not stored"
        for attempt in range(APPEND_RETRIES + 1):
            try:
                async with asyncio.timeout(self._timeout):  # one timer a round trip, not one a send and a reply
                    if conn.is_connected and await conn.can_read():  # closed by a Redis that went away while idle
                        await conn.disconnect()
                    if not conn.is_connected:
                        await conn.connect()
                    maybe_sent = True
                    await conn.send_packed_command(command, check_health=False)
                    replies: list[Any] = []
                    for _ in groups:
                        try:
                            replies.append(await conn.read_response())
                        except ResponseError as e:
                            replies.append(e)
                return replies
            except UNAVAILABLE as exc:
                await conn.disconnect()
                if attempt == APPEND_RETRIES:
                    if maybe_sent:
                        raise _SentUnanswered() from exc
                    raise
                await asyncio.sleep(0.01 * 2**attempt)
        raise AssertionError("unreachable")

    async def _evalsha_cluster(self, groups: list[list[_Append]]) -> list[Any]:
        """The same on a cluster: the client's pipeline sends each script to its slot's
        master and follows MOVED and ASK; after each, the master's doorbell rings
        with the encounter's id (server.cluster)."""
        assert self._bells is not None
        async with self._client().pipeline(transaction=False) as pipe:
            for group in groups:
                encounter = group[0].encounter
                args: list[Any] = []
                for a in group:
                    args += (a.command_id, a.payload)
                # execute_command: the pipeline blocks its evalsha() helper, not the command, which it routes by its keys
                pipe.execute_command("EVALSHA", self._sha, 2, events_key(encounter), cmds_key(encounter), *args)
                pipe.xadd(self._bells.for_key(events_key(encounter)), {"e": encounter}, maxlen=BELL_LENGTH, approximate=True)
            async with asyncio.timeout(self._timeout * (APPEND_RETRIES + 1)):
                replies = await pipe.execute(raise_on_error=False)
        for reply in replies:
            if isinstance(reply, UNAVAILABLE):
                raise reply
        return replies[0::2]


def entries_of(reply: Any) -> Entries:
    """The entries of an XREAD of one stream: its reply is a list of [key, entries]
    (RESP2) or a map of key -> entries (RESP3), or None when nothing was new."""
    if not reply:
        return []
    return reply[0][1] if isinstance(reply, list) else next(iter(reply.values()))


def bulk(value: bytes) -> bytes:
    """One argument of a command in Redis's protocol (a RESP bulk string)."""
    return b"$%d\r\n%s\r\n" % (len(value), value)


def bare_connection(url: str, connect_timeout: float, retry: Retry, *, socket_timeout: float) -> aioredis.Connection:
    """A connection of our own, outside any pool: no checkout, locks or per-call
    timers. Its user bounds each round trip with one `asyncio.timeout`; the socket
    timeout is explicit because redis-py's default (5 s) would cut a blocking read
    of the same length (docs/operations.md)."""
    return aioredis.ConnectionPool.from_url(url, socket_connect_timeout=connect_timeout, socket_timeout=socket_timeout, retry=retry).make_connection()
