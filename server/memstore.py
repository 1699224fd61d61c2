"""An in-memory store with RedisStore's contract, for the storage contract
test and for tests that need no Redis."""

from __future__ import annotations

import asyncio
import bisect
import time
from typing import Any

from .store import Event, OnEvents, position_key
from .tail import TAIL_COUNT, deliver_events


class MemoryStore:
    def __init__(self) -> None:
        self._streams: dict[str, list[Event]] = {}
        self._cmds: dict[str, dict[str, str]] = {}
        self._meta: dict[str, dict[str, str]] = {}
        self.snapshots: dict[str, dict[str, bytes]] = {}
        self._encounters: set[str] = set()
        self._last = (0, 0)
        self._tails: set[MemoryTail] = set()

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def append(self, encounter: str, command_id: str, payload: bytes) -> tuple[str, bool]:
        return self._append(encounter, command_id, payload)

    def submit(self, encounter: str, command_id: str, payload: bytes) -> asyncio.Future[tuple[str, bool]]:
        future: asyncio.Future[tuple[str, bool]] = asyncio.get_running_loop().create_future()
        future.set_result(self._append(encounter, command_id, payload))
        return future

    def _append(self, encounter: str, command_id: str, payload: bytes) -> tuple[str, bool]:
        cmds = self._cmds.setdefault(encounter, {})
        if command_id in cmds:
            return cmds[command_id], False
        # Like Redis: milliseconds, then a sequence within the millisecond.
        ms, seq = max(self._last, (int(time.time() * 1000), -1))
        self._last = (ms, seq + 1)
        position = f"{ms}-{seq + 1}"
        self._streams.setdefault(encounter, []).append((position, payload))
        cmds[command_id] = position
        for tail in self._tails:
            tail._kick.set()
        return position, True

    async def read(self, encounter: str, after: str = "0-0", count: int | None = None) -> list[Event]:
        events = self._streams.get(encounter, [])
        start = bisect.bisect_right(events, position_key(after), key=lambda e: position_key(e[0]))
        return events[start:] if count is None else events[start : start + count]

    async def exists(self, encounter: str) -> bool:
        return encounter in self._streams or encounter in self._meta

    async def set_meta(self, encounter: str, fields: dict[str, str]) -> None:
        self._meta.setdefault(encounter, {}).update(fields)
        self._encounters.add(encounter)

    async def get_meta(self, encounter: str) -> dict[str, str]:
        return dict(self._meta.get(encounter, {}))

    async def save_snapshot(self, encounter: str, fields: dict[str, bytes]) -> None:
        self.snapshots[encounter] = dict(fields)

    async def load_snapshot(self, encounter: str) -> dict[str, bytes] | None:
        return dict(self.snapshots[encounter]) if encounter in self.snapshots else None

    async def list_encounters(self) -> list[str]:
        return sorted(self._encounters)

    async def length(self, encounter: str) -> int:
        return len(self._streams.get(encounter, []))

    async def last(self, encounter: str) -> Event | None:
        events = self._streams.get(encounter)
        return events[-1] if events else None

    async def delete(self, encounter: str, also: tuple[str, ...] = ()) -> None:
        for held in (self._streams, self._cmds, self._meta, self.snapshots):
            held.pop(encounter, None)
        self._encounters.discard(encounter)

    def tail(self, on_events: OnEvents, **_: Any) -> MemoryTail:
        return MemoryTail(self, on_events)


class MemoryTail:
    def __init__(self, store: MemoryStore, on_events: OnEvents) -> None:
        self._store = store
        self._on_events = on_events
        self._positions: dict[str, str] = {}
        self._kick = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def watch(self, encounter: str, after: str = "0-0") -> None:
        position_key(after)
        self._positions[encounter] = after
        self._kick.set()

    def unwatch(self, encounter: str) -> None:
        self._positions.pop(encounter, None)

    async def start(self) -> None:
        self._store._tails.add(self)
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        self._store._tails.discard(self)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            await self._kick.wait()
            self._kick.clear()
            for encounter, after in list(self._positions.items()):
                events = await self._store.read(encounter, after, TAIL_COUNT)
                if not events or self._positions.get(encounter) != after:
                    continue
                self._positions[encounter] = events[-1][0]
                if len(events) == TAIL_COUNT:
                    self._kick.set()  # more to come
                await deliver_events(self._on_events, encounter, events)
