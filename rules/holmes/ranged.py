"""Ranged attacks (003), with 002's range and cover adjustments.

'Ranged weapons are not capable of making multiple attacks except as a property of
the weapon. Thrown daggers and bows (long and short) are both capable of attacking
twice per turn if the attacker remains stationary ... Users of bows and all thrown
weapons may move and shoot ... Other ranged weapons must remain stationary.'
'Any character attacking into an ongoing melee must randomly determine which
combatant will be hit, and then roll to attack that character as normal.'
"""

from ..actions import MOVE_SHOOT, SHOOT_MOVE, Shoot
from ..charts.range_cover import COVER, COVER_KINDS, RANGE, cover_adjustment, range_band
from ..conditions import fighting
from ..context import Context, lookup, said
from ..errors import Rejected
from ..grid import distance
from ..model import Combatant, Encounter, Weapon
from ..ruleset import MISSILE, Critical, rules_of
from .damage import BASE_DAMAGE, NO_CRITICAL, critical, extra_dice, fumble, roll_damage
from .fighters import check_not_gone, gone, multi_attack_bonus, usable
from .terms import CALLED_SHOTS_MAX, MULTIPLE, TO_HIT, allowed_called_shots, called_in, called_shot_term, descending, shots_dropped
from .tohit import base_mods, roll_d20

TWICE = ("bow", "dagger")  # 003: 'Thrown daggers and bows ... attacking twice per turn'
MOBILE = ("bow", "dagger", "thrown")  # 003: 'bows and all thrown weapons may move and shoot'
MELEE_REACH = 5  # feet: who stands in the target's melee (a ruling)


def check_aim(range_band_: str, cover: str, kind: str, code: str) -> None:
    if range_band_ and range_band_ not in RANGE:
        raise Rejected(f"{code}/range-band", f"range band is one of {', '.join(RANGE)} (or '' to measure it)")
    if cover not in COVER or kind not in COVER_KINDS:
        raise Rejected(f"{code}/cover", f"cover is one of {', '.join(COVER)}, soft or hard")
    if cover_adjustment(cover, kind) is None:
        raise Rejected(f"{code}/full-cover", "nothing can be hit behind full hard cover (002: '---')")


def aim_mods(cover: str, kind: str, band: str) -> list[tuple[str, int]]:
    mods = [(f"{band} range", RANGE[band])]
    if cover != "none":
        adjustment = cover_adjustment(cover, kind)
        assert adjustment is not None  # a cover that cannot be shot through is refused on declaring
        mods.append((f"{cover} {kind} cover", adjustment))
    return mods


def check_target(state: Encounter, actor: Combatant, tid: str, code: str, verb: str = "attack") -> Combatant:
    """The target an action names; rejected (`code`/...) if there is none or it is the actor."""
    target = lookup(state, tid)
    if target is None:
        raise Rejected(f"{code}/unknown-target", f"there is no combatant {tid!r}")
    if target.id == actor.id:
        raise Rejected(f"{code}/self-target", f"{actor.name} cannot {verb} itself")
    check_not_gone(state, target)
    return target


def ranged_weapons(c: Combatant) -> list[int]:
    return [i for i, w in enumerate(c.weapons) if w.range > 0]


def check(state: Encounter, actor: Combatant, a: Shoot) -> None:
    check_target(state, actor, a.target, "shoot")
    if a.weapon not in ranged_weapons(actor):
        raise Rejected("shoot/not-ranged", f"{actor.name} has no ranged weapon number {a.weapon}")
    weapon = actor.weapons[a.weapon]
    check_aim(a.range_band, a.cover, a.cover_kind, "shoot")
    if not 0 <= a.called_shots <= CALLED_SHOTS_MAX:
        raise Rejected("declare/called-shots", f"called shots are 0 to {CALLED_SHOTS_MAX}")
    if a.shots not in (1, 2) or a.shots == 2 and weapon.missile not in TWICE:
        raise Rejected("shoot/shots", f"only bows and thrown daggers shoot twice; {weapon.name} shoots once")
    if (a.x is None) != (a.y is None) or a.move_first and a.x is None:
        raise Rejected("shoot/bad-move", "a move needs both x and y")
    if a.x is None:
        return
    assert a.y is not None  # checked above: both or neither
    if weapon.missile not in MOBILE:
        raise Rejected("shoot/stationary", f"{weapon.name} must be shot standing still (003)")
    if a.shots == 2:
        raise Rejected("shoot/stationary", "two shots need the shooter to stay put (003)")
    if a.x < 0 or a.y < 0 or a.x % 5 or a.y % 5:
        raise Rejected("shoot/off-grid", f"({a.x}, {a.y}) is not a square of the 5-ft grid")
    if max(abs(actor.x - a.x), abs(actor.y - a.y)) > actor.move:
        raise Rejected("shoot/too-far", f"{actor.name} moves at most {actor.move} ft a round")


def describe(state: Encounter, a: Shoot) -> str:
    target = lookup(state, a.target)
    text = f"shoot at {target.name if target else a.target}"
    if a.shots == 2:
        text += " twice"
    if a.called_shots:
        text += f", {a.called_shots} called shot(s)"
    if a.x is not None:
        text += f", {'after moving' if a.move_first else 'then move'} to ({a.x}, {a.y})"
    return text


