"""Limits that keep one client from hurting the others: message rate per
link (shared by that link's sockets on a replica), chat rate per link (the same), open
sockets per token, frame and body sizes, the time a request may take.

Every number has a flag and an environment variable (`fray serve --help`,
docs/operations.md); `Limits()` holds the defaults.
"""

import time
from collections.abc import Callable

import msgspec


class Limits(msgspec.Struct, frozen=True):
    frame_bytes: int = 64 * 1024  # largest websocket frame a client may send
    body_bytes: int = 256 * 1024  # largest HTTP request body (the encounter description)
    rate: float = 20.0  # messages per second per link (all its sockets on a replica), sustained
    burst: int = 40  # messages a link may send at once
    strikes: int = 20  # rate-limited messages in a row before the connection is closed
    sockets_per_token: int = 8  # open websockets per invite token, per replica
    revoke_poll: float = 0.5  # seconds between checks of revoked tokens on other replicas
    revoke_sweep: float = 30.0  # seconds in which every open socket's link is checked against its revoked set (server/security.py)
    chat_rate: float = 0.5  # chat lines (say) per second per link, sustained: one every 2 s (its sockets share it)
    chat_burst: int = 5  # chat lines a link may send at once
    request_seconds: float = 10.0  # a request's head, then its body, must arrive within this (server/timeouts.py)
    rebuilds: int = 2  # fights folded for a replay, log, dice check or export at once, per replica (server/chronicle.py)


class TokenBucket:
    """`burst` tokens, refilled at `rate` per second; a message takes one."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise RuntimeError(f"a token bucket needs rate > 0 and burst >= 1, not rate={rate}, burst={burst}")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def full(self) -> bool:
        """Has it refilled to `burst`? Then forgetting it changes nothing."""
        return self._tokens + (self._clock() - self._last) * self.rate >= self.burst

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False


class RateGuard:
    """One connection's bucket (its link's, shared by the link's sockets: server/security.py
    `Access.sit`) and its own run of refused messages."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic, bucket: TokenBucket | None = None) -> None:
        self.bucket = bucket if bucket is not None else TokenBucket(limits.rate, limits.burst, clock)
        self.max_strikes = limits.strikes
        self.strikes = 0

    def admit(self) -> bool:
        if self.bucket.take():
            self.strikes = 0
            return True
        self.strikes += 1
        return False

    @property
    def exhausted(self) -> bool:
        return self.strikes >= self.max_strikes
