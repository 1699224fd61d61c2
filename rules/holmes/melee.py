"""Melee manoeuvres of 003: approach (cautious or charging), setting a spear,
weapon length, parrying, killing the helpless, and their declaration checks.

The attack roll itself is rules.holmes.combat; this module decides who strikes whom,
in what order, and queues the strikes.
"""

from ..actions import Approach, Attack, Charge, Kill, Parry, SetSpear
from ..conditions import DEAD
from ..context import Context, LineFields, lookup, said, standing
from ..errors import Rejected
from ..grid import distance_from
from ..model import ACT, Combatant, Encounter, Step
from .combat import distance, double_refused, queue, routine_refused
from .fighters import able, check_not_gone, declared, gone, helpless, parry_weapon, usable
from .kinds import STRIKE
from .terms import allowed_called_shots, check_called_shots

GRID = 5  # feet
# The melee actions' classes, matched by type: no class derives from them, and a failing
# isinstance against a Struct class costs several times a type's look-up.
MELEE_ACTIONS = (Attack, Charge, Approach, SetSpear, Parry, Kill)


def weapon_index(state: Encounter, c: Combatant) -> int | None:
    """The weapon `c` fights with this round: its declared one, else its first usable."""
    action = declared(state, c)
    index = getattr(action, "weapon", None)
    if type(action) in MELEE_ACTIONS and index is not None and usable(c.weapons[index]):
        return index
    for i, w in enumerate(c.weapons):  # (a plain loop: read at every charge's counter)
        if usable(w):
            return i
    return None


def reach_of(c: Combatant, index: int | None) -> int:
    return max(GRID, c.weapons[index].reach) if index is not None else GRID


def toward(mover: Combatant, target: Combatant, reach: int) -> tuple[int, int, bool]:
    """Step 5 ft at a time straight at the target, up to full movement, stopping
    once within `reach`. Returns where the mover ends and whether it got there."""
    x, y, left = mover.x, mover.y, mover.move
    while distance_from(x, y, target) > reach and left >= GRID:
        x += GRID * ((target.x > x) - (target.x < x))
        y += GRID * ((target.y > y) - (target.y < y))
        left -= GRID
    return x, y, distance_from(x, y, target) <= reach


def can_reach(actor: Combatant, target: Combatant, reach: int) -> bool:
    return distance(actor, target) <= actor.move + reach


# --- declaration checks (each action's record's `check`: rules.holmes.actions) ---


def check_weapon(actor: Combatant, index: int) -> None:
    if not 0 <= index < len(actor.weapons):
        raise Rejected("declare/no-such-weapon", f"{actor.name} has no weapon number {index}")
    weapon = actor.weapons[index]
    if not usable(weapon):
        raise Rejected("melee/weapon-unusable", f"{actor.name}'s {weapon.name} is {'broken' if weapon.broken else 'dropped'}")


def check_target(state: Encounter, actor: Combatant, action: Attack | Charge | Approach | Kill) -> Combatant:
    """The target of a melee action, there and still in the fight (any but an attack's standing too)."""
    target = lookup(state, action.target)
    if target is None:
        raise Rejected("declare/unknown-target", f"there is no combatant {action.target!r}")
    if target.id == actor.id:
        raise Rejected("declare/self-target", f"{actor.name} cannot target itself")
    check_not_gone(state, target)
    if target.down and not isinstance(action, Attack):
        raise Rejected("melee/target-down", f"{target.name} is already down")
    return target


def check_attack(state: Encounter, actor: Combatant, action: Attack, target: Combatant | None = None) -> None:
    """003's melee rules on a declared attack: its weapon, the double attack, a monster's routine, called shots.
    `target`: the attack's target, already found there and not the attacker (rules.holmes.actions.check_attack)."""
    check_weapon(actor, action.weapon)
    if target is None:
        target = check_target(state, actor, action)
    else:
        check_not_gone(state, target)
    if action.routine:
        why = "an attack routine strikes once with each weapon, not twice" if action.double else routine_refused(actor)
        if why:
            raise Rejected("melee/no-routine", f"{actor.name} cannot make an attack routine: {why}")
    elif action.double:
        why = double_refused(state, actor, target, action.weapon)
        if why:
            raise Rejected("melee/no-double-attack", f"{actor.name} cannot attack twice: {why}")
    if action.called_shots:  # (most attacks call none: no call to check none)
        check_called(state, actor, target, action)


