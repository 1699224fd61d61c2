"""Declarations (003): 'Everyone states what they're doing, including specifying the
targets of their attacks, attack options, movement, any spells to be cast.'
"""

from .actions import House, tag
from .commands import Declare
from .context import Context, lookup
from .errors import Rejected
from .events import Actor
from .model import Combatant, Declaration, Encounter
from .round import may_act, why_idle
from .ruleset import ActionRules, Rules, owner_of_action, rules_of
from .unseen import unseen_ids


def record_of(rules: Rules, action) -> ActionRules | None:
    """The record of an action in an encounter's rules (rules.ruleset.ActionRules), or None."""
    return rules.actions.get(tag(action))


def declaration(state: Encounter, cid: str) -> Declaration | None:
    """Combatant `cid`'s declaration this round, or None."""
    for d in state.declarations:  # a plain loop: read on every step and strike
        if d.actor == cid:
            return d
    return None


def controls(by: Actor, cid: str) -> bool:
    return by.role == "gm" or cid in by.combatants


def awaited(state: Encounter) -> list[Combatant]:
    """Who may still declare this round, in the order they are asked."""
    declared = {d.actor for d in state.declarations}
    waiting = []
    for c in state.combatants:  # a plain loop: asked at every round's declarations
        if may_act(state, c) and c.id not in declared:
            waiting.append(c)
    if state.options.get("formal_declarations"):
        return rules_of(state).declaration_order(waiting)  # 003: reversed INT (hook `declaration_order`)
    return waiting


def check_declare(state: Encounter, by: Actor, cmd: Declare) -> Combatant:
    """The declaring combatant, if its declaration may be made (the rule's `ctx.checked`)."""
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
    if cmd.tactic and not tactic_named(cmd.tactic):
        raise Rejected("declare/bad-tactic", f"a tactic's name is 1 to {TACTIC_LENGTH} letters, digits, spaces and , . % - _")
    if by.role != "gm":  # the GM knows of the unseen and declares for them
        check_unseen(state, actor, cmd)
    check_action(state, actor, cmd)
    return actor


TACTIC_LENGTH = 40
TACTIC_MARKS = frozenset(" ,.%-_")


def by_tactic(name: str) -> str:
    """How the table reads a tactic's name ('tactics: nearest'): in the log and on its link (server/handover.py)."""
    return f"tactics: {name}"


def tactic_named(name: str) -> bool:
    """A tactic's name as the log shows it: plain words ('nearest, flee at 50%')."""
    return len(name) <= TACTIC_LENGTH and all(ch.isalnum() or ch in TACTIC_MARKS for ch in name) and not name.isspace()


def check_unseen(state: Encounter, actor: Combatant, cmd: Declare) -> None:
    """A player's declaration names no unseen combatant (rules.unseen: the table knows of none)."""
    target = getattr(cmd.action, "target", "")
    if isinstance(target, str) and target in unseen_ids(state):
        raise Rejected("declare/unknown-target", f"there is no combatant {target!r}")
    if actor.unseen:
        raise Rejected("declare/unseen", f"{actor.name} is unseen: the GM declares for it until it is revealed")


def check_action(state: Encounter, actor: Combatant, cmd: Declare) -> None:
    """The action's own checks: its rules are this encounter's, every module's declaration
    checks (Module.check_declaration), then its record's `check`."""
    rules = rules_of(state)
    action = cmd.action
    kind = tag(action)
    own = rules.actions.get(kind)  # one lookup: most actions are the encounter's own
    # House has no subclass; `type(...) is` spares the dear failing isinstance on a msgspec
    # Struct class (its metaclass's check is looked up and called) that every other action paid.
    if own is None:
        owner = owner_of_action(kind)
        if owner is not None:
            raise Rejected("declare/not-in-profile", f"'{kind}' is a rule of the {owner} profile, not of this encounter's rules ({state.profile})")
        if type(action) is House:
            raise Rejected("declare/unknown-action", f"no rule of this encounter adds the action {action.name!r}")
    if type(action) is House and action.phase not in ("attack", "movement", "magic"):
        raise Rejected("declare/bad-phase", f"an action resolves in the attack, movement or magic phase, not {action.phase!r}")
    for check in rules.check_declaration:
        check(state, actor, action)
    if own is None:
        raise Rejected("declare/unknown-action", f"no rule of this encounter adds the action {kind!r}")
    if own.check is not None:
        own.check(state, actor, action)


def describe(state: Encounter, action) -> str:
    """How a declaration reads in the log: its record's words (the tag, if its rules are gone)."""
    own = record_of(rules_of(state), action)
    return own.describe(state, action) if own else tag(action)


def declare(ctx: Context, cmd: Declare) -> None:
    state = ctx.state
    actor = ctx.checked or ctx.combatant(cmd.actor)
    declared = Declaration(actor.id, cmd.action, state.seq)  # (actor, action, seq): made positionally, cheaper
    # A changed mind keeps its place in the list (so the table sees one entry change).
    for i, d in enumerate(state.declarations):
        if d.actor == actor.id:
            state.declarations[i] = declared
            break
    else:
        state.declarations.append(declared)
    if ctx.narrated:
        sealed = state.options.get("sealed_declarations")
        ctx.log(
            "declare",
            f"{actor.name}{f' ({by_tactic(cmd.tactic)})' if cmd.tactic else ''} declares: {describe(state, cmd.action)}.",
            actor=actor.id,
            audience=f"side:{actor.side}" if sealed else "all",
        )
