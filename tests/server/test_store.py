import asyncio
import pathlib
import socket
import time
from collections.abc import AsyncIterator, Callable

import pytest

from fray_table.server.embedded import EmbeddedRedis
from fray_table.server.memstore import MemoryStore
from fray_table.server.store import BELL_KEY, Event, RedisStore, StoreUnavailable, events_key, position_key

pytestmark = pytest.mark.redis

Store = RedisStore | MemoryStore
NewEncounter = Callable[[], str]


@pytest.fixture(params=["redis", "memory", pytest.param("cluster", marks=pytest.mark.cluster)])
async def any_store(request: pytest.FixtureRequest, redis_url: str) -> AsyncIterator[Store]:
    if request.param == "cluster":
        store: Store = RedisStore(request.getfixturevalue("redis_cluster").url)  # found to be a cluster at start
    else:
        store = RedisStore(redis_url) if request.param == "redis" else MemoryStore()
    await store.start()
    yield store
    await store.close()


class Received:
    """Collects what a tail delivers, and waits (bounded) for it."""

    def __init__(self) -> None:
        self.events: dict[str, list[Event]] = {}
        self.changed = asyncio.Event()

    def __call__(self, encounter: str, events: list[Event]) -> None:
        self.events.setdefault(encounter, []).extend(events)
        self.changed.set()

    async def until(self, encounter: str, n: int, timeout: float = 5.0) -> list[Event]:
        async def wait() -> None:
            while len(self.events.get(encounter, [])) < n:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), timeout)
        return self.events[encounter]


async def append_all(store: Store, encounter: str, payloads: list[bytes]) -> list[str]:
    positions = []
    for i, payload in enumerate(payloads):
        position, new = await store.append(encounter, f"cmd-{i}-{payload!r}", payload)
        assert new
        positions.append(position)
    return positions


# --- the storage contract: every store ------------------------------------


async def test_append_returns_increasing_positions(any_store: Store, new_encounter: NewEncounter):
    positions = await append_all(any_store, new_encounter(), [b"a", b"b", b"c"])
    assert [position_key(p) for p in positions] == sorted(position_key(p) for p in positions)
    assert len(set(positions)) == 3
    assert position_key(positions[0]) > position_key("0-0")