def check_charge(state: Encounter, actor: Combatant, action: Charge) -> None:
    check_weapon(actor, action.weapon)
    target = check_target(state, actor, action)
    if not can_reach(actor, target, reach_of(actor, action.weapon)):
        raise Rejected("melee/charge-too-far", f"{target.name} is {distance(actor, target)} ft away; {actor.name} charges {actor.move} ft")
    if not 0 <= action.called_shots <= 3:
        raise Rejected("declare/called-shots", "called shots are 0 to 3")
    if action.called_shots:  # (most charges call none: no call to check none)
        check_called(state, actor, target, action)


def check_approach(state: Encounter, actor: Combatant, action: Approach) -> None:
    target = check_target(state, actor, action)
    if not can_reach(actor, target, reach_of(actor, weapon_index(state, actor))):
        raise Rejected("melee/approach-too-far", f"{target.name} is {distance(actor, target)} ft away; {actor.name} moves {actor.move} ft")


def check_set(state: Encounter, actor: Combatant, action: SetSpear) -> None:
    check_weapon(actor, action.weapon)
    if not actor.weapons[action.weapon].polearm:
        raise Rejected("melee/not-a-polearm", f"only a spear or polearm may be set; the {actor.weapons[action.weapon].name} is neither")


def check_parry(state: Encounter, actor: Combatant, action: Parry) -> None:
    if action.weapon is None and len(actor.weapons) > 1:
        raise Rejected(
            "parry/which-weapon",
            f"{actor.name} carries {len(actor.weapons)} weapons: say which one parries (003: 'He must also declare which weapon is being used to parry')",
        )
    check_weapon(actor, parry_weapon(action))


def check_kill(state: Encounter, actor: Combatant, action: Kill) -> None:
    target = check_target(state, actor, action)
    if not helpless(target):
        raise Rejected("melee/not-helpless", f"{target.name} is not helpless (bound, asleep, paralysed, pinned)")


def check_called(state: Encounter, actor: Combatant, target: Combatant, action: Attack | Charge) -> None:
    """Refuse called shots at declaration when the figures are public and already
    make them raise the number needed to 20 or more (003). Parries are sealed and
    hidden figures are secret, so neither counts here; resolution re-checks."""
    wanted = getattr(action, "called_shots", 0)
    if not wanted or target.hidden:
        return
    weapon = actor.weapons[action.weapon]
    mode = "charge" if isinstance(action, Charge) else "double" if action.double else "attack"
    need = check_called_shots(state, actor, target, weapon, mode, bool(getattr(action, "from_behind", False)), wanted)
    if need is not None:
        most = allowed_called_shots(need, target, wanted)
        raise Rejected(
            "melee/called-shot-refused",
            f"{actor.name} needs {need} on the d20 already; {wanted} called shot(s) would make it 20 or more (at most {most})",
        )


# --- resolution (called from rules.resolve) -----------------------------------


def charge(ctx: Context, actor: Combatant, action: Charge) -> None:
    """003: 'A charging combatant may move up to his full movement and may attack at +2
    to hit. He is also subject to an immediate counterattack, at the base attack value
    of the defender ... the wielder of the longer weapon makes their attack first.'"""
    state = ctx.state
    target = lookup(state, action.target)
    weapon = actor.weapons[action.weapon]
    if target is None or target.down or gone(state, target):
        ctx.log("charge", f"{actor.name}'s charge has no target.", actor=actor.id)
        return
    if not usable(weapon):
        ctx.log("charge", f"{actor.name} cannot charge: the {weapon.name} is {'broken' if weapon.broken else 'dropped'}.", actor=actor.id)
        return
    actor.x, actor.y, arrived = toward(actor, target, reach_of(actor, action.weapon))
    who: LineFields = {"actor": actor.id, "target": target.id}  # (a literal: calling a TypedDict's class makes a dict subclass, slowly)
    if not arrived:
        ctx.log("charge", f"{actor.name} charges to ({actor.x}, {actor.y}) but cannot reach {target.name}.", **who)
        return
    if ctx.narrated:
        ctx.log("charge", f"{actor.name} charges {target.name}, to ({actor.x}, {actor.y}).", **who)
    blow = Step(phase=state.phase, actor=actor.id, kind=STRIKE, target=target.id, weapon=action.weapon, mode="charge")
    counter = counter_step(state, target, actor)
    if counter is None:
        queue(state, [blow])
    elif target.weapons[counter.weapon].length > weapon.length:
        queue(state, [counter, blow])  # the longer weapon strikes first
    else:
        queue(state, [blow, counter])


