"""The hub on a real Redis: a room lives while it has clients, and is folded
again (from its stream) when someone comes back."""

import asyncio

import pytest

from fray_table.rules import RULES_VERSION
from fray_table.rules.commands import CreateEncounter, ForceRolls
from fray_table.rules.events import Actor, Event, encode_event
from fray_table.rules.view import Viewer
from fray_table.server.hub import Client, Hub

pytestmark = pytest.mark.redis


class Socket:
    """What the hub writes to a client: the frames, kept."""

    def __init__(self) -> None:
        self.frames: list[str] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(text)

    async def close(self, code: int, reason: str) -> None:
        pass


async def created(store, new_encounter) -> tuple[str, Hub]:
    """A new encounter in the store, and a started hub over it."""
    encounter = new_encounter()
    create = CreateEncounter(id=encounter, profile="holmes-phases", seed=bytes(32), rules_version=RULES_VERSION)
    await store.append(encounter, "create", encode_event(Event("create", Actor("system"), create)))
    hub = Hub(store)
    await hub.start()
    return encounter, hub


async def test_a_room_is_unloaded_when_its_last_client_leaves(store, new_encounter):
    encounter, hub = await created(store, new_encounter)
    try:
        room = await hub.room(encounter)
        socket = Socket()
        client = Client(Viewer("gm"), socket.send_text, socket.close)
        hub.join(room, client)
        await hub.leave(room, client)
        assert encounter not in hub.rooms and encounter not in hub.tail._positions

        # Meanwhile the fight goes on; whoever comes back gets a room folded anew.
        await store.append(encounter, "dice", encode_event(Event("dice", Actor("gm"), ForceRolls(values=[4]))))
        again = await hub.room(encounter)
        assert again is not room and again.state.forced == [4]
        hub.join(again, Client(Viewer("gm"), socket.send_text, socket.close))
        await store.append(encounter, "more", encode_event(Event("more", Actor("gm"), ForceRolls(values=[6]))))
        for _ in range(100):  # the tail watches it again
            if again.state.forced == [4, 6]:
                break
            await asyncio.sleep(0.02)
        assert again.state.forced == [4, 6]
    finally:
        await hub.stop()


async def test_reached_waits_for_the_fold_of_a_position_and_gives_up_in_time(store, new_encounter):
    encounter, hub = await created(store, new_encounter)
    try:
        room = await hub.room(encounter)
        client = Client(Viewer("gm"), Socket().send_text, Socket().close)
        hub.join(room, client)
        ms, seq = map(int, room.position.split("-"))
        target = f"{ms}-{seq + 1}"  # at or before any position appended from now on
        # Two waiters on the next fold: one gives up first, the other still sees it.
        early = asyncio.ensure_future(room.reached(target, timeout=0.02))
        late = asyncio.ensure_future(room.reached(target, timeout=5.0))
        # The early one gives up by itself (awaited, bounded, not raced against a sleep: a
        # loop slowed by a busy machine runs both timers in one turn), the late one still waits.
        assert await asyncio.wait_for(early, 2.0) is False and not late.done()
        position, _ = await store.append(encounter, "dice", encode_event(Event("dice", Actor("gm"), ForceRolls(values=[4]))))
        assert await late is True
        assert room.position == position and room.state.forced == [4]
        assert await room.reached(position, timeout=0.0)  # already folded: no wait
        never = f"{int(position.split('-')[0]) + 10**9}-0"
        assert not await room.reached(never, timeout=0.05)
        await hub.leave(room, client)
    finally:
        await hub.stop()
