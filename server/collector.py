"""The garbage collector, kept from pausing a busy server for hundreds of milliseconds.

CPython runs a full collection whenever the objects promoted to its oldest
generation since the last one reach a quarter of it. A server of many encounters
promotes a lot: each command's new state lives about as long as the encounter's
next command takes to come, long enough to be promoted, and is then freed by its
reference count. So with 1,000 encounters at a command a second each there was a
full collection every second or two, each walking every object of every room and
socket: 0.2-0.45 s with the loop stopped, the p99 of that load (docs/performance.md,
session 6).

So every second the objects that have lived that long are frozen (gc.freeze: moved
out of the collector's sight; reference counting still frees them), and the
collector's passes walk only what is younger. What freezing keeps is cyclic garbage
made of frozen objects: a socket that closes and a room let go are such cycles. So
the collector sweeps (everything unfrozen, one full collection, frozen again) once
many clients have left since the last sweep, a quarter of those there were then
(the interpreter's own ratio), and at the latest every SWEEP_EVERY seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger("fray.collector")

FREEZE_EVERY = 1.0  # seconds
SWEEP_EVERY = 300.0  # seconds at most between two full collections
SWEEP_DEPARTED = 100  # clients gone since the last sweep that are always worth one


class Collector:
    """`clients()`: how many clients the hub holds now; `departed()`: how many have left, ever."""

    def __init__(
        self, clients: Callable[[], int], departed: Callable[[], int], *, freeze_every: float = FREEZE_EVERY, sweep_every: float = SWEEP_EVERY
    ) -> None:
        self._clients = clients
        self._departed = departed
        self._freeze_every = freeze_every
        self._sweep_every = sweep_every
        self._swept_at = time.monotonic()
        self._departed_at_sweep = departed()
        self._clients_at_sweep = clients()
        self._task: asyncio.Task[None] | None = None
        self.sweeps = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="fray-collector")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        gc.unfreeze()  # the process (a test's, an embedding one's) gets its collector back as it was

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._freeze_every)
            try:
                self.tick()
            except Exception:  # the collector's tending must never stop the server
                log.exception("tending the garbage collector failed")

    def tick(self) -> None:
        """Sweep if it is due, else freeze what has lived this long."""
        gone = self._departed() - self._departed_at_sweep
        if gone >= max(SWEEP_DEPARTED, self._clients_at_sweep / 4) or time.monotonic() - self._swept_at >= self._sweep_every:
            self.sweep()
        else:
            gc.freeze()

    def sweep(self) -> None:
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.sweeps += 1
        self._swept_at = time.monotonic()
        self._departed_at_sweep = self._departed()
        self._clients_at_sweep = self._clients()
        log.debug("swept: %d objects of cyclic garbage in %.0f ms", found, 1000 * (time.perf_counter() - started))