def counter_step(state: Encounter, defender: Combatant, charger: Combatant) -> Step | None:
    """The defender's counter-attack on a charger, with a set spear if one is set."""
    if not able(defender) or defender.side in state.surprised:
        return None
    action = declared(state, defender)
    mode = "counter"
    index = weapon_index(state, defender)
    if type(action) is SetSpear and usable(defender.weapons[action.weapon]):
        mode, index = "set", action.weapon
    if index is None or distance(defender, charger) > reach_of(defender, index):
        return None
    return Step(phase=state.phase, actor=defender.id, kind=STRIKE, target=charger.id, weapon=index, mode=mode)


def approach(ctx: Context, actor: Combatant, action: Approach) -> None:
    """003: 'A combatant who approaches cautiously may not attack until the next round,
    but is subject to no counterattack.'"""
    target = standing(ctx, actor, action.target, "move", "has no one to approach")
    if target is None:
        return
    actor.x, actor.y, arrived = toward(actor, target, reach_of(actor, weapon_index(ctx.state, actor)))
    if ctx.narrated:
        how = "closes cautiously on" if arrived else "advances cautiously toward"
        ctx.log("move", f"{actor.name} {how} {target.name}, to ({actor.x}, {actor.y}).", actor=actor.id, target=target.id)


def set_spear(ctx: Context, actor: Combatant, action: SetSpear) -> None:
    """003: the set 'must be declared and will occur in the Attack phase of the round'."""
    weapon = actor.weapons[action.weapon]
    if not usable(weapon):
        ctx.log("set", f"{actor.name} cannot set the {weapon.name}: it is {'broken' if weapon.broken else 'dropped'}.", actor=actor.id)
        return
    ctx.log("set", f"{actor.name} sets the {weapon.name} against a charge.", actor=actor.id)


def kill(ctx: Context, actor: Combatant, action: Kill) -> None:
    """003: 'Any character that is truly helpless ... can simply be killed.' No roll."""
    target = standing(ctx, actor, action.target, "kill", "has no one to kill")
    if target is None:
        return
    who: LineFields = {"actor": actor.id, "target": target.id}
    if not helpless(target):
        ctx.log("kill", f"{target.name} is no longer helpless; {actor.name}'s killing blow is not struck.", **who)
        return
    reach = reach_of(actor, weapon_index(ctx.state, actor))
    if distance(actor, target) > reach:
        ctx.log("kill", **said(f"{actor.name} cannot reach {target.name}", (f" ({distance(actor, target)} ft away)", ""), "."), **who)
        return
    target.hp = min(target.hp, 0)
    target.down = True
    if DEAD not in target.conditions:
        target.conditions.append(DEAD)
    ctx.log("kill", f"{actor.name} kills the helpless {target.name}.", **who)


# --- weapon length (called from rules.round.plan) -----------------------------