def resolve(ctx: Context, actor: Combatant, a: Shoot, kind: str) -> None:
    if kind in (SHOOT_MOVE, MOVE_SHOOT):
        assert a.x is not None and a.y is not None  # Shoot.steps plans a move only with x and y
        actor.x, actor.y = a.x, a.y
        ctx.log("move", f"{actor.name} moves to ({a.x}, {a.y}).", actor=actor.id)
    if kind != SHOOT_MOVE:
        shoot(ctx, actor, a)


def shoot(ctx: Context, actor: Combatant, a: Shoot) -> None:
    weapon = actor.weapons[a.weapon]
    if not usable(weapon):
        ctx.log("attack", f"{actor.name} cannot shoot: the {weapon.name} is {'broken' if weapon.broken else 'dropped'}.", actor=actor.id)
        return
    aimed = lookup(ctx.state, a.target)
    if aimed is None or aimed.down or gone(ctx.state, aimed):
        ctx.log("attack", f"{actor.name} has no target to shoot at.", actor=actor.id)
        return
    feet = distance(actor, aimed)
    if feet > weapon.range:
        ctx.log(
            "attack",
            **said(f"{actor.name} cannot reach {aimed.name}", (f" ({feet} ft away, {weapon.name} ranges {weapon.range} ft)", ""), "."),
            actor=actor.id,
            target=aimed.id,
        )
        return
    band = a.range_band or range_band(feet, weapon.range)
    target = into_melee(ctx, actor, aimed)
    mods = base_mods(ctx, actor)
    if a.shots == 2:  # 003: 'A character attacking multiple times in one round is unable to utilise their full combat bonus'
        mods[0] = (MULTIPLE, multi_attack_bonus(actor))
    mods += [(f"{weapon.name} bonus", weapon.bonus)] if weapon.bonus else []
    mods += aim_mods(a.cover, a.cover_kind, band)
    call_shots(ctx, actor, target, mods, a.called_shots)
    rules_of(ctx.state).shot(ctx, actor, target, a.weapon, mods)


def shot(ctx: Context, actor: Combatant, target: Combatant, index: int, mods: list[tuple[str, int]]) -> None:
    """003's missile at its target: the attack roll against descending AC, then damage. A natural
    20 that hits and a natural 1 that misses go to the criticals and fumbles modules (003's do nothing
    for a missile: its natural 20 is 'on a melee attack roll')."""
    weapon = actor.weapons[index]
    hit, d20 = roll_d20(ctx, actor, f"shoots at {target.name} ({weapon.name})", descending(target.ac), mods, target.id)
    if not hit:
        fumble(ctx, d20, actor, target, index, MISSILE)
        return
    crit = critical(ctx, d20, actor, target, index, MISSILE)
    if not crit.settled:
        strike(ctx, actor, target, weapon, called_in(mods, target), crit)


def call_shots(ctx: Context, actor: Combatant, target: Combatant, mods: list[tuple[str, int]], wanted: int) -> None:
    """003's called shots on a missile, as on a blow: each -5 (-3 at a bareheaded human), none that
    makes the number needed 20 or more; the term goes into `mods`, which every profile's shot sums."""
    if not wanted:
        return
    need = TO_HIT - sum(v for _, v in mods) - descending(target.ac)
    called = allowed_called_shots(need, target, wanted)
    if called < wanted:
        ctx.log("attack", **shots_dropped(actor, wanted, called, f"{need} is needed on the d20 already"), actor=actor.id, target=target.id)
    if called:
        mods.append(called_shot_term(called, target))


def strike(ctx: Context, actor: Combatant, target: Combatant, weapon: Weapon, called: int = 0, crit: Critical = NO_CRITICAL) -> None:
    dice = weapon.damage if ctx.option("weapon_damage") else BASE_DAMAGE
    points, shown = roll_damage(ctx, target, dice, extra_dice(called, "shot", crit), times=crit.times)  # 003: +1d6 a called shot
    ctx.rules.land(ctx, actor, target, points, shown, crit.effect, "shot")


def into_melee(ctx: Context, shooter: Combatant, aimed: Combatant, verb: str = "fires", what: str = "missile") -> Combatant:
    """The melee is the aimed-at target and everyone standing within 5 ft of it; it is
    ongoing if one of them is the target's enemy. A die picks who the missile flies at
    (a flask of oil or a torch too: 003 'Burning oil is a subset of ranged combat')."""
    near = [aimed] + [
        c for c in ctx.state.combatants if c.id not in (aimed.id, shooter.id) and not c.down and fighting(c) and distance(c, aimed) <= MELEE_REACH
    ]
    if not any(c.side != aimed.side for c in near):
        return aimed
    roll = ctx.dice.roll(len(near), f"who {shooter.name}'s {what} flies at")
    picked = near[roll - 1]
    order = ", ".join(f"{i + 1} {c.name}" for i, c in enumerate(near))
    ctx.log(
        "attack",
        f"{shooter.name} {verb} into the melee around {aimed.name} ({order}): d{len(near)} {roll}, at {picked.name}.",
        actor=shooter.id,
        target=picked.id,
    )
    return picked
