"""apply(state, event) -> state: the one reducer every replica folds the stream with.

Every command goes through the same checks in the same order: may this sender
send it, is the encounter in a state to take it, then the rule itself. An
illegal command is not an exception: it is logged as rejected, with a stable
namespaced code, and nothing else changes.
"""

import re
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import Any, get_args

import msgspec

from . import battlemap, chat, fork, resolve, setup, undo, upgrade
from .commands import (
    AddCombatant,
    Advance,
    Answer,
    CallMorale,
    ClearForced,
    Command,
    CreateEncounter,
    Declare,
    EditCombatant,
    End,
    ForceRolls,
    Fork,
    RemoveCombatant,
    Restore,
    Say,
    SetMap,
    Start,
    Undo,
    UpgradeRules,
)
from .context import Context
from .declare import check_declare, declare
from .errors import Rejected
from .events import Actor, Event
from .model import Encounter, Entry, copied
from .ruleset import rules_of

_canonical = msgspec.msgpack.Encoder(order="deterministic")


def canonical(state: Encounter) -> bytes:
    """The state's canonical bytes: what determinism is tested on."""
    return _canonical.encode(state)


def check(state: Encounter, event: Event) -> Rejected | None:
    """The reducer's verdict without applying: None if the command would be taken."""
    try:
        _check(state, event.by, event.command)
    except Rejected as r:
        return r
    return None


def _check(state: Encounter, by: Actor, cmd: Command) -> Any:
    """Raises Rejected if the command is refused; else returns what its check worked out
    for its rule (an edit's fields: rules.setup.prepared_edit), or None."""
    if by.role not in cmd.roles and not gm_made(by, cmd):
        raise Rejected("auth/forbidden", f"a {by.role} may not send '{cmd.__struct_config__.tag}'")
    if state.status == "ended" and not isinstance(cmd, (CreateEncounter, Undo, Restore, Say)):  # the table may talk on
        raise Rejected("encounter/ended", "the fight has ended")
    return _CHECKS[type(cmd)](state, by, cmd)


def gm_made(by: Actor, cmd: Command) -> bool:
    """May the GM send this command its roles do not name? A player's command the GM sends
    for them, and a restore: written by the server for the GM's undo, under the GM's actor;
    no client may send one (server/app.py refuses SYSTEM commands before this).
    Asked only of a role the command does not name (an isinstance on a msgspec Struct class that fails is dear)."""
    return by.role == "gm" and ("player" in cmd.roles or isinstance(cmd, Restore))


def _already_created(state: Encounter, by: Actor, cmd: CreateEncounter) -> None:
    raise Rejected("create/already-created", "this encounter already exists")


# Each command's check and its rule, by the command's class: one lookup an event, where a
# match on the class tried the classes one after another. Every command has both (asserted below).
_CHECKS: dict[type, Callable[[Encounter, Actor, Any], Any]] = {
    Declare: check_declare,
    EditCombatant: lambda state, by, cmd: setup.check_edit(state, cmd),
    Advance: lambda state, by, cmd: resolve.check_advance(state, cmd),
    Answer: resolve.check_answer,
    AddCombatant: lambda state, by, cmd: setup.check_add(state, cmd),
    RemoveCombatant: lambda state, by, cmd: setup.check_remove(state, cmd),
    ForceRolls: lambda state, by, cmd: setup.check_force(state, cmd),
    ClearForced: lambda state, by, cmd: setup.check_clear_forced(state, cmd),
    Say: chat.check_say,
    SetMap: lambda state, by, cmd: battlemap.check_set_map(state, cmd),
    End: lambda state, by, cmd: setup.check_end(state, cmd),
    Start: lambda state, by, cmd: resolve.check_start(state, cmd),
    CallMorale: lambda state, by, cmd: rules_of(state).commands["call_morale"][0](state, cmd),  # 003's morale (Module.commands)
    Undo: lambda state, by, cmd: undo.check_undo(state, cmd),
    Restore: lambda state, by, cmd: undo.check_restore(state, cmd),
    Fork: lambda state, by, cmd: fork.check_fork(state, cmd),
    UpgradeRules: lambda state, by, cmd: upgrade.check_upgrade(state, cmd),
    CreateEncounter: _already_created,
}


def _never_folded(ctx: Context, cmd: Undo | CreateEncounter) -> None:
    if isinstance(cmd, Undo):
        raise RuntimeError("an undo is folded as the restore computed for it (rules.history.resolve), never as itself")
    raise AssertionError("create is checked away above")


_RULES: dict[type, Callable[[Context, Any], None]] = {
    Declare: declare,
    EditCombatant: setup.edit,
    Advance: resolve.advance,
    Answer: resolve.answer,
    AddCombatant: setup.add,
    RemoveCombatant: setup.remove,
    ForceRolls: setup.force,
    ClearForced: setup.clear_forced,
    Say: chat.say,
    SetMap: battlemap.set_map,
    End: setup.end,
    Start: resolve.start,
    CallMorale: lambda ctx, cmd: rules_of(ctx.state).commands["call_morale"][1](ctx, cmd),
    Restore: undo.restore,
    Fork: fork.fork,
    UpgradeRules: upgrade.upgrade,
    Undo: _never_folded,
    CreateEncounter: _never_folded,
}
assert set(_CHECKS) == set(_RULES) == set(get_args(Command)), "every command has its check and its rule"


