"""The strike of 003: a declared attack queued as strikes, each strike's attack roll,
and a parry's disarm or counter-attack. The terms of the roll are rules.holmes.terms, what
a hit does is rules.holmes.damage.

Every attack roll is one `strike` step on the queue (kind 'strike'), so that a
choice made in the middle of an exchange (a parrier's counter-attack) parks the
queue and the rest of the exchange waits behind it. Each profile rolls its own
strikes (hook `melee_roll`) and may queue its own attacks (hook `routine`); this module checks
what every strike must pass first (able, target up, weapon usable, in reach).
"""

import msgspec

from ..actions import Attack
from ..conditions import DISARMED
from ..context import Context, LineFields, lookup, own_terms, reckoned, said
from ..grid import distance  # noqa: F401  (the board's: named here for the rules that take it with combat's)
from ..model import Awaiting, Combatant, Encounter, Step, Weapon
from ..ruleset import MELEE, MISSILE, SUBDUE
from . import subdual  # 003: subdual damage (rules.holmes.subdual)
from .damage import NO_CRITICAL, after_critical, critical, damage_dice, extra_dice, fumble, gawper_struck, roll_damage
from .fighters import able, gone, usable, wielded
from .kinds import RIPOSTE_PROMPT, STRIKE
from .terms import RIPOSTE, ROUTINE, TO_HIT, call_shots, declaration, modifiers, parrying, term_sum, terms


def in_melee(attacker: Combatant, target: Combatant, weapon: Weapon) -> bool:
    return weapon.range == 0 or distance(attacker, target) <= weapon.reach


def routine_weapons(c: Combatant) -> list[int]:
    """The weapons of a monster's attack routine: each usable one, once, in its order (claw, claw, bite)."""
    return [i for i, w in enumerate(c.weapons) if usable(w)] if c.klass == "monster" else []


def routine_refused(attacker: Combatant) -> str:
    """Why `routine` is not open, or ''."""
    if attacker.klass != "monster":
        return f"{attacker.name} is no monster: a character attacks with one weapon a round (003: 'Two weapons')"
    if len(routine_weapons(attacker)) < 2:
        return f"{attacker.name} has fewer than two weapons to strike with"
    return ""


def monster_routine(ctx: Context, attacker: Combatant, action: Attack) -> None:
    """003: 'monsters and other character types must attack with a combat bonus of 0' when attacking
    multiple times: one strike with each weapon of the routine, each of mode ROUTINE, under every profile."""
    target = ctx.combatant(action.target)
    if why := routine_refused(attacker):  # the weapons changed since the declaration
        ctx.log("attack", f"{attacker.name} cannot make its attack routine: {why}.", actor=attacker.id, target=target.id)
        queue(ctx.state, [Step(phase=ctx.state.phase, actor=attacker.id, kind=STRIKE, target=target.id, weapon=action.weapon, mode="attack")])
        return
    queue(ctx.state, [Step(phase=ctx.state.phase, actor=attacker.id, kind=STRIKE, target=target.id, weapon=i, mode=ROUTINE) for i in routine_weapons(attacker)])


def attack(ctx: Context, attacker: Combatant, action: Attack) -> None:
    """A declared attack: a monster's routine, or the strikes its rules' routine queues (hook `routine`)."""
    if action.routine:
        monster_routine(ctx, attacker, action)
        return
    ctx.rules.routine(ctx, attacker, action)


def routine(ctx: Context, attacker: Combatant, action: Attack) -> None:
    """003's: one strike, or two for a shorter, lighter weapon."""
    state = ctx.state
    target = ctx.combatant(action.target)
    strikes = 1
    if action.double:
        why = double_refused(state, attacker, target, action.weapon)
        if why:
            ctx.log("attack", f"{attacker.name} cannot attack twice: {why}.", actor=attacker.id, target=target.id)
        else:
            strikes = 2
    mode = "double" if strikes == 2 else "attack"
    queue(state, [Step(phase=state.phase, actor=attacker.id, kind=STRIKE, target=target.id, weapon=action.weapon, mode=mode)] * strikes)


