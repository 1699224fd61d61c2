"""Moving a fight on to newer rules, by the GM's choice (DESIGN, 'Versions of the rules').

A fight folds under the rules version of its first event, forever. The GM may take
it on to a newer version with `upgrade_rules`: the events before it keep what they
showed, and from it on the fight folds under the new version's rules; the dice go
on from the same seed and draw positions. A fork may be made under a newer version
the same way (`Fork.rules_version`).

`version_needed` is what a replica asks of an event before folding it: a replica
that does not know that version hands the fight to one that does (server/hub.py).
"""

from . import ruleset
from .commands import Command, CreateEncounter, Fork, UpgradeRules
from .context import Context
from .errors import Rejected
from .model import Encounter
from .profiles import validate_options


def version_needed(cmd: Command) -> int:
    """The rules version a replica must know to fold this command (0: any)."""
    if type(cmd) is CreateEncounter:
        return cmd.rules_version
    if type(cmd) is UpgradeRules:
        return cmd.version
    if type(cmd) is Fork:
        return cmd.rules_version
    return 0


def options_at(state: Encounter, version: int, changes: dict | None = None) -> dict:
    """The fight's options as the rules of `version` have them (the ones it no longer
    has left out, the new ones at their defaults). Raises Rejected naming what cannot go on."""
    try:
        known = {o.name for o in ruleset.compose(state.profile, tuple(sorted(state.modules.items())), ruleset.kept(version)).options}
        return validate_options(state.profile, {k: v for k, v in {**state.options, **(changes or {})}.items() if k in known}, state.modules, version)
    except ValueError as e:
        raise Rejected("upgrade/cannot", f"this fight cannot go on under rules version {version}: {e}") from None


def check_upgrade(state: Encounter, cmd: UpgradeRules) -> dict:
    now = ruleset.kept(state.rules_version)
    if cmd.version > ruleset.RULES_VERSION:
        raise Rejected("upgrade/unknown-version", f"rules version {cmd.version} is not known here (the newest is {ruleset.RULES_VERSION})")
    if cmd.version <= now:
        raise Rejected("upgrade/not-newer", f"this fight is already played under rules version {now}; version {cmd.version} is not newer")
    return options_at(state, cmd.version)


def upgrade(ctx: Context, cmd: UpgradeRules) -> None:
    state = ctx.state
    was = ruleset.kept(state.rules_version)
    state.options = ctx.checked
    state.rules_version = cmd.version
    ctx.log(
        "rules",
        f"The GM moves the fight on to rules version {cmd.version} (it was played under version {was}): "
        "from here on it is played under those rules; what happened before stays as it was.",
    )
