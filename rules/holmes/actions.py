"""003's actions, each one record (rules.ruleset.ActionRules): its check, its words in
the log, its resolution, its choice in the view and the phase it resolves in.
Declarations, the step queue and the view reach them only through these records,
as they reach any profile's; the rules themselves live in their own modules
(rules.holmes.melee, ranged, oil, grapple, spells, devices, footing).
"""

import functools
from typing import get_args

from ..actions import ACT, SHOOT, Action, Attack, Flee, Move, Shoot, ThrowOil, ThrowTorch
from ..charts.range_cover import COVER, COVER_KINDS, RANGE
from ..conditions import BURNING, OILED
from ..context import Context, lookup
from ..errors import Rejected
from ..model import Combatant, Encounter, Step
from ..round import PHASES
from ..ruleset import ActionRules
from . import devices, footing, grapple, melee, oil, ranged, spells
from .combat import attack, distance, routine_weapons
from .fighters import gone
from .terms import CALLED_SHOTS_MAX

# Which phase resolves each declared action (003).
PHASE_OF = {
    "attack": "attack",  # 'Attacks made while stationary are resolved.'
    "move": "movement",  # 'All declared movement occurs.'
    "hold": None,
    "charge": "movement",  # 003: 'Both approaches are made in the Movement Phase'
    "approach": "movement",
    "set_spear": "attack",  # 003: the set 'will occur in the Attack phase of the round'
    "parry": None,  # a stance for the whole round, read when the parrier is attacked
    "kill": "attack",
    "shoot": "attack",  # 'This includes most missile fire.' (Shoot.steps may add the movement phase)
    "throw_oil": "attack",
    "throw_torch": "attack",
    "grapple": "attack",
    "stop_drop_roll": "movement",  # 003: 'This is a Movement Phase action'
    "cast": "magic",  # 'Magic spells cast ... now their effects are resolved.'
    "stand": "movement",  # getting up is movement (a ruling; rules.holmes.footing)
    "recover": "movement",  # picking up a dropped weapon (a ruling; rules.holmes.footing)
    "use_device": "attack",  # 003: devices 'are "weapons" and not "spells"; ... resolved in the earlier phases'
    "flee": "movement",  # running away is movement; the runner is then 'fled' (a ruling; rules.holmes.devices)
}

ACTING = PHASES[1:-1]  # attack, movement, magic
CALLED_SHOTS = list(range(CALLED_SHOTS_MAX + 1))  # one shared list: read only
EITHER = [False, True]
AIM = {"range_band": ["", *RANGE], "cover": list(COVER), "cover_kind": list(COVER_KINDS)}


# --- delay: 003, 'It is possible, but usually pointless, to delay actions to another phase'


def phases_after(first: str | None) -> list[str]:
    return [p for p in ACTING if first in ACTING and ACTING.index(p) > ACTING.index(first)]


def natural_phase(action) -> str | None:
    own = getattr(action, "steps", None)
    steps = own() if own else [(PHASE_OF[action.__struct_config__.tag], ACT)]
    return steps[0][0] if steps else None


def later_phases(action) -> list[str]:
    return phases_after(natural_phase(action))


@functools.cache
def delay_options(kind: str) -> tuple[str, ...]:
    """The phases an action of this type may be delayed to ([] if it takes no `delay`)."""
    cls = next((t for t in get_args(Action) if t.__struct_config__.tag == kind), None)
    if cls is None or "delay" not in cls.__struct_fields__:
        return ()
    return tuple(phases_after("attack" if kind == SHOOT else PHASE_OF.get(kind)))


@functools.cache
def delay_choices(kind: str) -> list[str]:
    """The `delay` option list of an action type: '' (no delay) and its later
    phases; [] if it takes none. One shared list per type: read only."""
    later = delay_options(kind)
    return ["", *later] if later else []


def check_delay(state: Encounter, actor: Combatant, action) -> None:
    delay = getattr(action, "delay", "")
    if delay and delay not in later_phases(action):
        raise Rejected("declare/bad-delay", f"delay to a later phase: {', '.join(later_phases(action)) or 'none'}")


