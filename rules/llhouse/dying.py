"""000's DEATH AND DYING CHART: 'When reduced to 0 HP or less, roll d20 and consult this
chart.' Waking up, bleeding out and staunching the wound; and the end of the round, when
the timed conditions of 000 (unconscious, bleeding out, knocked down, weapon stuck) lapse."""

import msgspec

from ..actions import Staunch
from ..charts.ll_house import (
    BLEEDING_DICE,
    DEATH_AND_DYING,
    HEAL_WEEKS,
    LOSS,
    STAUNCH_DC,
    TEETH,
    WAKE_DICE,
    WAKE_HP,
)
from ..conditions import DEAD, DISARMED, PRONE
from ..context import Context, LineFields, lookup, said
from ..grid import distance
from ..model import Combatant, Step
from .criticals import KNOCKED_DOWN, STUCK, hold

UNCONSCIOUS, BLEEDING, STABLE = "unconscious", "bleeding out", "stabilized"
REACH = 5  # staunching is done at the dying character's side (a ruling)


def chart_row(roll: int) -> tuple:
    return next(row for row in DEATH_AND_DYING if row[0] <= roll <= row[1])


def uses_chart(state, c: Combatant) -> bool:
    """Option `death_chart`: who rolls on the chart at 0 HP ('pcs': player characters)."""
    mode = state.options.get("death_chart", "pcs")
    return mode == "all" or (mode == "pcs" and c.pc)


def add(c: Combatant, *conditions: str) -> None:
    c.conditions = c.conditions + [x for x in conditions if x not in c.conditions]


def fall(ctx: Context, c: Combatant) -> None:
    """Hook `fall` of 000's dying: at 0 HP or less."""
    c.down = True
    if not uses_chart(ctx.state, c):
        add(c, DEAD)
        ctx.log("down", f"{c.name} falls, dead.", target=c.id)
        return
    roll = ctx.dice.roll(20, f"death and dying for {c.name}")
    _, _, outcome, effect, text = chart_row(roll)
    head = f"{c.name} falls: death and dying d20 {roll}: {text}"
    state = ctx.state
    if outcome in WAKE_DICE:
        rounds = ctx.dice.roll_dice(WAKE_DICE[outcome], f"rounds until {c.name} wakes")
        hold(c, UNCONSCIOUS, state.round + rounds)
        ctx.log("down", f"{head} Wakes up at the end of round {state.round + rounds} ({WAKE_DICE[outcome]} {rounds}) with {WAKE_HP} HP.", target=c.id)
        wound(ctx, c, effect)
    elif outcome == "bleeding":
        rounds = max(0, ctx.dice.roll_dice(BLEEDING_DICE, f"rounds {c.name} lingers") + c.con_bonus)
        hold(c, BLEEDING, state.round + rounds)
        ctx.log(
            "down",
            f"{head} Lingers {rounds} round(s) ({BLEEDING_DICE}{c.con_bonus:+d} Con bonus) and dies at the end of round {state.round + rounds}, unless the wound is staunched (DC{STAUNCH_DC}).",
            target=c.id,
        )
    else:
        add(c, DEAD)
        ctx.log("down", head, target=c.id)


def wound(ctx: Context, c: Combatant, effect: str) -> None:
    """The lasting harm of rows 12-19."""
    if not effect:
        return
    add(c, effect)
    if effect == "teeth":
        ctx.log("wound", f"{c.name} loses {ctx.dice.roll_dice(TEETH, f'{c.name} loses teeth')} teeth.", target=c.id)
    elif effect == "broken collarbone":
        ctx.log("wound", f"{c.name}'s break takes {ctx.dice.roll_dice(HEAL_WEEKS, f'weeks for {c.name} to heal')} weeks to heal.", target=c.id)
    elif effect in LOSS:
        field, points = LOSS[effect]
        before = getattr(c, field)
        setattr(c, field, max(1, before - points))
        ctx.log(
            "wound",
            **said(f"{c.name}'s {field.rstrip('_').upper()} is permanently reduced by {points}", (f": {before} → {getattr(c, field)}", ""), "."),
            target=c.id,
        )


def staunch(ctx: Context, actor: Combatant, action: Staunch, step: Step) -> None:
    """000: 'Another character may attempt to stabilize you by staunching the wound (DC11)'."""
    target = lookup(ctx.state, action.target)
    who = LineFields(actor=actor.id, target=action.target)
    if target is None or BLEEDING not in target.conditions:
        ctx.log("staunch", f"{actor.name} finds no wound to staunch.", **who)
        return
    if distance(actor, target) > REACH:
        ctx.log("staunch", f"{actor.name} is {distance(actor, target)} ft from {target.name}, too far to staunch the wound.", **who)
        return
    roll = ctx.dice.roll(20, f"{actor.name} staunches {target.name}'s wound")
    if roll < STAUNCH_DC:
        ctx.log("staunch", f"{actor.name} fails to staunch {target.name}'s wound: d20 {roll} < DC{STAUNCH_DC}.", total=roll, need=STAUNCH_DC, **who)
        return
    target.conditions = [x for x in target.conditions if x != BLEEDING] + [STABLE]
    target.until = {k: v for k, v in target.until.items() if k != BLEEDING}
    ctx.log(
        "staunch",
        f"{actor.name} staunches {target.name}'s wound: d20 {roll} ≥ DC{STAUNCH_DC}; {target.name} is stabilized but needs medical attention or magical healing.",
        total=roll,
        need=STAUNCH_DC,
        **who,
    )


def round_end(ctx: Context) -> None:
    """Conditions whose last round this is lapse (in a fixed order: keys sorted)."""
    state = ctx.state
    for c in state.combatants:
        for key, last in sorted(c.until.items()):
            if last > state.round:
                continue
            c.until = {k: v for k, v in c.until.items() if k != key}
            lapse(ctx, c, key)


def lapse(ctx: Context, c: Combatant, key: str) -> None:
    condition, _, index = key.partition(":")
    who = LineFields(target=c.id)
    if condition == UNCONSCIOUS and UNCONSCIOUS in c.conditions and DEAD not in c.conditions:
        c.conditions = [x for x in c.conditions if x != UNCONSCIOUS]
        if c.hp <= 0:
            c.hp = min(ctx.dice.roll_dice(WAKE_HP, f"{c.name} wakes with HP"), c.hp_max)  # never above its maximum
        c.down = False
        ctx.log("wake", **said(f"{c.name} wakes up", (f" with {c.hp} HP", ""), "."), **who)
    elif condition == BLEEDING and BLEEDING in c.conditions:
        c.conditions = [x for x in c.conditions if x != BLEEDING] + [DEAD]
        ctx.log("down", f"{c.name} bleeds out and dies.", **who)
    elif condition == KNOCKED_DOWN:
        c.conditions = [x for x in c.conditions if x not in (KNOCKED_DOWN, PRONE)]
        if not c.down:
            ctx.log("move", f"{c.name} regains its feet.", **who)
    elif condition == STUCK and index.isdigit() and int(index) < len(c.weapons):
        i = int(index)
        c.weapons[i] = msgspec.structs.replace(c.weapons[i], dropped=False)
        if not any(k.startswith(STUCK + ":") for k in c.until):
            c.conditions = [x for x in c.conditions if x != STUCK]
        ctx.log("weapon", f"{c.name} frees the {c.weapons[i].name}.", **who)
    if DISARMED in c.conditions and not any(w.dropped and not w.broken for w in c.weapons):
        c.conditions = [x for x in c.conditions if x != DISARMED]
