"""The stream's entries: a command, who sent it, when the server took it."""

import msgspec
from msgspec import Struct

from .commands import Command


class Actor(Struct, gc=False, frozen=True):
    role: str  # 'gm' | 'player' | 'spectator' | 'system'
    name: str = ""
    combatants: tuple[str, ...] = ()  # a player's own combatants


class Event(Struct, gc=False, frozen=True):
    id: str  # the client's command id (idempotency key)
    by: Actor
    command: Command
    at: int = 0  # server time in ms; never used to decide an outcome


_encoder = msgspec.msgpack.Encoder(order="deterministic")
_decoder = msgspec.msgpack.Decoder(Event)


def encode_event(event: Event) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes) -> Event:
    return _decoder.decode(data)
