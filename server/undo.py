"""The GM's undo on the server: the `undo` a GM sends is never stored; the
`restore` that rules.history computes from the whole stream is, in its place,
under the GM's actor and the GM's command id (so a retry is applied once).

Thin, as the rest of the shell: read, hand to the pure rules, give back. In a
fork made from a player's or a spectator's link, the events under its veil are
not undone (`undo/veiled`): a restore would hand its GM figures of then.
"""

import asyncio
import logging

from msgspec import UNSET

from ..rules.commands import Fork, Restore, Undo
from ..rules.errors import Rejected
from ..rules.events import Event, decode_event
from ..rules.history import resolve
from ..rules.undo import RESTORED

log = logging.getLogger("fray.undo")


async def compensate(store, encounter: str, event: Event) -> Event:
    """The restore event to append for the GM's `undo` event.

    Raises rules.errors.Rejected (the undo is refused) and StoreUnavailable.
    The restore is computed for the stream as read here; a command appended
    meanwhile comes first, and the reducer then rejects the restore as stale
    (`undo/stale`) instead of overwriting that command's effect."""
    assert isinstance(event.command, Undo)
    history = [decode_event(payload) for _, payload in await store.read(encounter)]
    if (stored := next((e for e in history if e.id == event.id), None)) is not None:
        return stored  # a retry of an undo already appended: the store acknowledges it as a duplicate
    veil = max((e.command.veil for e in history if isinstance(e.command, Fork)), default=-1)
    if event.command.seq <= veil:  # a fork from a player's or spectator's link (server/forks.py)
        raise Rejected("undo/veiled", f"events 0 to #{veil} are another GM's fight, read as a link of theirs saw it: not yours to undo")
    # Two folds of the whole stream: off the event loop, so the table's updates keep flowing.
    made = await asyncio.to_thread(resolve, history, event)
    restore = made.command
    assert isinstance(restore, Restore)
    log.info(
        "%s: %s undid event #%d (%s), restoring %s",
        encounter,
        event.by.name or event.by.role,
        restore.undoes,
        "and every later one" if restore.rewind else "alone",
        ", ".join(changed(restore)) or "no field",
    )
    return made


def changed(restore: Restore) -> list[str]:
    return [name for name in RESTORED if getattr(restore, name) is not UNSET]
