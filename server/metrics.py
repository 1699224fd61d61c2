"""Prometheus metrics at /metrics.

The hot path only adds to plain ints (one event loop, so no lock is needed,
and prometheus-client's own metrics take a lock on every `inc`); a collector
turns them into metric families when Prometheus scrapes. Labels are bounded:
rejections are counted by error code, a fixed vocabulary, never by encounter,
token or command id.
"""

import bisect
import time
from collections import Counter

from prometheus_client import CollectorRegistry, GCCollector, PlatformCollector, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

from . import protocol

# Seconds; an append is a Redis round trip (~0.1-1 ms), a fold and fan-out a reducer step and encodes.
BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Histogram:
    __slots__ = ("counts", "total", "n")

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)
        self.total = 0.0
        self.n = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, value)] += 1
        self.total += value
        self.n += 1

    def family(self, name: str, doc: str) -> HistogramMetricFamily:
        cumulative, running = [], 0
        for bound, count in zip((*map(str, BUCKETS), "+Inf"), self.counts):
            running += count
            cumulative.append((bound, running))
        return HistogramMetricFamily(name, doc, buckets=cumulative, sum_value=self.total)


class Counts:
    """This process's counts since it started."""

    def __init__(self) -> None:
        self.accepted = 0
        self.rejected: Counter[str] = Counter()
        self.outbox_drops = 0
        self.handed_off = 0  # fights of a rules version this replica does not know, handed to another (server/hub.py)
        self.redis_errors = 0
        self.append = Histogram()
        self.fold = Histogram()
        self.tail_lag = Histogram()


counts = Counts()


def answered(message) -> None:
    """Count a command's answer: an ack is accepted, an error rejected under its code."""
    if isinstance(message, protocol.Ack):
        counts.accepted += 1
    elif isinstance(message, protocol.Error):
        counts.rejected[message.code] += 1


def delivered(position: str) -> None:
    """The tail delivered events up to `position`: how old is it? (Stream ids are
    Redis' clock in ms; on another machine than Redis this includes clock skew.)"""
    ms = int(position.partition("-")[0])
    counts.tail_lag.observe(max(0.0, time.time() - ms / 1000))


class Collector:
    def __init__(self, hub) -> None:
        self.hub = hub

    def collect(self):
        accepted = CounterMetricFamily("fray_commands_accepted", "Commands stored and acknowledged (retries acknowledged again included)")
        accepted.add_metric([], counts.accepted)
        yield accepted
        rejected = CounterMetricFamily("fray_commands_rejected", "Messages answered with an error, by error code", labels=["code"])
        for code, n in sorted(counts.rejected.items()):
            rejected.add_metric([code], n)
        yield rejected
        yield counter("fray_outbox_drops", "Clients dropped because their update queue filled up", counts.outbox_drops)
        yield counter(
            "fray_handed_off",
            "Fights not folded here because their rules version is newer than this replica knows; their sockets closed with 4012",
            counts.handed_off,
        )
        yield counter("fray_redis_errors", "Redis calls that failed: unreachable or no answer in time", counts.redis_errors)
        yield counts.append.family("fray_append_seconds", "From a command's submission to Redis' answer to its append")
        yield counts.fold.family("fray_fold_fanout_seconds", "Folding a batch of new events and fanning the changes out")
        yield counts.tail_lag.family("fray_tail_lag_seconds", "Age of the newest event of each batch the tail delivers")
        rooms = self.hub.rooms
        yield gauge("fray_encounters_live", "Encounters folded in memory here (with viewers on this replica)", len(rooms))
        yield gauge("fray_clients_connected", "Open encounter websockets on this replica", sum(len(r.clients) for r in rooms.values()))


def counter(name: str, doc: str, value: float) -> CounterMetricFamily:
    family = CounterMetricFamily(name, doc)
    family.add_metric([], value)
    return family


def gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, doc)
    family.add_metric([], value)
    return family


def registry(hub) -> CollectorRegistry:
    """A registry of this app's own (not prometheus-client's global one), with
    the process, platform and GC figures beside Fray's."""
    reg = CollectorRegistry()
    ProcessCollector(registry=reg)
    PlatformCollector(registry=reg)
    GCCollector(registry=reg)
    reg.register(Collector(hub))
    return reg


def exposition(reg: CollectorRegistry) -> bytes:
    return generate_latest(reg)
