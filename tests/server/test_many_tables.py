"""Many encounters in one process at once (issue 15): their commands arrive together,
are appended in shared round trips, read back by one tail read over many streams
and fanned out in one pass, each audience's update framed once and written
straight onto its sockets. Each command must still be stored, folded and
delivered to its own encounter's viewers only, and survive a killed replica."""

import asyncio
import hashlib
import json
import signal

import pytest
from support import Table, digest, folded, key, stream
from websockets.frames import Frame, Opcode

from fray_table.server.hub import text_frame

pytestmark = pytest.mark.redis

TABLES = 12


def fight(i: int) -> dict:
    """A small fight of its own: sealed declarations, and a GM note naming it."""
    return {
        "options": {"sealed_declarations": True},
        "combatants": [
            {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 30, "hp_max": 30, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
            {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 37, "hp_max": 37, "dex": 9, "x": 15, "y": 10, "notes": f"NOTE-{i}-MARKER"},
        ],
        "players": {"Ann": ["alda"]},
    }


async def started(server, join, i: int) -> tuple[dict, Table, Table, Table]:
    made = server.create(fight(i))
    gm = await join(server, made["links"]["gm"])
    player = await join(server, made["links"]["players"]["Ann"])
    spectator = await join(server, made["links"]["spectator"])
    for command in ({"type": "force_rolls", "values": [5, 6]}, {"type": "start"}):
        ack = await gm.send(command)
        assert ack["type"] == "ack", ack
    return made, gm, player, spectator


async def answer(table: Table, command_id: str) -> dict:
    return await table.reply(command_id)


async def test_commands_of_many_encounters_at_once_each_reach_their_own_viewers_only(fray_server, join, redis_url):
    tables = [await started(fray_server, join, i) for i in range(TABLES)]
    # Every GM declares the goblin's attack (sealed from the party) and queues dice of
    # its own (the GM's alone), all sent before any answer is read: they arrive together.
    for i, (_, gm, _, _) in enumerate(tables):
        await gm.ws.send(
            json.dumps({"type": "command", "id": f"d{i}", "command": {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}})
        )
        await gm.ws.send(json.dumps({"type": "command", "id": f"f{i}", "command": {"type": "force_rolls", "values": [i + 1, 20 - i]}}))
    acks = await asyncio.gather(*(answer(gm, f"f{i}") for i, (_, gm, _, _) in enumerate(tables)))
    assert [a["type"] for a in acks] == ["ack"] * TABLES, acks
    for i, ((made, gm, player, spectator), ack) in enumerate(zip(tables, acks, strict=True)):
        events = await stream(redis_url, made["id"])
        assert [e.id.rsplit(".", 1)[-1] for _, e in events[-2:]] == [f"d{i}", f"f{i}"]  # stored, once each, in order
        assert events[-1][0] == ack["position"]
        for table in (gm, player, spectator):
            await table.until(ack["position"])
            assert table.position == ack["position"]  # this encounter's stream, not another's
        assert gm.view["forced"] == [i + 1, 20 - i]
        assert [(d["actor"], d.get("type")) for d in gm.view["declarations"]] == [("gob", "attack")]
        for viewer in (player, spectator):
            assert viewer.view["forced"] is None
            assert [d["text"] for d in viewer.view["declarations"]] == ["has declared"]  # sealed: the goblins' side only
            frames = "".join(viewer.frames)
            assert f"NOTE-{i}-MARKER" not in frames
            for other, _, _, _ in tables:  # nothing of another encounter
                if other is not made:
                    assert other["id"] not in frames
        assert "".join(gm.frames).count('"type":"welcome"') == 1
        # The replica's state is the stream's, byte for byte.
        live = digest(fray_server, made)
        assert live["position"] == ack["position"]
        assert live["sha256"] == hashlib.sha256(await folded(redis_url, made["id"])).hexdigest()


async def test_acknowledged_commands_of_many_encounters_survive_a_killed_replica(fray_replicas, redis_url):
    one, two = fray_replicas
    tables = []
    for i in range(TABLES):
        made = one.create(fight(i))
        gm = await Table.join(one, made["links"]["gm"])
        watcher = await Table.join(two, made["links"]["spectator"])
        tables.append((made, gm, watcher))
    try:
        for i, (_, gm, _) in enumerate(tables):
            for j in range(5):
                await gm.ws.send(json.dumps({"type": "command", "id": f"c{i}-{j}", "command": {"type": "force_rolls", "values": [j + 1]}}))
        # Every encounter's first three answers, then the replica dies with the rest maybe in flight.
        acked = [[await gm.reply(f"c{i}-{j}") for j in range(3)] for i, (_, gm, _) in enumerate(tables)]
        one.proc.send_signal(signal.SIGKILL)
        one.proc.wait(10)
        for i, ((made, _, watcher), acks) in enumerate(zip(tables, acked, strict=True)):
            assert [a["type"] for a in acks] == ["ack"] * 3, acks
            events = await stream(redis_url, made["id"])
            positions = [p for p, _ in events]
            assert {a["position"] for a in acks} <= set(positions)  # nothing acknowledged is lost
            stored = [e.id.rsplit(".", 1)[-1] for _, e in events if e.id.rsplit(".", 1)[-1].startswith(f"c{i}-")]
            assert stored == [f"c{i}-{j}" for j in range(len(stored))] and len(stored) >= 3  # in order, none twice
            await watcher.until(positions[-1])  # the other replica folded and delivered all of it
            assert key(watcher.position) == key(positions[-1])
            gm = await Table.join(two, made["links"]["gm"])
            assert gm.view["forced"] == list(range(1, len(stored) + 1))
            await gm.close()
    finally:
        for _, _, watcher in tables:  # the GMs' sockets died with their replica
            await watcher.close()


def test_a_text_frame_is_the_one_websockets_would_send():
    for n in (0, 1, 125, 126, 127, 65535, 65536, 70_000):
        data = bytes(range(256)) * (n // 256) + bytes(n % 256)
        assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[]), n