def double_refused(state: Encounter, attacker: Combatant, target: Combatant, index: int) -> str:
    """Why a double attack is not open, or '' if it is. 003: 'Shorter, lighter weapons
    ... may attack the wielder of the longer weapon twice'."""
    mine = attacker.weapons[index]
    theirs = wielded(state, target)
    if theirs is None or mine.range or theirs.range:
        return f"{target.name} wields no melee weapon"
    if not (mine.length < theirs.length and mine.weight < theirs.weight):
        return f"the {mine.name} is not shorter and lighter than {target.name}'s {theirs.name}"
    return ""


def queue(state: Encounter, steps: list[Step]) -> None:
    """Resolve these steps next, before the rest of the phase."""
    state.steps[0:0] = steps


def strike(ctx: Context, step: Step) -> None:
    """One attack roll: a step of kind 'strike'."""
    state = ctx.state
    attacker, target = lookup(state, step.actor), lookup(state, step.target)
    if attacker is None or target is None:
        return
    weapon = attacker.weapons[step.weapon]
    who: LineFields = {"actor": attacker.id, "target": target.id}  # (a literal: calling a TypedDict's class makes a dict subclass, slowly)
    if not able(attacker):
        ctx.log("attack", f"{attacker.name} cannot strike ({'down' if attacker.down else ', '.join(attacker.conditions)}).", **who)
        return
    if target.down:
        ctx.log("attack", f"{attacker.name} has no target: {target.name} is already down.", **who)
        return
    if gone(state, target):
        ctx.log("attack", f"{attacker.name} has no target: {target.name} has fled the field.", **who)
        return
    if not usable(weapon):
        ctx.log("attack", f"{attacker.name} cannot strike: the {weapon.name} is {'broken' if weapon.broken else 'dropped'}.", **who)
        return
    reach = weapon.range or weapon.reach
    if distance(attacker, target) > reach:
        ctx.log(
            "attack",
            **said(f"{attacker.name} cannot reach {target.name}", (f" ({distance(attacker, target)} ft away, {weapon.name} reaches {reach} ft)", ""), "."),
            **who,
        )
        return
    ctx.rules.melee_roll(ctx, step, attacker, target, weapon)


# How the log names a strike of each mode; any other mode 'attacks'.
LABEL = {
    "double": "attacks (twice)",
    ROUTINE: "attacks (routine)",
    "charge": "charges",
    "counter": "counter-attacks",
    "set": "meets the charge of",
    "riposte": "counter-attacks after parrying",
}


