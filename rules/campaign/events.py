"""A campaign stream's entries: a command, who sent it, when the server took it."""

import msgspec
from msgspec import Struct

from ..events import Actor
from .commands import Command


class CampaignEvent(Struct, gc=False, frozen=True):
    id: str  # the client's command id (idempotency key)
    by: Actor  # a player's `combatants` are their characters' ids
    command: Command
    at: int = 0  # server time in ms; never read by a rule


_encoder = msgspec.msgpack.Encoder(order="deterministic")
_decoder = msgspec.msgpack.Decoder(CampaignEvent)


def encode_event(event: CampaignEvent) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes) -> CampaignEvent:
    return _decoder.decode(data)
