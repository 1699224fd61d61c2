"""A client that sends commands without waiting for each answer: every message
is answered, in the order sent, and the commands are stored and folded in that
order (server/connection.py `Replies`, docs/protocol.md)."""

import json

import pytest

from support import key, stream

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
    answers = []
    for _ in range(100):  # bounded: the answers and the updates between them
        message = await gm.next()
        if message["type"] in ("ack", "error", "pong"):
            answers.append(message)
            if len(answers) == len(burst):
                break
    assert [(a["type"], a.get("id"), a.get("code")) for a in answers] == [
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
    positions = [a["position"] for a in answers if a["type"] == "ack"]
    assert positions == sorted(positions, key=key) and len(set(positions)) == 5
    stored = await stream(redis_url, made["id"])
    assert [event.id.rsplit(".", 1)[1] for _, event in stored[-5:]] == ["rolls", "start", "alda", "gob", "note"]
    await gm.until(positions[-1])
    assert gm.view["round"] == 1
    assert {d["actor"] for d in gm.view["declarations"]} == {"alda", "gob"}
    assert next(c for c in gm.view["combatants"] if c["id"] == "gob")["notes"] == "last"
    assert not [e for e in gm.log if e["kind"] == "rejected"]
