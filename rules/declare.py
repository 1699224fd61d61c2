"""Declarations (003): 'Everyone states what they're doing, including specifying the
targets of their attacks, attack options, movement, any spells to be cast.'
"""

from fray_table.rules import (
    extras,  # 003: delay, ranged, oil, grappling, spells
    melee,
)
from fray_table.rules.actions import Attack, Flee, Hold, House, Move, tag
from fray_table.rules.combat import distance, routine_weapons
from fray_table.rules.commands import Declare
from fray_table.rules.context import Context, lookup
from fray_table.rules.errors import Rejected
from fray_table.rules.events import Actor
from fray_table.rules.model import Combatant, Declaration, Encounter
from fray_table.rules.round import declaration_order, may_act, why_idle
from fray_table.rules.ruleset import Added, owner_of_action, rules_of
from fray_table.rules.terms import CALLED_SHOTS_MAX
from fray_table.rules.unseen import unseen_ids

MAX_CALLED_SHOTS = CALLED_SHOTS_MAX  # 003: 'This option can be taken up to three times' (rules.terms)


def added(state: Encounter, action) -> Added | None:
    """The rules of an action a module of the encounter's rules adds; None for 003's own."""
    return rules_of(state).actions.get(tag(action))


def controls(by: Actor, cid: str) -> bool:
    return by.role == "gm" or cid in by.combatants


def awaited(state: Encounter) -> list[Combatant]:
    """Who may still declare this round, in the order they are asked."""
    declared = {d.actor for d in state.declarations}
    waiting = [c for c in state.combatants if may_act(state, c) and c.id not in declared]
    if state.options.get("formal_declarations"):
        return declaration_order(waiting)
    return waiting


def check_declare(state: Encounter, by: Actor, cmd: Declare) -> None:
    actor = lookup(state, cmd.actor)
    if actor is None:
        raise Rejected("declare/unknown-combatant", f"there is no combatant {cmd.actor!r}")
    if not controls(by, actor.id):
        raise Rejected("declare/not-your-combatant", f"you do not control {actor.name}")
    if state.status != "running" or state.phase != "declaration" or state.awaiting is not None:
        raise Rejected("declare/not-now", f"declarations are not open (phase: {state.phase})")
    if not may_act(state, actor):
        why = {"down": "is down", "surprised": "is surprised this round"}.get(why_idle(state, actor), f"is {why_idle(state, actor)}")
        raise Rejected("declare/cannot-act", f"{actor.name} {why}")
    if state.options.get("formal_declarations"):
        turn = awaited(state)
        if turn and turn[0].id != actor.id and all(d.actor != actor.id for d in state.declarations):
            raise Rejected("declare/not-your-turn", f"{turn[0].name} declares first (reversed INT order)")
    target = getattr(cmd.action, "target", "")
    if by.role != "gm" and isinstance(target, str) and target in unseen_ids(state):
        raise Rejected("declare/unknown-target", f"there is no combatant {target!r}")  # rules.unseen: the table knows of none
    if by.role != "gm" and actor.unseen:
        raise Rejected("declare/unseen", f"{actor.name} is unseen: the GM declares for it until it is revealed")
    check_action(state, actor, cmd)


def check_action(state: Encounter, actor: Combatant, cmd: Declare) -> None:
    rules = rules_of(state)
    kind = tag(cmd.action)
    owner = owner_of_action(kind) if kind not in rules.actions else None
    if owner is not None:
        raise Rejected("declare/not-in-profile", f"'{kind}' is a rule of the {owner} profile, not of this encounter's rules ({state.profile})")
    if isinstance(cmd.action, House) and kind not in rules.actions:
        raise Rejected("declare/unknown-action", f"no rule of this encounter adds the action {cmd.action.name!r}")
    if isinstance(cmd.action, House) and cmd.action.phase not in ("attack", "movement", "magic"):
        raise Rejected("declare/bad-phase", f"an action resolves in the attack, movement or magic phase, not {cmd.action.phase!r}")
    for check in rules.check_declaration:
        check(state, actor, cmd.action)
    match cmd.action:
        case Attack() as a:
            target = lookup(state, a.target)
            if target is None:
                raise Rejected("declare/unknown-target", f"there is no combatant {a.target!r}")
            if target.id == actor.id:
                raise Rejected("declare/self-target", f"{actor.name} cannot attack itself")
            if not 0 <= a.weapon < len(actor.weapons):
                raise Rejected("declare/no-such-weapon", f"{actor.name} has no weapon number {a.weapon}")
            if not 0 <= a.called_shots <= MAX_CALLED_SHOTS:
                raise Rejected("declare/called-shots", f"called shots are 0 to {MAX_CALLED_SHOTS}")
        case Move() | Flee() as m:  # a flight is checked as a move (rules.devices)
            if m.x < 0 or m.y < 0 or m.x % 5 or m.y % 5:
                raise Rejected("declare/off-grid", f"({m.x}, {m.y}) is not a square of the 5-ft grid")
            dest = Combatant(id="", name="", side="", x=m.x, y=m.y)
            if distance(actor, dest) > actor.move:
                raise Rejected("declare/too-far", f"{actor.name} moves at most {actor.move} ft a round")
        case Hold():
            pass
    melee.check(state, actor, cmd.action)  # 003 melee: weapons, double attack, charge, set, kill, called shots
    extras.check(state, actor, cmd.action)  # 003: delay, ranged, oil, grappling, spells


def describe(state: Encounter, action) -> str:
    return _describe(state, action) + extras.delay_text(action)


def routine_text(c: Combatant | None) -> str:
    """', its routine (claw, claw, bite)': the weapons named, unless they are a hidden monster's."""
    if c is None or c.hidden:
        return ", its attack routine"
    return f", its attack routine ({', '.join(c.weapons[i].name for i in routine_weapons(c))})"


def _describe(state: Encounter, action) -> str:
    match action:
        case Attack() as a:
            target = lookup(state, a.target)
            extra = f", {a.called_shots} called shot(s)" if a.called_shots else ""
            if a.routine:
                extra += routine_text(lookup(state, next((d.actor for d in state.declarations if d.action is a), "")))
            return f"attack {target.name if target else a.target}{extra}"
        case Move() as m:
            return f"move to ({m.x}, {m.y})"
        case _:
            own = added(state, action)
            return own.describe(state, action) if own else melee.describe(state, action) or extras.describe(state, action) or tag(action)


def declare(ctx: Context, cmd: Declare) -> None:
    state = ctx.state
    actor = ctx.combatant(cmd.actor)
    declared = Declaration(actor=actor.id, action=cmd.action, seq=state.seq)
    # A changed mind keeps its place in the list (so the table sees one entry change).
    index = next((i for i, d in enumerate(state.declarations) if d.actor == actor.id), None)
    if index is None:
        state.declarations.append(declared)
    else:
        state.declarations[index] = declared
    sealed = state.options.get("sealed_declarations")
    ctx.log(
        "declare",
        f"{actor.name} declares: {describe(state, cmd.action)}.",
        actor=actor.id,
        audience=f"side:{actor.side}" if sealed else "all",
    )
