"""000's natural 20 and natural 1: the critical hit chart's effects, the limb table,
the fumble table, and the timed conditions they leave (knocked down, weapon stuck)."""

import msgspec

from ..charts.ll_house import ARMOR, BEYOND_REPAIR, FUMBLE, FUMBLE_DICE, LIMB, SHIELD, STUCK_DICE
from ..conditions import DISARMED, PRONE
from ..context import Context, Figures, LineFields, said
from ..grid import distance
from ..holmes.fighters import in_hand
from ..holmes.terms import descending
from ..holmes.tohit import hurt
from ..model import ACT, Combatant
from ..ruleset import rules_of

KNOCKED_DOWN, STUCK = "knocked down", "weapon stuck"
ARMOR_BEYOND_REPAIR = "armor beyond repair"  # 000: 'beyond repair and MUST be replaced'


def hold(c: Combatant, condition: str, last: int) -> None:
    """`condition` lasts through round `last` (rules.llhouse.dying.round_end lifts it)."""
    if condition.partition(":")[0] not in c.conditions:
        c.conditions = c.conditions + [condition.partition(":")[0]]
    c.until = {**c.until, condition: max(last, c.until.get(condition, 0))}


def knock_down(ctx: Context, c: Combatant, why: str) -> None:
    """000: 'knock down victim, victim loses 1 round to stand'. The round lost is the
    victim's next action: the rest of this round if it has yet to act, else the next."""
    state = ctx.state
    if c.down:
        return
    pending = any(s.actor == c.id and s.kind == ACT for s in state.steps)
    last = state.round if pending else state.round + 1
    hold(c, KNOCKED_DOWN, last)
    if PRONE not in c.conditions:
        c.conditions = c.conditions + [PRONE]
    ctx.log("knockdown", f"{c.name} is knocked down ({why}) and loses {'the rest of this round' if pending else 'the next round'} to stand.", target=c.id)


def effect(ctx: Context, attacker: Combatant, target: Combatant, what: str) -> None:
    """The part of a critical hit after its damage."""
    match what:
        case "armor":
            damage_armor(ctx, target)
        case "limb":
            limb(ctx, target)
        case "disarm":
            disarm(ctx, attacker, target)
        case "knockdown":
            knock_down(ctx, target, "critical hit")
        case "bash":
            knock_down(ctx, target, "shield bash")
        case "shatter":
            shatter(ctx, target)


def damage_armor(ctx: Context, target: Combatant) -> None:
    """000: 'inflict permanent damage to victim's armor (victim's AC lowers by 1)'; 'The amount
    of damage your Armor can take is equal to the number of points that it raises your Armor
    Class by'; 'Armor DOES still offer protection until it is reduced to 0'."""
    who = LineFields(target=target.id)
    if not target.armor:
        target.ac -= 1
        ctx.log("armor", **said(f"{target.name}'s armor is damaged", ac_lowered(ctx, target, 1), "."), **who)
        return
    points = ARMOR[target.armor][1]
    if target.armor_damage >= points:
        ctx.log("armor", f"{target.name} has no armor left to damage.", **who)
        return
    target.armor_damage += 1
    target.ac -= 1
    end = ""
    if target.armor_damage == points:
        end = "; it is reduced to 0 and gives no protection"
    elif target.armor_damage >= BEYOND_REPAIR[target.armor]:
        end = "; it is beyond repair and must be replaced"
    if target.armor_damage >= BEYOND_REPAIR[target.armor] and ARMOR_BEYOND_REPAIR not in target.conditions:
        target.conditions = target.conditions + [ARMOR_BEYOND_REPAIR]
    ctx.log(
        "armor",
        **said(f"{target.name}'s {target.armor} is damaged", (f" ({target.armor_damage} of {points} points)", ""), ac_lowered(ctx, target, 1), f"{end}."),
        **who,
    )


def ac_lowered(ctx: Context, c: Combatant, by: int) -> Figures:
    """': its AC 15 → 14', left out of the public text; in descending AC where the encounter's
    profile shows it so (000's chart under 003's: 'its AC 9 → 10')."""
    if rules_of(ctx.state).profile.ac_style == "descending":
        return f": its AC {descending(c.ac + by)} → {descending(c.ac)}", ""
    return f": its AC {c.ac + by} → {c.ac}", ""


