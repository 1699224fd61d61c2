"""Snapshots are caches: a replica starts from the latest one it can trust
(same rules version, bytes that hash to what it claims) and folds the rest."""

import asyncio
import hashlib

import msgspec
import pytest
import redis.asyncio as aioredis
from support import FrayServer, digest, folded
from test_server import FIGHT

from fray_table.rules.model import Encounter
from fray_table.rules.reducer import canonical
from fray_table.server.store import snapshot_key

pytestmark = pytest.mark.redis


async def snapshot_of(redis_url: str, encounter: str) -> dict:
    client = aioredis.Redis.from_url(redis_url)
    try:
        for _ in range(100):  # written in the background: wait for it, bounded
            fields = await client.hgetall(snapshot_key(encounter))
            if fields:
                return {k.decode(): v for k, v in fields.items()}
            await asyncio.sleep(0.05)
    finally:
        await client.aclose()
    raise AssertionError("no snapshot was written")


async def put_snapshot(redis_url: str, encounter: str, fields: dict) -> None:
    client = aioredis.Redis.from_url(redis_url)
    try:
        await client.hset(snapshot_key(encounter), mapping=fields)
    finally:
        await client.aclose()


async def test_a_fresh_replica_starts_from_a_trusted_snapshot(redis_url, tmp_path, join):
    writer = FrayServer(redis_url, tmp_path, env={"FRAY_SNAPSHOT_EVERY": "10"})
    try:
        made = writer.create(FIGHT)
        gm = await join(writer, made["links"]["gm"])
        for value in range(1, 13):
            ack = await gm.send({"type": "force_rolls", "values": [value]})
            assert ack["type"] == "ack", ack
        snapshot = await snapshot_of(redis_url, made["id"])
    finally:
        writer.stop()
    assert int(snapshot["seq"]) >= 10
    state = msgspec.msgpack.decode(snapshot["state"], type=Encounter)
    assert hashlib.sha256(snapshot["state"]).hexdigest().encode() == snapshot["sha256"]
    expected = hashlib.sha256(await folded(redis_url, made["id"])).hexdigest()

    # A snapshot that hashes right is used as is: prove it by planting a different, self-consistent one.
    planted = msgspec.structs.replace(state, round=99)
    data = canonical(planted)
    await put_snapshot(redis_url, made["id"], {**snapshot, "state": data, "sha256": hashlib.sha256(data).hexdigest().encode()})
    reader = FrayServer(redis_url, tmp_path)
    try:
        assert digest(reader, made)["sha256"] != expected  # it trusted the snapshot
    finally:
        reader.stop()

    # One whose bytes do not match its hash is ignored: the replica folds from the start.
    await put_snapshot(redis_url, made["id"], {**snapshot, "state": data})
    reader = FrayServer(redis_url, tmp_path)
    try:
        answer = digest(reader, made)
        assert answer["sha256"] == expected and answer["position"] == ack["position"]
    finally:
        reader.stop()

    # The true snapshot gives the true state.
    await put_snapshot(redis_url, made["id"], snapshot)
    reader = FrayServer(redis_url, tmp_path)
    try:
        assert digest(reader, made)["sha256"] == expected
    finally:
        reader.stop()


async def test_digest_and_snapshot_hold_while_a_forced_die_of_a_kind_waits(redis_url, tmp_path, join):
    """Issue 28: a die forced by kind (`force_rolls {sides: 20}`) waiting in the queue made
    /digest answer 500 and every periodic snapshot fail (canonical bytes of a map with int keys;
    main's issue 27 work keys the queues by text, which this checks on a real server)."""
    server = FrayServer(redis_url, tmp_path, env={"FRAY_SNAPSHOT_EVERY": "2"})
    try:
        made = server.create(FIGHT)
        gm = await join(server, made["links"]["gm"])
        for command in ({"type": "force_rolls", "values": [6, 5], "sides": 6}, {"type": "force_rolls", "values": [20], "sides": 20}):
            ack = await gm.send(command)
            assert ack["type"] == "ack", ack
        await gm.until(ack["position"])
        answer = digest(server, made)
        assert answer.get("position") == ack["position"], answer
        assert answer["sha256"] == hashlib.sha256(await folded(redis_url, made["id"])).hexdigest()
        snapshot = await snapshot_of(redis_url, made["id"])
        state = msgspec.msgpack.decode(snapshot["state"], type=Encounter)
        assert state.forced_by_die.get("6") == [6, 5]  # taken while the d6s waited (keyed by text since rules version 8)
        assert canonical(state) == snapshot["state"]
    finally:
        server.stop()
    assert "Traceback" not in server.log_path.read_text()
