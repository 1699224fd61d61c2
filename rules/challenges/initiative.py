"""What a miss costs the attacker afterwards (001's Attack Chart): a forfeited next
attack, a lost initiative, an initiative penalty.

Fray has no initiative roll: a round's actors go in Dexterity order in each phase
(003). So, a ruling (docs/rulings.md): '-N to initiative next round' counts as N
points of DEX off the attacker's place in that round's order, and 'lose initiative
next round' puts the attacker after everyone who has not lost it. Each is a
condition naming its round ('initiative -2 in round 3'), cleared when that round
ends; 'forfeits next attack' stays until the next attack it costs. An encounter that takes
001's chart without this module keeps 003's order, and the log says so instead."""

import re

from ..context import Context
from ..model import Combatant, Encounter
from ..ruleset import rules_of

FORFEIT = "forfeits next attack"
# 001's -9 drop, read as the ruling does: the next attack is lost to drawing another weapon, or to the
# round spent picking the dropped one up (then this lapses at the end of that round, costing nothing more).
DRAW_FORFEIT = "forfeits next attack unless it picks up its weapon"
_ROUND = re.compile(r"^(?:loses initiative|initiative (-\d+)) in round (\d+)$")


MODULE, PROFILE = "initiative", "challenges"
KEPT = "this encounter keeps 003's Dexterity order, which no miss changes"  # 001's chart taken without its initiative


def taken(state: Encounter) -> bool:
    """Whether the encounter's order is 001's (its `initiative` module), which reads what a miss costs."""
    return rules_of(state).modules.get(MODULE, ("",))[0] == PROFILE


def lose_initiative(ctx: Context, c: Combatant) -> None:
    when = ctx.state.round + 1
    if not taken(ctx.state):
        ctx.log("initiative", f"{c.name} would lose initiative in round {when}, but {KEPT}.", actor=c.id)
        return
    c.conditions.append(f"loses initiative in round {when}")
    ctx.log("initiative", f"{c.name} automatically loses initiative in round {when}: last in each phase.", actor=c.id)


def initiative_penalty(ctx: Context, c: Combatant, points: int) -> None:
    when = ctx.state.round + 1
    if not taken(ctx.state):
        ctx.log("initiative", f"{c.name} would take {points} to initiative in round {when}, but {KEPT}.", actor=c.id)
        return
    c.conditions.append(f"initiative {points} in round {when}")
    ctx.log("initiative", f"{c.name} takes {points} to initiative in round {when}: DEX {c.dex} counts as {c.dex + points} for the order.", actor=c.id)


def forfeit(ctx: Context, c: Combatant) -> None:
    if FORFEIT not in c.conditions:
        c.conditions.append(FORFEIT)
    ctx.log("initiative", f"{c.name} forfeits the next attack.", actor=c.id)


def forfeited(ctx: Context, c: Combatant, target: Combatant) -> bool:
    """Spend a forfeit on this attack, if `c` owes one."""
    if DRAW_FORFEIT in c.conditions:
        c.conditions.remove(DRAW_FORFEIT)
        ctx.log("attack", f"{c.name} forfeits this attack on {target.name} (drawing another weapon after dropping one).", actor=c.id, target=target.id)
        return True
    if FORFEIT not in c.conditions:
        return False
    c.conditions.remove(FORFEIT)
    ctx.log("attack", f"{c.name} forfeits this attack on {target.name} (a clumsy miss before).", actor=c.id, target=target.id)
    return True


def standing(state: Encounter, c: Combatant) -> tuple[bool, int]:
    """(lost initiative, DEX with this round's penalties) for the order of the round."""
    lost, dex = False, c.dex
    for x in c.conditions:
        m = _ROUND.match(x)
        if m and int(m.group(2)) == state.round:
            if m.group(1) is None:
                lost = True
            else:
                dex += int(m.group(1))
    return lost, dex


def order(state: Encounter) -> list[Combatant]:
    """Hook `order` of 001's initiative: Dexterity order, initiative lost and penalties counted; ties
    keep the order combatants were added (as 003's dex_order)."""

    def key(c: Combatant) -> tuple[bool, int]:
        lost, dex = standing(state, c)
        return lost, -dex

    return sorted(state.combatants, key=key)


def end_of_round(ctx: Context) -> None:
    """The round's initiative conditions have done their work."""
    for c in ctx.state.combatants:
        spent = [x for x in c.conditions if (m := _ROUND.match(x)) and int(m.group(2)) <= ctx.state.round]
        for x in spent:
            c.conditions.remove(x)
        if DRAW_FORFEIT in c.conditions and not any(w.dropped for w in c.weapons):
            c.conditions.remove(DRAW_FORFEIT)  # picking it up was the lost attack