def roll(ctx: Context, step: Step, attacker: Combatant, target: Combatant, weapon: Weapon) -> None:
    """003's attack roll and its consequences, for a strike that can be made."""
    state = ctx.state
    action, behind, wanted = declaration(state, attacker, step.mode)
    mods = modifiers(state, attacker, target, weapon, step.mode, behind)
    called = call_shots(ctx, attacker, target, mods, wanted)
    melee = in_melee(attacker, target, weapon)
    parry, penalty = ctx.rules.parry(state, target, mods, melee)
    d20 = ctx.dice.roll(20, f"{attacker.name} attacks {target.name}")
    total = d20 + term_sum(mods)
    # A natural 20 short of 19 hits only if the criticals module says so (hook natural_20_hits:
    # 003's never, 'not an automatic hit'; every criticals module of rules version 7 says never).
    hit = total >= TO_HIT or d20 == 20 and ctx.rules.natural_20_hits(state)
    if ctx.narrated:  # (the line's words are most of a strike's cost: rules.context)
        ctx.log(
            "attack",
            **reckoned(
                f"{attacker.name} {LABEL.get(step.mode, 'attacks')} {target.name}",
                f"{terms(d20, mods)} = {total} {'≥' if total >= TO_HIT else '<'} {TO_HIT}",
                f"d20 {d20}",
                ("hit" if total >= TO_HIT else "natural 20: hit") if hit else "miss",
                own_terms(d20, mods[:-1], "the target's AC" + ("" if mods[-1][0] == "target AC" else " (shield ignored)")),
            ),
            mods=mods,
            total=total,
            need=TO_HIT,
            actor=attacker.id,
            target=target.id,
        )
    subdue = getattr(action, "subdue", False)
    kind = MISSILE if not melee else SUBDUE if subdue else MELEE
    if hit:
        crit = critical(ctx, d20, attacker, target, step.weapon, kind) if d20 == 20 else NO_CRITICAL  # a natural 20: the criticals module's
        if crit.settled:
            return
        extra = extra_dice(called, step.mode, crit)
        dice = damage_dice(ctx, weapon, step.mode)
        if subdue:
            subdual.strike(ctx, attacker, target, dice, extra)  # 003: subdual damage is tracked apart; no multiple
            if crit.effect:
                after_critical(ctx, attacker, target, crit)
            gawper_struck(ctx, target, step.mode)
        else:
            ctx.rules.land(ctx, attacker, target, *roll_damage(ctx, target, dice, extra, times=crit.times), crit.effect, step.mode)
        return
    if d20 == 1:
        fumble(ctx, d20, attacker, target, step.weapon, kind)  # a natural 1: the fumbles module's (003's does nothing)
    if parry is not None:
        parried(ctx, attacker, target, weapon, parry, step, total + penalty >= TO_HIT)


def parried(ctx: Context, attacker: Combatant, target: Combatant, weapon: Weapon, index: int, step: Step, but_for_parry: bool) -> None:
    """003: disarm if the heavier weapon would have hit but for the parry; a counter-attack
    at +3 if the attack missed regardless and the parrier's weapon is the lighter."""
    state = ctx.state
    guard = target.weapons[index]
    who: LineFields = {"actor": attacker.id, "target": target.id}
    if but_for_parry and weapon.weight > guard.weight:
        target.weapons[index] = msgspec.structs.replace(guard, dropped=True)
        if DISARMED not in target.conditions:
            target.conditions.append(DISARMED)
        ctx.log("parry", f"{target.name}'s parry holds, but the heavier {weapon.name} knocks the {guard.name} away: {target.name} is disarmed.", **who)
        return
    if but_for_parry or guard.weight >= weapon.weight or step.mode == "riposte":
        return
    if distance(attacker, target) > guard.reach or target.side in state.surprised or not able(target):
        return
    if state.options.get("parry_counter", "ask") == "auto":
        ctx.log("parry", f"{target.name} parries the spent {weapon.name} and counter-attacks.", **who)
        queue(state, [Step(phase=state.phase, actor=target.id, kind=STRIKE, target=attacker.id, weapon=index, mode="riposte")])
        return
    state.awaiting = Awaiting(
        id=f"{state.seq}:riposte:{attacker.id}",
        who=target.id,
        kind=RIPOSTE_PROMPT,
        prompt=f"{target.name} parried {attacker.name}'s {weapon.name}: counter-attack once at +{RIPOSTE}?",
        options=["counter", "decline"],
        attacker=attacker.id,
    )
    ctx.log("parry", f"{target.name} parries; {attacker.name}'s {weapon.name} is spent. {target.name} may counter-attack at +{RIPOSTE}.", **who)


def riposte(ctx: Context, waiting: Awaiting, choice: str) -> None:
    """The prompt riposte's answer (003's to_hit)."""
    state = ctx.state
    defender = ctx.combatant(waiting.who)
    attacker = waiting.attacker or waiting.id.partition(":riposte:")[2]  # the spent attacker (a prompt stored before RULES_VERSION 5: in its id)
    index = parrying(state, defender)
    if choice != "counter" or index is None:
        ctx.log("parry", f"{defender.name} declines the counter-attack.", actor=defender.id)
        return
    queue(state, [Step(phase=state.phase, actor=defender.id, kind=STRIKE, target=attacker, weapon=index, mode="riposte")])
