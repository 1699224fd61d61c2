"""The attack roll and damage of 003.

'Hits are made when the sum of the 20 sided die + the attacking character's
combat bonus + any applicable weapon bonuses + the target's Armour Class is
equal to 19 or higher.' (003, descending AC.) Fray holds AC ascending, so the
log shows the document's own arithmetic with descending = 19 - ascending.

Every attack roll is one `strike` step on the queue (kind 'strike'), so that a
choice made in the middle of an exchange (a parrier's counter-attack) parks the
queue and the rest of the exchange waits behind it.
"""

from collections.abc import Callable

import msgspec

from rules.actions import Action, Attack, Parry
from rules.charts import weapon_saves
from rules.context import Context, lookup
from rules.fighters import able, combat_bonus, declared, in_hand, multi_attack_bonus, usable, wielded
from rules.model import Awaiting, Combatant, Encounter, Step, Weapon
from rules import subdual  # 003: subdual damage (rules.subdual)

TO_HIT = 19  # 003: the sum must be 19 or higher
BASE_DAMAGE = "1d6"  # 003: 'All hits, except when otherwise noted, cause 1-6 points of damage'
SURPRISE_BONUS = 2  # 003: the active side 'attacks at +2 to-hit' in its free round
DROP_ON = 2  # 003: gawpers struck 'drop anything held in-hand on a 2 or less on a 6 sided die'
CALLED_SHOT = -5  # 003: 'a -5 penalty to their attack roll'
CALLED_SHOT_BAREHEADED = -3  # 003: 'or -3 if the target is a human who is not wearing a helmet'
FROM_BEHIND = 2  # 003: 'Adds an additional +2 to hit'; 'Shields obviously do not help the victim'
SHIELD = 1  # 000: a shield is worth 1 point of AC
PRONE = 4  # 003: 'prone but awake and lively, the offender gets a +4'
CHARGE = 2  # 003: a charger 'may attack at +2 to hit'
PARRY = 4  # 003: 'their opponent thusly suffers a -4 penalty to hit'
PARRY_CAP = 20  # 003: 'may not increase the total required to hit beyond 20'
RIPOSTE = 3  # 003: the parrier 'may counterattack once immediately, with an additional bonus of +3'
CALLED_SHOT_CEILING = 20  # 003: not 'when the penalty would increase the number required to hit to 20 or above'
DECLARED = ("attack", "double", "charge")  # strike modes that carry the declaration's options


def descending(ac: int) -> int:
    return 19 - ac


def distance(a: Combatant, b: Combatant) -> int:
    """Feet on the 5-ft grid; a diagonal step counts 5 ft (a ruling)."""
    return max(abs(a.x - b.x), abs(a.y - b.y))


def parrying(state: Encounter, c: Combatant) -> int | None:
    """The index of the weapon `c` parries with this round, if it parries."""
    action = declared(state, c)
    if isinstance(action, Parry) and able(c) and c.side not in state.surprised and usable(c.weapons[action.weapon]):
        return action.weapon
    return None


def in_melee(attacker: Combatant, target: Combatant, weapon: Weapon) -> bool:
    return weapon.range == 0 or distance(attacker, target) <= weapon.reach


def called_shot_penalty(target: Combatant) -> int:
    return CALLED_SHOT_BAREHEADED if target.human and not target.helmet else CALLED_SHOT


def allowed_called_shots(need: int, target: Combatant, wanted: int) -> int:
    """The most called shots, up to `wanted`, that keep the number needed below 20."""
    n = wanted
    while n and need - n * called_shot_penalty(target) >= CALLED_SHOT_CEILING:
        n -= 1
    return n


def modifiers(state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon, mode: str, behind: bool) -> list[tuple[str, int]]:
    """Every term of the sum but the die, called shots and parry, AC last."""
    if mode == "double":
        mods = [("combat bonus (multiple attacks)", multi_attack_bonus(attacker))]
    else:
        mods = [("combat bonus", combat_bonus(state, attacker))]
    if weapon.bonus:
        mods.append((f"{weapon.name} bonus", weapon.bonus))
    if mode == "riposte":
        mods.append(("counter after a parry", RIPOSTE))
    if mode in DECLARED:
        surprise = bool(state.surprised) and attacker.side not in state.surprised
        # 003: the +2 from behind 'is already factored into the Thief "attack from
        # surprise" bonus!': a thief striking from behind in the free round gets one +2.
        thief_from_surprise = surprise and behind and attacker.klass == "thief"
        if surprise:
            mods.append(("surprise, from behind included" if thief_from_surprise else "surprise", SURPRISE_BONUS))
        if mode == "charge":
            mods.append(("charge", CHARGE))
        if behind and not thief_from_surprise:
            mods.append(("from behind", FROM_BEHIND))
        if "prone" in target.conditions:
            mods.append(("prone target", PRONE))
    ac = target.ac - (SHIELD if behind and target.shield else 0)
    mods.append(("target AC" if ac == target.ac else "target AC without shield", descending(ac)))
    return mods


