"""The damage of a hit under 000: 'Dam + Bonus' (multiplied by the critical hit chart),
the automatic kill, the SHIELD SACRIFICE prompt, and the damage landing: the crit's
effect, the death and dying chart at 0 HP, and CLEAVE's leftover."""

from ..charts.ll_house import EXPERTISE, SHIELD_SACRIFICE
from ..context import Context, hp_left, lookup, said
from ..dice import parse
from ..holmes.damage import damage_dice, drop_check, fall
from ..holmes.tohit import lands
from ..model import Awaiting, Combatant, Encounter, Weapon
from ..ruleset import rules_of
from . import criticals
from .dying import DEAD
from .figures import expertise, maneuvers_open, shield_ready
from .improved import cleave

BASH = "bash"  # the effect a shield bash that knocks down lands with (rules.llhouse.manoeuvres)


def damage_roll(ctx: Context, attacker: Combatant, target: Combatant, weapon: Weapon, times, extra_d6: int, mode: str = "") -> tuple[int, str]:
    """'Dam + Bonus, then X3': the weapon's dice (option weapon_damage; else 003's 1-6), 003's
    extra d6s (called shots, set spear), the weapon's bonus and WEAPON EXPERTISE's +2 a rank;
    'Maximum Damage ... (plus all bonuses)' takes every die at its highest."""
    dice = damage_dice(ctx, weapon, mode)  # a routine's strike rolls its own (rules.holmes.damage)
    count, sides, plus = parse(dice)
    if times == "max":
        rolled = count * sides + plus + 6 * extra_d6
        shown = f"{dice} at its maximum {rolled}"
    else:
        rolled = ctx.dice.roll_dice(dice, f"damage to {target.name}")
        rolled += sum(ctx.dice.roll(6, f"extra d6: damage to {target.name}") for _ in range(extra_d6))
        shown = f"{dice}{f' + {extra_d6}d6' if extra_d6 else ''} {rolled}"
    bonus = [(f"{weapon.name} bonus", weapon.bonus), (f"{weapon.name} expertise", EXPERTISE * expertise(attacker, weapon))]
    bonus = [(name, v) for name, v in bonus if v]
    total = rolled + sum(v for _, v in bonus)
    shown += "".join(f" {'-' if v < 0 else '+'} {abs(v)} {name}" for name, v in bonus)
    if isinstance(times, int) and times > 1:
        shown = f"({shown}) x {times}"
        total *= times
    return max(0, total), shown


def kill(ctx: Context, attacker: Combatant, target: Combatant) -> None:
    """000, critical hit 20: 'Automatic Kill' (no roll on the death and dying chart: a ruling)."""
    target.hp = min(target.hp, 0)
    target.down = True
    if DEAD not in target.conditions:
        target.conditions = target.conditions + [DEAD]
    ctx.log("down", f"{target.name} is killed outright.", actor=attacker.id, target=target.id)


SACRIFICE_PROMPT = "shield_sacrifice"  # prompt: 000's SHIELD SACRIFICE, 'sacrifice' or 'keep'
SACRIFICE_ANSWERS = {"sacrifice": "Sacrifice the shield (it shatters)", "keep": "Keep the shield and take the damage"}


def sacrifice_open(state: Encounter, target: Combatant, points: int) -> bool:
    return points > 0 and not target.down and shield_ready(target) and maneuvers_open(state, target)


def land(ctx: Context, attacker: Combatant, target: Combatant, points: int, effect: str) -> None:
    """000, SHIELD SACRIFICE: 'you are hit. Your attacker rolls for damage. You declare that
    you want to sacrifice your shield.' The defender is asked (awaiting 'shield_sacrifice')."""
    if not sacrifice_open(ctx.state, target, points):
        apply(ctx, attacker, target, points, effect)
        return
    ask_sacrifice(ctx, attacker, target, points, effect)


def land_on_own_roll(ctx: Context, attacker: Combatant, target: Combatant, points: int, shown: str, effect: str, mode: str) -> None:
    """Hook `land` of 000's maneuvers (rules version 8): a hit of the fight's own roll (003's)
    asks the SHIELD SACRIFICE of 000 before its damage lands as that roll lands it."""
    if sacrifice_open(ctx.state, target, points):
        ask_sacrifice(ctx, attacker, target, points, effect)
    else:
        lands(ctx, attacker, target, points, shown, effect, mode)


def ask_sacrifice(ctx: Context, attacker: Combatant, target: Combatant, points: int, effect: str) -> None:
    state = ctx.state
    state.awaiting = Awaiting(
        id=f"{state.seq}:sacrifice:{attacker.id}:{target.id}:{points}:{effect}",
        who=target.id,
        kind=SACRIFICE_PROMPT,
        prompt=f"{attacker.name} hits {target.name} for {points} damage: sacrifice the shield to prevent {SHIELD_SACRIFICE} of it?",
        options=["sacrifice", "keep"],
        attacker=attacker.id,
        target=target.id,
        points=points,
        effect=effect,
    )
    ctx.log("shield", f"{target.name} may sacrifice the shield against {points} damage.", actor=attacker.id, target=target.id)


def sacrifice(ctx: Context, waiting: Awaiting, choice: str) -> None:
    """The prompt shield_sacrifice's answer (000's maneuvers): 'roll 1d4, subtract that from the Attacker's Damage to find
    the Damage you actually take. This move shatters your shield beyond use'."""
    attacker_id, target_id, points, effect = waiting.attacker, waiting.target, waiting.points, waiting.effect
    if not attacker_id:  # a prompt stored before RULES_VERSION 5 holds them in its id
        _, _, attacker_id, target_id, points_text, effect = waiting.id.split(":")
        points = int(points_text)
    state = ctx.state
    attacker, target = lookup(state, attacker_id), lookup(state, target_id)
    if attacker is None or target is None:
        return
    if choice == "sacrifice" and shield_ready(target):
        saved = ctx.dice.roll_dice(SHIELD_SACRIFICE, f"{target.name}'s shield sacrifice")
        taken = max(0, points - saved)
        ctx.log(
            "shield",
            f"{target.name} sacrifices the shield: {SHIELD_SACRIFICE} {saved}; {points} - {saved} = {taken} damage.",
            actor=target.id,
            target=target.id,
        )
        criticals.lose_shield(ctx, target, "shattered beyond use")
        points = taken
    else:
        ctx.log("shield", f"{target.name} keeps the shield.", actor=target.id)
    apply(ctx, attacker, target, points, effect)


def apply(ctx: Context, attacker: Combatant, target: Combatant, points: int, effect: str) -> None:
    """The damage lands; then the critical hit's effect; at 0 HP the death and dying chart
    (rules.holmes.damage.fall), and CLEAVE carries the leftover on; 003's gawpers may drop what they hold."""
    state = ctx.state
    target.hp -= points
    ctx.log("damage", **said(f"{target.name} takes {points} damage", hp_left(target), "."), actor=attacker.id, target=target.id, total=points)
    if effect == BASH:  # the shield bash's, whichever criticals module the encounter has
        criticals.knock_down(ctx, target, "shield bash")
    elif effect:
        rules_of(state).critical_effect(ctx, attacker, target, effect)  # a critical's, after its damage
    if target.hp <= 0 and not target.down:
        leftover = -target.hp
        fall(ctx, target)
        cleave(ctx, attacker, target, leftover)
    elif target.side in state.surprised and not target.down:
        drop_check(ctx, target)