def delay_text(action) -> str:
    delay = getattr(action, "delay", "")
    return f" (delayed to the {delay} phase)" if delay else ""


def delayed(options: dict, kind: str) -> dict:
    """A choice's options with its `delay` list, if it takes one."""
    later = delay_choices(kind)
    return {**options, "delay": later} if later else options


# --- attack, move, hold


def check_attack(state: Encounter, actor: Combatant, a: Attack) -> None:
    target = lookup(state, a.target)
    if target is None:
        raise Rejected("declare/unknown-target", f"there is no combatant {a.target!r}")
    if target.id == actor.id:
        raise Rejected("declare/self-target", f"{actor.name} cannot attack itself")
    if not 0 <= a.weapon < len(actor.weapons):
        raise Rejected("declare/no-such-weapon", f"{actor.name} has no weapon number {a.weapon}")
    if not 0 <= a.called_shots <= CALLED_SHOTS_MAX:
        raise Rejected("declare/called-shots", f"called shots are 0 to {CALLED_SHOTS_MAX}")
    melee.check_attack(state, actor, a, target)  # 003 melee: weapons, double attack, routine, called shots
    if a.delay:  # (most attacks are not delayed: no call to check none)
        check_delay(state, actor, a)


def check_square(state: Encounter, actor: Combatant, m: Move | Flee) -> None:
    """A move's or a flight's destination (a flight is checked as a move: rules.holmes.devices)."""
    if m.x < 0 or m.y < 0 or m.x % 5 or m.y % 5:
        raise Rejected("declare/off-grid", f"({m.x}, {m.y}) is not a square of the 5-ft grid")
    dest = Combatant(id="", name="", side="", x=m.x, y=m.y)
    if distance(actor, dest) > actor.move:
        raise Rejected("declare/too-far", f"{actor.name} moves at most {actor.move} ft a round")


def check_move(state: Encounter, actor: Combatant, m: Move) -> None:
    check_square(state, actor, m)
    check_delay(state, actor, m)


def routine_text(c: Combatant | None) -> str:
    """', its routine (claw, claw, bite)': the weapons named, unless they are a hidden monster's."""
    if c is None or c.hidden:
        return ", its attack routine"
    return f", its attack routine ({', '.join(c.weapons[i].name for i in routine_weapons(c))})"


def describe_attack(state: Encounter, a: Attack) -> str:
    target = lookup(state, a.target)
    extra = f", {a.called_shots} called shot(s)" if a.called_shots else ""
    if a.routine:
        extra += routine_text(lookup(state, next((d.actor for d in state.declarations if d.action is a), "")))
    return f"attack {target.name if target else a.target}{extra}{delay_text(a)}"


def resolve_attack(ctx: Context, actor: Combatant, a: Attack, step: Step) -> None:
    if lookup(ctx.state, a.target) is None:
        ctx.log("attack", f"{actor.name}'s target has left the fight.", actor=actor.id)
    else:
        attack(ctx, actor, a)


def resolve_move(ctx: Context, actor: Combatant, m: Move, step: Step) -> None:
    actor.x, actor.y = m.x, m.y
    ctx.log("move", f"{actor.name} moves to ({m.x}, {m.y}).", actor=actor.id)


def nothing(ctx: Context, actor: Combatant, action, step: Step) -> None:
    """A stance (hold, parry): nothing resolves; a parry is read when the parrier is attacked."""


def targets(state: Encounter, c: Combatant) -> list[str]:
    """Hook `targets`: everyone else still in the fight, foes first."""
    others = [t for t in state.combatants if t.id != c.id and not t.down and not gone(state, t)]
    return [t.id for t in others if t.side != c.side] + [t.id for t in others if t.side == c.side]


def offer_attack(state: Encounter, c: Combatant, targets: list[str]) -> dict:
    options = {
        "weapon": list(range(len(c.weapons))),
        "called_shots": CALLED_SHOTS,
        "from_behind": EITHER,
        "subdue": EITHER,
        "double": EITHER,  # 003: shorter, lighter weapon attacks twice
        # a monster's attack routine, one strike a weapon (003: multiple attacks)
        **({"routine": EITHER} if len(routine_weapons(c)) > 1 else {}),
    }
    return dict(type="attack", targets=targets, options=delayed(options, "attack"))


