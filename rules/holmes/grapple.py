"""Grappling (003): 'If a man-type wishes to grapple and pin an opponent, he must first
make a successful attack roll in order to approach the creature in question - unless
that creature is wholly unarmed or is otherwise unwilling to use lethal force. Note
that only six men may grapple one man-sized creature at once. ... each character
involved in the brawl must roll 6-sided dice equal to their hit dice (not level);
the attacker(s) and defender compare totals, and if the attacker(s) win, the
defender is pinned and helpless; if the defender wins, the attacker(s) are thrown
back 1" and may not attempt to grapple again in the next round.'

Everyone grappling one target in the same phase joins one brawl, resolved at the
first of their turns (DEX order).
"""

from ..actions import Grapple
from ..conditions import DISARMED, HELPLESS, PINNED
from ..context import Context, lookup, said, standing
from ..errors import Rejected
from ..grid import distance
from ..model import ACT, Combatant, Encounter, Step
from ..round import may_act
from .ranged import check_target
from .terms import descending
from .tohit import base_mods, roll_to_hit

MAX_GRAPPLERS = 6  # 003: 'only six men may grapple one man-sized creature at once'
THROWN_BACK = 10  # feet: 003's 1" (a ruling: an inch is 10 ft, as for movement)
REACH = 5  # feet: a grappler must stand beside the target


# The declaration's box `target_unwilling`, in 003's words (the pages' form: Module.labels).
UNWILLING_WORDS = {
    "label": "The target is wholly unarmed or otherwise unwilling to use lethal force",
    "help": "003: then no attack roll is needed to approach it: closing in is automatic. The brawl's dice (d6 per hit die) still decide who is pinned.",
}


def may_grapple(state: Encounter, c: Combatant) -> bool:
    """003: 'If a man-type wishes to grapple and pin an opponent' (option grapple_man_types)."""
    return c.man_type or not state.options.get("grapple_man_types", True)


def check(state: Encounter, actor: Combatant, a: Grapple) -> None:
    target = check_target(state, actor, a.target, "grapple")
    if not may_grapple(state, actor):
        raise Rejected("grapple/not-a-man-type", f"{actor.name} is not a man-type; 003 lets man-types grapple and pin")
    if state.round <= actor.no_grapple_until:
        raise Rejected("grapple/thrown-back", f"{actor.name} was thrown back and may not grapple this round (003)")
    if target.size in ("S", "M"):
        others = [d for d in state.declarations if d.actor != actor.id and isinstance(d.action, Grapple) and d.action.target == target.id]
        if len(others) >= MAX_GRAPPLERS:
            raise Rejected("grapple/crowded", f"only {MAX_GRAPPLERS} may grapple {target.name} at once (003)")


def describe(state: Encounter, a: Grapple) -> str:
    target = lookup(state, a.target)
    return f"grapple {target.name if target else a.target}" + (" (no hit needed)" if a.target_unwilling else "")


def brawlers(ctx: Context, actor: Combatant, a: Grapple) -> list[tuple[Combatant, Grapple]]:
    """This grappler and the others on the same target whose turns wait in this phase;
    their turns are taken off the queue, as the brawl is one."""
    state = ctx.state
    by_actor = {d.actor: d.action for d in state.declarations}
    joining = [
        (s, g) for s in state.steps if s.phase == state.phase and s.kind == ACT and isinstance(g := by_actor.get(s.actor), Grapple) and g.target == a.target
    ]
    joined = [s for s, _ in joining]
    state.steps = [s for s in state.steps if s not in joined]
    return [(actor, a)] + [(ctx.combatant(s.actor), g) for s, g in joining]


def resolve(ctx: Context, actor: Combatant, a: Grapple, step: Step) -> None:
    state = ctx.state
    target = standing(ctx, actor, a.target, "grapple", "has nobody to grapple")
    if target is None:
        return
    joined = []
    for g, action in brawlers(ctx, actor, a):
        if not may_act(state, g):
            continue
        if distance(g, target) > REACH:
            ctx.log(
                "grapple",
                **said(f"{g.name} cannot reach {target.name} to grapple", (f" ({distance(g, target)} ft away)", ""), "."),
                actor=g.id,
                target=target.id,
            )
        elif action.target_unwilling or DISARMED in target.conditions:
            joined.append(g)
            ctx.log("grapple", f"{g.name} closes with {target.name}: no attack roll, {target.name} will not strike to kill.", actor=g.id, target=target.id)
        elif roll_to_hit(ctx, g, f"closes to grapple {target.name}", descending(target.ac), base_mods(ctx, g), target.id):
            joined.append(g)
    if joined:
        brawl(ctx, joined, target)


def hit_dice(ctx: Context, c: Combatant) -> tuple[int, int]:
    """(dice, total): d6 'equal to their hit dice (not level)', at least one."""
    n = max(1, c.hd)
    return n, sum(ctx.dice.roll(6, f"{c.name} grapples") for _ in range(n))


def brawl(ctx: Context, grapplers: list[Combatant], target: Combatant) -> None:
    state = ctx.state
    parts, attack = [], 0
    for g in grapplers:
        n, total = hit_dice(ctx, g)
        attack += total
        parts.append(f"{g.name} {n}d6 {total}")
    n, defence = hit_dice(ctx, target)
    text = f"Grapple: {', '.join(parts)} = {attack} against {target.name} {n}d6 {defence}"
    if attack > defence:
        for cond in (PINNED, HELPLESS):
            if cond not in target.conditions:
                target.conditions.append(cond)
        ctx.log("grapple", f"{text}: {target.name} is pinned and helpless.", target=target.id, total=attack)
    elif defence > attack:
        for g in grapplers:
            throw_back(g, target)
            g.no_grapple_until = state.round + 1
        names = ", ".join(g.name for g in grapplers)
        ctx.log("grapple", f'{text}: {names} thrown back 1" (10 ft) and may not grapple next round.', target=target.id, total=attack)
    else:
        # A ruling: 003 names only a win either way; on a tie the holds are even.
        ctx.log("grapple", f"{text}: a tie, nobody is pinned or thrown back.", target=target.id, total=attack)


def throw_back(g: Combatant, target: Combatant) -> None:
    """10 ft straight away from the target (off the target's square: +x), kept on the map."""
    dx = (g.x > target.x) - (g.x < target.x)
    dy = (g.y > target.y) - (g.y < target.y)
    if dx == dy == 0:
        dx = 1
    g.x = min(5000, max(0, g.x + THROWN_BACK * dx))
    g.y = min(5000, max(0, g.y + THROWN_BACK * dy))