def need_of(mods: list[tuple[str, int]]) -> int:
    """The number needed on the d20."""
    return TO_HIT - sum(v for _, v in mods)


def check_called_shots(state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon, mode: str, behind: bool, wanted: int) -> int | None:
    """The number needed without called shots, if `wanted` of them would raise it to 20 or more."""
    need = need_of(modifiers(state, attacker, target, weapon, mode, behind))
    return need if allowed_called_shots(need, target, wanted) < wanted else None


def terms(d20: int, mods: list[tuple[str, int]]) -> str:
    """'d20 15 + 1 combat bonus - 5 called shot + AC 6': the AC is the last term."""
    text = f"d20 {d20}"
    for name, value in mods[:-1]:
        text += f" {'-' if value < 0 else '+'} {abs(value)} {name}"
    name, value = mods[-1]
    return text + f" + AC {value}" + (" (shield ignored)" if name != "target AC" else "")


def attack(ctx: Context, attacker: Combatant, action: Attack) -> None:
    """A declared attack: one strike, or two for a shorter, lighter weapon (003)."""
    state = ctx.state
    if state.profile in ATTACKS:
        ATTACKS[state.profile](ctx, attacker, action)
        return
    target = ctx.combatant(action.target)
    strikes = 1
    if action.double:
        why = double_refused(state, attacker, target, action.weapon)
        if why:
            ctx.log("attack", f"{attacker.name} cannot attack twice: {why}.", actor=attacker.id, target=target.id)
        else:
            strikes = 2
    mode = "double" if strikes == 2 else "attack"
    queue(state, [Step(phase=state.phase, actor=attacker.id, kind="strike", target=target.id, weapon=action.weapon, mode=mode)] * strikes)


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


# A profile's roll of a strike that can be made (reach, weapon, target checked), to damage; else 003's `roll`.
ROLLS: dict[str, Callable[[Context, Step, Combatant, Combatant, Weapon], None]] = {}
# How a profile queues the strikes of a declared attack (000's extra attacks); else `attack`'s own.
ATTACKS: dict[str, Callable[[Context, Combatant, Attack], None]] = {}
# What a profile does to a combatant brought to 0 HP or less (000's dying chart); else it falls.
FALLS: dict[str, Callable[[Context, Combatant], None]] = {}


def strike(ctx: Context, step: Step) -> None:
    """One attack roll: a step of kind 'strike'."""
    state = ctx.state
    attacker, target = lookup(state, step.actor), lookup(state, step.target)
    if attacker is None or target is None:
        return
    weapon = attacker.weapons[step.weapon]
    who = dict(actor=attacker.id, target=target.id)
    if not able(attacker):
        ctx.log("attack", f"{attacker.name} cannot strike ({'down' if attacker.down else ', '.join(attacker.conditions)}).", **who)
        return
    if target.down:
        ctx.log("attack", f"{attacker.name} has no target: {target.name} is already down.", **who)
        return
    if not usable(weapon):
        ctx.log("attack", f"{attacker.name} cannot strike: the {weapon.name} is {'broken' if weapon.broken else 'dropped'}.", **who)
        return
    reach = weapon.range or weapon.reach
    if distance(attacker, target) > reach:
        ctx.log("attack", f"{attacker.name} cannot reach {target.name} ({distance(attacker, target)} ft away, {weapon.name} reaches {reach} ft).", **who)
        return
    ROLLS.get(state.profile, roll)(ctx, step, attacker, target, weapon)


def roll(ctx: Context, step: Step, attacker: Combatant, target: Combatant, weapon: Weapon) -> None:
    """003's attack roll and its consequences, for a strike that can be made."""
    state = ctx.state
    who = dict(actor=attacker.id, target=target.id)
    action, behind, wanted = declaration(state, attacker, step.mode)
    mods = modifiers(state, attacker, target, weapon, step.mode, behind)
    called = call_shots(ctx, attacker, target, mods, wanted)
    melee = in_melee(attacker, target, weapon)
    parry, penalty = parry_term(state, target, mods, melee)
    d20 = ctx.dice.roll(20, f"{attacker.name} attacks {target.name}")
    total = d20 + sum(v for _, v in mods)
    hit = total >= TO_HIT
    ctx.log(
        "attack",
        f"{attacker.name} {LABEL.get(step.mode, 'attacks')} {target.name}: {terms(d20, mods)} = {total}"
        f" {'≥' if hit else '<'} {TO_HIT}: {'hit' if hit else 'miss'}.",
        mods=mods, total=total, need=TO_HIT, **who,
    )
    if hit:
        natural = d20 == 20 and melee
        extra = extra_dice(called, step.mode, natural)
        dice = damage_dice(ctx, weapon)
        if getattr(action, "subdue", False):
            subdual.strike(ctx, attacker, target, dice, extra)  # 003: subdual damage is tracked apart
        else:
            damage(ctx, attacker, target, dice, extra)
        if natural:
            weapon_save(ctx, attacker, step.weapon)
        gawper_struck(ctx, target, step.mode)
    elif parry is not None:
        parried(ctx, attacker, target, weapon, parry, step, total + penalty >= TO_HIT)


