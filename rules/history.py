"""Folding a stream as if some of its events had never happened: what the GM's
undo is computed from (docs/rulings.md 'Undo'; rules/undo.py applies it).

`plan(history, undo)` folds the stream twice with the reducer: as it is (the
fight now) and without the undone events (the fight the GM asks for), and
returns a `restore` carrying the fields that differ. Anyone holding the
stream may recompute a restore from the events before it, and must get the
same one: `plan(events[:at], Undo(undoes, rewind))`.
"""

from collections.abc import Sequence

from .commands import Restore, Undo
from .events import Event
from .model import Encounter, Entry
from .reducer import apply
from .undo import RESTORED, check_undo


class _At:
    """What the live fold knew around the event to undo."""

    undone_before: list[int]
    undone_after: list[int]
    entries: list[Entry]
    hidden: set[str]


def plan(history: Sequence[Event], cmd: Undo) -> Restore:
    """The restore for `cmd` after `history` (the whole stream so far). Raises
    Rejected for the reasons the reducer gives (rules.undo.check_undo), no others."""
    live, at, next_ids = _live(history, cmd.seq)
    check_undo(live, cmd)
    assert at is not None
    undone = _undone(live, at, cmd, len(history))
    target = refold(history, set(undone), next_ids)
    target.next_id = max(target.next_id, live.next_id)  # a combatant id is never given twice
    changed = {name: getattr(target, name) for name in RESTORED if getattr(target, name) != getattr(live, name)}
    return Restore(undoes=cmd.seq, at=len(history), what=_what(history[cmd.seq], at), undone=undone, rewind=cmd.rewind, **changed)


def resolve(history: Sequence[Event], event: Event) -> Event:
    """The event to append in place of a GM's `undo` event: the same id, actor and time."""
    assert isinstance(event.command, Undo)
    return Event(id=event.id, by=event.by, command=plan(history, event.command), at=event.at)


def refold(history: Sequence[Event], skip: set[int], next_ids: Sequence[int] = ()) -> Encounter:
    """Fold `history` without the events at `skip` and without any undo or restore
    (they are about other events, and rejected ones changed nothing). A
    skipped event still uses up its position, so every other event rolls the
    dice of its own position; `next_ids` (the live fold's id counter before each
    event) keeps the ids later combatants were given."""
    state: Encounter | None = None
    for i, event in enumerate(history):
        if state is not None and (i in skip or isinstance(event.command, (Restore, Undo))):
            state.seq += 1
            continue
        if state is not None and i < len(next_ids):
            state.next_id = max(state.next_id, next_ids[i])
        state = apply(state, event)
    assert state is not None
    state.recent = []
    return state


def _live(history: Sequence[Event], seq: int) -> tuple[Encounter, _At | None, list[int]]:
    state: Encounter | None = None
    at: _At | None = None
    next_ids: list[int] = []
    for i, event in enumerate(history):
        next_ids.append(1 if state is None else state.next_id)
        if i == seq and state is not None:
            at = _At()
            at.undone_before = list(state.undone)
        state = apply(state, event)
        if at is not None and i == seq:
            at.undone_after = list(state.undone)
            at.entries = list(state.recent)
            at.hidden = {c.id for c in state.combatants if c.hidden}
    if state is None:
        raise RuntimeError("plan() needs a stream that holds at least its 'create' event")
    return state, at, next_ids


def _undone(live: Encounter, at: _At, cmd: Undo, length: int) -> list[int]:
    """The positions undone once this undo is made."""
    if cmd.rewind:  # back to the fight as it was just before the event
        return sorted(set(at.undone_before) | set(range(cmd.seq, length)))
    now = set(live.undone) | {cmd.seq}
    # Undoing a restore reverses what it did to the undone set: a redo.
    added = set(at.undone_after) - set(at.undone_before)
    removed = set(at.undone_before) - set(at.undone_after)
    return sorted((now - added) | removed | {cmd.seq})


def _what(event: Event, at: _At) -> str:
    """The undone event in words everyone may read: its first public log line,
    without a hidden combatant's figures."""
    name = event.command.__struct_config__.tag
    for entry in at.entries:
        if entry.audience == "all":
            hidden = entry.public is not None and (entry.actor in at.hidden or entry.target in at.hidden or bool(entry.unseen))
            return f"{name} — {entry.public if hidden else entry.text}"[:300]
    return f"{name} (its details are the GM's)"
