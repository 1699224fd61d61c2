"""002 'Wrestling'.

'Wrestling rating w = ceil(L/2) + δS + δD + basic AC. Monster w = 2 x HD + basic AC.
Multiple wrestlers: +1/+5 for each with less/more than 1/2 HD. Compare 1d20 + w;
grab -> fall -> pin. Pinned: SvDR or take 1 + δS hp damage; WR -3 (or more).'

Everyone wrestling one foe in the same phase joins one bout, led by the first of
them in DEX order; each win takes the hold one step further, a loss breaks it.
"""

from ..actions import Wrestle
from ..charts.thac0_sheet import (
    HELPERS,
    HOLD_CONDITION,
    HOLDS,
    MONSTER_W,
    PINNED_DAMAGE,
    REACH,
)
from ..context import Context, LineFields, hp_left, lookup, reckoned, said, standing
from ..errors import Rejected
from ..grid import distance
from ..holmes.damage import fall
from ..holmes.fighters import able, declared
from ..holmes.ranged import check_target
from ..model import ACT, Combatant, Encounter, Step
from ..round import may_act


def basic_ac(c: Combatant) -> int:
    """'basic AC' as 002 speaks it, descending (Fray holds it ascending)."""
    return 19 - c.basic_ac


def hit_dice(c: Combatant) -> int:
    """A monster's Hit Dice, a character's level: what the helpers' '1/2 HD' is measured in."""
    return c.hd if c.klass == "monster" else c.level


def rating(c: Combatant) -> tuple[int, str]:
    """w, and how it was found."""
    if c.klass == "monster":
        w = MONSTER_W * c.hd + basic_ac(c)
        return w, f"2 x HD {c.hd} + basic AC {basic_ac(c)}"
    half = (c.level + 1) // 2
    w = half + c.str_adj + c.dex_adj + basic_ac(c)
    return w, f"ceil(L {c.level}/2) {half} + δS {c.str_adj} + δD {c.dex_adj} + basic AC {basic_ac(c)}"


def helper_bonus(state: Encounter, helper: Combatant, defender: Combatant) -> int:
    """+1 for a helper with less than 1/2 HD, +5 for one with more (option wrestle_helpers:
    half the defender's HD, or half a Hit Die)."""
    twice = 2 * hit_dice(helper)
    line = hit_dice(defender) if state.options.get("wrestle_helpers", "defender") == "defender" else 1
    return HELPERS[0] if twice < line else HELPERS[1]


def check(state: Encounter, actor: Combatant, a: Wrestle) -> None:
    target = check_target(state, actor, a.target, "wrestle", "wrestle")
    if actor.vessel or target.vessel:
        raise Rejected("wrestle/vessel", "vessels do not wrestle")


def describe(state: Encounter, a: Wrestle) -> str:
    target = lookup(state, a.target)
    return f"wrestle {target.name if target else a.target}"


def joining(ctx: Context, actor: Combatant, a: Wrestle) -> list[Combatant]:
    """The others wrestling the same foe whose turns wait in this phase: their turns
    are taken off the queue, as the bout is one."""
    state = ctx.state
    by_actor = {d.actor: d.action for d in state.declarations}
    waiting = [
        s
        for s in state.steps
        if s.phase == state.phase and s.kind == ACT and s.actor != actor.id and isinstance(w := by_actor.get(s.actor), Wrestle) and w.target == a.target
    ]
    state.steps = [s for s in state.steps if s not in waiting]
    return [ctx.combatant(s.actor) for s in waiting]


def resolve(ctx: Context, actor: Combatant, a: Wrestle, step: Step) -> None:
    state = ctx.state
    target = standing(ctx, actor, a.target, "wrestle", "has no one to wrestle")
    if target is None:
        return
    helpers = [h for h in joining(ctx, actor, a) if may_act(state, h)]
    crowd = []
    for c in [actor] + helpers:
        if distance(c, target) > REACH:
            ctx.log(
                "wrestle",
                **said(f"{c.name} cannot reach {target.name} to wrestle", (f" ({distance(c, target)} ft away)", ""), "."),
                actor=c.id,
                target=target.id,
            )
        else:
            crowd.append(c)
    if crowd:
        bout(ctx, crowd, target)


