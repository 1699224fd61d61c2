"""Getting back into the fight: standing up from prone, picking up a dropped weapon.

003 leaves a stop-drop-and-roll victim prone ('melee attackers thus gain the bonus
described under Attacking Helpless Targets') and a parrier or a surprised gawper
disarmed, and says nothing of getting up or re-arming. Both are rulings
(docs/rulings.md): each is a Movement Phase action that is the round's
declaration, so the combatant stays prone, or unarmed, through that round's
attack phase.
"""

import msgspec

from ..actions import Recover, Stand
from ..conditions import DISARMED, PRONE
from ..context import Context
from ..errors import Rejected
from ..model import Combatant, Encounter


def dropped(c: Combatant) -> list[int]:
    """The indices of the weapons `c` has dropped (and that are not broken)."""
    return [i for i, w in enumerate(c.weapons) if w.dropped and not w.broken]


def check_stand(state: Encounter, actor: Combatant, action: Stand) -> None:
    if PRONE not in actor.conditions:
        raise Rejected("stand/not-prone", f"{actor.name} is not prone")


def check_recover(state: Encounter, actor: Combatant, action: Recover) -> None:
    if not 0 <= action.weapon < len(actor.weapons):
        raise Rejected("declare/no-such-weapon", f"{actor.name} has no weapon number {action.weapon}")
    if action.weapon not in dropped(actor):
        weapon = actor.weapons[action.weapon]
        why = "broken" if weapon.broken else "not dropped"
        raise Rejected("recover/not-dropped", f"{actor.name}'s {weapon.name} is {why}: there is nothing to pick up")


def stand(ctx: Context, actor: Combatant) -> None:
    if PRONE not in actor.conditions:
        ctx.log("move", f"{actor.name} is already on its feet.", actor=actor.id)
        return
    actor.conditions.remove(PRONE)
    ctx.log("move", f"{actor.name} stands up (no longer prone).", actor=actor.id)


def recover(ctx: Context, actor: Combatant, index: int) -> None:
    weapon = actor.weapons[index]
    if not weapon.dropped or weapon.broken:
        ctx.log("move", f"{actor.name} has no dropped {weapon.name} to pick up.", actor=actor.id)
        return
    actor.weapons[index] = msgspec.structs.replace(weapon, dropped=False)
    if DISARMED in actor.conditions and not dropped(actor):
        actor.conditions.remove(DISARMED)
    ctx.log("move", f"{actor.name} picks up the {weapon.name}.", actor=actor.id)


def offer_stand(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    """`stand` for a prone combatant."""
    return dict(type="stand") if PRONE in c.conditions else None


def offer_recover(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    """`recover`, with the dropped weapons, for a disarmed one."""
    lost = dropped(c)
    return dict(type="recover", options={"weapon": lost}) if lost else None
