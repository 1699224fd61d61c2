"""Where the thac0-sheet profile (002) meets the shared round: its checks on every
declaration, what it offers each combatant, its end-of-round rules."""

from fray_table.rules.actions import (
    Attack,
    Cast,
    Charge,
    Grapple,
    GrappleShip,
    Hold,
    Move,
    Repair,
    tag,
)
from fray_table.rules.charts.thac0_sheet import REPAIR_CREW
from fray_table.rules.combat import distance
from fray_table.rules.context import Context, lookup
from fray_table.rules.errors import Rejected
from fray_table.rules.fighters import usable
from fray_table.rules.model import Combatant, Encounter
from fray_table.rules.thac0sheet import naval, striking, wrestling

NAME = "thac0-sheet"
VESSEL_ACTIONS = (Move, Hold, GrappleShip, Repair)
HARM_HULLS = (Attack, Charge, Cast)  # 002: 'Magic and giant monsters' (a blow counts 1 hull point per 5 hp)
# 002's own actions, by tag: the module with its check, describe and resolve.
ADDED = {"strike": striking, "wrestle": wrestling, "grapple_ship": naval, "board": naval, "repair": naval}


def check(state: Encounter, actor: Combatant, action) -> None:
    """declare.CHECKS: 002's own actions' checks; 002's wrestling replaces 003's
    grappling; a vessel only sails, grapples and repairs, as fast as its damage and
    rowers allow."""
    if tag(action) in ADDED:
        ADDED[tag(action)].check(state, actor, action)
    if isinstance(action, Grapple):
        raise Rejected("declare/replaced", "in the thac0-sheet profile 002's wrestling replaces 003's grappling: declare 'wrestle'")
    if actor.vessel and not isinstance(action, VESSEL_ACTIONS):
        raise Rejected("naval/vessel-action", f"{actor.name} is a vessel: it may move, hold, grapple_ship or repair")
    if actor.vessel and isinstance(action, Move):
        naval.check_sailing(state, actor, distance(actor, Combatant(name="", side="", x=action.x, y=action.y)))
    target = lookup(state, getattr(action, "target", "") or "")
    if target is not None and target.vessel and not isinstance(action, HARM_HULLS + (GrappleShip,)):
        raise Rejected("naval/target-is-vessel", f"{target.name} is a vessel: only melee blows (a giant monster's) and spells harm a hull")


def choices(state: Encounter, c: Combatant, listed: list) -> list:
    """view.CHOICES: a vessel's own list; for everyone else 003's without grappling,
    plus strike, wrestle and (aboard a grappled vessel) board."""
    from fray_table.rules.view import (
        Choice,  # rules.view imports the round's modules: import at use
    )

    others = [t for t in state.combatants if t.id != c.id and not t.down]
    if c.vessel:
        out = []
        if not c.lashed_to and naval.speed(c) > 0:
            out.append(Choice(type="move", options={"max_feet": [naval.speed(c)]}))
        out.append(Choice(type="hold"))
        ships = [t.id for t in others if t.vessel and t.id != c.lashed_to]
        if ships:
            out.append(Choice(type="grapple_ship", targets=ships))
        if c.crew >= REPAIR_CREW and naval.repairable(c):
            out.append(Choice(type="repair"))
        return out
    people = [t for t in others if not t.vessel]
    ids = [t.id for t in people if t.side != c.side] + [t.id for t in people if t.side == c.side]
    listed = [ch for ch in listed if ch.type != "grapple"]
    if ids:
        listed.append(Choice(type="strike", targets=ids, options={"pulled": [False, True], "haymaker": [False, True]}))
        listed.append(Choice(type="wrestle", targets=ids))
    mine = lookup(state, c.aboard)
    if mine is not None and mine.lashed_to:
        aboard = [t.id for t in people if t.side != c.side and t.aboard == mine.lashed_to]
        ready = [i for i, w in enumerate(c.weapons) if usable(w)]
        if aboard and ready:
            listed.append(Choice(type="board", targets=aboard, options={"weapon": ready}))
    return listed


def end_of_round(ctx: Context) -> None:
    """resolve.ROUND_ENDS: stuns wear off, holds lapse, the boarding round ends."""
    striking.end_of_round(ctx)
    wrestling.end_of_round(ctx)
    naval.end_of_round(ctx)