def apply(state: Encounter | None, event: Event) -> Encounter:
    """The state after `event`, as a new state: `state` itself is never changed.

    A command the rules refuse is logged as rejected, for its sender and the GM.
    An exception inside a rule is a bug, not a verdict: it is logged as the
    rejection `rules/bug`, for the GM only, and the state is as it was before the
    event; a rule bug costs one command, never the fight."""
    after = fold((event,), state)
    assert after is not None
    return after


def fold(events: Iterable[Event], state: Encounter | None = None) -> Encounter | None:
    """The state after every event of `events`, from `state` (None: from the start),
    which is never changed. See `folding`."""
    for state in folding(events, state):  # noqa: B007, B020 (the fold's last state is what is wanted)
        pass
    return state


def folding(events: Iterable[Event], state: Encounter | None = None, narrated: bool = True) -> Iterator[Encounter]:
    """Fold `events` onto `state`, yielding the state after each one; `state` itself is
    never changed. The fold works on a copy of its own, made once, and changes it in
    place from one event to the next (read each state yielded before asking for the
    next), so a long fold costs one copy, not one per event. A rule that raises
    has half-changed that copy: it is folded again from the last clean state, which
    every event since gives exactly (the reducer is deterministic), and the event is
    refused on it.

    `narrated=False` folds without the words: no event writes a log line but a
    refusal (the reducer's own, which says the command was refused), for a reader of
    outcomes alone (the simulator, server/simulate.py). No rule reads the log, so the
    state is otherwise the same, byte for byte (tests/rules/test_fold_without_words.py)."""
    clean, since = state, []  # the last state no rule has raised on since, and the events after it
    work = copied(state) if state is not None else None
    for event in events:
        try:
            work = _apply(work, event, narrated)
            since.append(event)
        except _Failed as failed:
            work = copied(clean) if clean is not None else None
            for earlier in since:
                work = _apply(work, earlier, narrated)
            assert work is not None, "the first event, 'create', cannot fail in a rule"
            _refuse(work, event, failed.code, failed.text, failed.audience)
            clean, since = copied(work), []
        yield work


class _Failed(Exception):
    """A command refused after its rules began changing the state: the state is rebuilt."""

    def __init__(self, code: str, text: str, audience: str) -> None:
        self.code, self.text, self.audience = code, text, audience


def _apply(state: Encounter | None, event: Event, narrated: bool = True) -> Encounter:
    """Apply `event` to `state` in place (the fold's own copy); raises _Failed when a
    rule refused or failed after changing it."""
    cmd = event.command
    if state is None:
        if not isinstance(cmd, CreateEncounter):
            raise RuntimeError("the first event of an encounter must be 'create'")
        setup.check_create(cmd)
        state = setup.create(cmd)
        state.recent = [Entry(seq=0, kind="setup", text=f"Encounter created ({state.profile}); seed sha256 {state.seed_hash}.")] if narrated else []
        state.seq = 1
        return state
    state.recent = []
    try:
        checked = _check(state, event.by, cmd)
    except Rejected as r:  # refused before anything changed
        _refuse(state, event, r.code, f"Rejected: {r.message}.", sender(event.by))
        return state
    try:
        _RULES[type(cmd)](Context(state, event.by, event.id, checked, narrated), cmd)
    except Rejected as r:
        raise _Failed(r.code, f"Rejected: {r.message}.", sender(event.by)) from None
    except Exception as bug:  # any exception of a rule is a bug, caught here and only here
        raise _Failed(BUG, f"Rejected: a rule failed on this command ({_where(bug)}); nothing changed.", "gm") from None
    state.seq += 1
    return state


BUG = "rules/bug"  # the code of a command a rule failed on (an exception inside the rules)


def sender(by: Actor) -> str:
    """The audience of a line only the sender of a command and the GM may read."""
    return "gm" if by.role != "player" else "player:" + ",".join(by.combatants)


def _refuse(state: Encounter, event: Event, code: str, text: str, audience: str) -> None:
    """The rejection as the event's only line; nothing else changes but the position."""
    state.recent = [Entry(seq=state.seq, kind="rejected", text=text, code=code, command_id=event.id, audience=audience)]
    state.seq += 1


def _where(bug: Exception) -> str:
    """The exception and the rule it came from, the same on every replica (no file paths)."""
    frame = traceback.extract_tb(bug.__traceback__)[-1] if bug.__traceback__ else None
    place = f" in {frame.filename.rsplit('/', 1)[-1].removesuffix('.py')}.{frame.name}" if frame else ""
    return re.sub(r" at 0x[0-9a-f]+", "", f"{type(bug).__name__}{place}: {bug}")[:300]