def bout(ctx: Context, crowd: list[Combatant], target: Combatant) -> None:
    state = ctx.state
    lead, helpers = crowd[0], crowd[1:]
    w, how = rating(lead)
    for h in helpers:
        bonus = helper_bonus(state, h, target)
        w += bonus
        how += f" + {bonus} {h.name}"
    d, dhow = rating(target)
    if target.hold == "pin":
        penalty = int(state.options.get("pin_penalty", 3))
        d -= penalty
        dhow += f" - {penalty} pinned"
    mine = ctx.dice.roll(20, f"{lead.name} wrestles {target.name}")
    theirs = ctx.dice.roll(20, f"{target.name} wrestles back")
    head = f"{lead.name} wrestles {target.name}"
    sums = f"d20 {mine} + w {w} ({how}) = {mine + w} against d20 {theirs} + w {d} ({dhow}) = {theirs + d}"
    dice = f"d20 {mine} against d20 {theirs}"
    who = LineFields(actor=lead.id, target=target.id)
    if mine + w == theirs + d:
        ctx.log("wrestle", **reckoned(head, sums, dice, "even, the holds stay as they are"), **who)
    elif mine + w < theirs + d:
        ctx.log("wrestle", **reckoned(head, sums, dice, f"{target.name} wins"), **who)
        release(ctx, target)
    elif lead.held_by == target.id:
        ctx.log("wrestle", **reckoned(head, sums, dice, f"{lead.name} wins"), **who)
        release(ctx, lead)
    else:
        at = HOLDS.index(target.hold) + 1 if target.hold else 0
        stage = HOLDS[min(at, len(HOLDS) - 1)]
        take(target, lead, stage)
        ctx.log("wrestle", **reckoned(head, sums, dice, f"{lead.name} wins, {stage_text(stage, target)}"), **who)
        if stage == "pin":
            pinned(ctx, lead, target)


def stage_text(stage: str, target: Combatant) -> str:
    return {"grab": f"a grab on {target.name}", "fall": f"{target.name} falls", "pin": f"{target.name} is pinned"}[stage]


def take(target: Combatant, holder: Combatant, stage: str) -> None:
    target.hold, target.held_by = stage, holder.id
    for s in HOLDS[: HOLDS.index(stage) + 1]:
        if HOLD_CONDITION[s] not in target.conditions:
            target.conditions.append(HOLD_CONDITION[s])


def release(ctx: Context, c: Combatant) -> None:
    """The hold on `c` is broken; a fall leaves it prone (it may `stand`)."""
    if not c.hold:
        return
    for s in ("grab", "pin"):
        if HOLD_CONDITION[s] in c.conditions:
            c.conditions.remove(HOLD_CONDITION[s])
    holder = lookup(ctx.state, c.held_by)
    c.hold, c.held_by = "", ""
    ctx.log("wrestle", released(c, holder), target=c.id)


def released(c: Combatant, holder: Combatant | None) -> str:
    # Only one who is up breaks free; a hold on a fallen wrestler, or by a fallen holder, just ends.
    if c.down:
        return f"{holder.name} lets go of {c.name}." if holder else f"The hold on {c.name} ends."
    if holder is not None and holder.down:
        return f"{holder.name}'s hold on {c.name} ends."
    return f"{c.name} breaks free of {holder.name if holder else 'the hold'}."


def pinned(ctx: Context, holder: Combatant, target: Combatant) -> None:
    """002: 'Pinned: SvDR or take 1 + δS hp damage'."""
    roll = ctx.dice.roll(20, f"{target.name}, pinned, saves vs death ray")
    who = LineFields(actor=holder.id, target=target.id)
    if roll >= target.save_death:
        ctx.log("wrestle", **said(f"{target.name} saves vs death ray: d20 {roll}", (f" ≥ {target.save_death}", ""), ", no harm."), **who)
        return
    points = max(0, PINNED_DAMAGE + holder.str_adj)
    target.hp -= points
    ctx.log(
        "damage",
        **said(
            f"{target.name} fails to save (d20 {roll}",
            (f" < {target.save_death}", ""),
            f") and takes {points} damage (1 + {holder.str_adj} δS)",
            hp_left(target),
            ".",
        ),
        total=points,
        **who,
    )
    if target.hp <= 0 and not target.down:
        fall(ctx, target)


def end_of_round(ctx: Context) -> None:
    """A hold lasts while its holder is able and wrestles the held one each round."""
    state = ctx.state
    for c in state.combatants:
        if not c.hold:
            continue
        holder = lookup(state, c.held_by)
        action = declared(state, holder) if holder else None
        if holder is None or not able(holder) or not (isinstance(action, Wrestle) and action.target == c.id):
            release(ctx, c)
