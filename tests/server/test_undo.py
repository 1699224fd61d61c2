"""The GM's undo end to end: a real `fray serve`, a real Redis. The stream gains
one compensating event under the GM's actor and loses none; folding it from
scratch gives the live digest."""

import hashlib

import pytest
from support import digest, stream

from fray_table.rules.commands import Restore
from fray_table.rules.reducer import canonical, fold

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ]
}
# Positions: create 0, Alda 1, Goblin 2, then the commands from 3.
# 003: surprise d6 5, 6 (nobody); Alda's d20 15 + 1 + AC 6 = 22 >= 19 hits; damage d6 3.
ROUND = [
    {"type": "force_rolls", "values": [5, 6, 15, 3]},  # 3
    {"type": "start"},  # 4
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},  # 5
    {"type": "advance"},  # 6
]


async def played(fray_server, join, commands):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    for command in commands:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
    await gm.until(ack["position"])
    return made, gm


def gob(table) -> dict:
    return next(c for c in table.view["combatants"] if c["id"] == "gob")


async def test_undo_an_attack_round_restores_hp_exactly(fray_server, redis_url, join):
    made, gm = await played(fray_server, join, ROUND)
    player = await join(fray_server, made["links"]["players"]["alda"])
    assert gob(gm)["hp"] == 1 and gm.view["round"] == 2
    before = await stream(redis_url, made["id"])
    ack = await gm.send({"type": "undo", "seq": 6})
    assert ack["type"] == "ack", ack
    await gm.until(ack["position"])
    await player.until(ack["position"])
    assert gob(gm)["hp"] == 4 and gob(player)["hp"] == 4
    assert (gm.view["round"], gm.view["phase"]) == (1, "declaration")
    assert gm.view["forced"] == [15, 3] and gm.view["undone"] == [6] and player.view["undone"] == [6]
    line = next(e for e in player.log if e["kind"] == "gm")
    assert line["text"] == "GM undid “Round 1: declarations close.” (event #6)."
    after = await stream(redis_url, made["id"])
    assert after[:-1] == before  # one event gained, none lost or changed
    position, event = after[-1]
    assert position == ack["position"] and isinstance(event.command, Restore) and event.command.undoes == 6
    assert (event.by.role, event.by.name) == ("gm", "GM")
    expected = hashlib.sha256(canonical(fold(e for _, e in after))).hexdigest()
    assert digest(fray_server, made) == {"position": ack["position"], "seq": 8, "sha256": expected}


async def test_undo_a_gm_hp_edit(fray_server, redis_url, join):
    made, gm = await played(fray_server, join, [{"type": "edit_combatant", "id": "gob", "hp": 0}])
    assert gob(gm)["down"] is True
    ack = await gm.send({"type": "undo", "seq": 3})
    assert ack["type"] == "ack", ack
    await gm.until(ack["position"])
    assert (gob(gm)["hp"], gob(gm)["down"]) == (4, False)
    assert [e["text"] for e in gm.log[-2:]] == ["GM undid “GM edits Goblin: hp 0.” (event #3).", "After the undo, Goblin: 4 HP (was 0), up again."]
    entries = await stream(redis_url, made["id"])
    assert len(entries) == 5
    assert hashlib.sha256(canonical(fold(e for _, e in entries))).hexdigest() == digest(fray_server, made)["sha256"]


async def test_rewind_goes_back_before_the_event(fray_server, redis_url, join):
    made, gm = await played(fray_server, join, ROUND)
    ack = await gm.send({"type": "undo", "seq": 5, "rewind": True})
    assert ack["type"] == "ack", ack
    await gm.until(ack["position"])
    assert gob(gm)["hp"] == 4 and gm.view["declarations"] == [] and gm.view["undone"] == [5, 6]
    again = await gm.send({"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}})
    assert again["type"] == "ack"  # the fight goes on from there


async def test_a_player_cannot_undo_and_nothing_is_appended(fray_server, redis_url, join):
    made, gm = await played(fray_server, join, ROUND)
    player = await join(fray_server, made["links"]["players"]["alda"])
    before = await stream(redis_url, made["id"])
    for command in ({"type": "undo", "seq": 6}, {"type": "restore", "undoes": 6, "at": 7, "what": "x", "undone": [6]}):
        reply = await player.send(command)
        assert reply["type"] == "error" and reply["code"] == "auth/forbidden", reply
    reply = await gm.send({"type": "restore", "undoes": 6, "at": 7, "what": "x", "undone": [6], "combatants": []})
    assert reply["type"] == "error" and reply["code"] == "auth/forbidden", reply  # no client sends a restore
    assert "restore" in reply["message"]
    assert await stream(redis_url, made["id"]) == before


@pytest.mark.parametrize(
    "seq, code",
    [(0, "undo/create"), (7, "undo/unknown-event"), (-3, "undo/unknown-event"), (6, "undo/already-undone"), (2, "undo/ended")],
)
async def test_bad_seqs_get_undo_codes_and_nothing_is_appended(fray_server, redis_url, join, seq, code):
    setup = ROUND + ([{"type": "undo", "seq": 6}] if code == "undo/already-undone" else [])
    setup += [{"type": "end"}] if code == "undo/ended" else []
    made, gm = await played(fray_server, join, setup)
    before = await stream(redis_url, made["id"])
    reply = await gm.send({"type": "undo", "seq": seq})
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert len(reply["message"]) > 10
    assert await stream(redis_url, made["id"]) == before


async def test_a_retried_undo_is_applied_once(fray_server, redis_url, join):
    made, gm = await played(fray_server, join, ROUND)
    first = await gm.send({"type": "undo", "seq": 6}, command_id="undo-1")
    await gm.until(first["position"])
    again = await gm.send({"type": "undo", "seq": 6}, command_id="undo-1")
    assert again == {**first, "duplicate": True}
    assert len(await stream(redis_url, made["id"])) == 8
