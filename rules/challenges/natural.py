"""The choices 001's Attack Chart leaves to the attacker, as prompts that park the
step queue (the prompts of 001's to_hit): the natural 20 ('Take the result above OR a
normal Hit plus gain an immediate extra attack') and the target of an extra attack;
and the clumsy miss's 'roll save vs. Paralyzation or drop weapon'."""

import msgspec

from ..conditions import DISARMED, fighting
from ..context import Context, lookup
from ..holmes.combat import distance, queue
from ..holmes.fighters import able, usable
from ..holmes.kinds import STRIKE
from ..model import Awaiting, Combatant, Step
from . import initiative, wounds

NATURAL_20_KIND = "natural_20"  # step and prompt: the natural 20's choice, and the blow waiting on it
EXTRA_ATTACK_KIND = "extra_attack"  # step and prompt: whom the immediate extra attack strikes
FORMER = {"natural-20": NATURAL_20_KIND, "extra-attack": EXTRA_ATTACK_KIND}  # RULES_VERSION 4's spellings
RESULT, EXTRA = "result", "extra"  # the natural 20's two answers
DECLINE = "decline"
ANSWERS = {
    NATURAL_20_KIND: {RESULT: "Take the Attack Result", EXTRA: "A normal hit, and an extra attack now"},
    EXTRA_ATTACK_KIND: {DECLINE: "No extra attack", "{combatant}": "Attack {name}"},
}


def ask(ctx: Context, blow) -> None:
    """Park the queue on the natural 20's choice; the blow waits at its head as a
    'natural_20' step (rules.challenges.attack.pending) holding the Attack Result."""
    state = ctx.state
    attacker = ctx.combatant(blow.actor)
    target = ctx.combatant(blow.target)
    queue(
        state,
        [
            Step(
                phase=state.phase,
                actor=blow.actor,
                kind=NATURAL_20_KIND,
                target=blow.target,
                weapon=blow.weapon,
                mode=blow.mode,
                attack_result=blow.attack_result,
                called_shots=blow.called_shots,
                parry=blow.parry,
            )
        ],
    )
    state.awaiting = Awaiting(
        id=f"{state.seq}:natural-20:{len(state.steps)}",
        who=attacker.id,
        kind=NATURAL_20_KIND,
        # A hidden foe's Attack Result would tell its AC (d20 20 + the attacker's bonus - AC):
        # its effect on the chart, which the choice turns on, is named without it.
        prompt=f"Natural 20 against {target.name}: take the Attack Result{'' if target.hidden else f' {blow.attack_result:+d}'} "
        f"('{wounds.graded(state, blow.attack_result).effect}'), or a normal Hit plus an immediate extra attack?",
        options=[RESULT, EXTRA],
    )


def chosen(ctx: Context, waiting: Awaiting, choice: str) -> None:
    """The prompt natural_20's answer: write the choice into the waiting step."""
    state = ctx.state
    head = state.steps[0]
    assert FORMER.get(head.kind, head.kind) == NATURAL_20_KIND, head
    state.steps[0] = msgspec.structs.replace(unpacked(head), choice=choice)


def unpacked(step: Step) -> Step:
    """A natural_20 step with its blow in its fields. One stored before RULES_VERSION 7 (a
    state an undo's `restore` carries) packed them into its `mode`: 'attack 3 0 0' (mode,
    Attack Result, called shots, parry), the choice appended once made ('attack 3 0 0 extra')."""
    if " " not in step.mode:
        return step
    mode, result, called, parry, *choice = step.mode.split(" ")
    return msgspec.structs.replace(
        step, mode=mode, attack_result=int(result), called_shots=int(called), parry=int(parry), choice=step.choice or " ".join(choice)
    )


def candidates(ctx: Context, attacker: Combatant, target: Combatant, index: int) -> list[Combatant]:
    """Who an extra attack may strike: foes standing within the weapon's reach, the first target first."""
    weapon = attacker.weapons[index]
    reach = weapon.range or weapon.reach
    foes = [target] + [c for c in ctx.state.combatants if c.id != target.id and c.side != attacker.side]
    return [c for c in foes if not c.down and fighting(c) and distance(attacker, c) <= reach]


def extra_attack(ctx: Context, attacker: Combatant, target: Combatant, index: int) -> None:
    """'gain an immediate extra attack': at once, before the rest of the phase. With one
    foe in reach it strikes that foe; with several, the attacker chooses."""
    state = ctx.state
    if not able(attacker) or not usable(attacker.weapons[index]):
        ctx.log("attack", f"{attacker.name} cannot make the extra attack.", actor=attacker.id)
        return
    foes = candidates(ctx, attacker, target, index)
    if not foes:
        ctx.log("attack", f"{attacker.name} gains an extra attack, but no foe is in reach.", actor=attacker.id)
        return
    if len(foes) == 1:
        ctx.log("attack", f"{attacker.name} gains an immediate extra attack on {foes[0].name}.", actor=attacker.id, target=foes[0].id)
        queue(state, [Step(phase=state.phase, actor=attacker.id, kind=STRIKE, target=foes[0].id, weapon=index, mode="extra")])
        return
    queue(state, [Step(phase=state.phase, actor=attacker.id, kind=EXTRA_ATTACK_KIND, weapon=index)])
    state.awaiting = Awaiting(
        id=f"{state.seq}:extra-attack:{len(state.steps)}",
        who=attacker.id,
        kind=EXTRA_ATTACK_KIND,
        prompt=f"{attacker.name} gains an immediate extra attack: on whom?",
        options=[c.id for c in foes] + [DECLINE],
    )
    ctx.log("attack", f"{attacker.name} gains an immediate extra attack and chooses its target.", actor=attacker.id)


def aimed(ctx: Context, waiting: Awaiting, choice: str) -> None:
    """The prompt extra_attack's answer: the waiting step becomes the strike (or is dropped)."""
    state = ctx.state
    head = state.steps.pop(0)
    assert FORMER.get(head.kind, head.kind) == EXTRA_ATTACK_KIND, head
    attacker = ctx.combatant(head.actor)
    if choice == DECLINE or lookup(state, choice) is None:
        ctx.log("attack", f"{attacker.name} lets the extra attack go.", actor=attacker.id)
        return
    queue(state, [Step(phase=head.phase, actor=head.actor, kind=STRIKE, target=choice, weapon=head.weapon, mode="extra")])


def save_or_drop(ctx: Context, attacker: Combatant, index: int) -> None:
    """001, -9: 'roll save vs. Paralyzation or drop weapon, thereby forfeiting next attack'."""
    need = int(ctx.option("save_vs_paralyzation"))
    if wounds.save(ctx, attacker, "Paralyzation", need):
        return
    weapon = attacker.weapons[index]
    attacker.weapons[index] = msgspec.structs.replace(weapon, dropped=True)
    if DISARMED not in attacker.conditions:
        attacker.conditions.append(DISARMED)
    if ctx.option("drop_forfeits"):
        ctx.log("weapon", f"{attacker.name} drops the {weapon.name}, and forfeits the next attack made.", actor=attacker.id)
        initiative.forfeit(ctx, attacker)
        return
    ctx.log("weapon", f"{attacker.name} drops the {weapon.name}, forfeiting the next attack to pick it up or draw another weapon.", actor=attacker.id)
    if initiative.DRAW_FORFEIT not in attacker.conditions:
        attacker.conditions.append(initiative.DRAW_FORFEIT)
