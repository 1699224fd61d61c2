"""Surprise (003): 'each side must check to see if they were surprised. That side is
surprised if 1 or 2 is rolled on a 6-sided die. If one side is surprised and the
other isn't, the active side gains one free round ... and attacks at +2 to-hit.'
"""

from ..context import Context, sides

SURPRISED_ON = 2  # 003: 1 or 2 on a d6


def unseen_sides(ctx: Context, everyone: list[str]) -> set[str]:
    """The sides all unseen (rules.unseen: an ambush): those with no combatant in sight.
    (Plain loops: this runs at every fight's start, and a comprehension is a call of its own.)"""
    in_sight: set[str] = set()
    for c in ctx.state.combatants:
        if not c.unseen:
            in_sight.add(c.side)
    return set(everyone).difference(in_sight)


def rolling_order(everyone: list[str], unseen: set[str]) -> list[str]:
    """The sides in the order they roll: those in sight first, then the unseen."""
    if not unseen:
        return everyone
    first: list[str] = []
    last: list[str] = []
    for side in everyone:
        (last if side in unseen else first).append(side)
    return first + last


def roll_surprise(ctx: Context) -> None:
    everyone = sides(ctx)
    # A side all unseen (rules.unseen: an ambush) is not named to the table: its roll is the GM's,
    # and comes after the others', so the dice a player reads are the event's first draws in order
    # and check against the revealed seed (docs/dice.md) without the GM's line.
    unseen = unseen_sides(ctx, everyone)
    caught = set()
    for side in rolling_order(everyone, unseen):
        roll = ctx.dice.roll(6, f"surprise for {side}")
        if roll <= SURPRISED_ON:
            caught.add(side)
        ctx.log("surprise", f"{side} rolls d6 {roll}: {'surprised' if side in caught else 'not surprised'}.", audience="gm" if side in unseen else "all")
    surprised: list[str] = []
    active: list[str] = []
    for side in everyone:
        (surprised if side in caught else active).append(side)
    if surprised and active:
        ctx.state.surprised = surprised
        if not ctx.narrated:  # (the line's words alone are left)
            return
        named = [", ".join("an unseen foe" if s in unseen else s for s in group) for group in (active, surprised)]
        ctx.log(
            "surprise",
            f"{', '.join(active)} gain a free round and attack at +2; {', '.join(surprised)} cannot act until round 2.",
            f"{named[0][0].upper()}{named[0][1:]} gain a free round and attack at +2; {named[1]} cannot act until round 2." if unseen else None,
            veiled=bool(unseen),
        )
    else:
        ctx.state.surprised = []
        ctx.log("surprise", "No free round: " + ("every side is surprised." if surprised else "no side is surprised."))
