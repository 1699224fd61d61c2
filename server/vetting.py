"""Is this stream one the server could have stored? Asked of a file `fray import`
brings (server/archive.py), which is trusted no further than a client: each event's
sender must be one that may send its command (the server alone writes `create` and
`fork`, a restore is the GM's), and no event may be one the server refuses whatever
the state (a battle map that is not a PNG, JPEG or WebP image, set or restored). Events the reducer refuses because of the moment (a race between two
replicas) are history like any other: they fold as refused.
"""

from collections.abc import Sequence

from msgspec import UNSET

from ..rules.battlemap import check_set_map
from ..rules.commands import CreateEncounter, Fork, Restore, SetMap
from ..rules.errors import Rejected
from ..rules.events import Event
from ..rules.model import Encounter
from ..rules.reducer import apply, gm_made
from .tokens import ROLES

SERVER_WRITES = (CreateEncounter, Fork)
WHATEVER_THE_STATE = "map/nothing-to-clear"  # the one refusal of a map that depends on the state


class Unstorable(Exception):
    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq


def vet_events(events: Sequence[Event]) -> None:
    """Unstorable (naming the first event, by its seq) unless the server could have stored every event."""
    state: Encounter | None = None
    for seq, event in enumerate(events):
        _vet(state, events, seq, event)
        state = apply(state, event)


def _vet(state: Encounter | None, events: Sequence[Event], seq: int, event: Event) -> None:
    command, by = event.command, event.by
    tag = command.__struct_config__.tag
    if isinstance(command, SERVER_WRITES):
        if by.role != "system":
            raise Unstorable(seq, f"a '{tag}' is written by the server, not sent by a {by.role[:20]!r}: a forged sender")
        return
    if by.role not in ROLES or (by.role not in command.roles and not gm_made(by, command)):
        raise Unstorable(seq, f"a {by.role[:20]!r} may not send '{tag}': a forged sender")
    if state is None:
        return
    shown = command if isinstance(command, SetMap) else _restored_map(command)
    if shown is not None:
        try:
            check_set_map(state, shown)
        except Rejected as r:
            if r.code != WHATEVER_THE_STATE:
                raise Unstorable(seq, f"a battle map the server refuses: {r.message}") from None


def _restored_map(command) -> SetMap | None:
    """The battle map a restore puts back, as the command that set it: it was one the server took.
    (A restore is not computed again here: an old one was computed by the rules of its day.)"""
    if not isinstance(command, Restore) or command.battle_map is UNSET or command.battle_map is None:
        return None
    m = command.battle_map
    return SetMap(image=m.image, media=m.media, width=m.width, height=m.height, square=m.square)
