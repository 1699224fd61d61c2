"""An idle encounter lets go of its views and packs its recent log (hub.Room.rest, issue
24), and builds them again from its state when it next changes or someone joins: every audience's updates
and every welcome, with its log, are byte for byte what they would have been."""

import asyncio
import time

from test_views import fight

from fray_table.rules.events import encode_event
from fray_table.server.hub import Client, Hub
from fray_table.server.memstore import MemoryStore


class Wire:
    """A socket that always takes more: the frames written to it, kept."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def ready(self) -> bool:
        return True

    def write(self, frame: bytes) -> None:
        self.frames.append(frame)


async def unused(*_) -> None:
    raise AssertionError("a wire that is always ready never needs the ASGI send")


def joined(hub: Hub, room, viewers) -> list[Wire]:
    wires = []
    for viewer in viewers:
        wire = Wire()
        client = Client(viewer, unused, unused, wire=wire)
        client.push(room.welcome(viewer))
        hub.join(room, client)
        wires.append(wire)
    return wires


async def until(room, position: str) -> None:
    for _ in range(200):
        if room.position == position:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{room.id} never folded {position}")


async def test_a_resting_encounter_sends_every_audience_what_it_would_have():
    for name in ("showcase", "unseen-sealed"):
        events, viewers = fight(name)
        store = MemoryStore()
        encounter = f"rest-{name}"
        await store.append(encounter, events[0].id, encode_event(events[0]))
        awake, resting = Hub(store), Hub(store)
        await awake.start()
        await resting.start()
        try:
            rooms = [await awake.room(encounter), await resting.room(encounter)]
            wires = [joined(hub, room, viewers) for hub, room in zip((awake, resting), rooms, strict=True)]
            late = []
            for i, event in enumerate(events[1:]):
                assert resting.rest_idle(time.monotonic() + 1) == 1 and rooms[1].resting
                assert not rooms[1].views.held and not rooms[1].log  # the views let go, the log packed
                if i % 5 == 4:  # someone joins a resting encounter: the same welcome, log included
                    late.append([room.welcome(viewers[i % len(viewers)]).data for room in rooms])
                position, _ = await store.append(encounter, event.id, encode_event(event))
                for room in rooms:
                    await until(room, position)
            assert rooms[1].state == rooms[0].state
            for sent, rested in zip(*wires, strict=True):
                assert rested.frames == sent.frames and len(sent.frames) == len(events)
            assert late and all(b == a for a, b in late)
            assert any(b'"log":[{' in a for a, _ in late)
        finally:
            await awake.stop()
            await resting.stop()


async def test_only_an_encounter_unchanged_for_a_while_rests():
    events, viewers = fight("showcase")
    store = MemoryStore()
    await store.append("quiet", events[0].id, encode_event(events[0]))
    hub = Hub(store)
    await hub.start()
    try:
        room = await hub.room("quiet")
        joined(hub, room, viewers[:2])
        assert hub.rest_idle(time.monotonic() - 60) == 0 and not room.resting
        assert hub.rest_idle(time.monotonic() + 1) == 1 and room.resting
        position, _ = await store.append("quiet", events[1].id, encode_event(events[1]))
        await until(room, position)
        assert not room.resting and room.views.held  # woken by the change, and holding its views again
    finally:
        await hub.stop()
