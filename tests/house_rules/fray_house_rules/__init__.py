"""Profile 'house-kicks': 003's round with one house rule, the kick.

A kick is declared like an attack (`{"type": "house", "name": "kick", "target":
...}`) and resolves in the attack phase: d20 + combat bonus + the target's AC
(descending) against 19, as 003 rolls any attack; a hit rolls a d6 on the kick
chart below.
"""

from fray_table.rules.conditions import PRONE
from fray_table.rules.context import Context, lookup
from fray_table.rules.errors import Rejected
from fray_table.rules.holmes.damage import lose_hp
from fray_table.rules.holmes.fighters import combat_bonus
from fray_table.rules.holmes.options import COMMON, COMMON_FIGURES
from fray_table.rules.holmes.terms import descending
from fray_table.rules.holmes.tohit import roll_to_hit
from fray_table.rules.ruleset import Added, Module, Profile

# The table's kick chart: d6 -> (damage, knocked prone).
KICK_CHART = {1: (0, False), 2: (1, False), 3: (1, False), 4: (2, False), 5: (2, True), 6: (3, True)}
REACH = 5  # feet


def check(state, actor, action) -> None:
    if action.name != "kick":
        return
    target = lookup(state, action.target)
    if target is None or target.id == actor.id:
        raise Rejected("kick/no-target", f"{actor.name} has no one to kick")


def describe(state, action) -> str:
    target = lookup(state, action.target)
    return f"kick {target.name if target else action.target}"


def kick(ctx: Context, actor, action, step) -> None:
    target = lookup(ctx.state, action.target)
    if target is None or target.down:
        ctx.log("attack", f"{actor.name} has no one to kick.", actor=actor.id)
        return
    if max(abs(actor.x - target.x), abs(actor.y - target.y)) > REACH:
        ctx.log("attack", f"{actor.name} cannot reach {target.name} to kick.", actor=actor.id, target=target.id)
        return
    mods = [("combat bonus", combat_bonus(ctx.state, actor))]
    if not roll_to_hit(ctx, actor, f"kicks {target.name}", descending(target.ac), mods, target.id):
        return
    roll = ctx.dice.roll(6, f"kick chart for {actor.name}")
    points, prone = KICK_CHART[roll]
    ctx.log("kick", f"Kick chart d6 {roll}: {points} damage{', knocked prone' if prone else ''}.", actor=actor.id, target=target.id)
    if prone and PRONE not in target.conditions:
        target.conditions.append(PRONE)
    if points:
        lose_hp(ctx, target, points, "kick", actor.id)


def choices(state, c, listed: list) -> list:
    from fray_table.rules.view import Choice

    foes = [t.id for t in state.combatants if t.side != c.side and not t.down]
    return [*listed, Choice(type="house", targets=foes, options={"name": ["kick"]})] if foes else listed


PROFILE = Profile(
    name="house-kicks",
    document="the table's own house rules",
    title="Holmes Basic with the kick chart (a house rule)",
    ac_style="descending",
    options=COMMON,
    common_figures=COMMON_FIGURES,
    base="holmes-phases",
    modules=(
        Module(
            "kicks",
            "House rule: a kick, rolled as 003's attack, then a d6 on the kick chart.",
            actions={"house:kick": Added(describe, kick)},
            check_declaration=(check,),
            choices=(choices,),
        ),
    ),
)
