"""Faults on real processes: dropped connections and retries, resuming, a
replica killed with SIGKILL, Redis killed and restarted, a client that stops
reading, and hundreds of concurrent commands. Nothing acknowledged is lost."""

import asyncio
import json
import signal
import time
import uuid

import pytest
from support import FAST, FrayServer, Table, digest, key, raw_websocket, read_until_closed, stream

from fray_table.server.embedded import EmbeddedRedis

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 40, "hp_max": 40, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 40, "hp_max": 40, "dex": 9, "x": 15, "y": 10},
    ]
}


async def test_retry_after_a_dropped_connection_is_applied_once(fast_server, redis_url, join):
    made = fast_server.create(FIGHT)
    gm = await join(fast_server, made["links"]["gm"])
    await gm.ws.send(json.dumps({"type": "command", "id": "retry-me", "command": {"type": "force_rolls", "values": [4]}}))
    gm.ws.transport.abort()  # the connection drops before the client reads an answer
    again = await join(fast_server, made["links"]["gm"])
    reply = await again.send({"type": "force_rolls", "values": [4]}, command_id="retry-me")
    assert reply["type"] == "ack", reply
    events = [(pos, e) for pos, e in await stream(redis_url, made["id"]) if e.id.endswith(".retry-me")]
    assert [pos for pos, _ in events] == [reply["position"]]
    await again.until(reply["position"])
    assert again.view["forced"] == [4]


async def test_resume_gets_exactly_what_was_missed(fast_server, join):
    made = fast_server.create(FIGHT)
    gm = await join(fast_server, made["links"]["gm"])
    player = await join(fast_server, made["links"]["players"]["alda"])
    for command in ({"type": "force_rolls", "values": [5, 6]}, {"type": "start"}):
        ack = await gm.send(command)
    await player.until(ack["position"])
    had, last = list(player.log), player.position
    await player.close()
    for command in (
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "edit_combatant", "id": "gob", "x": 20},
        {"type": "declare", "actor": "alda", "action": {"type": "hold"}},
    ):
        ack = await gm.send(command)
        assert ack["type"] == "ack", ack
    back = await join(fast_server, made["links"]["players"]["alda"], after=last)
    fresh = await join(fast_server, made["links"]["players"]["alda"])
    assert back.position == fresh.position == ack["position"]
    assert had + back.log == fresh.log  # exactly the missed entries: none twice, none lost
    assert back.log and back.view == fresh.view


async def test_replica_killed_mid_round_its_clients_carry_on_elsewhere(fray_replicas, redis_url, tmp_path):
    one, two = fray_replicas
    made = one.create(FIGHT)
    gm = await Table.join(one, made["links"]["gm"])
    player = await Table.join(one, made["links"]["players"]["alda"])
    watcher = await Table.join(two, made["links"]["spectator"])
    acked = []
    for command in (
        {"type": "force_rolls", "values": [5, 6]},
        {"type": "start"},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
    ):
        ack = await gm.send(command)
        assert ack["type"] == "ack"
        acked.append(ack["position"])
    await player.until(acked[-1])
    # mid-round: the player's declaration is in flight when its replica dies
    in_flight = {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}
    await player.ws.send(json.dumps({"type": "command", "id": "in-flight", "command": in_flight}))
    one.proc.send_signal(signal.SIGKILL)
    one.proc.wait(10)
    # its clients reconnect to the other replica where they were, and resend what was not acknowledged
    gm = await Table.join(two, made["links"]["gm"], after=gm.position)
    player = await Table.join(two, made["links"]["players"]["alda"], after=player.position)
    reply = await player.send(in_flight, command_id="in-flight")
    assert reply["type"] == "ack", reply
    acked.append(reply["position"])
    for command in ({"type": "force_rolls", "values": [15, 3, 2]}, {"type": "advance"}):
        ack = await gm.send(command)
        assert ack["type"] == "ack", ack
        acked.append(ack["position"])
    for table in (gm, player, watcher):
        await table.until(acked[-1])
    assert watcher.view["round"] == player.view["round"] == 2
    events = await stream(redis_url, made["id"])
    positions = [pos for pos, _ in events]
    assert set(acked) <= set(positions)
    assert sum(e.id.endswith(".in-flight") for _, e in events) == 1
    three = FrayServer(redis_url, tmp_path)  # a replacement replica agrees byte for byte
    try:
        assert digest(three, made) == digest(two, made)
        assert digest(two, made)["position"] == positions[-1]
    finally:
        three.stop()
        for table in (gm, player, watcher):
            await table.close()


