"""Surprise (003): 'each side must check to see if they were surprised. That side is
surprised if 1 or 2 is rolled on a 6-sided die. If one side is surprised and the
other isn't, the active side gains one free round ... and attacks at +2 to-hit.'
"""

from fray_table.rules.context import Context, sides

SURPRISED_ON = 2  # 003: 1 or 2 on a d6


def roll_surprise(ctx: Context) -> None:
    everyone = sides(ctx)
    # A side all unseen (rules.unseen: an ambush) is not named to the table: its roll is the GM's,
    # and comes after the others', so the dice a player reads are the event's first draws in order
    # and check against the revealed seed (docs/dice.md) without the GM's line.
    unseen = {s for s in everyone if all(c.unseen for c in ctx.state.combatants if c.side == s)}
    caught = set()
    for side in [s for s in everyone if s not in unseen] + [s for s in everyone if s in unseen]:
        roll = ctx.dice.roll(6, f"surprise for {side}")
        if roll <= SURPRISED_ON:
            caught.add(side)
        ctx.log("surprise", f"{side} rolls d6 {roll}: {'surprised' if side in caught else 'not surprised'}.", audience="gm" if side in unseen else "all")
    surprised = [s for s in everyone if s in caught]
    if surprised and len(surprised) < len(everyone):
        ctx.state.surprised = surprised
        active = [s for s in everyone if s not in surprised]
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
