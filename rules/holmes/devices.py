"""Devices and fleeing (003). 'Wands, rods, and other magic devices are "weapons" and
not "spells"; their effects are resolved in the earlier phases': Fray resolves the use
in the attack phase; the device's effects are the GM's. A burning user still uses it
(only spells are lost to the flames, rules.holmes.oil). Fleeing is a move in the movement
phase that leaves the runner out of the fight, as morale's 'Flee' does (rules.holmes.morale)."""

from ..actions import Flee, UseDevice
from ..conditions import FLED
from ..context import Context, lookup
from ..errors import Rejected
from ..model import Combatant, Encounter

MAX_DEVICE = 60


def check(state: Encounter, actor: Combatant, a: UseDevice) -> None:
    if not a.device.strip() or len(a.device) > MAX_DEVICE:
        raise Rejected("use_device/bad-device", f"name the device in 1 to {MAX_DEVICE} characters")
    if a.target and lookup(state, a.target) is None:
        raise Rejected("use_device/unknown-target", f"there is no combatant {a.target!r}")


def describe_flee(state: Encounter, a: Flee) -> str:
    return f"flee to ({a.x}, {a.y})"


def describe_use(state: Encounter, a: UseDevice) -> str:
    target = lookup(state, a.target) if a.target else None
    return f"use {a.device}" + (f" on {target.name}" if target else "")


def use(ctx: Context, actor: Combatant, a: UseDevice) -> None:
    target = lookup(ctx.state, a.target) if a.target else None
    on = f" on {target.name}" if target else ""
    ctx.log("device", f"{actor.name} uses {a.device}{on}.", actor=actor.id, target=a.target or None)


def flee(ctx: Context, actor: Combatant, a: Flee) -> None:
    """The destination was checked at declaration as a `move` is (rules.declare)."""
    actor.x, actor.y = a.x, a.y
    if FLED not in actor.conditions:
        actor.conditions.append(FLED)
    ctx.log("move", f"{actor.name} flees to ({a.x}, {a.y}) and is out of the fight.", actor=actor.id)
