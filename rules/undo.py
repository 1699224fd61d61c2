"""The GM's undo, the reducer's side: checking an `undo` and applying a `restore`.

The stream is never rewritten. The server turns a GM's `undo {seq}` into a
`restore` (rules/history.py computes it with this reducer) carrying the value
of every state field the undo changes. Here the reducer checks that those
values have a sound shape and applies them as they are, so a replay never
recomputes an undo. A rejected restore changes nothing, as any rejection.
"""

import copy

from msgspec import UNSET

from .commands import IN_WORDS, Restore, Undo
from .context import Context
from .errors import Rejected
from .model import DOWN, UP, Combatant, Encounter, die_key
from .round import PHASES
from .setup import MAX_COMBATANTS, MAX_FORCED, check_figures

# The state fields a restore may carry. The others are never restored: the
# rules the fight is pinned to and its seed, the position (it keeps counting:
# docs/rulings.md 'Undo'), the last event's log; `undone` is always carried.
RESTORED = (
    "status",
    "round",
    "phase",
    "combatants",
    "declarations",
    "surprised",
    "steps",
    "awaiting",
    "forced",
    "forced_by_die",
    "entered",
    "morale_triggers",
    "next_id",
    "battle_map",
)
PINNED = ("id", "profile", "options", "modules", "seed", "seed_hash", "rules_version", "seq", "recent", "undone", "origin")
BAD = "undo/bad-restore"


def check_undo(state: Encounter, cmd: Undo) -> None:
    if state.status == "ended":
        raise Rejected("undo/ended", "the fight has ended: its events can no longer be undone")
    if cmd.seq == 0:
        raise Rejected("undo/create", "event #0 created the encounter: it cannot be undone")
    if state.origin is not None and (cmd.seq == (at := state.origin.at + 1) or cmd.rewind and cmd.seq < at):
        raise Rejected("undo/fork", f"event #{at} made this fight a fork of {state.origin.encounter}: it cannot be undone, nor rewound past")
    if not 0 < cmd.seq < state.seq:
        raise Rejected("undo/unknown-event", f"there is no event #{cmd.seq} to undo (the last is #{state.seq - 1})")
    if cmd.seq in state.undone:
        raise Rejected("undo/already-undone", f"event #{cmd.seq} is already undone")


def check_restore(state: Encounter, cmd: Restore) -> None:
    if state.status != "ended" and cmd.at != state.seq:
        raise Rejected(
            "undo/stale",
            f"the fight moved on while the undo was prepared (for event #{cmd.at}, this is #{state.seq}): nothing was undone",
        )
    check_undo(state, Undo(seq=cmd.undoes, rewind=cmd.rewind))
    undone = cmd.undone
    if undone != sorted(set(undone)) or cmd.undoes not in undone or not 0 < undone[0] <= undone[-1] < state.seq:
        raise Rejected(BAD, "a restore's undone events must be ascending, distinct, earlier events, and include the one undone")
    if len(cmd.what) > 300:
        raise Rejected(BAD, "a restore's description is at most 300 characters")
    _check_values(state, cmd)


