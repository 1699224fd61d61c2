"""What a hit does under 003: its damage, the fall at 0 HP or less, and a surprised
target's drop; what a critical hit does to it is the criticals module's (`critical`).

'All hits, except when otherwise noted, cause 1-6 points of damage' (003); called
shots and a set spear each add a d6 (a natural 20 in melee too: rules.holmes.criticals). Harm rolled elsewhere
(rules.holmes.tohit.hurt, 002's striking) comes off HP through `lose_hp` too, so a
profile's way of falling (hook `fall`) applies to it as well.
"""

import msgspec

from ..conditions import DISARMED
from ..context import Context, hp_left, said
from ..dice import parse
from ..model import Combatant, Weapon
from ..ruleset import Critical
from .fighters import in_hand
from .terms import DECLARED, ROUTINE

BASE_DAMAGE = "1d6"  # 003: 'All hits, except when otherwise noted, cause 1-6 points of damage'
DROP_ON = 2  # 003: gawpers struck 'drop anything held in-hand on a 2 or less on a 6 sided die'


NO_CRITICAL = Critical()


def extra_dice(called: int, mode: str, crit: Critical = NO_CRITICAL) -> list[tuple[str, int]]:
    """003's extra d6s of a hit, each named: called shots, a set spear, then a critical's."""
    extra = [("called shots", called)] if called else []
    if mode == "set":
        extra.append(("set spear", 1))  # 003: 'an additional 1-6 points of damage (2-12 total)'
    if crit.extra:  # (most hits are no critical's: no copy to make)
        extra.extend(crit.extra)
    return extra


def critical(ctx: Context, d20: int, attacker: Combatant, target: Combatant, index: int, kind: str) -> Critical:
    """A hit on a natural 20, by the criticals module (hook `critical`): the crit range of the
    to_hit modules that roll 003's d20 (003's, 002's). Read only on a 20, so a roll pays nothing more."""
    if d20 != 20:
        return NO_CRITICAL
    return ctx.rules.critical(ctx, attacker, target, index, kind)


def fumble(ctx: Context, d20: int, attacker: Combatant, target: Combatant, index: int, kind: str) -> None:
    """A miss on a natural 1, by the fumbles module (hook `fumble`): 003's and 002's fumble range."""
    if d20 == 1:
        ctx.rules.fumble(ctx, attacker, target, index, kind)


def after_critical(ctx: Context, attacker: Combatant, target: Combatant, crit: Critical) -> None:
    if crit.effect:
        ctx.rules.critical_effect(ctx, attacker, target, crit.effect)


def damage_dice(ctx: Context, weapon: Weapon, mode: str = "") -> str:
    """003: 1-6 'except when otherwise noted'; option weapon_damage rolls the weapon's dice, and so
    does each strike of a monster's routine, whose attacks note their own damage (docs/rulings.md)."""
    return weapon.damage if mode == ROUTINE or ctx.option("weapon_damage") else BASE_DAMAGE


def roll_damage(ctx: Context, target: Combatant, dice: str, extra, what: str = "damage", times: int | str = 1) -> tuple[int, str]:
    """The hit's damage dice plus `extra` d6s, each named: ('called shots', 2), all of it
    `times` over (a critical's multiple, or 'max': every die at its highest).
    Returns the points (never below 0) and the dice as the log shows them."""
    if times == "max":
        count, sides, plus = parse(dice)
        points = count * sides + plus + 6 * sum(n for _, n in extra)
        shown = dice + "".join(f" + {n}d6 {reason}" for reason, n in extra)
        return max(0, points), f"{shown} at its maximum {points}"
    points = ctx.dice.roll_dice(dice, f"{what} to {target.name}")
    shown = dice
    for reason, count in extra:
        points += ctx.dice.roll_dice(f"{count}d6", f"{reason}: {what} to {target.name}")
        shown += f" + {count}d6 {reason}"
    if isinstance(times, int) and times > 1:
        points, shown = points * times, f"({shown} = {points}) x {times}"
    return max(0, points), shown


def damage(ctx: Context, attacker: Combatant, target: Combatant, dice: str, extra: list[tuple[str, int]] | tuple = (), times: int | str = 1) -> None:
    lose_hp(ctx, target, *roll_damage(ctx, target, dice, extra, times=times), attacker.id)


def lose_hp(ctx: Context, target: Combatant, points: int, shown: str, actor: str | None = None, figured: str = "") -> None:
    """The points come off HP (`shown`: how they were found, and `figured`: the part of it that
    names figures, as 002's negative H); at 0 or less the target falls."""
    target.hp -= points
    if ctx.narrated:
        ctx.log(
            "damage",
            **said(f"{target.name} takes {points} damage ({shown}", (figured, ""), ")", hp_left(target), "."),
            actor=actor,
            target=target.id,
            total=points,
        )
    if target.hp <= 0 and not target.down:
        fall(ctx, target)


def fall(ctx: Context, target: Combatant) -> None:
    """A combatant at 0 HP or less that is not yet down."""
    ctx.rules.fall(ctx, target)


def falls(ctx: Context, target: Combatant) -> None:
    """003's: it is down."""
    target.down = True
    ctx.log("down", f"{target.name} falls.", target=target.id)


MISSILE_MODES = ("shot",)  # a missile's hit (rules.holmes.ranged, a profile's shot): 'any gawpers so struck' counts it too


def gawper_struck(ctx: Context, target: Combatant, mode: str) -> None:
    """003: a surprised target struck by a declared attack or a missile, and still up, may drop what it holds."""
    if (mode in DECLARED or mode in MISSILE_MODES) and target.side in ctx.state.surprised and not target.down:
        drop_check(ctx, target)


def drop_check(ctx: Context, target: Combatant) -> None:
    roll = ctx.dice.roll(6, f"{target.name}, surprised and struck, holds on")
    if roll <= DROP_ON and DISARMED not in target.conditions:
        target.conditions.append(DISARMED)
        held = in_hand(ctx.state, target)  # the weapon in hand lies on the floor until recovered
        if held is not None:
            target.weapons[held] = msgspec.structs.replace(target.weapons[held], dropped=True)
        ctx.log("surprise", f"{target.name} is caught gawping and drops what was in hand (d6 {roll} ≤ {DROP_ON}).", target=target.id)
    else:
        ctx.log("surprise", f"{target.name} keeps hold (d6 {roll} > {DROP_ON}).", target=target.id)