# The terms of a strike that every profile's roll shares (003's, where the others are silent).


def declaration(state: Encounter, attacker: Combatant, mode: str, modes: tuple[str, ...] = DECLARED) -> tuple[Action | None, bool, int]:
    """The declared action a strike of `mode` carries (none unless `mode` is one of `modes`:
    not for a counter, a riposte or a set spear), whether it is struck from behind, and how
    many called shots it wants."""
    action = declared(state, attacker) if mode in modes else None
    return action, bool(getattr(action, "from_behind", False)), getattr(action, "called_shots", 0)


def called_shot_term(called: int, target: Combatant) -> tuple[str, int]:
    return (f"called shot{'s' if called > 1 else ''}", called * called_shot_penalty(target))


def call_shots(ctx: Context, attacker: Combatant, target: Combatant, mods: list[tuple[str, int]], wanted: int, hit: str = "") -> int:
    """The called shots allowed of `wanted`, their term put before the AC in `mods`; a drop
    is logged (`hit` names the result the number needed is for, as ' for a normal Hit')."""
    called = allowed_called_shots(need_of(mods), target, wanted)
    if called < wanted:
        ctx.log("attack", f"{attacker.name}'s called shots drop from {wanted} to {called}: {need_of(mods)} is needed on the d20{hit} already, and 003 refuses a penalty that makes it 20 or more.", actor=attacker.id, target=target.id)
    if called:
        mods.insert(-1, called_shot_term(called, target))
    return called


def parry_penalty(need: int) -> int:
    """003: -4 to hit, but never making the number needed more than 20."""
    return min(PARRY, max(0, PARRY_CAP - need))


def parry_term(state: Encounter, target: Combatant, mods: list[tuple[str, int]], melee: bool) -> tuple[int | None, int]:
    """The weapon `target` parries a melee strike with (or None) and the penalty, its term put before the AC in `mods`."""
    parry = parrying(state, target) if melee else None
    if parry is None:
        return None, 0
    penalty = parry_penalty(need_of(mods))
    mods.insert(-1, ("parry", -penalty))
    return parry, penalty


def extra_dice(called: int, mode: str, natural: bool = False) -> list[tuple[str, int]]:
    """003's extra d6s of a hit, each named: called shots, a set spear, a natural 20 in melee."""
    extra = [("called shots", called)] if called else []
    if mode == "set":
        extra.append(("set spear", 1))  # 003: 'an additional 1-6 points of damage (2-12 total)'
    if natural:
        extra.append(("natural 20", 1))  # 003: 'adds an additional 1-6 damage'
    return extra


def damage_dice(ctx: Context, weapon: Weapon) -> str:
    """003: 1-6 'except when otherwise noted'; option weapon_damage rolls the weapon's dice."""
    return weapon.damage if ctx.option("weapon_damage") else BASE_DAMAGE


def gawper_struck(ctx: Context, target: Combatant, mode: str) -> None:
    """003: a surprised target struck by a declared attack, and still up, may drop what it holds."""
    if mode in DECLARED and target.side in ctx.state.surprised and not target.down:
        drop_check(ctx, target)


LABEL = {
    "double": "attacks (twice)",
    "charge": "charges",
    "counter": "counter-attacks",
    "set": "meets the charge of",
    "riposte": "counter-attacks after parrying",
}


