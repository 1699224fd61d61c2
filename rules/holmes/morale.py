"""Morale (003): 'Relatively intelligent (ie. not entirely mindless ...) monsters and
NPCs must roll morale when facing unusual adversity during combat. ... This result
determines the affected creature's actions for the next round.'

The GM calls it (`call_morale`), or the encounter's options call it at the end of
a round: the first death on a side, half a side out of the fight, a leader down.
'surrender' and 'flee' take the creature out of the fight (conditions
'surrendered', 'fled'); 'hold', 'press' and 'redouble' are shown in its
`morale` field for the round they govern and read by the referee.
"""

from ..charts.morale import MORALE_TEXT, morale_result
from ..commands import CallMorale
from ..conditions import FLED, SURRENDERED, out_of_fight  # noqa: F401  (named here for the rules that take it with morale's)
from ..context import Context, lookup, sides
from ..errors import Rejected
from ..model import Combatant, Encounter

OUT = {"surrender": SURRENDERED, "flee": FLED}  # results that end a creature's fight, as conditions
MAX_MODIFIER = 10
ROUND_BOUND = ("hold", "press", "redouble")  # results that govern one round only


def why_not(c: Combatant) -> str | None:
    if c.pc:
        return "is a player character"
    if c.mindless:
        return "is mindless"
    if out_of_fight(c):
        return "is out of the fight"
    return None


def check_call(state: Encounter, cmd: CallMorale) -> None:
    if state.status != "running":
        raise Rejected("morale/not-running", "morale is checked during the fight")
    if state.awaiting is not None:
        raise Rejected("morale/awaiting", f"waiting for an answer: {state.awaiting.prompt}")
    if bool(cmd.combatant) == bool(cmd.side):
        raise Rejected("morale/bad-target", "name a combatant or a side, not both")
    if not -MAX_MODIFIER <= cmd.modifier <= MAX_MODIFIER:
        raise Rejected("morale/bad-modifier", f"a morale modifier is -{MAX_MODIFIER} to +{MAX_MODIFIER}")
    if cmd.combatant:
        c = lookup(state, cmd.combatant)
        if c is None:
            raise Rejected("morale/unknown-combatant", f"there is no combatant {cmd.combatant!r}")
        if why := why_not(c):
            raise Rejected("morale/not-eligible", f"{c.name} {why}: no morale roll")
        return
    if not any(c.side == cmd.side for c in state.combatants):
        raise Rejected("morale/unknown-side", f"there is no side {cmd.side!r}")
    if not any(c.side == cmd.side and why_not(c) is None for c in state.combatants):
        raise Rejected("morale/not-eligible", f"nobody on the {cmd.side} side rolls morale")


def call(ctx: Context, cmd: CallMorale) -> None:
    state = ctx.state
    group = [ctx.combatant(cmd.combatant)] if cmd.combatant else eligible(state, cmd.side)
    # Called during declarations it governs the round being declared; later, the next one.
    governs = state.round if state.phase == "declaration" else state.round + 1
    check(ctx, group, cmd.modifier, governs, "called by the GM")


def eligible(state: Encounter, side: str) -> list[Combatant]:
    return [c for c in state.combatants if c.side == side and why_not(c) is None]


def check(ctx: Context, group: list[Combatant], modifier: int, governs: int, why: str) -> None:
    """One 2d6 for the whole party ('The affected party throws two six-sided dice'),
    or one each with option morale_per_creature; each adds its own loyalty."""
    shared = None
    for c in group:
        if shared is None or ctx.option("morale_per_creature"):
            shared = (ctx.dice.roll(6, f"morale ({c.side})"), ctx.dice.roll(6, f"morale ({c.side})"))
        a, b = shared
        mods = [(n, v) for n, v in (("modifier", modifier), ("loyalty", c.loyalty)) if v]
        total = a + b + sum(v for _, v in mods)
        result = morale_result(total)
        terms = "".join(f" {'+' if v >= 0 else '-'} {abs(v)} {n}" for n, v in mods)
        apply_result(ctx, c, result, governs)
        ctx.log(
            "morale",
            f"{c.name} checks morale ({why}): 2d6 {a}+{b}{terms} = {total}: {MORALE_TEXT[result]}.",
            target=c.id,
            mods=mods,
            total=total,
            audience="gm" if c.hidden else "all",
        )


def apply_result(ctx: Context, c: Combatant, result: str, governs: int) -> None:
    c.morale, c.morale_round = result, governs
    if result in OUT:
        c.conditions.append(OUT[result])
        if ctx.state.phase == "declaration":
            ctx.state.declarations = [d for d in ctx.state.declarations if d.actor != c.id]


# Automatic checks (003: 'when facing unusual adversity'), each an encounter option.
TRIGGERS = (
    ("morale_first_death", "first_death", "first death on its side"),
    ("morale_half_down", "half_down", "half its side out of the fight"),
    ("morale_leader_down", "leader_down", "its leader is down"),
)


def fired(state: Encounter, side: str, key: str) -> bool:
    members = [c for c in state.combatants if c.side == side]
    if key == "first_death":
        return any(c.down for c in members)
    if key == "half_down":
        return 2 * sum(out_of_fight(c) for c in members) >= len(members)
    return any(c.leader and c.down for c in members)


def end_of_round(ctx: Context) -> None:
    state = ctx.state
    for c in state.combatants:
        if not c.morale:  # most have no result standing
            continue
        if c.morale in ROUND_BOUND and c.morale_round <= state.round:
            c.morale = ""
        if c.morale == "flee" and c.morale_round == state.round and OUT["flee"] in c.conditions and not c.down:
            # The round its result governs is the one it runs in (rules.holmes.fighters.gone).
            ctx.log("morale", f"{c.name} has fled the field.", target=c.id, audience="gm" if c.hidden else "all")
    called = [trigger for trigger in TRIGGERS if ctx.option(trigger[0])]  # the automatic checks the options call for
    if not called:
        return  # (the options' default: no side is looked at)
    for side in sides(ctx):
        reasons = []
        for _, key, text in called:
            mark = f"{key}:{side}"
            if mark not in state.morale_triggers and fired(state, side, key):
                state.morale_triggers.append(mark)
                reasons.append(text)
        group = eligible(state, side) if reasons else []
        if group:
            check(ctx, group, 0, state.round + 1, "; ".join(reasons))
