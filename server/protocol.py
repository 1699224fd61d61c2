"""The wire protocol: msgspec Structs in tagged unions, JSON over the websocket.

Client -> server: `command` (a client-chosen id and a rules Command).
Server -> client: `welcome` (view + position), `update`, `ack`, `error`.
`fray schema` prints the JSON Schema generated from these types.
"""

from typing import Any

import msgspec
from msgspec import Struct

from ..rules.chat import plain
from ..rules.commands import Command
from ..rules.model import Entry
from ..rules.view import View, Viewer

PROTOCOL_VERSION = 1
BAD_TEXT = "protocol/bad-text"


def unplain(value: Any, path: str = "") -> str | None:
    """The path ('action.spell', 'combatants[0].name') of the first string in a decoded
    command or request body that is not plain text (rules.chat.plain: a newline, a
    right-to-left override), or None. One check for every free-text field, made at the
    edge before anything is appended, so no stored fight folds differently. It runs on
    every command: numbers and flags are passed over, and a path is only made for what
    holds strings."""
    kind = type(value)
    if kind is str:
        return None if plain(value) else (path or "the value")
    if kind in _SCALARS:
        return None
    if isinstance(value, Struct):
        for name in value.__struct_fields__:
            item = getattr(value, name)
            if type(item) not in _SCALARS and (found := unplain(item, f"{path}.{name}" if path else name)) is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and not plain(key):
                return (path or "the value") + " (a key)"
            if type(item) not in _SCALARS and (found := unplain(item, f"{path}.{key}" if path else str(key))) is not None:
                return found
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if type(item) not in _SCALARS and (found := unplain(item, f"{path}[{i}]")) is not None:
                return found
    return None


_SCALARS = frozenset({int, bool, float, type(None), bytes})


def bad_text(where: str) -> str:
    return f"{where} holds a control or formatting character (a newline, a right-to-left override...): names and words are plain text"


class Message(Struct, tag_field="type", forbid_unknown_fields=True):
    pass


class CommandMessage(Message, tag="command"):
    id: str  # client-chosen; a retry with the same id is applied once
    command: Command


class Ping(Message, tag="ping"):
    id: str = ""


ClientMessage = CommandMessage | Ping


class Welcome(Message, tag="welcome"):
    encounter: str
    viewer: Viewer
    position: str  # stream position the view reflects ("0-0" = before any event)
    view: View
    log: list[Entry]  # entries this viewer may see (after the `after` it asked for)
    protocol: int = PROTOCOL_VERSION
    # The rules version the fight is played under, and the newest this server knows: the GM's
    # console offers 'Play on under today's rules' (upgrade_rules) when the first is older.
    rules_version: int = 0
    rules_newest: int = 0


class Update(Message, tag="update"):
    position: str
    patch: list[list[Any]]  # ops turning the viewer's previous view into this one (server/patch.py)
    log: list[Entry]  # new entries this viewer may see


class Ack(Message, tag="ack"):
    id: str
    position: str
    duplicate: bool = False  # the id was seen before: this is the original position


class Error(Message, tag="error"):
    code: str  # stable, namespaced: 'protocol/bad-json', 'auth/forbidden', 'declare/not-now'
    message: str  # a sentence a person understands
    id: str = ""


class Pong(Message, tag="pong"):
    id: str = ""


ServerMessage = Welcome | Update | Ack | Error | Pong

encoder = msgspec.json.Encoder()
client_decoder = msgspec.json.Decoder(ClientMessage)
server_decoder = msgspec.json.Decoder(ServerMessage)


def schema() -> dict:
    (client, server), components = msgspec.json.schema_components([ClientMessage, ServerMessage], ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Fray wire protocol v{PROTOCOL_VERSION}",
        "$defs": components,
        "properties": {"client": client, "server": server},
    }
