"""The server's tending of the garbage collector (server/collector.py), on the real one:
what has lived a second is frozen, and cyclic garbage made of frozen objects (a
closed socket, a room let go) is swept once many clients have left, or in time."""

import asyncio
import gc
import weakref

import pytest

from fray_table.server.collector import SWEEP_DEPARTED, Collector


class Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def unfrozen():
    yield
    gc.unfreeze()


def test_a_tick_freezes_what_lives_and_a_frozen_cycle_waits_for_the_sweep():
    departed = [0]
    collector = Collector(lambda: 1000, lambda: departed[0])
    garbage = Cycle()
    gone = weakref.ref(garbage)
    collector.tick()
    assert gc.get_freeze_count() > 0 and collector.sweeps == 0
    del garbage
    gc.collect()
    assert gone() is not None  # frozen: out of the collector's sight
    departed[0] = max(SWEEP_DEPARTED, 1000 // 4) - 1
    collector.tick()
    assert collector.sweeps == 0 and gone() is not None  # not yet a quarter of the clients
    departed[0] += 1
    collector.tick()
    assert collector.sweeps == 1 and gone() is None  # swept
    assert gc.get_freeze_count() > 0  # and what lives is frozen again


def test_a_sweep_comes_in_time_even_if_nobody_leaves():
    collector = Collector(lambda: 10, lambda: 0, sweep_every=0.0)
    garbage = Cycle()
    gone = weakref.ref(garbage)
    gc.freeze()
    del garbage
    collector.tick()
    assert collector.sweeps == 1 and gone() is None


async def test_stop_gives_the_process_its_collector_back():
    collector = Collector(lambda: 0, lambda: 0, freeze_every=0.01)
    collector.start()
    for _ in range(200):
        if gc.get_freeze_count():
            break
        await asyncio.sleep(0.01)
    assert gc.get_freeze_count() > 0
    await collector.stop()
    assert gc.get_freeze_count() == 0
