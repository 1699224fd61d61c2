"""The round of 003 as data: its phases, what resolves in each, and the order of actors.

'Combat proceeds in Dexterity order [Holmes Basic] in a series of discreet
phases [Houserule]. All actions in one phase are completed prior to the next
phase beginning.'
"""

from .actions import tag
from .model import ACT, END_OF_ROUND, Combatant, Encounter, Step
from .ruleset import Rules, rules_of

# 003: declaration, then the attack, movement and magic phases, then end of round.
PHASES = ("declaration", "attack", "movement", "magic", "end")

# 003's conditions that stop a combatant acting: out of the fight (morale, subdual),
# or pinned and helpless (grappling).


def steps_of(rules: Rules, action) -> list[tuple[str, str]]:
    """(phase, step kind) of each step a declared action takes: one in its record's
    phase, unless the action lists its own (Shoot); `delay` moves them later (003)."""
    own = getattr(action, "steps", None)
    steps: list[tuple[str, str]]
    if own:
        steps = own()
    else:
        phase = rules.actions[tag(action)].phase
        steps = [(phase, ACT)] if phase else []
    delay = getattr(action, "delay", "")
    if delay:
        steps = [(delay if PHASES.index(p) < PHASES.index(delay) else p, kind) for p, kind in steps]
    return steps


def may_act(state: Encounter, c: Combatant) -> bool:
    return not c.down and c.side not in state.surprised and (not c.conditions or rules_of(state).stopping.isdisjoint(c.conditions))


def why_idle(state: Encounter, c: Combatant) -> str:
    """Why may_act is False: 'down', 'surprised', or the condition that stops it."""
    if c.down:
        return "down"
    held = [x for x in rules_of(state).stops_acting if x in c.conditions]
    return held[0] if held else "surprised"


# The round's last step: a frozen Step, the same one every round.
ROUND_ENDS = Step(phase="end", actor="", kind=END_OF_ROUND)


def plan(state: Encounter, rules: Rules) -> list[Step]:
    """The steps of the round, once declarations close: each phase in DEX order.
    `rules`: the encounter's (rules_of(state), as the event's Context has them)."""
    planned: dict[str, list[tuple[str, str]]] = {}
    for d in state.declarations:  # (a plain loop: a comprehension is a call of its own, once a round)
        planned[d.actor] = steps_of(rules, d.action)
    by_phase: dict[str, list[Step]] = {phase: [] for phase in PHASES[1:-1]}  # the phases steps resolve in
    for c in rules.order(state):  # the hook's order, the same in every phase
        for phase, kind in planned.get(c.id, ()):
            steps = by_phase.get(phase)
            if steps is not None:
                steps.append(Step(phase, c.id, kind))
    return [step for steps in by_phase.values() for step in steps] + [ROUND_ENDS]
