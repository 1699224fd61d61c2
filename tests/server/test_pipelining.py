"""A client that sends commands without waiting for each answer: every message
is answered, in the order sent, and the commands are stored and folded in that
order (server/connection.py `Replies`, docs/protocol.md)."""

import asyncio
import hashlib
import json

import pytest
from support import Table, digest, folded, key, stream

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 5, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 6, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ]
}


def command(cid: str, body: dict) -> str:
    return json.dumps({"type": "command", "id": cid, "command": body})


async def test_a_burst_is_answered_in_order_and_folded_in_order(fast_server, redis_url, join):
    made = fast_server.create(FIGHT)
    gm = await join(fast_server, made["links"]["gm"])
    burst = [
        command("rolls", {"type": "force_rolls", "values": [5, 6]}),  # 003 surprise d6s: nobody surprised
        command("start", {"type": "start"}),
        # Refused by the state before 'start' is folded: the server waits for this
        # connection's earlier commands, then judges it again and takes it.
        command("alda", {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}),
        "not json",
        b"\x00binary",
        json.dumps({"type": "ping", "id": "p1"}),
        command("gob", {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}),
        command("nobody", {"type": "declare", "actor": "nobody", "action": {"type": "attack", "target": "alda"}}),
        command("note", {"type": "edit_combatant", "id": "gob", "notes": "last"}),
    ]
    for frame in burst:
        await gm.ws.send(frame)  # no waiting for answers
    answered = await gm.answers(len(burst))
    assert [(a["type"], a.get("id"), a.get("code")) for a in answered] == [
        ("ack", "rolls", None),
        ("ack", "start", None),
        ("ack", "alda", None),
        ("error", "", "protocol/bad-json"),
        ("error", "", "protocol/binary"),
        ("pong", "p1", None),
        ("ack", "gob", None),
        ("error", "nobody", "declare/unknown-combatant"),
        ("ack", "note", None),
    ]
    positions = [a["position"] for a in answered if a["type"] == "ack"]
    assert positions == sorted(positions, key=key) and len(set(positions)) == 5
    stored = await stream(redis_url, made["id"])
    assert [event.id.rsplit(".", 1)[1] for _, event in stored[-5:]] == ["rolls", "start", "alda", "gob", "note"]
    await gm.until(positions[-1])
    assert gm.view["round"] == 1
    assert {d["actor"] for d in gm.view["declarations"]} == {"alda", "gob"}
    assert next(c for c in gm.view["combatants"] if c["id"] == "gob")["notes"] == "last"
    assert not [e for e in gm.log if e["kind"] == "rejected"]


async def test_bursts_through_two_replicas_fold_to_the_same_bytes(fray_replicas, redis_url, join):
    """Two GMs on two replicas burst commands into one fight at once: their batches
    interleave in the stream, each burst in the order it was sent, and both replicas'
    live states are byte for byte the fold of the stream from scratch."""
    one, two = fray_replicas
    made = one.create(FIGHT)
    tables = [await join(one, made["links"]["gm"]), await join(two, made["links"]["gm"])]

    async def burst(table: Table, who: str) -> list[dict]:
        for j in range(30):
            await table.ws.send(command(f"{who}-{j}", {"type": "edit_combatant", "id": "gob", "notes": f"{who} {j}"}))
        return await table.answers(30)

    replies = await asyncio.gather(burst(tables[0], "one"), burst(tables[1], "two"))
    assert [[(a["type"], a["id"]) for a in r] for r in replies] == [[("ack", f"{who}-{j}") for j in range(30)] for who in ("one", "two")]
    stored = [event.id.rsplit(".", 1)[1] for _, event in await stream(redis_url, made["id"]) if "." in event.id]  # the commands sent
    for who in ("one", "two"):
        assert [cid for cid in stored if cid.startswith(f"{who}-")] == [f"{who}-{j}" for j in range(30)]
    last = max((a["position"] for r in replies for a in r), key=key)
    for table in tables:
        await table.until(last)
    expected = hashlib.sha256(await folded(redis_url, made["id"])).hexdigest()
    assert [(d["position"], d["sha256"]) for d in (digest(server, made) for server in (one, two))] == [(last, expected)] * 2
    notes = {next(c for c in table.view["combatants"] if c["id"] == "gob")["notes"] for table in tables}
    assert notes == {stored[-1].replace("-", " ")}  # the last stored edit, on both