async def test_redis_killed_and_restarted_loses_no_acknowledged_command(tmp_path):
    data = tmp_path / "redis"
    redis = EmbeddedRedis(data, appendfsync="always")
    url = redis.start()
    server = FrayServer(url, tmp_path, env=FAST)
    tables = []
    try:
        made = server.create(FIGHT)
        gm = await Table.join(server, made["links"]["gm"])
        player = await Table.join(server, made["links"]["players"]["alda"])
        tables += [gm, player]
        acked = {}
        for i, command in enumerate(
            ({"type": "force_rolls", "values": [5, 6]}, {"type": "start"}, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}})
        ):
            ack = await gm.send(command, command_id=f"before-{i}")
            assert ack["type"] == "ack"
            acked[f"before-{i}"] = ack["position"]
        redis._process.send_signal(signal.SIGKILL)  # no chance to flush: `always` must have
        redis._process.wait(10)
        redis._process = None
        for i in range(3):  # while it is down: a clear error, no ack
            reply = await player.send({"type": "declare", "actor": "alda", "action": {"type": "hold"}}, command_id=f"down-{i}")
            assert reply["type"] == "error" and reply["code"] == "store/unavailable", reply
        redis = EmbeddedRedis(data, appendfsync="always")
        redis.start()
        deadline = time.monotonic() + 20
        while True:  # the server recovers by itself
            reply = await player.send({"type": "declare", "actor": "alda", "action": {"type": "hold"}}, command_id="after")
            if reply["type"] == "ack":
                break
            assert reply["code"] == "store/unavailable" and time.monotonic() < deadline, reply
            await asyncio.sleep(0.2)
        acked["after"] = reply["position"]
        ack = await gm.send({"type": "advance"}, command_id="after-advance")
        assert ack["type"] == "ack", ack
        acked["after-advance"] = ack["position"]
        for table in (gm, player):  # the tail is back too: both see the round resolve
            await table.until(ack["position"])
        assert player.view["round"] == 2
        events = {e.id.partition(".")[2]: pos for pos, e in await stream(url, made["id"])}
        assert {cid: events.get(cid) for cid in acked} == acked
        assert not [cid for cid in events if cid.startswith("down-")]
    finally:
        for table in tables:
            await table.close()
        server.stop()
        redis.stop()


async def test_redis_killed_under_a_pipelined_burst_every_command_is_answered_once(tmp_path):
    """A GM pipelines commands while Redis dies: each is answered exactly once, in
    the order sent; every ack is in the stream at its position after the restart, and
    what was sent while Redis was down is refused and not stored. A command whose
    script was sent when Redis died is answered store/unknown (perhaps stored: resend
    with the same id); store/unavailable says it was not."""
    data = tmp_path / "redis"
    redis = EmbeddedRedis(data, appendfsync="always")
    url = redis.start()
    server = FrayServer(url, tmp_path, env=FAST)
    gm = None
    try:
        made = server.create(FIGHT)
        gm = await Table.join(server, made["links"]["gm"])

        async def burst(prefix: str, n: int) -> list[str]:
            ids = [f"{prefix}-{i}" for i in range(n)]
            for cid in ids:
                await gm.ws.send(json.dumps({"type": "command", "id": cid, "command": {"type": "edit_combatant", "id": "gob", "notes": cid}}))
            return ids

        sent = await burst("a", 100)
        answers = await gm.answers(1)
        redis._process.send_signal(signal.SIGKILL)  # mid-burst, as far as the test can tell
        redis._process.wait(10)
        redis._process = None
        sent += await burst("b", 30)  # sent while Redis is down
        answers += await gm.answers(len(sent) - 1)
        assert [a["id"] for a in answers] == sent  # each once, in the order sent
        assert {a["code"] for a in answers if a["type"] == "error"} <= {"store/unavailable", "store/unknown"}
        assert [a["type"] for a in answers[100:]] == ["error"] * 30
        acked = {a["id"]: a["position"] for a in answers if a["type"] == "ack"}
        assert acked, "the first answer was read before Redis died"
        redis = EmbeddedRedis(data, appendfsync="always")
        redis.start()
        events = {e.id.partition(".")[2]: pos for pos, e in await stream(url, made["id"])}
        assert {cid: events.get(cid) for cid in acked} == acked
        assert not [cid for cid in events if cid.startswith("b-")]
        refused = [a["id"] for a in answers if a.get("code") == "store/unavailable"]
        assert not [cid for cid in refused if cid in events]  # 'not stored' is said only when known
    finally:
        if gm is not None:
            await gm.close()
        server.stop()
        redis.stop()


