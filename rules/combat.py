"""The attack roll and damage of 003.

'Hits are made when the sum of the 20 sided die + the attacking character's
combat bonus + any applicable weapon bonuses + the target's Armour Class is
equal to 19 or higher.' (003, descending AC.) Fray holds AC ascending, so the
log shows the document's own arithmetic with descending = 19 - ascending.
"""

from rules.actions import Attack
from rules.context import Context
from rules.model import Combatant

TO_HIT = 19  # 003: the sum must be 19 or higher
BASE_DAMAGE = "1d6"  # 003: 'All hits, except when otherwise noted, cause 1-6 points of damage'
SURPRISE_BONUS = 2  # 003: the active side 'attacks at +2 to-hit' in its free round
DROP_ON = 2  # 003: gawpers struck 'drop anything held in-hand on a 2 or less on a 6 sided die'


def descending(ac: int) -> int:
    return 19 - ac


def distance(a: Combatant, b: Combatant) -> int:
    """Feet on the 5-ft grid; a diagonal step counts 5 ft (a ruling)."""
    return max(abs(a.x - b.x), abs(a.y - b.y))


def attack(ctx: Context, attacker: Combatant, action: Attack) -> None:
    state = ctx.state
    target = ctx.combatant(action.target)
    weapon = attacker.weapons[action.weapon]
    if target.down:
        ctx.log("attack", f"{attacker.name} has no target: {target.name} is already down.", actor=attacker.id, target=target.id)
        return
    reach = weapon.range or weapon.reach
    if distance(attacker, target) > reach:
        ctx.log(
            "attack",
            f"{attacker.name} cannot reach {target.name} ({distance(attacker, target)} ft away, {weapon.name} reaches {reach} ft).",
            actor=attacker.id,
            target=target.id,
        )
        return
    mods = [("combat bonus", attacker.attack_bonus)]
    if weapon.bonus:
        mods.append((f"{weapon.name} bonus", weapon.bonus))
    if state.surprised and attacker.side not in state.surprised:
        mods.append(("surprise", SURPRISE_BONUS))
    d20 = ctx.dice.roll(20, f"{attacker.name} attacks {target.name}")
    ac = descending(target.ac)
    total = d20 + sum(v for _, v in mods) + ac
    hit = total >= TO_HIT
    terms = " + ".join(f"{v} {n}" for n, v in mods)
    ctx.log(
        "attack",
        f"{attacker.name} attacks {target.name}: d20 {d20} + {terms} + AC {ac} = {total}"
        f" {'≥' if hit else '<'} {TO_HIT}: {'hit' if hit else 'miss'}.",
        actor=attacker.id,
        target=target.id,
        mods=mods + [("target AC", ac)],
        total=total,
        need=TO_HIT,
    )
    if hit:
        damage(ctx, attacker, target, weapon.damage if ctx.option("weapon_damage") else BASE_DAMAGE)
        if target.side in state.surprised and not target.down:
            drop_check(ctx, target)


def damage(ctx: Context, attacker: Combatant, target: Combatant, dice: str) -> None:
    points = max(0, ctx.dice.roll_dice(dice, f"damage to {target.name}"))
    target.hp -= points
    ctx.log("damage", f"{target.name} takes {points} damage ({dice}), {target.hp} HP left.", actor=attacker.id, target=target.id, total=points)
    if target.hp <= 0 and not target.down:
        target.down = True
        ctx.log("down", f"{target.name} falls.", target=target.id)


def drop_check(ctx: Context, target: Combatant) -> None:
    roll = ctx.dice.roll(6, f"{target.name}, surprised and struck, holds on")
    if roll <= DROP_ON and "disarmed" not in target.conditions:
        target.conditions.append("disarmed")
        ctx.log("surprise", f"{target.name} is caught gawping and drops what was in hand (d6 {roll} ≤ {DROP_ON}).", target=target.id)
    else:
        ctx.log("surprise", f"{target.name} keeps hold (d6 {roll} > {DROP_ON}).", target=target.id)
