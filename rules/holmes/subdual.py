"""Subdual (003): 'Subdual damage is tracked separately from killing damage, and this
total is compared at the end of any round in which subdual damage was sustained to
the subduee's hit point maximum. ... a roll below that number on percentile dice
indicates the creature so victimised will surrender.'
"""

from ..conditions import SURRENDERED
from ..context import Context, Said, said
from ..model import Combatant
from .damage import roll_damage


def strike(ctx: Context, attacker: Combatant, target: Combatant, dice: str, extra: list[tuple[str, int]] | tuple = ()) -> None:
    """A declared subduing blow that hit: its damage (with `extra` d6s, as rules.holmes.damage.damage)
    goes to `subdual`, not to HP."""
    take(ctx, attacker, target, *roll_damage(ctx, target, dice, extra, "subdual damage"))


def take(ctx: Context, attacker: Combatant, target: Combatant, points: int, shown: str) -> None:
    """Subdual damage, tracked apart from HP (`shown`: how the points were found)."""
    target.subdual += points
    target.subdual_round = ctx.state.round
    ctx.log(
        "damage",
        **said(f"{target.name} takes {points} subdual damage ({shown})", (f", {target.subdual} of {target.hp_max} max HP", ""), "."),
        actor=attacker.id,
        target=target.id,
        total=points,
    )


def percentage(c: Combatant) -> int:
    """The share of maximum HP taken as subdual damage, in whole percent (rounded down)."""
    return c.subdual * 100 // c.hp_max


def end_of_round(ctx: Context) -> None:
    for c in ctx.state.combatants:
        if c.subdual_round != ctx.state.round or c.down or SURRENDERED in c.conditions:
            continue
        pct = percentage(c)
        if pct >= 100:
            # A ruling: d100 can roll 100, not below it; a creature beaten past its
            # maximum surrenders without a roll.
            surrender(ctx, c, said(f"{c.name} surrenders", (f": subdual {c.subdual} of {c.hp_max} max HP is {pct}%", ""), "."))
            continue
        roll = ctx.dice.roll(100, f"{c.name} resists surrender")
        share = f"{pct}% (subdual {c.subdual} of {c.hp_max})"  # the number needed is the subdual's share of max HP
        if roll < pct:
            surrender(ctx, c, said(f"{c.name} surrenders: d100 {roll}", (f" < {share}", ""), "."))
        else:
            ctx.log("subdual", **said(f"{c.name} fights on: d100 {roll}", (f" ≥ {share}", ""), "."), target=c.id)


def surrender(ctx: Context, c: Combatant, line: Said) -> None:
    """`line`: the log line saying why (rules.context.said)."""
    c.conditions.append(SURRENDERED)
    ctx.log("subdual", **line, target=c.id)
