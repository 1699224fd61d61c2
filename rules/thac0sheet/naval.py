"""002 'Naval combat'. A vessel is a combatant with `vessel` set: its `hp` are hull
points, its `move` its full speed; `rowers`/`rowers_max` and `crew` are its people.
It is declared for by whoever commands it (sail with `move`, `grapple_ship`, `repair`);
fighters aboard (`aboard`) `board` a vessel grappled to theirs.
"""

import msgspec

from ..actions import Board, GrappleShip, Repair
from ..charts.thac0_sheet import (
    DEAD_IN_WATER,
    GRAPPLE_ON,
    GRAPPLE_RANGE,
    HP_PER_HULL_POINT,
    REPAIR_CREW,
    REPAIR_FAILS,
    REPAIR_PER_TURN,
    REPAIR_SHARE,
    SINKS,
    SPEED_STEP,
)
from ..context import Context, LineFields, hp_left, lookup, said
from ..errors import Rejected
from ..holmes.combat import distance, queue
from ..holmes.damage import roll_damage
from ..holmes.fighters import declared, usable
from ..holmes.kinds import STRIKE
from ..holmes.melee import toward
from ..model import Combatant, Encounter, Step

GRAPPLED, DEAD, SUNK, BOARDING = "grappled", "dead in water", "sunk", "boarding"


def damage_share(c: Combatant) -> int:
    """Percent of the hull lost, rounded down."""
    return (c.hp_max - max(c.hp, 0)) * 100 // c.hp_max


def rowers_lost(c: Combatant) -> int:
    return (c.rowers_max - c.rowers) * 100 // c.rowers_max if c.rowers_max else 0