def offer_move(state: Encounter, c: Combatant, targets: list[str]) -> dict:
    return dict(type="move", options=delayed({"max_feet": [c.move]}, "move"))


def offer_hold(state: Encounter, c: Combatant, targets: list[str]) -> dict:
    return dict(type="hold")


# --- ranged, oil, grappling, spells, devices, fleeing


def check_shoot(state: Encounter, actor: Combatant, a: Shoot) -> None:
    check_delay(state, actor, a)
    ranged.check(state, actor, a)


def check_throw(state: Encounter, actor: Combatant, a: ThrowOil | ThrowTorch) -> None:
    check_delay(state, actor, a)
    oil.check_throw(state, actor, a)


def check_grapple(state: Encounter, actor: Combatant, a) -> None:
    check_delay(state, actor, a)
    grapple.check(state, actor, a)


def describe_shoot(state: Encounter, a: Shoot) -> str:
    return ranged.describe(state, a) + delay_text(a)


def describe_oil(state: Encounter, a: ThrowOil) -> str:
    target = lookup(state, a.target)
    return f"throw oil{'' if a.torch else ' (no torch)'} at {target.name if target else a.target}{delay_text(a)}"


def describe_torch(state: Encounter, a: ThrowTorch) -> str:
    target = lookup(state, a.target)
    return f"throw a torch at {target.name if target else a.target}{delay_text(a)}"


def describe_grapple(state: Encounter, a) -> str:
    return grapple.describe(state, a) + delay_text(a)