def by_length(state: Encounter, steps: list[Step]) -> list[Step]:
    """003: 'Longer weapons always attack first, regardless of the Dexterity of the
    antagonists ... this only matters when combatants are subject to mutual attacks.'
    Of two combatants attacking each other in melee in one phase, the longer weapon's
    step moves ahead of the shorter's; everyone else keeps DEX order."""
    if not state.options.get("weapon_length", True):
        return steps
    # (Plain loops, not comprehensions: this runs every round, and most rounds stop here.)
    attacks: dict[str, Attack] = {}
    for d in state.declarations:
        if type(d.action) is Attack:  # (no class derives from Attack; a failing isinstance on a Struct is dear)
            attacks[d.actor] = d.action
    mutual: dict[str, Attack] = {}  # each attacker whose target attacks it back: its attack
    for actor, mine in attacks.items():
        theirs = attacks.get(mine.target)
        if theirs is not None and theirs.target == actor:
            mutual[actor] = mine
    if not mutual:
        return steps  # nobody attacks its own attacker: DEX order stands
    steps = list(steps)
    # One pass: an attacker has one step a phase and one target, so the pairs are apart;
    # a step moved ahead of its foe's is in its place for good, and so is its foe's.
    i = 0
    while i < len(steps):
        s = steps[i]
        attack = mutual.get(s.actor)  # most steps are no mutual attacker's: one look and on
        if attack is not None and s.kind == ACT:
            foe = attack.target
            for j in range(i + 1, len(steps)):  # the foe's step later in this phase, if any
                later = steps[j]
                if later.actor == foe and later.kind == ACT and later.phase == s.phase:
                    if longer_first(state, s.actor, attack, foe, attacks[foe]):
                        steps.insert(i, steps.pop(j))
                        i += 1  # the foe's step, now here, and this one after it are settled
                    break
        i += 1
    return steps


def longer_first(state: Encounter, actor: str, mine: Attack, foe: str, theirs: Attack) -> bool:
    """Does the foe's melee weapon outreach the actor's, so that its step goes first (003)?"""
    me, them = lookup(state, actor), lookup(state, foe)
    if me is None or them is None:
        return False
    a, b = me.weapons[mine.weapon], them.weapons[theirs.weapon]
    return a.range == 0 and b.range == 0 and b.length > a.length


def target_name(state: Encounter, action) -> str:
    target = lookup(state, action.target)
    return target.name if target else action.target


def describe_charge(state: Encounter, action: Charge) -> str:
    extra = f", {action.called_shots} called shot(s)" if action.called_shots else ""
    return f"charge {target_name(state, action)}{extra}"


def describe_approach(state: Encounter, action: Approach) -> str:
    return f"approach {target_name(state, action)} cautiously"


def describe_parry(state: Encounter, action: Parry) -> str:
    weapon = parried_with(state, action)
    return f"parry with the {weapon}" if weapon else "parry"


def describe_kill(state: Encounter, action: Kill) -> str:
    return f"kill the helpless {target_name(state, action)}"


def parried_with(state: Encounter, action: Parry) -> str:
    """The name of the weapon a declared parry names, for its declaration line; '' for a hidden
    parrier, whose weapons are the GM's to know."""
    actor = next((d.actor for d in state.declarations if d.action is action), None)
    c = lookup(state, actor) if actor else None
    index = parry_weapon(action)
    return c.weapons[index].name if c and not c.hidden and index < len(c.weapons) else ""


# --- choices: each action's view.Choice fields, for its record (rules.holmes.actions)


def ready(c: Combatant) -> list[int]:
    return [i for i, w in enumerate(c.weapons) if usable(w)]


def charge_to(state: Encounter, c: Combatant) -> list[str]:
    reach = reach_of(c, weapon_index(state, c))
    return [t.id for t in state.combatants if t.id != c.id and not t.down and t.side != c.side and can_reach(c, t, reach)]


def offer_charge(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    weapons = ready(c)
    to = charge_to(state, c) if weapons else []
    return dict(type="charge", targets=to, options={"weapon": weapons, "called_shots": [0, 1, 2, 3]}) if to else None


def offer_approach(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    to = charge_to(state, c)
    return dict(type="approach", targets=to) if to else None


def offer_set(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    polearms = [i for i in ready(c) if c.weapons[i].polearm]
    return dict(type="set_spear", options={"weapon": polearms}) if polearms else None


def offer_parry(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    weapons = ready(c)
    return dict(type="parry", options={"weapon": weapons}) if weapons else None


def offer_kill(state: Encounter, c: Combatant, targets: list[str]) -> dict | None:
    victims = [t.id for t in state.combatants if t.id != c.id and not t.down and helpless(t)]
    return dict(type="kill", targets=victims) if victims else None