def speed(c: Combatant) -> int:
    """002: 'Each 10% of damage or 10% loss of rowers reduces speed by 10%. Dead in
    water at 75% damage.' Only whole tenths count; never below 0."""
    if damage_share(c) >= DEAD_IN_WATER:
        return 0
    tenths = damage_share(c) // SPEED_STEP + rowers_lost(c) // SPEED_STEP
    return max(0, c.move * (100 - SPEED_STEP * tenths) // 100)


def hull_damage(ctx: Context, attacker: Combatant, target: Combatant, dice: str, extra) -> None:
    """002: 'Magic and giant monsters: usually 1 hull point for each 5 hit points, rounding down.'"""
    points, shown = roll_damage(ctx, target, dice, extra)
    strike_hull(ctx, target, points // HP_PER_HULL_POINT, f"{points} hit points ({shown}) / {HP_PER_HULL_POINT}, rounded down", attacker.id)


def strike_hull(ctx: Context, ship: Combatant, hull: int, why: str, actor: str | None = None) -> None:
    ship.hp -= hull
    ctx.log("damage", **said(f"{ship.name} takes {hull} hull points ({why})", hp_left(ship), "."), actor=actor, target=ship.id, total=hull)
    afloat(ctx, ship)


def afloat(ctx: Context, ship: Combatant) -> None:
    """Dead in water at 75% damage, sunk at 100%; the speed left otherwise."""
    share = damage_share(ship)
    damaged = (f" ({share}% damage)", "")  # the share of max HP lost: a figure
    if share >= SINKS:
        ship.down = True
        if SUNK not in ship.conditions:
            ship.conditions.append(SUNK)
        ctx.log("down", **said(f"{ship.name} sinks", damaged, "."), target=ship.id)
    elif share >= DEAD_IN_WATER:
        if DEAD not in ship.conditions:
            ship.conditions.append(DEAD)
        ctx.log("naval", **said(f"{ship.name} is dead in the water", damaged, "."), target=ship.id)  # seen: it stops
    else:
        if DEAD in ship.conditions:
            ship.conditions.remove(DEAD)
        made = (f"{speed(ship)} of {ship.move} ft ({share}% damage, {rowers_lost(ship)}% of the rowers lost)", "way")
        ctx.log(
            "naval", **said(f"{ship.name} makes ", made, "."), target=ship.id, audience="gm" if ship.hidden else "all"
        )  # a hidden vessel's figures are the GM's


# --- declarations ------------------------------------------------------------


def vessel(state: Encounter, cid: str, code: str, what: str) -> Combatant:
    c = lookup(state, cid)
    if c is None:
        raise Rejected(f"{code}/unknown-target", f"there is no combatant {cid!r}")
    if not c.vessel:
        raise Rejected(f"{code}/not-a-vessel", f"{c.name} is not a vessel; {what}")
    return c


def check(state: Encounter, actor: Combatant, action) -> None:
    match action:
        case GrappleShip():
            if not actor.vessel:
                raise Rejected("grapple_ship/not-a-vessel", f"{actor.name} is not a vessel: fighters board, vessels grapple")
            target = vessel(state, action.target, "grapple_ship", "only vessels are grappled")
            if target.id == actor.id:
                raise Rejected("grapple_ship/self-target", f"{actor.name} cannot grapple itself")
            if actor.lashed_to == target.id:
                raise Rejected("grapple_ship/already", f"{actor.name} is already grappled to {target.name}")
        case Board():
            check_board(state, actor, action)
        case Repair():
            if not actor.vessel:
                raise Rejected("repair/not-a-vessel", f"{actor.name} is not a vessel")
            if actor.crew < REPAIR_CREW:
                raise Rejected("repair/short-handed", f"repairs need {REPAIR_CREW} crewmen; {actor.name} has {actor.crew} (002)")
            if not repairable(actor):
                raise Rejected("repair/nothing-to-repair", f"{actor.name} has no damage left to patch (002: 'up to half damage')")


def check_board(state: Encounter, actor: Combatant, a: Board) -> None:
    if actor.vessel:
        raise Rejected("board/vessel", f"{actor.name} is a vessel; its fighters board")
    if not 0 <= a.weapon < len(actor.weapons) or not usable(actor.weapons[a.weapon]):
        raise Rejected("board/no-weapon", f"{actor.name} has no usable weapon number {a.weapon}")
    target = lookup(state, a.target)
    if target is None or target.vessel or target.id == actor.id:
        raise Rejected("board/bad-target", "board to attack a fighter aboard another vessel")
    mine, theirs = lookup(state, actor.aboard), lookup(state, target.aboard)
    if mine is None or theirs is None:
        raise Rejected("board/not-aboard", f"{actor.name} and {target.name} must both be aboard vessels")
    if mine.lashed_to != theirs.id:
        raise Rejected("board/not-grappled", f"{mine.name} is not grappled to {theirs.name}: grapple first (002)")


def repairable(ship: Combatant) -> bool:
    """002: 'up to half damage': half the damage taken, rounded down, may be patched."""
    taken = ship.hp_max - ship.hp + ship.repaired
    return ship.repaired < taken // REPAIR_SHARE and ship.hp < ship.hp_max


def describe(state: Encounter, action) -> str:
    target = lookup(state, getattr(action, "target", ""))
    name = target.name if target else getattr(action, "target", "")
    match action:
        case GrappleShip():
            return f"grapple {name}"
        case Board():
            return f"board and attack {name}"
    return "repair the hull"


def resolve(ctx: Context, actor: Combatant, action, step: Step) -> None:
    match action:
        case GrappleShip():
            grapple(ctx, actor, action)
        case Board():
            board(ctx, actor, action)
        case Repair():
            repair(ctx, actor)


def grapple(ctx: Context, ship: Combatant, a: GrappleShip) -> None:
    """002: 'Grappling: at 50' or less; successful 2 in 6 or by mutual agreement.'"""
    state = ctx.state
    other = lookup(state, a.target)
    who = LineFields(actor=ship.id, target=a.target)
    if other is None or other.down:
        ctx.log("naval", f"{ship.name} has no vessel to grapple.", actor=ship.id)
        return
    if ship.lashed_to == other.id:
        ctx.log("naval", f"{ship.name} and {other.name} are already grappled.", **who)
        return
    feet = distance(ship, other)
    if feet > GRAPPLE_RANGE:
        ctx.log("naval", f"{ship.name} cannot grapple {other.name}: {feet} ft apart, more than {GRAPPLE_RANGE}.", **who)
        return
    theirs = declared(state, other)
    if isinstance(theirs, GrappleShip) and theirs.target == ship.id:
        ctx.log("naval", f"{ship.name} and {other.name} grapple by mutual agreement ({feet} ft).", **who)
    else:
        roll = ctx.dice.roll(6, f"{ship.name} grapples {other.name}")
        if roll > GRAPPLE_ON:
            ctx.log("naval", f"{ship.name}'s grapnels miss {other.name}: d6 {roll} > {GRAPPLE_ON}.", **who)
            return
        ctx.log("naval", f"{ship.name} grapples {other.name}: d6 {roll} ≤ {GRAPPLE_ON}.", **who)
    for one, two in ((ship, other), (other, ship)):
        one.lashed_to = two.id
        if GRAPPLED not in one.conditions:
            one.conditions.append(GRAPPLED)


def board(ctx: Context, actor: Combatant, a: Board) -> None:
    """Cross to the grappled vessel beside the target, then strike it; -2 on hit rolls
    and AC for the round (002: 'during boarding round')."""
    state = ctx.state
    target = lookup(state, a.target)
    ship = lookup(state, target.aboard) if target else None
    mine = lookup(state, actor.aboard)
    if target is None or target.down or ship is None or mine is None or mine.lashed_to != ship.id:
        ctx.log("naval", f"{actor.name} cannot board: the vessels are not grappled or the foe is gone.", actor=actor.id)
        return
    actor.x, actor.y, _ = toward(msgspec.structs.replace(actor, move=5000), target, 5)
    actor.aboard = ship.id
    if BOARDING not in actor.conditions:
        actor.conditions.append(BOARDING)
    ctx.log("naval", f"{actor.name} boards {ship.name} beside {target.name}, at ({actor.x}, {actor.y}).", actor=actor.id, target=target.id)
    queue(state, [Step(phase=state.phase, actor=actor.id, kind=STRIKE, target=target.id, weapon=a.weapon, mode="board")])


def repair(ctx: Context, ship: Combatant) -> None:
    """002: 'Repairs: five crewmen required; 1 hp per turn up to half damage, fails after 5d6 days.'"""
    if ship.crew < REPAIR_CREW or not repairable(ship):
        ctx.log("naval", f"{ship.name}'s crew cannot repair: {ship.crew} crewmen, {ship.repaired} points patched already.", actor=ship.id)
        return
    turn = int(ctx.option("rounds_per_turn"))
    ship.repair_work += 1
    if ship.repair_work < turn:
        ctx.log("naval", f"{ship.name}'s crew works on the hull ({ship.repair_work} of {turn} rounds for a point).", actor=ship.id)
        return
    ship.repair_work = 0
    ship.hp += REPAIR_PER_TURN
    ship.repaired += REPAIR_PER_TURN
    days = ctx.dice.roll_dice(REPAIR_FAILS, f"{ship.name}'s patch holds")
    ctx.log(
        "naval",
        **said(f"{ship.name}'s crew patches {REPAIR_PER_TURN} hull point", hp_left(ship), f"; the patch fails after {REPAIR_FAILS} = {days} days."),
        actor=ship.id,
        total=days,
    )
    afloat(ctx, ship)


def check_sailing(state: Encounter, ship: Combatant, feet: int) -> None:
    """A vessel's `move`: its speed now, not grappled, not dead in the water."""
    if ship.lashed_to:
        raise Rejected("naval/grappled", f"{ship.name} is grappled and cannot sail away")
    if DEAD in ship.conditions or speed(ship) == 0:
        raise Rejected("naval/dead-in-water", f"{ship.name} is dead in the water")
    if feet > speed(ship):
        raise Rejected("naval/too-slow", f"{ship.name} makes {speed(ship)} ft a round now (002: 10% slower for each 10% of damage or rowers lost)")


def end_of_round(ctx: Context) -> None:
    for c in ctx.state.combatants:
        if BOARDING in c.conditions:
            c.conditions.remove(BOARDING)  # the boarding round is over
