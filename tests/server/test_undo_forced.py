"""Undo after forced dice (issue 27, item 1), end to end: a real `fray serve`, real
websockets, the embedded Redis. A die forced for one kind (`force_rolls {sides}`) that
an undo queues again used to make a restore no encoder could write (`TypeError` in
encode_event: the queue by die was keyed by ints), which failed the GM's connection."""

import hashlib
import re

import httpx
import pytest
from support import FrayServer, digest, stream, token_of

from fray_table.rules.commands import Restore
from fray_table.rules.reducer import canonical, fold

pytestmark = pytest.mark.redis

FIGHT = {
    "options": {"sealed_declarations": False},
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 30, "hp_max": 30, "dex": 9, "x": 15, "y": 10},
    ],
    "players": {"Ann": ["alda"]},
}
# Positions: create 0, Alda 1, Goblin 2, then these from 3.
ROUND = [
    {"type": "force_rolls", "values": [5, 6]},  # 3: 003's surprise, nobody
    {"type": "start"},  # 4
    {"type": "force_rolls", "values": [12], "sides": 20},  # 5: the GM's 'd20: 12'
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},  # 6: her d20 is the 12
    {"type": "declare", "actor": "gob", "action": {"type": "hold"}},  # 7
    {"type": "advance"},  # 8
]


async def test_undoing_the_attack_that_used_a_forced_d20_queues_it_again_and_keeps_the_gm_connected(fray_server, redis_url, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    ann = await join(fray_server, made["links"]["players"]["Ann"])
    for command in ROUND:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
    await gm.until(ack["position"])
    assert "forced_by_die" not in gm.view  # the 12 was used by Alda's attack
    ack = await gm.send({"type": "undo", "seq": 6})  # her declaration: the 12 waits again
    assert ack["type"] == "ack", ack
    await gm.until(ack["position"])
    await ann.until(ack["position"])
    assert gm.view["forced_by_die"] == {"20": [12]} and gm.view["undone"] == [6]
    assert gm.log[-2]["text"] == "GM undid “Alda declares: attack Goblin.” (event #6)."
    assert re.fullmatch(r"After the undo, Goblin: 30 HP \(was 2[4-9]\)\.", gm.log[-1]["text"])  # her hit (1d6 from the seed) is gone
    position, event = (await stream(redis_url, made["id"]))[-1]
    assert position == ack["position"] and isinstance(event.command, Restore) and event.command.forced_by_die == {"20": [12]}
    # The same socket goes on: the GM clears the 12 that waits again.
    ack = await gm.send({"type": "clear_forced", "sides": 20})
    assert ack["type"] == "ack", ack
    await gm.until(ack["position"])
    assert "forced_by_die" not in gm.view and "forced_by_die" not in "".join(ann.frames)
    entries = await stream(redis_url, made["id"])
    assert digest(fray_server, made)["sha256"] == hashlib.sha256(canonical(fold(e for _, e in entries))).hexdigest()


async def test_a_forced_die_waiting_leaves_the_digest_and_the_snapshots_working(redis_url, tmp_path, join):
    """The live state with a die forced by kind has canonical bytes: the GM's digest and the
    hub's snapshots (here after every event) are made of them, and a new replica starts from one."""
    server = FrayServer(redis_url, tmp_path, env={"FRAY_SNAPSHOT_EVERY": "1"})
    try:
        made = server.create(FIGHT)
        gm = await join(server, made["links"]["gm"])
        for command in ({"type": "force_rolls", "values": [20, 17], "sides": 20}, {"type": "force_rolls", "values": [3], "sides": 6}):
            ack = await gm.send(command)
            assert ack["type"] == "ack", ack
        await gm.until(ack["position"])
        entries = await stream(redis_url, made["id"])
        live = digest(server, made)
        assert live == {"position": ack["position"], "seq": 5, "sha256": hashlib.sha256(canonical(fold(e for _, e in entries))).hexdigest()}
        ack = await gm.send({"type": "start"})  # 003's surprise uses the forced d6 (3) and one of the seed's; the d20s wait
        assert ack["type"] == "ack", ack
        await gm.until(ack["position"])
        assert gm.view["forced_by_die"] == {"20": [20, 17]}
    finally:
        server.stop()
    again = FrayServer(redis_url, tmp_path, env={"FRAY_SNAPSHOT_EVERY": "1"})
    try:
        spectator = await join(again, made["links"]["spectator"])
        assert spectator.view["status"] == "running"
        url = f"{again.url}/api/encounters/{made['id']}/digest"
        answer = httpx.get(url, params={"token": token_of(made["links"]["gm"])}, timeout=10).json()
        entries = await stream(redis_url, made["id"])
        assert answer["sha256"] == hashlib.sha256(canonical(fold(e for _, e in entries))).hexdigest()
    finally:
        again.stop()


def test_every_dict_in_the_state_and_the_stream_is_keyed_by_strings():
    """The canonical encoding (rules.reducer.canonical, rules.events.encode_event) sorts a
    dict's keys, which msgspec does for strings alone: a dict keyed otherwise, anywhere in
    the state or an event, fails once it holds anything (issue 27's forced_by_die)."""
    import msgspec

    from fray_table.rules.events import Event
    from fray_table.rules.model import Encounter

    seen, keys = set(), []

    def walk(t) -> None:
        if id(t) in seen:
            return
        seen.add(id(t))
        if isinstance(t, msgspec.inspect.DictType):
            keys.append(t.key_type)
        for child in ("item_type", "key_type", "value_type"):
            if hasattr(t, child):
                walk(getattr(t, child))
        for child in getattr(t, "types", ()) or ():
            walk(child)
        for field in getattr(t, "fields", ()) or ():
            walk(field.type)

    for root in (Encounter, Event):
        walk(msgspec.inspect.type_info(root))
    assert len(keys) >= 6 and all(isinstance(k, msgspec.inspect.StrType) for k in keys), keys