def offer_shoot(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    shooting = ranged.ranged_weapons(c)
    if not shooting:
        return None
    options = {
        "weapon": shooting,
        **AIM,
        "shots": [1, 2] if any(c.weapons[i].missile in ranged.TWICE for i in shooting) else [1],
        "called_shots": CALLED_SHOTS,  # 003: 'Any attacker may take a -5 penalty'
        "move_first": [False, True],
        "max_feet": [c.move],
    }
    return dict(type="shoot", targets=targets, options=delayed(options, "shoot"))


def offer_oil(state: Encounter, c: Combatant, targets: list[str]) -> dict:
    return dict(type="throw_oil", targets=targets, options=delayed({**AIM, "torch": [True, False]}, "throw_oil"))


def offer_torch(state: Encounter, c: Combatant, targets: list[str]) -> dict:
    oiled = [t for t in targets if OILED in state_conditions(state, t)]
    return dict(type="throw_torch", targets=oiled + [t for t in targets if t not in oiled], options=delayed({**AIM}, "throw_torch"))


def offer_grapple(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    if state.round > c.no_grapple_until and grapple.may_grapple(state, c):
        return dict(type="grapple", targets=targets, options=delayed({"target_unwilling": [False, True]}, "grapple"))
    return None


def offer_roll(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    return dict(type="stop_drop_roll") if BURNING in c.conditions and c.burning >= 1 else None


def offer_cast(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    # An empty option list means free text (a spell's name).
    return dict(type="cast", targets=["", *targets], options={"spell": []}) if c.caster else None


def offer_device(state: Encounter, c: Combatant, targets: list[str]) -> dict:
    return dict(type="use_device", targets=["", *targets], options={"device": []})  # 003: a device is a weapon


def offer_flee(state: Encounter, c: Combatant, targets: list[str]) -> dict:
    return dict(type="flee", options={"max_feet": [c.move]})


def state_conditions(state: Encounter, cid: str) -> list[str]:
    c = lookup(state, cid)
    return c.conditions if c else []


def steps(fn):
    """A resolution that takes no step: (ctx, actor, action) as a record's (ctx, actor, action, step)."""
    return lambda ctx, actor, action, step: fn(ctx, actor, action)


def words(text: str):
    return lambda state, action: text


# 003's actions, in the order the view lists their choices.
ACTIONS = {
    "attack": ActionRules(describe_attack, resolve_attack, check_attack, offer_attack, PHASE_OF["attack"]),
    "move": ActionRules(lambda state, m: f"move to ({m.x}, {m.y}){delay_text(m)}", resolve_move, check_move, offer_move, PHASE_OF["move"]),
    "hold": ActionRules(words("hold"), nothing, None, offer_hold, PHASE_OF["hold"]),
    # melee manoeuvres (rules.holmes.melee): charge, approach, set, parry, kill
    "charge": ActionRules(melee.describe_charge, steps(melee.charge), melee.check_charge, melee.offer_charge, PHASE_OF["charge"]),
    "approach": ActionRules(melee.describe_approach, steps(melee.approach), melee.check_approach, melee.offer_approach, PHASE_OF["approach"]),
    "set_spear": ActionRules(words("set a spear against a charge"), steps(melee.set_spear), melee.check_set, melee.offer_set, PHASE_OF["set_spear"]),
    "parry": ActionRules(melee.describe_parry, nothing, melee.check_parry, melee.offer_parry, PHASE_OF["parry"]),
    "kill": ActionRules(melee.describe_kill, steps(melee.kill), melee.check_kill, melee.offer_kill, PHASE_OF["kill"]),
    # footing (rules.holmes.footing): stand up, pick up a dropped weapon
    "stand": ActionRules(words("stand up"), lambda ctx, actor, a, step: footing.stand(ctx, actor), footing.check_stand, footing.offer_stand, PHASE_OF["stand"]),
    "recover": ActionRules(
        words("pick up a dropped weapon"),
        lambda ctx, actor, a, step: footing.recover(ctx, actor, a.weapon),
        footing.check_recover,
        footing.offer_recover,
        PHASE_OF["recover"],
    ),
    # ranged, oil, grappling, spells, devices, fleeing
    "shoot": ActionRules(describe_shoot, lambda ctx, actor, a, step: ranged.resolve(ctx, actor, a, step.kind), check_shoot, offer_shoot, PHASE_OF["shoot"]),
    "throw_oil": ActionRules(describe_oil, steps(oil.throw_oil), check_throw, offer_oil, PHASE_OF["throw_oil"]),
    "throw_torch": ActionRules(describe_torch, steps(oil.throw_torch), check_throw, offer_torch, PHASE_OF["throw_torch"]),
    "grapple": ActionRules(describe_grapple, grapple.resolve, check_grapple, offer_grapple, PHASE_OF["grapple"]),
    "stop_drop_roll": ActionRules(
        words("stop, drop and roll"),
        lambda ctx, actor, a, step: oil.stop_drop_roll(ctx, actor),
        lambda state, actor, a: oil.check_roll(state, actor),
        offer_roll,
        PHASE_OF["stop_drop_roll"],
    ),
    "cast": ActionRules(spells.describe, steps(spells.cast), spells.check, offer_cast, PHASE_OF["cast"]),
    "use_device": ActionRules(devices.describe_use, steps(devices.use), devices.check, offer_device, PHASE_OF["use_device"]),
    "flee": ActionRules(devices.describe_flee, steps(devices.flee), check_square, offer_flee, PHASE_OF["flee"]),
}


# Rules version 8: the torch, after a flask or on its own, is thrown at the oil, never
# randomised into a melee (003: 'you are targeting the splashed oil rather than the monster').
AT_THE_OIL = {
    "throw_oil": ActionRules(describe_oil, steps(functools.partial(oil.throw_oil, torch=oil.torch_at_the_oil)), check_throw, offer_oil, PHASE_OF["throw_oil"]),
    "throw_torch": ActionRules(
        describe_torch, steps(functools.partial(oil.throw_torch, torch=oil.torch_at_the_oil)), check_throw, offer_torch, PHASE_OF["throw_torch"]
    ),
}


def arrange(state: Encounter) -> None:
    """Hook `arrange`: 003's longer weapon strikes first in mutual melee; burning oil burns at the head of the magic phase."""
    state.steps = melee.by_length(state, state.steps)
    oil.schedule(state)