async def test_read_returns_payloads_in_order(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    payloads = [bytes([i]) * 3 for i in range(10)]
    positions = await append_all(any_store, encounter, payloads)
    assert await any_store.read(encounter) == list(zip(positions, payloads))


async def test_read_respects_after_and_count(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    payloads = [b"%d" % i for i in range(10)]
    positions = await append_all(any_store, encounter, payloads)
    assert await any_store.read(encounter, after=positions[3]) == list(zip(positions[4:], payloads[4:]))
    assert await any_store.read(encounter, after=positions[3], count=2) == list(zip(positions[4:6], payloads[4:6]))
    assert await any_store.read(encounter, count=1) == [(positions[0], payloads[0])]
    assert await any_store.read(encounter, after=positions[-1]) == []


async def test_malformed_position_is_a_value_error(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    with pytest.raises(ValueError):
        await any_store.read(encounter, after="yesterday")
    with pytest.raises(ValueError):
        any_store.tail(Received()).watch(encounter, after="1-2-3")


async def test_read_of_unknown_encounter_is_empty(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    assert await any_store.read(encounter) == []
    assert not await any_store.exists(encounter)


async def test_exists_after_append_or_meta(any_store: Store, new_encounter: NewEncounter):
    appended, described = new_encounter(), new_encounter()
    await any_store.append(appended, "c1", b"x")
    await any_store.set_meta(described, {"name": "Goblin ambush"})
    assert await any_store.exists(appended)
    assert await any_store.exists(described)


async def test_append_duplicate_command_returns_original(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    first = await any_store.append(encounter, "cmd-1", b"once")
    await any_store.append(encounter, "cmd-2", b"other")
    again = await any_store.append(encounter, "cmd-1", b"twice")
    assert first[1] is True
    assert again == (first[0], False)
    assert [p for _, p in await any_store.read(encounter)] == [b"once", b"other"]


async def test_append_command_ids_are_per_encounter(any_store: Store, new_encounter: NewEncounter):
    one, two = new_encounter(), new_encounter()
    assert (await any_store.append(one, "cmd-1", b"a"))[1]
    assert (await any_store.append(two, "cmd-1", b"b"))[1]


async def test_append_concurrent_all_succeed(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    n = 2000  # far over redis-py's default pool of 100 connections
    results = await asyncio.wait_for(
        asyncio.gather(*(any_store.append(encounter, f"c{i}", b"%d" % i) for i in range(n))),
        30,
    )
    assert all(new for _, new in results)
    assert len({position for position, _ in results}) == n
    stored = await any_store.read(encounter)
    assert len(stored) == n
    assert dict(stored) == {position: b"%d" % i for i, (position, _) in enumerate(results)}


async def test_append_concurrent_duplicates_append_once(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    results = await asyncio.wait_for(asyncio.gather(*(any_store.append(encounter, "same", b"x") for _ in range(50))), 10)
    assert len({position for position, _ in results}) == 1
    assert sum(new for _, new in results) == 1
    assert len(await any_store.read(encounter)) == 1


async def test_tail_delivers_two_encounters_in_order(any_store: Store, new_encounter: NewEncounter):
    one, two = new_encounter(), new_encounter()
    before = await append_all(any_store, one, [b"old"])
    received = Received()
    tail = any_store.tail(received)
    tail.watch(one, after=before[-1])
    tail.watch(two, after="0-0")
    await tail.start()
    try:
        for i in range(20):
            await any_store.append(one, f"one-{i}", b"1-%d" % i)
            await any_store.append(two, f"two-{i}", b"2-%d" % i)
        assert await received.until(one, 20) == await any_store.read(one, after=before[-1])
        assert await received.until(two, 20) == await any_store.read(two)
    finally:
        await tail.stop()


async def test_tail_watch_while_blocked_is_prompt(any_store: Store, new_encounter: NewEncounter):
    idle, late = new_encounter(), new_encounter()
    positions = await append_all(any_store, late, [b"a", b"b"])
    received = Received()
    tail = any_store.tail(received, block_ms=20_000)
    tail.watch(idle)
    await tail.start()
    try:
        await asyncio.sleep(0.2)  # the tail is now blocked reading `idle`
        started = time.monotonic()
        tail.watch(late, after=positions[0])
        assert await received.until(late, 1, timeout=5) == [(positions[1], b"b")]
        assert time.monotonic() - started < 1.0  # far under the 20 s block
    finally:
        await tail.stop()


async def test_tail_unwatch_stops_delivery(any_store: Store, new_encounter: NewEncounter):
    gone, kept = new_encounter(), new_encounter()
    received = Received()
    tail = any_store.tail(received)
    tail.watch(gone)
    tail.watch(kept)
    await tail.start()
    try:
        await any_store.append(gone, "g1", b"seen")
        await received.until(gone, 1)
        tail.unwatch(gone)
        await any_store.append(gone, "g2", b"unseen")
        await any_store.append(kept, "k1", b"marker")
        await received.until(kept, 1)
        await asyncio.sleep(0.1)
        assert [p for _, p in received.events[gone]] == [b"seen"]
    finally:
        await tail.stop()


async def test_submitted_appends_settle_in_order_across_encounters(any_store: Store, new_encounter: NewEncounter):
    one, two = new_encounter(), new_encounter()
    # Submitted in one tick, so the Redis store writes them as one batch: one
    # script per encounter, a retry of an id among them answered with the first.
    futures = [any_store.submit(one, "a", b"1a"), any_store.submit(two, "a", b"2a"), any_store.submit(one, "b", b"1b"), any_store.submit(one, "a", b"1a again")]
    results = await asyncio.wait_for(asyncio.gather(*futures), 10)
    assert [created for _, created in results] == [True, True, True, False]
    assert results[3][0] == results[0][0]
    assert position_key(results[0][0]) < position_key(results[2][0])
    assert await any_store.read(one) == [(results[0][0], b"1a"), (results[2][0], b"1b")]
    assert await any_store.read(two) == [(results[1][0], b"2a")]


async def test_meta_round_trips_and_is_listed(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    assert await any_store.get_meta(encounter) == {}
    await any_store.set_meta(encounter, {"name": "Orc ford", "gm": "ana"})
    await any_store.set_meta(encounter, {"gm": "bo"})
    assert await any_store.get_meta(encounter) == {"name": "Orc ford", "gm": "bo"}
    assert encounter in await any_store.list_encounters()


# --- RedisStore only --------------------------------------------------------


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_snapshot_round_trips_and_is_overwritten(any_store: Store, new_encounter: NewEncounter):
    encounter = new_encounter()
    assert await any_store.load_snapshot(encounter) is None
    await any_store.save_snapshot(encounter, {"position": b"1-0", "state": b"\x00\x01"})
    await any_store.save_snapshot(encounter, {"position": b"2-0", "state": b"\x02"})
    assert await any_store.load_snapshot(encounter) == {"position": b"2-0", "state": b"\x02"}


async def test_redis_store_unreachable_at_start_raises():
    store = RedisStore(f"redis://127.0.0.1:{closed_port()}/0", timeout=1.0)
    with pytest.raises(StoreUnavailable, match="unreachable"):
        await asyncio.wait_for(store.start(), 10)


async def test_redis_store_append_before_start_is_misuse():
    with pytest.raises(RuntimeError, match="start"):
        await RedisStore("redis://127.0.0.1:1/0").append("e", "c", b"")


async def test_redis_store_close_writes_queued_appends(store: RedisStore, new_encounter):
    encounter = new_encounter()
    pending = [asyncio.ensure_future(store.append(encounter, f"c{i}", b"x")) for i in range(300)]
    await asyncio.wait_for(store.close(), 10)
    assert all(task.done() and task.result()[1] for task in pending)


async def test_redis_store_reloads_a_flushed_script(tmp_path: pathlib.Path):
    # A private Redis: SCRIPT FLUSH would disturb others sharing one.
    with EmbeddedRedis(tmp_path) as embedded:
        store = RedisStore(embedded.url)
        await store.start()
        try:
            await store.append("e1", "c1", b"a")
            await store._client().script_flush()
            assert (await asyncio.wait_for(store.append("e1", "c2", b"b"), 10))[1]
            assert (await asyncio.wait_for(store.append("e1", "c1", b"a"), 10))[1] is False
        finally:
            await store.close()


def test_redis_store_unavailable_message_hides_password():
    store = RedisStore("redis://fray:s3cret@db.example:6379/0")
    message = str(store._unavailable(OSError("refused")))
    assert "s3cret" not in message and "db.example:6379" in message


@pytest.mark.parametrize("direct_up_to", [64, 0], ids=["on-its-streams", "on-the-doorbell"])
async def test_redis_store_survives_redis_restart(tmp_path: pathlib.Path, direct_up_to: int):
    embedded = EmbeddedRedis(tmp_path)
    store = RedisStore(embedded.start(), timeout=1.0)
    await store.start()
    received = Received()
    tail = store.tail(received, block_ms=500, direct_up_to=direct_up_to)
    tail.watch("e1")
    await tail.start()
    try:
        first, _ = await store.append("e1", "c1", b"before")
        await received.until("e1", 1)

        embedded.stop()
        with pytest.raises(StoreUnavailable, match="unreachable"):
            await asyncio.wait_for(store.append("e1", "c2", b"lost"), 10)
        with pytest.raises(StoreUnavailable):
            await asyncio.wait_for(store.read("e1"), 10)

        embedded.start()  # same folder: the AOF brings the stream back, not the scripts
        assert await asyncio.wait_for(store.append("e1", "c1", b"retry"), 10) == (first, False)
        await asyncio.wait_for(store.append("e1", "c3", b"after"), 10)
        assert [p for _, p in await store.read("e1")] == [b"before", b"after"]
        assert await received.until("e1", 2, timeout=10) == await store.read("e1")
    finally:
        await tail.stop()
        await store.close()
        embedded.stop()


async def test_redis_store_append_to_a_redis_that_stops_answering_times_out_then_recovers(tmp_path: pathlib.Path):
    """A Redis that hangs (SIGSTOP) rather than closing: each try of the append is
    bounded by the store's timeout, the caller gets a clear error, and once Redis
    answers again the command is there once, whichever tries reached it."""
    import os
    import signal

    embedded = EmbeddedRedis(tmp_path)
    store = RedisStore(embedded.start(), timeout=0.5)
    await store.start()
    pid = int((tmp_path / "redis.pid").read_text())
    try:
        await store.append("e1", "c1", b"before")
        os.kill(pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            with pytest.raises(StoreUnavailable, match=r"unreachable: no answer within 0.5 s"):
                await asyncio.wait_for(store.append("e1", "c2", b"hung"), 10)
            assert time.monotonic() - started < 3  # three tries of 0.5 s and their backoff
        finally:
            os.kill(pid, signal.SIGCONT)
        again = await asyncio.wait_for(store.append("e1", "c2", b"hung"), 10)
        assert [p for _, p in await store.read("e1")] == [b"before", b"hung"]
        assert (await store.read("e1"))[1][0] == again[0]
    finally:
        await store.close()
        embedded.stop()


async def test_redis_store_batch_reaches_the_tail_in_one_read(redis_url: str, new_encounter: NewEncounter):
    """A burst of one encounter's commands is one script in Redis, so a blocked
    XREAD wakes once, after all of it: the hub folds and fans out once, not per command."""
    store = RedisStore(redis_url)
    await store.start()
    encounter = new_encounter()
    calls: list[list[Event]] = []
    received = Received()
    tail = store.tail(lambda e, events: (calls.append(events), received(e, events)))
    tail.watch(encounter)
    await tail.start()
    try:
        await asyncio.sleep(0.2)  # the tail is now blocked on the empty stream
        await asyncio.wait_for(asyncio.gather(*(store.submit(encounter, f"c{i}", b"%d" % i) for i in range(20))), 10)
        events = await received.until(encounter, 20)
        assert [payload for _, payload in events] == [b"%d" % i for i in range(20)]
        assert [len(c) for c in calls] == [20]
    finally:
        await tail.stop()
        await store.close()


async def test_redis_tail_reads_the_streams_its_doorbell_names(redis_url: str, new_encounter: NewEncounter):
    """With more streams than it blocks on (none here), the tail blocks on the doorbell:
    an append rings it with its stream's key (a retry rings nothing), and the tail
    delivers at once, though it reads every stream only once a block (20 s here)."""
    store = RedisStore(redis_url)
    await store.start()
    encounters = [new_encounter() for _ in range(3)]
    received = Received()
    tail = store.tail(received, block_ms=20_000, direct_up_to=0)
    for encounter in encounters:
        tail.watch(encounter)
    await tail.start()
    client = store._client()
    try:
        await asyncio.sleep(0.3)  # the tail has read every stream and is blocked on the doorbell
        position, _ = await store.append(encounters[1], "c1", b"x")
        rung = await client.xrevrange(BELL_KEY, count=1)
        assert rung[0][1] == {b"k": events_key(encounters[1]).encode()}
        started = time.monotonic()
        assert await received.until(encounters[1], 1) == [(position, b"x")]
        assert time.monotonic() - started < 2
        assert await store.append(encounters[1], "c1", b"x") == (position, False)
        assert (await client.xrevrange(BELL_KEY, count=1))[0][0] == rung[0][0]
        assert set(received.events) == {encounters[1]}
    finally:
        await tail.stop()
        await store.close()


async def test_redis_tail_reads_an_append_that_rang_no_bell(redis_url: str, new_encounter: NewEncounter):
    """A replica of an older version appends without ringing: every watched stream is
    also read once a block (0.3 s here) has passed without a full read, even while
    other streams keep the doorbell ringing."""
    store = RedisStore(redis_url)
    await store.start()
    busy, quiet = new_encounter(), new_encounter()
    received = Received()
    tail = store.tail(received, block_ms=300, direct_up_to=0)
    tail.watch(busy)
    tail.watch(quiet)
    await tail.start()
    try:
        await asyncio.sleep(0.2)
        unrung = (await store._client().xadd(events_key(quiet), {"e": b"old"})).decode()
        started = time.monotonic()
        for i in range(60):  # at most 3 s of rings, every 50 ms
            await store.append(busy, f"c{i}", b"%d" % i)
            if received.events.get(quiet):
                break
            await asyncio.sleep(0.05)
        assert received.events.get(quiet) == [(unrung, b"old")]
        assert time.monotonic() - started < 1.5
    finally:
        await tail.stop()
        await store.close()


async def test_redis_tail_moves_between_its_streams_and_the_doorbell_losing_nothing(redis_url: str, new_encounter: NewEncounter):
    """Up to `direct_up_to` streams (2 here) the tail blocks on them; watching more it
    blocks on the doorbell, and back again as they are unwatched: every event is
    delivered once, in order, across each move."""
    store = RedisStore(redis_url)
    await store.start()
    encounters = [new_encounter() for _ in range(4)]
    received = Received()
    tail = store.tail(received, block_ms=20_000, direct_up_to=2)
    tail.watch(encounters[0])
    await tail.start()
    try:
        expected: dict[str, list[Event]] = {e: [] for e in encounters}

        async def play(encounter: str, n: int) -> None:
            for i in range(n):
                payload = b"%s-%d" % (encounter[-4:].encode(), len(expected[encounter]))
                position, _ = await store.append(encounter, f"c{len(expected[encounter])}", payload)
                expected[encounter].append((position, payload))
                await asyncio.sleep(0.01 * i)

        await play(encounters[0], 3)
        assert await received.until(encounters[0], 3) == expected[encounters[0]]
        for e in encounters[1:]:  # four streams: the doorbell
            tail.watch(e)
        await asyncio.gather(*(play(e, 5) for e in encounters))
        for e in encounters:
            assert await received.until(e, len(expected[e])) == expected[e]
        for e in encounters[2:]:  # two: the streams themselves again
            tail.unwatch(e)
        await asyncio.gather(*(play(e, 3) for e in encounters[:2]))
        for e in encounters[:2]:
            assert await received.until(e, len(expected[e])) == expected[e]
        assert [len(received.events[e]) for e in encounters] == [11, 8, 5, 5]
    finally:
        await tail.stop()
        await store.close()


def test_idle_server_logs_no_lost_redis(redis_url: str, tmp_path: pathlib.Path):
    """The tail blocks up to a block per XREAD (5 s when this was found, 1 s now); with
    redis-py's default 5 s socket timeout an idle server used to log "Tail lost Redis
    (Timeout reading from ...)" about 11 times a minute."""
    from support import FrayServer

    server = FrayServer(redis_url, tmp_path)
    try:
        time.sleep(12)  # two and a half blocked reads with nothing to read
        assert server.proc.poll() is None
    finally:
        server.stop()
    log = server.log_path.read_text()
    assert "Tail lost Redis" not in log, log
    assert "Traceback" not in log, log