def parried(ctx: Context, attacker: Combatant, target: Combatant, weapon: Weapon, index: int, step: Step, but_for_parry: bool) -> None:
    """003: disarm if the heavier weapon would have hit but for the parry; a counter-attack
    at +3 if the attack missed regardless and the parrier's weapon is the lighter."""
    state = ctx.state
    guard = target.weapons[index]
    who = dict(actor=attacker.id, target=target.id)
    if but_for_parry and weapon.weight > guard.weight:
        target.weapons[index] = msgspec.structs.replace(guard, dropped=True)
        if "disarmed" not in target.conditions:
            target.conditions.append("disarmed")
        ctx.log("parry", f"{target.name}'s parry holds, but the heavier {weapon.name} knocks the {guard.name} away: {target.name} is disarmed.", **who)
        return
    if but_for_parry or guard.weight >= weapon.weight or step.mode == "riposte":
        return
    if distance(attacker, target) > guard.reach or target.side in state.surprised or not able(target):
        return
    if state.options.get("parry_counter", "ask") == "auto":
        ctx.log("parry", f"{target.name} parries the spent {weapon.name} and counter-attacks.", **who)
        queue(state, [Step(phase=state.phase, actor=target.id, kind="strike", target=attacker.id, weapon=index, mode="riposte")])
        return
    state.awaiting = Awaiting(
        id=f"{state.seq}:riposte:{attacker.id}",
        who=target.id,
        kind="riposte",
        prompt=f"{target.name} parried {attacker.name}'s {weapon.name}: counter-attack once at +{RIPOSTE}?",
        options=["counter", "decline"],
    )
    ctx.log("parry", f"{target.name} parries; {attacker.name}'s {weapon.name} is spent. {target.name} may counter-attack at +{RIPOSTE}.", **who)


def riposte(ctx: Context, waiting: Awaiting, choice: str) -> None:
    """RESUME handler for kind 'riposte'."""
    state = ctx.state
    defender = ctx.combatant(waiting.who)
    attacker = waiting.id.partition(":riposte:")[2]  # the id names the spent attacker
    index = parrying(state, defender)
    if choice != "counter" or index is None:
        ctx.log("parry", f"{defender.name} declines the counter-attack.", actor=defender.id)
        return
    queue(state, [Step(phase=state.phase, actor=defender.id, kind="strike", target=attacker, weapon=index, mode="riposte")])


def roll_damage(ctx: Context, target: Combatant, dice: str, extra, what: str = "damage") -> tuple[int, str]:
    """The hit's damage dice plus `extra` d6s, each named: ('called shots', 2).
    Returns the points (never below 0) and the dice as the log shows them."""
    points = ctx.dice.roll_dice(dice, f"{what} to {target.name}")
    shown = dice
    for reason, count in extra:
        points += ctx.dice.roll_dice(f"{count}d6", f"{reason}: {what} to {target.name}")
        shown += f" + {count}d6 {reason}"
    return max(0, points), shown


def damage(ctx: Context, attacker: Combatant, target: Combatant, dice: str, extra: list[tuple[str, int]] | tuple = ()) -> None:
    lose_hp(ctx, target, *roll_damage(ctx, target, dice, extra), attacker.id)


def lose_hp(ctx: Context, target: Combatant, points: int, shown: str, actor: str | None = None) -> None:
    """The points come off HP (`shown`: how they were found); at 0 or less the target falls."""
    target.hp -= points
    ctx.log("damage", f"{target.name} takes {points} damage ({shown}), {target.hp} HP left.", actor=actor, target=target.id, total=points)
    if target.hp <= 0 and not target.down:
        fall(ctx, target)


def fall(ctx: Context, target: Combatant) -> None:
    """A combatant at 0 HP or less that is not yet down."""
    if ctx.state.profile in FALLS:
        FALLS[ctx.state.profile](ctx, target)
        return
    target.down = True
    ctx.log("down", f"{target.name} falls.", target=target.id)


def weapon_save(ctx: Context, attacker: Combatant, index: int) -> None:
    """003: 'immediately make a saving throw for their weapon against "crushing blow" ...
    Failure means the weapon has broken.'"""
    weapon = attacker.weapons[index]
    need = weapon_saves.save_value(weapon.material, str(ctx.state.options.get("weapon_saves", "")))
    roll = ctx.dice.roll(20, f"{attacker.name}'s {weapon.name} saves vs crushing blow")
    if roll >= need:
        ctx.log("weapon", f"{attacker.name}'s {weapon.name} ({weapon.material}) holds: d20 {roll} ≥ {need}.", actor=attacker.id, total=roll, need=need)
        return
    attacker.weapons[index] = msgspec.structs.replace(weapon, broken=True)
    ctx.log("weapon", f"{attacker.name}'s {weapon.name} ({weapon.material}) breaks: d20 {roll} < {need}.", actor=attacker.id, total=roll, need=need)


def drop_check(ctx: Context, target: Combatant) -> None:
    roll = ctx.dice.roll(6, f"{target.name}, surprised and struck, holds on")
    if roll <= DROP_ON and "disarmed" not in target.conditions:
        target.conditions.append("disarmed")
        held = in_hand(ctx.state, target)  # the weapon in hand lies on the floor until recovered
        if held is not None:
            target.weapons[held] = msgspec.structs.replace(target.weapons[held], dropped=True)
        ctx.log("surprise", f"{target.name} is caught gawping and drops what was in hand (d6 {roll} ≤ {DROP_ON}).", target=target.id)
    else:
        ctx.log("surprise", f"{target.name} keeps hold (d6 {roll} > {DROP_ON}).", target=target.id)
