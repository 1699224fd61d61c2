"""apply(state, event) -> state: the one reducer every replica folds the stream with.

Every command goes through the same checks in the same order: may this sender
send it, is the encounter in a state to take it, then the rule itself. An
illegal command is not an exception: it is logged as rejected, with a stable
namespaced code, and nothing else changes.
"""

from typing import assert_never

import msgspec

from fray_table.rules import morale, resolve, setup, undo
from fray_table.rules.commands import (
    AddCombatant,
    Advance,
    Answer,
    CallMorale,
    Command,
    CreateEncounter,
    Declare,
    EditCombatant,
    End,
    ForceRolls,
    RemoveCombatant,
    Restore,
    Start,
    Undo,
)
from fray_table.rules.context import Context
from fray_table.rules.declare import check_declare, declare
from fray_table.rules.errors import Rejected
from fray_table.rules.events import Actor, Event
from fray_table.rules.model import Encounter, Entry

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


def _check(state: Encounter, by: Actor, cmd: Command) -> None:
    # A restore is written by the server for the GM's undo, under the GM's actor;
    # no client may send one (server/app.py refuses SYSTEM commands before this).
    gm_made = by.role == "gm" and ("player" in cmd.roles or isinstance(cmd, Restore))
    if by.role not in cmd.roles and not gm_made:
        raise Rejected("auth/forbidden", f"a {by.role} may not send '{cmd.__struct_config__.tag}'")
    if state.status == "ended" and not isinstance(cmd, (CreateEncounter, Undo, Restore)):
        raise Rejected("encounter/ended", "the fight has ended")
    match cmd:
        case CreateEncounter():
            raise Rejected("create/already-created", "this encounter already exists")
        case AddCombatant():
            setup.check_add(state, cmd)
        case EditCombatant():
            setup.check_edit(state, cmd)
        case RemoveCombatant():
            setup.check_remove(state, cmd)
        case ForceRolls():
            setup.check_force(state, cmd)
        case End():
            setup.check_end(state, cmd)
        case Start():
            resolve.check_start(state, cmd)
        case Declare():
            check_declare(state, by, cmd)
        case Advance():
            resolve.check_advance(state, cmd)
        case Answer():
            resolve.check_answer(state, by, cmd)
        case CallMorale():
            morale.check_call(state, cmd)
        case Undo():
            undo.check_undo(state, cmd)
        case Restore():
            undo.check_restore(state, cmd)
        case _:
            assert_never(cmd)


def _perform(ctx: Context, cmd: Command) -> None:
    match cmd:
        case AddCombatant():
            setup.add(ctx, cmd)
        case EditCombatant():
            setup.edit(ctx, cmd)
        case RemoveCombatant():
            setup.remove(ctx, cmd)
        case ForceRolls():
            setup.force(ctx, cmd)
        case End():
            setup.end(ctx, cmd)
        case Start():
            resolve.start(ctx, cmd)
        case Declare():
            declare(ctx, cmd)
        case Advance():
            resolve.advance(ctx, cmd)
        case Answer():
            resolve.answer(ctx, cmd)
        case CallMorale():
            morale.call(ctx, cmd)
        case Restore():
            undo.restore(ctx, cmd)
        case Undo():
            raise RuntimeError("an undo is folded as the restore computed for it (rules.history.resolve), never as itself")
        case CreateEncounter():
            raise AssertionError("create is checked away above")
        case _:
            assert_never(cmd)


def apply(state: Encounter | None, event: Event) -> Encounter:
    cmd = event.command
    if state is None:
        if not isinstance(cmd, CreateEncounter):
            raise RuntimeError("the first event of an encounter must be 'create'")
        setup.check_create(cmd)
        state = setup.create(cmd)
        state.recent = [Entry(seq=0, kind="setup", text=f"Encounter created ({state.profile}); seed sha256 {state.seed_hash}.")]
        state.seq = 1
        return state
    state.recent = []
    try:
        _check(state, event.by, cmd)
    except Rejected as r:
        state.recent.append(
            Entry(seq=state.seq, kind="rejected", text=f"Rejected: {r.message}.", code=r.code, command_id=event.id)
        )
    else:
        _perform(Context(state, event.by, event.id), cmd)
    state.seq += 1
    return state


def fold(events, state: Encounter | None = None) -> Encounter | None:
    for event in events:
        state = apply(state, event)
    return state