def limb(ctx: Context, target: Combatant) -> None:
    """000: 'chop/shatter one limb (roll on chart)'."""
    roll = ctx.dice.roll(6, f"limb table for {target.name}")
    name, cost = LIMB[roll]
    if name not in target.conditions:
        target.conditions = target.conditions + [name]
    ctx.log("limb", f"Limb table d6 {roll}: {target.name}'s {name} - {cost}.", target=target.id)
    if name in ("left elbow", "left shoulder") and target.shield:
        lose_shield(ctx, target, f"the {name} cannot hold it")


def lose_shield(ctx: Context, target: Combatant, why: str) -> None:
    target.shield = False
    target.ac -= SHIELD
    ctx.log("shield", **said(f"{target.name} loses the shield ({why})", ac_lowered(ctx, target, SHIELD), "."), target=target.id)


def disarm(ctx: Context, attacker: Combatant, target: Combatant) -> None:
    """000: 'knock weapon from opponent's hand'."""
    held = in_hand(ctx.state, target)
    if held is None:
        ctx.log("disarm", f"{target.name} holds no weapon to lose.", target=target.id)
        return
    target.weapons[held] = msgspec.structs.replace(target.weapons[held], dropped=True)
    if DISARMED not in target.conditions:
        target.conditions = target.conditions + [DISARMED]
    ctx.log("disarm", f"{attacker.name} knocks the {target.weapons[held].name} from {target.name}'s hand.", actor=attacker.id, target=target.id)


def shatter(ctx: Context, target: Combatant) -> None:
    """000: 'Shatter opponent's shield or weapon': the shield if it bears one (a ruling)."""
    if target.shield:
        lose_shield(ctx, target, "shattered")
        return
    held = in_hand(ctx.state, target)
    if held is None:
        ctx.log("shatter", f"{target.name} has no shield or weapon to shatter.", target=target.id)
        return
    target.weapons[held] = msgspec.structs.replace(target.weapons[held], broken=True)
    ctx.log("shatter", f"{target.name}'s {target.weapons[held].name} is shattered.", target=target.id)


# --- the fumble table -----------------------------------------------------------


def nearest_ally(state, c: Combatant) -> Combatant | None:
    """The closest standing combatant of the same side; ties: the first added (a ruling)."""
    allies = [a for a in state.combatants if a.side == c.side and a.id != c.id and not a.down]
    return min(allies, key=lambda a: distance(a, c), default=None)


def fumble(ctx: Context, attacker: Combatant, index: int) -> None:
    """000: FUMBLE TABLE (ROLLED A NAT 1)."""
    state = ctx.state
    roll = ctx.dice.roll(6, f"fumble table for {attacker.name}")
    kind, text = FUMBLE[roll]
    ctx.log("fumble", f"Fumble table d6 {roll}: {attacker.name} {text}.", actor=attacker.id)
    weapon = attacker.weapons[index]
    match kind:
        case "stuck":
            rounds = ctx.dice.roll_dice(STUCK_DICE, f"rounds to free {attacker.name}'s {weapon.name}")
            attacker.weapons[index] = msgspec.structs.replace(weapon, dropped=True)
            hold(attacker, f"{STUCK}:{index}", state.round + rounds)
            ctx.log("fumble", f"The {weapon.name} is stuck for {rounds} round(s): free at the end of round {state.round + rounds}.", actor=attacker.id)
        case "dropped":
            attacker.weapons[index] = msgspec.structs.replace(weapon, dropped=True)
            if DISARMED not in attacker.conditions:
                attacker.conditions = attacker.conditions + [DISARMED]
        case "harm self":
            hurt(ctx, attacker, ctx.dice.roll_dice(FUMBLE_DICE[kind], f"{attacker.name} harms self"), "fumble", attacker.id)
        case "harm ally":
            ally = nearest_ally(state, attacker)
            if ally is None:
                ctx.log("fumble", f"No ally stands near {attacker.name}: nobody is hurt.", actor=attacker.id)
            else:
                hurt(ctx, ally, ctx.dice.roll_dice(FUMBLE_DICE[kind], f"{attacker.name} harms {ally.name}"), f"{attacker.name}'s fumble", attacker.id)
        case "harm self and fall":
            hurt(ctx, attacker, ctx.dice.roll_dice(FUMBLE_DICE[kind], f"{attacker.name} harms self"), "fumble", attacker.id)
            knock_down(ctx, attacker, "fumble")
        case "run into ally":
            ally = nearest_ally(state, attacker)
            for c in [attacker] + ([ally] if ally else []):
                hurt(ctx, c, ctx.dice.roll_dice(FUMBLE_DICE[kind], f"{c.name} is run into"), f"{attacker.name}'s fumble", attacker.id)
                knock_down(ctx, c, "fumble")