async def test_slow_consumer_is_dropped_and_the_others_get_every_update(fast_server, join):
    made = fast_server.create(FIGHT)
    gm = await join(fast_server, made["links"]["gm"])
    spectator = await join(fast_server, made["links"]["spectator"])
    slow = raw_websocket(fast_server, made["links"]["gm"])
    # Dropped once its outbox (256 updates) and the socket buffers (a few MB) are full:
    # 600 updates of 50 kB each are well past both, whatever the diff format.
    edits, note = 600, "n" * 50_000
    try:
        for i in range(edits):
            ack = await gm.send({"type": "edit_combatant", "id": "gob", "notes": f"{i} {note}"})
            assert ack["type"] == "ack", ack
            if i % 20 == 0:  # the spectator keeps reading
                while key(spectator.position) < key(ack["position"]):
                    await spectator.next()
        await gm.until(ack["position"])
        await spectator.until(ack["position"])
        assert sum(e["text"].startswith("GM edits Goblin") for e in gm.log) == edits
        assert sum(e["text"].startswith("GM edits Goblin") for e in spectator.log) == edits
        assert gm.view["combatants"][1]["notes"].startswith(f"{edits - 1} ")
        # the slow one reads at last: what fitted, then a close with a reason
        data = await asyncio.to_thread(read_until_closed, slow, b"too slow")
        assert b"too slow: the update queue filled up" in data
        assert len(data) < edits * len(note) // 2  # far from every update
    finally:
        slow.close()


async def test_hundreds_of_concurrent_commands_all_get_acks(fast_server, redis_url):
    made = fast_server.create(FIGHT)
    sockets, per_socket = 150, 4
    tables = await asyncio.gather(*(Table.join(fast_server, made["links"]["gm"]) for _ in range(sockets)))
    try:

        async def burst(table: Table, n: int) -> list[dict]:
            ids = [uuid.uuid4().hex for _ in range(per_socket)]
            for j, cid in enumerate(ids):
                await table.ws.send(json.dumps({"type": "command", "id": cid, "command": {"type": "edit_combatant", "id": "gob", "notes": f"{n}-{j}"}}))
            replies = {}
            for _ in range(20 * sockets * per_socket):  # bounded: every update of every edit, and the answers
                message = await table.next()
                if message["type"] in ("ack", "error"):
                    replies[message["id"]] = message
                    if len(replies) == per_socket:
                        return [replies[cid] for cid in ids]
            raise AssertionError("not every command was answered")

        before = len(await stream(redis_url, made["id"]))
        replies = [r for rs in await asyncio.gather(*(burst(t, n) for n, t in enumerate(tables))) for r in rs]
        assert [r["type"] for r in replies] == ["ack"] * sockets * per_socket, [r for r in replies if r["type"] != "ack"][:3]
        assert len(await stream(redis_url, made["id"])) == before + sockets * per_socket
    finally:
        await asyncio.gather(*(t.close() for t in tables))
