"""Running the round: close declarations, work the step queue phase by phase,
park it on an `awaiting` record when a person must choose, end the round."""

from collections.abc import Callable

import msgspec

from .commands import Advance, Answer, Start
from .conditions import out_of_fight
from .context import Context, lookup
from .declare import controls, declaration, record_of
from .dice import NeedDie
from .errors import Rejected
from .events import Actor
from .model import DIE, END_OF_ROUND, Awaiting, Encounter, Step
from .round import may_act, plan, why_idle
from .ruleset import rules_of
from .unseen import reveal

# What resumes a parked queue, and the steps queued mid-phase, come from the
# encounter's rules (rules.ruleset: Module.prompts, Module.steps); a die rolled at
# the table (option physical_dice, every profile's) is the engine's own.
ENGINE_PROMPTS: dict[str, Callable[[Context, Awaiting, str], None]] = {}


def check_start(state: Encounter, cmd: Start) -> None:
    if state.status != "setup":
        raise Rejected("start/already-started", "the fight has already started")
    live = {c.side for c in state.combatants if not c.down}
    if len(live) < 2:
        raise Rejected("start/one-side", "a fight needs combatants on at least two sides")


def start(ctx: Context, cmd: Start) -> None:
    state = ctx.state
    state.status = "running"
    state.round = 1
    rules_of(state).surprise(ctx)  # 003: a d6 a side (hook `surprise`)
    state.phase = "declaration"
    ctx.log("round", "Round 1: declarations are open.")


def check_advance(state: Encounter, cmd: Advance) -> None:
    if state.status != "running":
        raise Rejected("advance/not-running", "the fight is not running")
    if state.awaiting is not None:
        raise Rejected("advance/awaiting", f"waiting for an answer: {state.awaiting.prompt}")
    if state.phase != "declaration":
        raise Rejected("advance/not-now", f"the round is resolving (phase: {state.phase})")


def advance(ctx: Context, cmd: Advance) -> None:
    state = ctx.state
    if ctx.narrated:
        ctx.log("round", f"Round {state.round}: declarations close.")
    state.steps = plan(state, ctx.rules)
    ctx.rules.arrange(state)  # 003: the longer weapon first, burning oil (hook `arrange`)
    run(ctx)


def run(ctx: Context) -> None:
    state = ctx.state
    # Option physical_dice, read once: no step changes an option, and it is most often off.
    at_table = state.options.get("physical_dice", "off") != "off"
    while state.steps and state.awaiting is None and state.status == "running":
        step = state.steps.pop(0)
        if step.phase != state.phase:
            state.phase = step.phase
            if ctx.narrated:
                ctx.log("phase", f"{step.phase.capitalize()} phase.")
        if at_table and rolled_at_table(state, step):
            attempt(ctx, step)
        else:
            resolve(ctx, step)


def rolled_at_table(state: Encounter, step: Step) -> bool:
    """Option physical_dice: is this step's dice rolled at the table and entered?"""
    mode = state.options.get("physical_dice", "off")
    if mode == "all":
        return True
    actor = lookup(state, step.actor) if mode == "players" else None
    return actor is not None and actor.pc


_snapshot = msgspec.msgpack.Encoder()
_restore = msgspec.msgpack.Decoder(Encounter)


def attempt(ctx: Context, step: Step) -> None:
    """Resolve a step whose dice are rolled at the table. A step is a function of
    its dice, so when it needs a die nobody has entered yet, the attempt is undone
    (the state put back as it was when the step began) and the queue parks, asking
    the acting combatant's player for that die; each answer re-runs the step with
    every die entered so far."""
    state, dice = ctx.state, ctx.dice
    saved, index = _snapshot.encode(state), dice.index
    dice.physical = True
    try:
        resolve(ctx, step)
    except NeedDie as need:
        before = _restore.decode(saved)
        for name in state.__struct_fields__:
            setattr(state, name, getattr(before, name))
        dice.forced, dice.entered, dice.index, dice.rolls = state.forced, state.entered, index, []
        dice.by_die = state.forced_by_die
        state.steps.insert(0, step)
        who = step.actor if lookup(state, step.actor) is not None else "gm"
        state.awaiting = Awaiting(
            id=f"die:{state.seq}",
            who=who,
            kind=DIE,
            prompt=f"Roll a d{need.sides} at the table for {need.purpose}, and enter it.",
            options=[str(v) for v in range(1, need.sides + 1)],
        )
        ctx.log("die", f"Waiting for a real d{need.sides}: {need.purpose}.", actor=who if who != "gm" else None)
    else:
        state.entered = dice.entered = []  # all used; nothing carries over to the next step
    finally:
        dice.physical = False


def die_entered(ctx: Context, waiting: Awaiting, choice: str) -> None:
    ctx.state.entered.append(int(choice))


ENGINE_PROMPTS[DIE] = die_entered


def resolve(ctx: Context, step: Step) -> None:
    state = ctx.state
    if step.kind == END_OF_ROUND:
        end_of_round(ctx)
        return
    handler = ctx.rules.steps.get(step.kind)
    if handler is not None:
        handler(ctx, step)
        return
    actor = lookup(state, step.actor)
    mine = declaration(state, step.actor)
    if actor is None or mine is None:
        return
    action = mine.action
    if not may_act(state, actor):
        if ctx.narrated:  # (why it is idle is read for the line alone)
            ctx.log("skip", f"{actor.name} cannot act ({why_idle(state, actor)}).", actor=actor.id)
        return
    if actor.unseen:
        reveal(ctx, actor, action)  # option reveal_when_acting
    own = record_of(ctx.rules, action)  # its record (rules.ruleset.ActionRules): 003's like any profile's
    if own is not None:
        own.resolve(ctx, actor, action, step)


def end_of_round(ctx: Context) -> None:
    state = ctx.state
    for rule in ctx.rules.round_end:  # 003's subdual surrender and morale first, then each module's
        rule(ctx)
    if ctx.narrated:  # (who is left standing is read for the line alone)
        # Fled and surrendered creatures (003 morale, subdual) are not left standing.
        standing = {c.side for c in state.combatants if not out_of_fight(c)}
        if len(standing) == 1:
            ctx.log("round", f"Only {standing.pop()} is left standing.")
    state.declarations = []
    state.surprised = []  # 003: 'Those surprised may act normally in the second combat round.'
    state.round += 1
    state.phase = "declaration"
    if ctx.narrated:
        ctx.log("round", f"Round {state.round}: declarations are open.")


def check_answer(state: Encounter, by: Actor, cmd: Answer) -> None:
    waiting = state.awaiting
    if waiting is None or waiting.id != cmd.awaiting:
        raise Rejected("answer/not-awaited", "nothing is waiting for that answer")
    if waiting.who != "gm" and not controls(by, waiting.who) or waiting.who == "gm" and by.role != "gm":
        raise Rejected("answer/not-yours", "that choice is not yours to make")
    if cmd.choice not in waiting.options:
        raise Rejected("answer/bad-choice", f"choose one of: {', '.join(waiting.options)}")


def answer(ctx: Context, cmd: Answer) -> None:
    waiting = ctx.state.awaiting
    assert waiting is not None
    ctx.state.awaiting = None
    resume = ENGINE_PROMPTS.get(waiting.kind) or rules_of(ctx.state).prompts[waiting.kind]
    resume(ctx, waiting, cmd.choice)
    run(ctx)
