"""Fray on a real local Redis Cluster (three masters, tests/topology/redis_cluster.py):
every key of an encounter in one slot, two replicas playing a fight, and the
encounter's slot moved to another master in the middle of it with nothing
acknowledged lost."""

import hashlib
import json

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from support import FrayServer, Table, digest

from fray_table.rules.events import decode_event
from fray_table.rules.reducer import canonical, fold
from fray_table.server.store import RedisStore, events_key

pytestmark = [pytest.mark.redis, pytest.mark.cluster]

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 40, "hp_max": 40, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 40, "hp_max": 40, "dex": 9, "x": 15, "y": 10},
    ]
}


@pytest.fixture
def cluster_replicas(redis_cluster, tmp_path):
    first = FrayServer(redis_cluster.url, tmp_path)  # found to be a cluster (INFO cluster)
    second = FrayServer(redis_cluster.url, tmp_path, env={"FRAY_REDIS_CLUSTER": "1"})
    yield first, second
    first.stop()
    second.stop()


async def cluster_stream(url: str, encounter: str) -> list[tuple[str, bytes]]:
    client = RedisCluster.from_url(url)
    try:
        return [(p.decode(), f[b"e"]) for p, f in await client.xrange(events_key(encounter))]
    finally:
        await client.aclose()


async def send(table: Table, command: dict, acked: list[str], command_id: str | None = None) -> dict:
    """Send until acknowledged (bounded): an error is resent with the same id, as a client does."""
    if acked:  # the sender's replica has folded the previous command, so it judges this one on today's state
        await table.until(acked[-1])
    command_id = command_id or json.dumps(command, sort_keys=True)[:40].replace(" ", "") + str(len(acked))
    for _ in range(5):
        reply = await table.send(command, command_id=command_id)
        if reply["type"] == "ack":
            acked.append(reply["position"])
            return reply
        assert reply["code"] in ("store/unavailable", "store/unknown"), reply  # both are sent again, with the same id
    raise AssertionError(f"{command} never acknowledged")


async def test_cluster_detected_or_set(redis_cluster, redis_url):
    found = RedisStore(redis_cluster.url)
    await found.start()
    single = RedisStore(redis_url)
    await single.start()
    try:
        assert found.cluster is True and single.cluster is False
    finally:
        await found.close()
        await single.close()


async def test_cluster_every_key_of_an_encounter_is_in_one_slot(cluster_replicas, redis_cluster):
    one, two = cluster_replicas
    made = one.create(FIGHT)
    gm = await Table.join(one, made["links"]["gm"])
    player = await Table.join(two, made["links"]["players"]["alda"])
    acked: list[str] = []
    try:
        await send(gm, {"type": "force_rolls", "values": [5, 6]}, acked)
        await send(gm, {"type": "start"}, acked)
        await send(player, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}, acked)
        await player.until(acked[-1])
    finally:
        await gm.close()
        await player.close()
    found: dict[str, int] = {}
    for port in redis_cluster.ports:
        node = aioredis.Redis(host="127.0.0.1", port=port)
        try:
            async for key in node.scan_iter(match=f"*{made['id']}*", count=1000):
                found[key.decode()] = port
        finally:
            await node.aclose()
    kinds = {key.rsplit(":", 1)[1] for key in found}
    assert {"events", "cmds", "meta", "links"} <= kinds, found
    assert all(key.startswith(f"fray:{{{made['id']}}}:") for key in found), found
    slots = {redis_cluster.client(redis_cluster.ports[0]).cluster("keyslot", key) for key in found}
    assert slots == {redis_cluster.slot_of(made["id"])}
    assert len(set(found.values())) == 1  # one master holds them all


async def test_cluster_append_while_its_slot_is_split_is_refused_unstored_then_taken(redis_cluster):
    """Mid-move, with the encounter's events moved to the new master and its command ids not
    yet, Redis answers the append script TRYAGAIN (its keys are on two masters) until the
    cluster client gives up: the sender is told to send it again with the same id
    (store/unknown, a StoreUnavailable), not that the server failed, and nothing is written;
    once the slot has moved, the same append is taken."""
    from fray_table.rules.commands import Start
    from fray_table.rules.events import Actor, Event, encode_event
    from fray_table.server.store import StoreUnavailable, cmds_key

    store = RedisStore(redis_cluster.url)
    await store.start()
    encounter = "split-" + hashlib.sha256(str(redis_cluster.ports).encode()).hexdigest()[:8]
    payload = encode_event(Event("start", Actor("gm", "gm"), Start()))
    try:
        first, _ = await store.append(encounter, "c1", payload)
        slot = redis_cluster.slot_of(encounter)
        source = redis_cluster.owner(slot)
        target = next(p for p in redis_cluster.ports if p != source)
        redis_cluster.begin_move(slot, target)
        redis_cluster.client(source).execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", events_key(encounter))
        with pytest.raises(StoreUnavailable, match="send it again with the same id"):
            await store.append(encounter, "c2", payload)
        assert [p for p, _ in await cluster_stream(redis_cluster.url, encounter)] == [first]  # nothing stored
        redis_cluster.client(source).execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", cmds_key(encounter))
        redis_cluster.end_move(slot, target)
        again, created = await store.append(encounter, "c2", payload)
        assert created and [p for p, _ in await cluster_stream(redis_cluster.url, encounter)] == [first, again]
    finally:
        await store.close()


async def test_cluster_fight_survives_its_slot_moving_to_another_master(cluster_replicas, redis_cluster):
    one, two = cluster_replicas
    made = one.create(FIGHT)
    slot = redis_cluster.slot_of(made["id"])
    gm = await Table.join(one, made["links"]["gm"])
    player = await Table.join(two, made["links"]["players"]["alda"])
    watcher = await Table.join(two, made["links"]["spectator"])
    acked: list[str] = []
    try:
        await send(gm, {"type": "force_rolls", "values": [5, 6]}, acked)
        await send(gm, {"type": "start"}, acked)
        source = redis_cluster.owner(slot)
        target = next(p for p in redis_cluster.ports if p != source)

        redis_cluster.begin_move(slot, target)  # IMPORTING on the target, MIGRATING on the source
        await send(gm, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}, acked)
        assert redis_cluster.move_keys(slot, source, target) >= 2  # MIGRATE: the stream and the command ids at least
        await send(player, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}, acked)  # ASK
        redis_cluster.end_move(slot, target)  # SETSLOT NODE on every master
        await send(gm, {"type": "force_rolls", "values": [15, 3, 2]}, acked)  # MOVED
        await send(gm, {"type": "advance"}, acked)
        for table in (gm, player, watcher):
            await table.until(acked[-1])
        assert redis_cluster.owner(slot) == target
        assert watcher.view["round"] == player.view["round"] == 2

        events = await cluster_stream(redis_cluster.url, made["id"])
        positions = [pos for pos, _ in events]
        assert set(acked) <= set(positions)  # nothing acknowledged lost
        assert len(positions) == len(set(positions))
        state = fold(decode_event(payload) for _, payload in events)
        from_scratch = hashlib.sha256(canonical(state)).hexdigest()
        assert digest(one, made)["sha256"] == digest(two, made)["sha256"] == from_scratch
        assert digest(two, made)["position"] == positions[-1]
        # a client joining now sees what the ones that lived through the move see
        fresh = await Table.join(one, made["links"]["spectator"])
        assert fresh.view == watcher.view and fresh.position == watcher.position
        await fresh.close()
    finally:
        for table in (gm, player, watcher):
            await table.close()
