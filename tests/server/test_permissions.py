"""The permission table, walked: every command type x every role, on a real
server. Allowed ones are acknowledged (and the reducer agrees when it folds
them); the rest get `auth/forbidden` and nothing is appended. GM powers are
the GM's act in the stream and in the log."""

import base64
import typing

import httpx
import pytest
from support import stream, token_of

from fray_table.rules import RULES_VERSION
from fray_table.rules.commands import Command

pytestmark = pytest.mark.redis

ROLES = ("gm", "player", "spectator")
FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {
            "id": "gob",
            "name": "Goblin",
            "side": "goblins",
            "ac": 13,
            "hp": 8,
            "hp_max": 8,
            "dex": 9,
            "x": 15,
            "y": 10,
            "weapons": [{"name": "dagger", "length": 1, "weight": 1}],
        },
        {"id": "gob2", "name": "Goblin 2", "side": "goblins", "dex": 9, "x": 40, "y": 40},
    ],
    "players": {"P": ["alda", "gob"]},
}
STARTED = [{"type": "force_rolls", "values": [5, 6]}, {"type": "start"}]
# 003: surprise 5, 6; the goblin parries, Alda's d20 5 + 1 - 4 + AC 6 misses and her
# sword is heavier than its dagger: the goblin may counter-attack (an `answer`).
PARKED = [
    {"type": "force_rolls", "values": [5, 6, 5]},
    {"type": "start"},
    {"type": "declare", "actor": "gob", "action": {"type": "parry"}},
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
    {"type": "advance"},
]

# command type -> (what the GM does first, the command; "{awaiting}" is filled in)
SAMPLES = {
    "create": ([], {"type": "create", "id": "x", "profile": "holmes-phases", "seed": base64.b64encode(bytes(32)).decode(), "rules_version": 1}),
    "add_combatant": ([], {"type": "add_combatant", "combatant": {"name": "Orc", "side": "goblins"}}),
    "edit_combatant": ([], {"type": "edit_combatant", "id": "gob", "hp": 3}),
    "remove_combatant": ([], {"type": "remove_combatant", "id": "gob2"}),
    "start": ([], {"type": "start"}),
    "declare": (STARTED, {"type": "declare", "actor": "alda", "action": {"type": "hold"}}),
    "advance": (STARTED, {"type": "advance"}),
    "force_rolls": ([], {"type": "force_rolls", "values": [3]}),
    "clear_forced": ([{"type": "force_rolls", "values": [3], "sides": 6}], {"type": "clear_forced"}),
    "say": ([], {"type": "say", "text": "hello"}),
    "set_map": ([], {"type": "set_map", "image": "iVBORw0KGgoAAAAAAAAAAAAAAAAAAAAA", "media": "image/png", "width": 400, "height": 300, "square": 40}),
    "answer": (PARKED, {"type": "answer", "awaiting": "{awaiting}", "choice": "decline"}),
    "call_morale": (STARTED, {"type": "call_morale", "combatant": "gob"}),
    "end": ([], {"type": "end"}),
    "undo": ([], {"type": "undo", "seq": 3}),  # the last add: the server appends a restore in its place
    "restore": ([], {"type": "restore", "undoes": 3, "at": 4, "what": "x", "undone": [3]}),  # the server's alone
    "fork": ([], {"type": "fork", "id": "y", "seed": base64.b64encode(bytes(32)).decode(), "origin": "x", "at": 3}),  # the server's alone
    "upgrade_rules": ([], {"type": "upgrade_rules"}),  # of a fight created under the version before today's (OLDER)
}
OLDER = {"upgrade_rules"}  # samples sent to a fight of the rules version before today's


def command_types() -> list[type]:
    return list(typing.get_args(Command))


def test_every_command_type_has_a_sample():
    tags = {cls.__struct_config__.tag for cls in command_types()}
    assert tags == set(SAMPLES), f"add a sample for {tags - set(SAMPLES)} (or drop {set(SAMPLES) - tags})"


def allowed(cls: type, role: str) -> bool:
    return role in cls.roles or (role == "gm" and "player" in cls.roles)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("cls", command_types(), ids=lambda cls: cls.__struct_config__.tag)
async def test_permission_table(fray_server, redis_url, join, cls, role):
    setup, command = SAMPLES[cls.__struct_config__.tag]
    made = fray_server.create(FIGHT | ({"rules_version": RULES_VERSION - 1} if cls.__struct_config__.tag in OLDER else {}))
    gm = await join(fray_server, made["links"]["gm"])
    for step in setup:
        ack = await gm.send(step)
        assert ack["type"] == "ack", (step, ack)
    if setup:
        await gm.until(ack["position"])
    if command.get("awaiting") == "{awaiting}":
        assert gm.view["awaiting"] and gm.view["awaiting"]["who"] == "gob", gm.view["awaiting"]
        command = {**command, "awaiting": gm.view["awaiting"]["id"]}
    link = {"gm": made["links"]["gm"], "player": made["links"]["players"]["P"], "spectator": made["links"]["spectator"]}[role]
    sender = gm if role == "gm" else await join(fray_server, link)
    before = len(await stream(redis_url, made["id"]))
    reply = await sender.send(command)
    if allowed(cls, role):
        assert reply["type"] == "ack", reply
        await sender.until(reply["position"])
        assert not [e for e in sender.log if e["kind"] == "rejected"], sender.log
        assert len(await stream(redis_url, made["id"])) == before + 1
    else:
        assert reply["type"] == "error" and reply["code"] == "auth/forbidden", reply
        assert cls.__struct_config__.tag in reply["message"]
        assert len(await stream(redis_url, made["id"])) == before


async def test_gm_powers_are_logged_as_the_gms_act(fray_server, redis_url, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    player = await join(fray_server, made["links"]["players"]["P"])
    listed = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/links", params={"token": token_of(made["links"]["gm"])}).json()
    gm_id = next(link["token_id"] for link in listed["links"] if link["role"] == "gm")
    powers = [
        {"type": "force_rolls", "values": [5, 6, 5]},
        {"type": "edit_combatant", "id": "gob2", "hp": 1, "conditions": ["prone"]},
        {"type": "undo", "seq": 5},  # the edit: stored as the restore the server computes
        {"type": "start"},
        {"type": "call_morale", "side": "goblins", "modifier": 1},
        {"type": "declare", "actor": "gob", "action": {"type": "parry"}},
        {"type": "advance"},
        {"type": "end"},
    ]
    acks = {}
    for command in powers:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
        acks[ack["position"]] = (command, ack["id"])
    await gm.until(ack["position"])
    events = dict(await stream(redis_url, made["id"]))
    token_ids = set()
    for position, (command, client_id) in acks.items():
        event = events[position]
        assert (event.by.role, event.by.name) == ("gm", "GM"), command
        token_id, _, cid = event.id.partition(".")
        assert cid == client_id
        token_ids.add(token_id)
        entries = [e for e in gm.log if e.get("command_id") == event.id]
        assert entries, f"{command['type']} left nothing in the log"
    assert token_ids == {gm_id}  # every one of them is the GM link's act
    assert any(e["text"].startswith("GM forces") for e in gm.log)
    assert any(e["text"].startswith("GM edits Goblin 2") for e in gm.log)
    assert any(e["text"].startswith("GM undid “GM edits Goblin 2") and e["text"].endswith("(event #5).") for e in gm.log)
    for command in powers:  # the same powers from the player's link are refused
        if command["type"] != "declare":
            reply = await player.send(command)
            assert reply["type"] == "error" and reply["code"] == "auth/forbidden", (command, reply)
