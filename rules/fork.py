"""What-if forks: a fight that goes on from a point of another one.

A fork's stream is a prefix of its origin's (events 0..`at`, as they are, so the
fork folds to the origin's state at that point, byte for byte), then one `fork`
event: from it on the fight is encounter `id`, with a seed of its own for every
roll (committed by its hash like any seed, revealed at its end), and the options
it names changed. The events before it are the origin's: they keep the origin's
seed and may be undone like any other; the fork event itself may not.
"""

import hashlib

from .commands import Fork, UpgradeRules
from .context import Context
from .errors import Rejected
from .model import Encounter, Origin
from .profiles import validate_options
from .upgrade import check_upgrade, options_at


def check_fork(state: Encounter, cmd: Fork) -> None:
    if cmd.at != state.seq - 1 or cmd.origin != state.id:
        raise Rejected(
            "fork/misplaced", f"a fork of {cmd.origin!r} after its event #{cmd.at} comes right after those events (this is #{state.seq} of {state.id!r})"
        )
    if not cmd.id or cmd.id == state.id:
        raise Rejected("fork/bad-id", "a fork is a new encounter: it needs an id of its own")
    if cmd.veil > cmd.at or (cmd.veil >= 0) != (cmd.veil_role in ("player", "spectator")):
        raise Rejected("fork/bad-veil", f"a fork's veil covers its origin's events (0 to #{cmd.at}) as a player or a spectator saw them")
    if len(cmd.seed) < 16:
        raise Rejected("create/weak-seed", "the seed must be at least 16 bytes")
    if cmd.rules_version:
        check_upgrade(state, UpgradeRules(version=cmd.rules_version))
    try:
        validate_options(state.profile, {**state.options, **cmd.options}, state.modules, cmd.rules_version or state.rules_version)
    except ValueError as e:
        raise Rejected("create/bad-options", str(e)) from None


def fork(ctx: Context, cmd: Fork) -> None:
    state = ctx.state
    origin = state.id
    state.id = cmd.id
    state.seed = cmd.seed
    state.seed_hash = hashlib.sha256(cmd.seed).hexdigest()
    state.origin = Origin(encounter=origin, at=cmd.at, veil=cmd.veil, veil_role=cmd.veil_role, veil_combatants=tuple(cmd.veil_combatants))
    if cmd.veil == cmd.at:  # a new veil: the origin's GM notes were not for this fork's GM
        for c in state.combatants:
            c.notes = ""
        state.forced, state.forced_by_die = [], {}  # nor were the dice that GM forced and did not use
    changed = {name: value for name, value in cmd.options.items() if state.options.get(name) != value}
    if cmd.rules_version:  # a fork under newer rules (rules/upgrade.py): its options as they have them
        state.options = options_at(state, cmd.rules_version, cmd.options)
        changed["rules version"] = state.rules_version = cmd.rules_version
    else:
        state.options = validate_options(state.profile, {**state.options, **cmd.options}, state.modules, state.rules_version)
    words = "; ".join(f"{name} now {value}" for name, value in changed.items())
    ctx.log("fork", f"A fork of encounter {origin} after its event #{cmd.at}" + (f" ({words})" if words else "") + f"; a new seed, sha256 {state.seed_hash}.")
