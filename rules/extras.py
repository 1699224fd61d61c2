"""Where the round's shared code reaches the 003 rules of ranged attacks, burning oil,
grappling, spells, subdual, morale and delayed actions. Each shared module makes
one call here; the rules live in their own modules."""

import functools
from typing import get_args

from fray_table.rules import (
    devices,  # 003: wands, rods and devices; fleeing
    footing,
    grapple,
    morale,
    oil,
    ranged,
    spells,
    subdual,
)
from fray_table.rules.actions import Action, Cast, Flee, Grapple, Recover, Shoot, Stand, StopDropRoll, ThrowOil, ThrowTorch, UseDevice
from fray_table.rules.charts.range_cover import COVER, COVER_KINDS, RANGE
from fray_table.rules.context import Context, lookup
from fray_table.rules.errors import Rejected
from fray_table.rules.model import Combatant, Encounter, Step
from fray_table.rules.round import PHASE_OF, PHASES, natural_phase
from fray_table.rules.terms import CALLED_SHOTS_MAX

ACTING = PHASES[1:-1]  # attack, movement, magic
CALLED_SHOTS = list(range(CALLED_SHOTS_MAX + 1))  # one shared list: read only


def phases_after(first: str | None) -> list[str]:
    return [p for p in ACTING if first in ACTING and ACTING.index(p) > ACTING.index(first)]


def later_phases(action) -> list[str]:
    """003: 'It is possible, but usually pointless, to delay actions to another phase'."""
    return phases_after(natural_phase(action))


@functools.cache
def delay_options(kind: str) -> tuple[str, ...]:
    """The phases an action of this type may be delayed to ([] if it takes no `delay`)."""
    cls = next((t for t in get_args(Action) if t.__struct_config__.tag == kind), None)
    if cls is None or "delay" not in cls.__struct_fields__:
        return ()
    return tuple(phases_after("attack" if kind == "shoot" else PHASE_OF.get(kind)))


@functools.cache
def delay_choices(kind: str) -> list[str]:
    """The `delay` option list of an action type: '' (no delay) and its later
    phases; [] if it takes none. One shared list per type: read only."""
    later = delay_options(kind)
    return ["", *later] if later else []


def check(state: Encounter, actor: Combatant, action) -> None:
    delay = getattr(action, "delay", "")
    if delay and delay not in later_phases(action):
        raise Rejected("declare/bad-delay", f"delay to a later phase: {', '.join(later_phases(action)) or 'none'}")
    match action:
        case Shoot():
            ranged.check(state, actor, action)
        case ThrowOil() | ThrowTorch():
            oil.check_throw(state, actor, action)
        case Grapple():
            grapple.check(state, actor, action)
        case StopDropRoll():
            oil.check_roll(state, actor)
        case Cast():
            spells.check(state, actor, action)
        case UseDevice():
            devices.check(state, actor, action)
        case Stand() | Recover():
            footing.check(state, actor, action)


def describe(state: Encounter, action) -> str | None:
    match action:
        case Shoot():
            return ranged.describe(state, action)
        case ThrowOil() | ThrowTorch():
            target = lookup(state, action.target)
            what = "throw oil" + ("" if isinstance(action, ThrowTorch) or action.torch else " (no torch)")
            return f"{'throw a torch' if isinstance(action, ThrowTorch) else what} at {target.name if target else action.target}"
        case Grapple():
            return grapple.describe(state, action)
        case StopDropRoll():
            return "stop, drop and roll"
        case Cast():
            return spells.describe(state, action)
        case UseDevice() | Flee():
            return devices.describe(state, action)
        case Stand() | Recover():
            return footing.describe(state, action)
    return None


def delay_text(action) -> str:
    delay = getattr(action, "delay", "")
    return f" (delayed to the {delay} phase)" if delay else ""


def resolve(ctx: Context, actor: Combatant, action, step: Step) -> None:
    match action:
        case Shoot():
            ranged.resolve(ctx, actor, action, step.kind)
        case ThrowOil():
            oil.throw_oil(ctx, actor, action)
        case ThrowTorch():
            oil.throw_torch(ctx, actor, action)
        case Grapple():
            grapple.resolve(ctx, actor, action, step)
        case StopDropRoll():
            oil.stop_drop_roll(ctx, actor)
        case Cast():
            spells.cast(ctx, actor, action)
        case UseDevice():
            devices.use(ctx, actor, action)
        case Flee():
            devices.flee(ctx, actor, action)
        case Stand() | Recover():
            footing.resolve(ctx, actor, action)


# Steps that are not a declared action: kind -> handler (003's round module: rules.holmes).
STEPS = {"burn": oil.burn}


def after_plan(state: Encounter) -> None:
    oil.schedule(state)


def end_of_round(ctx: Context) -> None:
    subdual.end_of_round(ctx)
    morale.end_of_round(ctx)


AIM = {"range_band": ["", *RANGE], "cover": list(COVER), "cover_kind": list(COVER_KINDS)}


def choices(state: Encounter, c: Combatant, targets: list[str]) -> list[dict]:
    """The 003 actions open to `c` now, as view.Choice fields. An empty option list
    means free text (a spell's name)."""
    out = []
    shooting = ranged.ranged_weapons(c)
    if shooting:
        out.append(
            dict(
                type="shoot",
                targets=targets,
                options={
                    "weapon": shooting,
                    **AIM,
                    "shots": [1, 2] if any(c.weapons[i].missile in ranged.TWICE for i in shooting) else [1],
                    "called_shots": CALLED_SHOTS,  # 003: 'Any attacker may take a -5 penalty'
                    "move_first": [False, True],
                    "max_feet": [c.move],
                },
            )
        )
    out.append(dict(type="throw_oil", targets=targets, options={**AIM, "torch": [True, False]}))
    oiled = [t for t in targets if oil.OILED in state_conditions(state, t)]
    out.append(dict(type="throw_torch", targets=oiled + [t for t in targets if t not in oiled], options={**AIM}))
    if state.round > c.no_grapple_until and grapple.may_grapple(state, c):
        out.append(dict(type="grapple", targets=targets, options={"target_unwilling": [False, True]}))
    if oil.BURNING in c.conditions and c.burning >= 1:
        out.append(dict(type="stop_drop_roll"))
    if c.caster:
        out.append(dict(type="cast", targets=[""] + targets, options={"spell": []}))
    out.append(dict(type="use_device", targets=[""] + targets, options={"device": []}))  # 003: a device is a weapon
    out.append(dict(type="flee", options={"max_feet": [c.move]}))
    return out


def state_conditions(state: Encounter, cid: str) -> list[str]:
    c = lookup(state, cid)
    return c.conditions if c else []
