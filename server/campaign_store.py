"""A campaign's stream in Redis: `fray:{<campaign id>}:campaign` (its events) and
`fray:{<campaign id>}:campaign-cmds` (command id -> position, for idempotent appends),
beside its links (server/security.py's `fray:{<id>}:links`, `:revoked`): one hash tag,
so one Cluster slot. A campaign's id starts `campaign-`, which no fight's id can (they
are made without '-': server.api.new_encounter_id), so a fight's keys and a campaign's
never meet. Appends are the fight's own idempotent script (server.store.APPEND)."""

from __future__ import annotations

import secrets
from typing import cast

from redis.exceptions import ResponseError

from .store import APPEND, UNAVAILABLE, Entries, Event, StoreUnavailable, position_key

PREFIX = "campaign-"
CAMPAIGNS = "fray:campaigns"  # the set of campaign ids


def events_key(campaign: str) -> str:
    return f"fray:{{{campaign}}}:campaign"


def cmds_key(campaign: str) -> str:
    return f"fray:{{{campaign}}}:campaign-cmds"


def new_campaign_id() -> str:
    return PREFIX + secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


def is_campaign_id(text: str) -> bool:
    rest = text.removeprefix(PREFIX)
    return text.startswith(PREFIX) and 1 <= len(rest) <= 64 and all(ch.isascii() and (ch.isalnum() or ch in "xy") for ch in rest)


class CampaignStore:
    """Over a client the app opens and closes (server/app.py's lifespan)."""

    def __init__(self, client) -> None:
        self.client = client

    async def append(self, campaign: str, command_id: str, payload: bytes) -> tuple[str, bool]:
        """(position, True) for a new event; (the original position, False) for a command id seen before."""
        try:
            out = await self.client.eval(APPEND, 2, events_key(campaign), cmds_key(campaign), command_id, payload)
            if len(out) != 2:
                raise ResponseError(f"the append script answered {out!r}")
            await self.client.sadd(CAMPAIGNS, campaign)
        except UNAVAILABLE as e:
            raise StoreUnavailable(f"the event store is unreachable: {e}") from e
        position, new = out
        return (position.decode() if isinstance(position, bytes) else str(position)), bool(new)

    async def read(self, campaign: str, after: str = "0-0") -> list[Event]:
        position_key(after)
        try:
            entries = cast(Entries, await self.client.xrange(events_key(campaign), f"({after}", "+"))
        except UNAVAILABLE as e:
            raise StoreUnavailable(f"the event store is unreachable: {e}") from e
        return [(pos.decode(), fields[b"e"]) for pos, fields in entries]

    async def list(self) -> list[str]:
        try:
            members = cast(set[bytes], await self.client.smembers(CAMPAIGNS))
        except UNAVAILABLE as e:
            raise StoreUnavailable(f"the event store is unreachable: {e}") from e
        return sorted(m.decode() for m in members)
