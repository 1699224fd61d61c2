"""Who may do what: invite links (issued, listed, revoked), open sockets per
token, the admin key for creating encounters, and the websocket Origin check.

Links live in Redis beside the encounter's stream, under its hash tag:
`fray:{<id>}:links` (token id -> the signed claims, so a link can be shown
again without storing the token) and `fray:{<id>}:revoked` (token ids).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import hmac
import itertools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import cast

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from .edge import same_site
from .limits import Limits, TokenBucket
from .store import UNAVAILABLE, Entries, StoreUnavailable, connect, entries_of
from .tokens import BadToken, Claims, Signer

log = logging.getLogger("fray.security")

_claims = msgspec.json.Decoder(Claims)
_encode = msgspec.json.Encoder().encode


def links_key(encounter: str) -> str:
    return f"fray:{{{encounter}}}:links"


def revoked_key(encounter: str) -> str:
    return f"fray:{{{encounter}}}:revoked"


# Every revocation, in order (encounter, token id): what each replica reads at each
# poll, one small read for however many sockets it holds. A capped stream; a replica
# further behind checks every open socket's link, as it does a slice of them at each
# poll (the links of a replica of an older version revoke without an entry).
REVOCATIONS = "fray:revocations"
REVOCATIONS_LENGTH = 1000


class TooManySockets(Exception):
    pass


REVOKED = "this invite link has been revoked by the GM"
EXPIRED = "this invite link has expired"
Close = Callable[[str, str, int], Awaitable[None]]  # close(code, reason, close code): tell the client why, then close


class Seat:
    """One open websocket, as far as limits, revocation and expiry care."""

    def __init__(self, claims: Claims, close: Close, bucket: TokenBucket) -> None:
        self.claims = claims
        self.close = close
        self.closed = False  # revoked or expired: the socket reads no further message
        self.bucket = bucket  # the link's message rate, shared by its sockets (server/limits.py)


class Access:
    def __init__(
        self,
        redis_url: str,
        signer: Signer,
        *,
        limits: Limits,
        admin_key: str = "",
        loopback: bool = True,
        origins: tuple[str, ...] = (),
        cluster: bool = False,
        proxied: bool = False,
    ) -> None:
        self.signer = signer
        self.proxied = proxied  # a public URL or trusted proxies: reached from beyond this machine, whatever it listens on
        self.limits = limits
        self.admin_key = admin_key
        self.loopback = loopback
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)
        self._url = redis_url
        self._cluster = cluster
        self._redis: aioredis.Redis | RedisCluster | None = None
        self._seats: dict[str, set[Seat]] = {}  # token id -> open sockets
        self._chat: dict[str, TokenBucket] = {}  # token id -> its chat rate, kept across its reconnections
        # token id -> its message rate: kept after its last socket closes until refilled, so
        # that neither more sockets nor reconnecting gives a link more than its rate.
        self._buckets: dict[str, TokenBucket] = {}
        self._left: set[str] = set()  # token ids whose last socket here closed: their rates may be forgotten
        self._expiries: list[tuple[float, int, Seat]] = []  # a heap: (expiry, order, seat) of links that expire
        self._order = itertools.count()
        self._revocations_id = ""  # the last entry of REVOCATIONS read; "" before the first read
        self._sweep: list[tuple[str, list[str]]] = []  # (encounter, token ids) left to check in this sweep
        self._sweep_size = 0  # encounters checked a poll
        self._swept_at = -math.inf  # when the sweep began
        self._watch: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Future[None]] = set()

    async def start(self) -> None:
        # A blocking pool: a burst of joins waits for a connection instead of failing.
        self._redis = connect(self._url, cluster=self._cluster, max_connections=32, timeout=5)
        self._watch = asyncio.create_task(self._watch_revocations(), name="fray-revocations")

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        if self._redis is not None:
            await self._redis.aclose()

    # --- creating encounters -------------------------------------------------

    def creation_refused(self, presented: str, forwarded: bool = False) -> str | None:
        """Why this request may not create an encounter, or None if it may. `forwarded`:
        the request came through a proxy or a tunnel (it carries forwarding headers)."""
        if self.admin_key:
            if presented and hmac.compare_digest(presented.encode(), self.admin_key.encode()):
                return None
            return "creating an encounter needs the admin key (header 'Authorization: Bearer <FRAY_ADMIN_KEY>')"
        if not self.loopback:
            return "creating encounters is closed: this server listens beyond loopback and has no FRAY_ADMIN_KEY"
        if self.proxied or forwarded:
            return (
                "creating encounters is closed: this server is reached through a proxy or a tunnel (a public URL, forwarded headers) and has no FRAY_ADMIN_KEY"
            )
        return None

    def creation_policy(self) -> str:
        if self.admin_key:
            return "creating encounters needs the admin key (FRAY_ADMIN_KEY)"
        if not self.loopback:
            return "creating encounters is CLOSED: listening beyond loopback without FRAY_ADMIN_KEY"
        if self.proxied:
            return "creating encounters is CLOSED: reached through a proxy or a tunnel (--public-url, --forwarded-allow-ips) without FRAY_ADMIN_KEY"
        return (
            "creating encounters is open to anyone who reaches this loopback address, except through a proxy or a tunnel (set FRAY_ADMIN_KEY to require a key)"
        )

    # --- the websocket Origin ------------------------------------------------

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """Browsers always send Origin on a websocket; a page of another site must
        not open a socket with a player's link. No Origin: not a browser. `host` is
        one the server answers to (server/edge.py refused any other before this)."""
        return origin is None or same_site(origin, host, self.origins)

    # --- tokens and links ------------------------------------------------------

    def _client(self) -> aioredis.Redis | RedisCluster:
        if self._redis is None:
            raise RuntimeError("Access is not started; await access.start() first.")
        return self._redis

    async def claims(self, encounter: str, token: str | None) -> Claims:
        """The token's claims if it is signed, for this encounter, unexpired, one of the links
        issued for the fight (listed) and not revoked."""
        if not token:
            raise BadToken("an invite token is needed (the ?token= of your link)")
        claims = self.signer.verify(token, encounter)
        try:  # one round trip: both keys are the encounter's (one Cluster slot)
            async with self._client().pipeline(transaction=False) as pipe:
                pipe.sismember(revoked_key(encounter), claims.i)
                pipe.hexists(links_key(encounter), claims.i)
                revoked, listed = await pipe.execute()
        except UNAVAILABLE as e:
            raise StoreUnavailable(f"the store is unreachable: {e}") from e
        if revoked:
            raise BadToken("this invite link has been revoked by the GM")
        if not listed:  # a fight deleted, then imported again: its old links (revoked ones too) are gone with it
            raise BadToken("this invite link is not one of this fight's links (the fight was deleted or imported anew): ask the GM for a new one")
        return claims

    async def issue(self, encounter: str, role: str, combatants: tuple[str, ...] = (), name: str = "", ttl: int = 0) -> str:
        return self.signer.sign(await self.issue_claims(encounter, role, combatants, name, ttl))

    async def issue_claims(self, encounter: str, role: str, combatants: tuple[str, ...] = (), name: str = "", ttl: int = 0) -> Claims:
        """A new link's claims, stored (so it can be listed and revoked)."""
        claims = self.signer.claims(encounter, role, combatants, name, ttl)
        try:
            await self._client().hset(links_key(encounter), claims.i, _encode(claims))
        except UNAVAILABLE as e:
            raise StoreUnavailable(f"the store is unreachable: {e}") from e
        return claims

    async def links(self, encounter: str) -> list[dict]:
        """Every link issued for the encounter, oldest first, with its token and whether it is revoked."""
        try:
            async with self._client().pipeline(transaction=False) as pipe:
                pipe.hgetall(links_key(encounter))
                pipe.smembers(revoked_key(encounter))
                stored, revoked = await pipe.execute()
        except UNAVAILABLE as e:
            raise StoreUnavailable(f"the store is unreachable: {e}") from e
        revoked = {r.decode() for r in revoked}
        out = []
        for raw in stored.values():
            claims = _claims.decode(raw)
            out.append(
                {
                    "token_id": claims.i,
                    "role": claims.r,
                    "name": claims.n,
                    "combatants": list(claims.c),
                    "expires": claims.x,
                    "revoked": claims.i in revoked,
                    "token": self.signer.sign(claims),
                }
            )
        return sorted(out, key=lambda link: ("gm", "player", "spectator").index(link["role"]))

    async def revoke(self, encounter: str, token_id: str) -> Claims | None:
        """Revoke a link: refused from now on, and its open sockets closed. None if unknown."""
        try:
            raw = await self._client().hget(links_key(encounter), token_id)
            if raw is None:
                return None
            await self._client().sadd(revoked_key(encounter), token_id)
            await self._client().xadd(REVOCATIONS, {"e": encounter, "i": token_id}, maxlen=REVOCATIONS_LENGTH, approximate=True)
        except UNAVAILABLE as e:
            raise StoreUnavailable(f"the store is unreachable: {e}") from e
        await self._close_revoked({token_id})
        return _claims.decode(raw)

    # --- open sockets ------------------------------------------------------------

    def sit(self, claims: Claims, close: Close) -> Seat:
        seats = self._seats.setdefault(claims.i, set())
        if len(seats) >= self.limits.sockets_per_token:
            raise TooManySockets(f"this link already has {len(seats)} open connections (at most {self.limits.sockets_per_token})")
        bucket = self._buckets.get(claims.i)
        if bucket is None:
            bucket = self._buckets[claims.i] = TokenBucket(self.limits.rate, self.limits.burst)
        seat = Seat(claims, close, bucket)
        seats.add(seat)
        if claims.x:
            heapq.heappush(self._expiries, (claims.x, next(self._order), seat))
        return seat

    def chat(self, token_id: str) -> TokenBucket:
        """The link's chat bucket (`say`), shared by its sockets and kept when they close, so
        reconnecting does not refill it. Per replica, as the socket limit; a bucket that has
        refilled is dropped (`_forget_rested`): a new one is the same."""
        bucket = self._chat.get(token_id)
        if bucket is None:
            bucket = self._chat[token_id] = TokenBucket(self.limits.chat_rate, self.limits.chat_burst)
        return bucket

    def _forget_rested(self) -> None:
        """Drop the message and chat rates of links with no socket here whose bucket has refilled."""
        for token_id in list(self._left):
            if token_id in self._seats:
                self._left.discard(token_id)
                continue
            for buckets in (self._buckets, self._chat):
                bucket = buckets.get(token_id)
                if bucket is not None and bucket.full():
                    del buckets[token_id]
            if token_id not in self._buckets and token_id not in self._chat:
                self._left.discard(token_id)

    def leave(self, seat: Seat) -> None:
        seats = self._seats.get(seat.claims.i)
        if seats is not None:
            seats.discard(seat)
            if not seats:
                del self._seats[seat.claims.i]
                self._left.add(seat.claims.i)

    async def _close_revoked(self, token_ids: set[str]) -> None:
        for token_id in token_ids:
            for seat in list(self._seats.get(token_id, ())):
                await self._close(seat, "auth/revoked", REVOKED, 4403)

    async def _close(self, seat: Seat, code: str, reason: str, close_code: int) -> None:
        if not seat.closed:
            seat.closed = True
            # In a task of its own: the seat first answers what it owes, and one
            # slow socket must not hold up the others.
            task = asyncio.ensure_future(seat.close(code, reason, close_code))
            self._closing.add(task)  # held until done: the loop keeps only weak references
            task.add_done_callback(self._closing.discard)

    async def close_encounter(self, encounter: str, reason: str) -> None:
        """Close every socket of the encounter on this replica (the fight was deleted)."""
        for seats in list(self._seats.values()):
            for seat in list(seats):
                if seat.claims.e == encounter:
                    await self._close(seat, "encounter/deleted", reason, 4410)

    async def _close_expired(self) -> None:
        now, expiries = time.time(), self._expiries
        while expiries and expiries[0][0] <= now:
            seat = heapq.heappop(expiries)[2]
            if seat in self._seats.get(seat.claims.i, ()):
                await self._close(seat, "auth/expired", EXPIRED, 4401)
        if len(expiries) > 64 and len(expiries) > 2 * sum(map(len, self._seats.values())):  # mostly seats long gone
            self._expiries = [item for item in expiries if item[2] in self._seats.get(item[2].claims.i, ())]
            heapq.heapify(self._expiries)

    async def _watch_revocations(self) -> None:
        """Revocations made through another replica reach this one's open sockets
        within `revoke_poll` seconds (one read of REVOCATIONS, whatever the sockets);
        every open socket's link is also checked against its revoked set within
        `revoke_sweep` seconds, a slice at each poll. Links that expire close their
        sockets as promptly (no read)."""
        while True:
            await asyncio.sleep(self.limits.revoke_poll)
            await self._close_expired()
            self._forget_rested()
            try:
                await self._read_revocations()
                await self._sweep_revoked()
            except UNAVAILABLE:
                continue  # Redis is away; the next tick tries again
            except Exception:
                log.exception("checking revoked tokens failed")

    async def _read_revocations(self) -> None:
        """Close the sockets of the links revoked since the last read."""
        client = self._client()
        if not self._revocations_id:  # the first read: revocations from now on (a socket is checked as it opens)
            last = cast(Entries, await client.xrevrange(REVOCATIONS, count=1))
            self._revocations_id = last[0][0].decode() if last else "0-0"
            return
        entries = entries_of(await client.xread({REVOCATIONS: self._revocations_id}, count=REVOCATIONS_LENGTH))
        if not entries:
            return
        self._revocations_id = entries[-1][0].decode()
        if len(entries) == REVOCATIONS_LENGTH:  # perhaps behind a trim: check every link now
            self._sweep, self._sweep_size = self._links_here(), 1 << 30
        await self._close_revoked({fields[b"i"].decode() for _, fields in entries if b"i" in fields})

    def _links_here(self) -> list[tuple[str, list[str]]]:
        """Each encounter with sockets here, and its links that have them."""
        by_encounter: dict[str, list[str]] = {}
        for token_id, seats in list(self._seats.items()):
            for encounter in {seat.claims.e for seat in seats}:
                by_encounter.setdefault(encounter, []).append(token_id)
        return list(by_encounter.items())

    async def _sweep_revoked(self) -> None:
        """Check the next slice of the sweep's encounters against their revoked sets."""
        now = time.monotonic()
        if not self._sweep and now - self._swept_at >= self.limits.revoke_sweep:  # a new sweep, spread over `revoke_sweep`
            self._sweep, self._swept_at = self._links_here(), now
            self._sweep_size = max(1, math.ceil(len(self._sweep) * self.limits.revoke_poll / self.limits.revoke_sweep))
        part, self._sweep = self._sweep[: self._sweep_size], self._sweep[self._sweep_size :]
        if not part:
            return
        async with self._client().pipeline(transaction=False) as pipe:
            for encounter, ids in part:
                pipe.smismember(revoked_key(encounter), ids)
            replies = await pipe.execute()
        for (_, ids), flags in zip(part, replies):
            await self._close_revoked({i for i, f in zip(ids, flags) if f})


class SecurityHeaders:
    """ASGI middleware: the given headers on every HTTP response (pages, static
    files, API answers) unless the response set them itself."""

    def __init__(self, app, headers: dict[str, str]) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in headers.items()]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
