"""The round of 003 as data: its phases, what resolves in each, and the order of actors.

'Combat proceeds in Dexterity order [Holmes Basic] in a series of discreet
phases [Houserule]. All actions in one phase are completed prior to the next
phase beginning.'
"""

from rules.actions import tag
from rules.model import Combatant, Encounter, Step

# 003: declaration, then the attack, movement and magic phases, then end of round.
PHASES = ("declaration", "attack", "movement", "magic", "end")

# Which phase resolves each declared action (003).
PHASE_OF = {
    "attack": "attack",  # 'Attacks made while stationary are resolved.'
    "move": "movement",  # 'All declared movement occurs.'
    "hold": None,
}


def dex_order(combatants: list[Combatant]) -> list[Combatant]:
    """Highest DEX first; ties keep the order combatants were added (a ruling)."""
    return sorted(combatants, key=lambda c: -c.dex)


def declaration_order(combatants: list[Combatant]) -> list[Combatant]:
    """003's formal procedure: 'reversed Intelligence order', lowest INT declares first."""
    return sorted(combatants, key=lambda c: c.int_)


def may_act(state: Encounter, c: Combatant) -> bool:
    return not c.down and c.side not in state.surprised


def plan(state: Encounter) -> list[Step]:
    """The steps of the round, once declarations close: each phase in DEX order."""
    by_actor = {d.actor: d for d in state.declarations}
    steps = []
    for phase in PHASES[1:-1]:
        for c in dex_order(state.combatants):
            d = by_actor.get(c.id)
            if d is not None and PHASE_OF[tag(d.action)] == phase:
                steps.append(Step(phase=phase, actor=c.id))
    steps.append(Step(phase="end", actor="", kind="end_of_round"))
    return steps
