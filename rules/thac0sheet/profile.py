"""Where the thac0-sheet profile's modules (002) meet the shared round: each one's
checks on every declaration and what it offers each combatant."""

from ..actions import (
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
from ..charts.thac0_sheet import REPAIR_CREW
from ..context import lookup
from ..errors import Rejected
from ..grid import distance
from ..holmes.fighters import usable
from ..model import Combatant, Encounter
from . import naval, striking, wrestling

NAME = "thac0-sheet"
VESSEL_ACTIONS = (Move, Hold, GrappleShip, Repair)
HARM_HULLS = (Attack, Charge, Cast)  # 002: 'Magic and giant monsters' (a blow counts 1 hull point per 5 hp)
# 002's own actions, by tag: the module with its check, describe and resolve.
ADDED = {"strike": striking, "wrestle": wrestling, "grapple_ship": naval, "board": naval, "repair": naval}


def check_striking(state: Encounter, actor: Combatant, action) -> None:
    """002's blows are checked by its striking rules."""
    if tag(action) == "strike":
        striking.check(state, actor, action)


def check_wrestling(state: Encounter, actor: Combatant, action) -> None:
    """002's wrestling replaces 003's grappling."""
    if tag(action) == "wrestle":
        wrestling.check(state, actor, action)
    if isinstance(action, Grapple):
        raise Rejected("declare/replaced", "in the thac0-sheet profile 002's wrestling replaces 003's grappling: declare 'wrestle'")


def check_naval(state: Encounter, actor: Combatant, action) -> None:
    """A vessel only sails, grapples and repairs, as fast as its damage and rowers allow;
    only blows of giant monsters and spells harm a hull."""
    if tag(action) in ("grapple_ship", "board", "repair"):
        naval.check(state, actor, action)
    if actor.vessel and not isinstance(action, VESSEL_ACTIONS):
        raise Rejected("naval/vessel-action", f"{actor.name} is a vessel: it may move, hold, grapple_ship or repair")
    if actor.vessel and isinstance(action, Move):
        naval.check_sailing(state, actor, distance(actor, Combatant(name="", side="", x=action.x, y=action.y)))
    target = lookup(state, getattr(action, "target", "") or "")
    if target is not None and target.vessel and not isinstance(action, HARM_HULLS + (GrappleShip,)):
        raise Rejected("naval/target-is-vessel", f"{target.name} is a vessel: only melee blows (a giant monster's) and spells harm a hull")


def _people(state: Encounter, c: Combatant) -> list[str]:
    """Who a fighter may strike or wrestle: everyone up but vessels, foes first."""
    people = [t for t in state.combatants if t.id != c.id and not t.down and not t.vessel]
    return [t.id for t in people if t.side != c.side] + [t.id for t in people if t.side == c.side]


def choices_striking(state: Encounter, c: Combatant, listed: list) -> list:
    from ..view import Choice  # rules.view imports the round's modules: import at use

    ids = _people(state, c)
    if c.vessel or not ids:
        return listed
    return [*listed, Choice(type="strike", targets=ids, options={"pulled": [False, True], "haymaker": [False, True]})]


def choices_wrestling(state: Encounter, c: Combatant, listed: list) -> list:
    from ..view import Choice

    listed = [ch for ch in listed if ch.type != "grapple"]
    ids = _people(state, c)
    return listed if c.vessel or not ids else [*listed, Choice(type="wrestle", targets=ids)]


def choices_naval(state: Encounter, c: Combatant, listed: list) -> list:
    """A vessel's own list; a fighter aboard a grappled vessel may board."""
    from ..view import Choice

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
    mine = lookup(state, c.aboard)
    if mine is not None and mine.lashed_to:
        aboard = [t.id for t in others if not t.vessel and t.side != c.side and t.aboard == mine.lashed_to]
        ready = [i for i, w in enumerate(c.weapons) if usable(w)]
        if aboard and ready:
            listed = [*listed, Choice(type="board", targets=aboard, options={"weapon": ready})]
    return listed
