"""Rebuild a long fight: from the whole stream, and from its latest snapshot;
and the pure reducer's speed with no I/O (what `fray run` and replays cost).

    python bench/rebuild.py REDIS_URL [EVENTS]      prints one JSON object
"""

import asyncio
import hashlib
import json
import sys
import time
import uuid

import msgspec

sys.path.insert(0, __file__.rsplit("/bench/", 1)[0])

from fray_table.rules.commands import Command  # noqa: E402
from fray_table.rules.events import Actor, Event, decode_event, encode_event  # noqa: E402
from fray_table.rules.model import Encounter  # noqa: E402
from fray_table.rules.reducer import canonical, fold  # noqa: E402
from fray_table.rules.scenario import play  # noqa: E402
from fray_table.server.demo import combatants  # noqa: E402
from fray_table.server.hub import Room  # noqa: E402
from fray_table.server.store import RedisStore  # noqa: E402

PAIRS = [("alda", "gob1"), ("gob1", "alda"), ("bran", "gob2"), ("gob2", "bran"), ("cora", "gob3"), ("gob3", "cora"), ("gob4", "alda")]


def long_fight(n: int) -> list[Event]:
    """A demo fight: start, then rounds of seven declared attacks and an advance
    (attacks rolled, damage, the odd fall), then the GM heals everyone back up."""
    setup = play({"combatants": [msgspec.to_builtins(c) for c in combatants()], "dice": [5, 5], "commands": [{"type": "start"}]})
    events = list(setup.events)
    gm = Actor("gm", "gm")
    i = 0
    while len(events) < n:
        for actor, target in PAIRS:
            events.append(Event(f"d{i}", gm, msgspec.convert({"type": "declare", "actor": actor, "action": {"type": "attack", "target": target}}, Command)))
            i += 1
        events.append(Event(f"a{i}", gm, msgspec.convert({"type": "advance"}, Command)))
        for c in combatants():
            events.append(Event(f"h{i}-{c.id}", gm, msgspec.convert({"type": "edit_combatant", "id": c.id, "hp": c.hp_max, "down": False}, Command)))
        i += 1
    return events[:n]


async def main(redis_url: str, n: int) -> dict:
    events = long_fight(n)
    payloads = [encode_event(e) for e in events]
    t = time.perf_counter()
    state = fold(decode_event(p) for p in payloads)
    pure = time.perf_counter() - t
    store = RedisStore(redis_url)
    await store.start()
    encounter = f"bench-{uuid.uuid4().hex}"
    try:
        await asyncio.gather(*(store.append(encounter, f"c{i}", p) for i, p in enumerate(payloads)))
        t = time.perf_counter()
        room = Room(encounter)
        room.fold(await store.read(encounter))
        from_stream = time.perf_counter() - t
        assert canonical(room.state) == canonical(state)
        data = canonical(room.state)
        await store.save_snapshot(encounter, {"position": room.position.encode(), "state": data, "sha256": hashlib.sha256(data).hexdigest().encode()})
        t = time.perf_counter()
        snapshot = await store.load_snapshot(encounter)
        assert hashlib.sha256(snapshot["state"]).hexdigest().encode() == snapshot["sha256"]
        again = Room(encounter)
        again.state = msgspec.msgpack.decode(snapshot["state"], type=Encounter)
        again.fold(await store.read(encounter, after=snapshot["position"].decode()))
        from_snapshot = time.perf_counter() - t
        assert canonical(again.state) == data
    finally:
        client = store._client()
        await client.delete(f"fray:{{{encounter}}}:events", f"fray:{{{encounter}}}:cmds", f"fray:{{{encounter}}}:snapshot")
        await store.close()
    return {
        "events": n,
        "rounds": state.round,
        "pure_events_per_s": n / pure,
        "from_stream_s": from_stream,
        "from_snapshot_s": from_snapshot,
        "state_bytes": len(canonical(state)),
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10_000))))