def _check_values(state: Encounter, cmd: Restore) -> None:
    """The carried values must make a state the reducer can go on from."""
    if cmd.status is not UNSET and cmd.status not in ("setup", "running"):
        raise Rejected(BAD, f"a restore cannot set the status {cmd.status!r}")
    if cmd.phase is not UNSET and cmd.phase not in ("setup", *PHASES):
        raise Rejected(BAD, f"there is no phase {cmd.phase!r}")
    if cmd.round is not UNSET and not 0 <= cmd.round <= 1_000_000:
        raise Rejected(BAD, f"round {cmd.round} is out of range")
    if cmd.next_id is not UNSET and cmd.next_id < state.next_id:
        raise Rejected(BAD, "combatant ids are never reused: next_id cannot go back")
    for name, dice in (("forced", cmd.forced), ("entered", cmd.entered)):
        if dice is not UNSET and (len(dice) > MAX_FORCED or any(not 1 <= v <= 1000 for v in dice)):
            raise Rejected(BAD, f"at most {MAX_FORCED} {name} results, each 1 to 1000")
    if cmd.forced_by_die is not UNSET:
        if sum(map(len, cmd.forced_by_die.values())) > MAX_FORCED or any(
            not sides.isdecimal() or not 1 <= int(sides) <= 1000 or sides != die_key(int(sides)) or any(not 1 <= v <= int(sides) for v in values)
            for sides, values in cmd.forced_by_die.items()
        ):
            raise Rejected(BAD, f"at most {MAX_FORCED} forced results by die, each 1 to its die's sides")
    combatants = state.combatants if cmd.combatants is UNSET else cmd.combatants
    ids = [c.id for c in combatants]
    if len(ids) > MAX_COMBATANTS or len(set(ids)) != len(ids) or "" in ids:
        raise Rejected(BAD, f"at most {MAX_COMBATANTS} combatants, each with its own id")
    if cmd.combatants is not UNSET:
        for c in cmd.combatants:
            check_figures(state, c, BAD)
    declarations = state.declarations if cmd.declarations is UNSET else cmd.declarations
    awaiting = state.awaiting if cmd.awaiting is UNSET else cmd.awaiting
    named = [d.actor for d in declarations] + ([] if awaiting is None or awaiting.who == "gm" else [awaiting.who])
    if any(cid not in ids for cid in named):
        raise Rejected(BAD, "declarations and the awaited answer must name combatants of the fight")


def restore(ctx: Context, cmd: Restore) -> None:
    state = ctx.state
    before = {c.id: c for c in state.combatants}  # the live fight's: setattr below puts copies in their place
    for name in RESTORED:
        value = getattr(cmd, name)
        if value is not UNSET:
            setattr(state, name, copy.deepcopy(value))  # the event's values stay as stored
    state.undone = list(cmd.undone)
    ctx.log("gm", undo_line(cmd))
    if cmd.combatants is not UNSET:
        ctx.rules.undone(ctx, before)  # rules version 8 on: what it changed (tell_changes); 7: nothing more


def tell_nothing(ctx: Context, before: dict[str, Combatant]) -> None:
    """Rules version 7's undo: its own line alone (hook `undone`)."""


def tell_changes(ctx: Context, before: dict[str, Combatant]) -> None:
    """Hook `undone` from rules version 8 on (issue 27). A line for each combatant whose HP, fall or conditions the undo changed: 'After the
    undo, Goblin 1: 0 HP (was 3), down.' The events after the undone one were judged again
    and may have ended otherwise than their lines said; without this, the card and the
    log's last line about it disagree (issue 27). A hidden combatant's HP are the GM's:
    the table reads its other changes, or no line when there are none. A newly fallen
    combatant's line is a fall (DOWN), a risen one's a rise (UP), as rules.summary counts them."""
    for c in ctx.state.combatants:
        was = before.get(c.id)
        if was is None:
            continue  # added or taken away with the undone event: the undo's own line names it
        figures: list[str] = [f"{c.hp} HP (was {was.hp})"] if c.hp != was.hp else []
        shown: list[str] = []
        if c.down != was.down:
            shown.append("down" if c.down else "up again")
        shown += [f"now {x}" for x in c.conditions if x not in was.conditions]
        shown += [f"no longer {x}" for x in was.conditions if x not in c.conditions]
        if not figures and not shown:
            continue
        head = f"After the undo, {c.name}: "
        text = head + ", ".join(figures + shown) + "."
        public = head + ", ".join(shown) + "." if shown else None
        hides = c.hidden or c.unseen
        audience = "gm" if hides and public is None else "all"
        kind = "gm" if c.down == was.down else DOWN if c.down else UP
        ctx.log(kind, text, public, target=c.id, audience=audience)


def undo_line(cmd: Restore) -> str:
    """The line of an undo, in words: 'GM undid “GM edits Goblin: hp 0.” (event #4).' The
    undone event is named by its first public line (`what`: its command's tag, ' — ', that
    line, as rules.history made it), or by its command in words when it had none."""
    tag, sep, told = cmd.what.partition(" — ")
    if sep:
        said = f"“{told}”"
    else:
        command, _, aside = tag.partition(" ")
        said = IN_WORDS.get(command, command.replace("_", " ")) + (f" {aside}" if aside else "")
    done = "rewound the fight to before" if cmd.rewind else "undid"
    return f"GM {done} {said} (event #{cmd.undoes})."
