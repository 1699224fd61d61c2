"""000's attack roll (profile 'll-house'): 'roll a 1d20. You must roll the Armor Class or
higher to hit', plus the Attack Value; a natural 20 rolls on the critical hit chart, a
natural 1 on the fumble table (the damage of a hit is rules.llhouse.damage); and the
attack routine of EXTRA ATTACK and TWO-WEAPON FIGHTING.

The round and 003's situational terms (surprise, charge, from behind, prone, called
shots, set spear) stand where 000 is silent; 003's parry is replaced by 000's (+2 AC).
"""

import msgspec

from ..actions import Attack, TwoWeapons
from ..charts.ll_house import CONCUSSION, MAIN_HAND, MASTER_BODY, OFF_HAND, TWO_WEAPON_BONUS, WHICH_HAND
from ..context import Context, LineFields, lookup, own_terms, reckoned
from ..holmes import combat, subdual
from ..holmes.combat import distance, double_refused, in_melee, queue
from ..holmes.damage import NO_CRITICAL
from ..holmes.fighters import declared, gone, usable
from ..holmes.kinds import STRIKE
from ..holmes.terms import ROUTINE, allowed_called_shots, called_shot_term, declaration, modifiers, shots_dropped
from ..model import Combatant, Encounter, Step, Weapon
from ..ruleset import MELEE, MISSILE, rules_of
from .criticals import KNOCKED_DOWN
from .damage import damage_roll, land
from .figures import may_wield, natural_20_hits, rank, special_rolls, widening
from .improved import parry_bonus

DECLARED = ("attack", "double", "charge", ROUTINE, "two-weapon", "main-hand", "off-hand")  # carry the declaration's options
LABEL = {
    **combat.LABEL,  # 003's strikes, and 000's two-weapon ones
    "two-weapon": "attacks with two weapons",
    "main-hand": "attacks with the main hand",
    "off-hand": "attacks with the off hand",
}
HAND_MODS = {"two-weapon": ("two weapons", TWO_WEAPON_BONUS), "main-hand": ("main hand", MAIN_HAND), "off-hand": ("off hand", OFF_HAND)}


LL_STRIKE = "ll_strike"  # step: a further strike of 000's routine (EXTRA ATTACK), dropped if its target is down

# --- the attack routine (hook `routine`, the action two_weapons, the step ll_strike) ---


def routine(ctx: Context, attacker: Combatant, action: Attack) -> None:
    """A declared attack: one strike (two for 003's shorter, lighter weapon), and one more
    for each rank of EXTRA ATTACK ('one more attack per combat round')."""
    state = ctx.state
    target = ctx.combatant(action.target)
    first = [strike_step(state, attacker, target.id, action.weapon, "attack", STRIKE)]
    if action.double:
        why = double_refused(state, attacker, target, action.weapon)
        if why:
            ctx.log("attack", f"{attacker.name} cannot attack twice: {why}.", actor=attacker.id, target=target.id)
        else:
            first = [strike_step(state, attacker, target.id, action.weapon, "double", STRIKE)] * 2
    extra = [strike_step(state, attacker, target.id, action.weapon, "attack", LL_STRIKE)] * rank(attacker, "extra_attack")
    queue(state, first + extra)


def two_weapons(ctx: Context, attacker: Combatant, action: TwoWeapons, step: Step) -> None:
    """000: TWO-WEAPON FIGHTING, by option `two_weapon_fighting`: 'one-roll' (+2 to hit, a die
    says which weapon struck) or 'both' (main hand -2, off hand -4, the attacks alternating)."""
    state = ctx.state
    count = 1 + rank(attacker, "extra_attack")
    steps = []
    for n in range(count):
        kind = STRIKE if n == 0 else LL_STRIKE
        if state.options.get("two_weapon_fighting", "one-roll") == "one-roll":
            steps.append(strike_step(state, attacker, action.target, action.weapon, "two-weapon", kind))
        elif n % 2 == 0:
            steps.append(strike_step(state, attacker, action.target, action.weapon, "main-hand", kind))
        else:
            steps.append(strike_step(state, attacker, action.target, action.off_hand, "off-hand", kind))
    queue(state, steps)


def strike_step(state: Encounter, attacker: Combatant, target: str, weapon: int, mode: str, kind: str) -> Step:
    return Step(phase=state.phase, actor=attacker.id, kind=kind, target=target, weapon=weapon, mode=mode)


def extra_strike(ctx: Context, step: Step) -> None:
    """Step ll_strike: a further attack of the routine; if its target is down, it goes
    to the nearest standing foe within the weapon's reach (a ruling)."""
    state = ctx.state
    attacker, target = lookup(state, step.actor), lookup(state, step.target)
    if attacker is None:
        return
    if target is None or target.down:
        weapon = attacker.weapons[step.weapon]
        reach = weapon.range or weapon.reach
        foes = [c for c in state.combatants if c.side != attacker.side and not c.down and not gone(state, c) and distance(attacker, c) <= reach]
        if not foes:
            ctx.log("attack", f"{attacker.name}'s further attack finds no one in reach.", actor=attacker.id)
            return
        target = min(foes, key=lambda c: distance(attacker, c))
    combat.strike(ctx, msgspec.structs.replace(step, kind=STRIKE, target=target.id))


# --- the roll (hook `melee_roll` of 000's to_hit) -------------------------------------


def roll(ctx: Context, step: Step, attacker: Combatant, target: Combatant, weapon: Weapon, natural_20=natural_20_hits) -> None:
    """000's blow; `natural_20` says whether a roll in the crit range hits whatever the AC
    (rules version 7: 000's own option; 8: the criticals module's, `criticals_say`)."""
    state = ctx.state
    who = LineFields(actor=attacker.id, target=target.id)
    if KNOCKED_DOWN in attacker.conditions:
        ctx.log("attack", f"{attacker.name} cannot strike (knocked down).", **who)
        return
    if not may_wield(attacker, weapon):
        ctx.log("attack", f"{attacker.name} cannot wield the {weapon.name} ({', '.join(limbs(attacker))}).", **who)
        return
    mode = step.mode
    action, behind, wanted = declaration(state, attacker, mode, DECLARED)
    if mode == "two-weapon":
        assert isinstance(action, TwoWeapons)  # two_weapons plans this mode only for its declaration
        if not usable(attacker.weapons[action.off_hand]):
            ctx.log("attack", f"{attacker.name}'s off-hand {attacker.weapons[action.off_hand].name} is out of hand: one weapon only.", **who)
            mode = "attack"
    mods, ac = terms_of(state, attacker, target, weapon, mode, behind)
    called = allowed_called_shots(ac - sum(v for _, v in mods), target, wanted)
    if called < wanted:
        ctx.log("attack", **shots_dropped(attacker, wanted, called), **who)
    if called:
        mods.append(called_shot_term(called, target))
    if mode in HAND_MODS:
        mods.append(HAND_MODS[mode])
    parry, parry_text = parry_bonus(state, target) if in_melee(attacker, target, weapon) else (0, "")
    d20 = ctx.dice.roll(20, f"{attacker.name} attacks {target.name}")
    hit, crit, fumbled = outcome(ctx, attacker, d20, d20 + sum(v for _, v in mods), ac + parry, natural_20)
    log_roll(ctx, attacker, target, LABEL.get(mode, "attacks"), d20, mods, ac, parry_text, parry, hit, crit, fumbled)
    if hit:
        subdue = bool(getattr(action, "subdue", False))
        blow(ctx, step, attacker, target, mode, crit and not subdue, called, subdue)
    elif fumbled:
        rules_of(state).fumble(ctx, attacker, target, step.weapon, MELEE)


def criticals_say(state: Encounter) -> bool:
    """Rules version 8's 000's roll: whether a roll in the crit range hits whatever the AC is the
    criticals module's (hook `natural_20_hits`: 000's chart by its option, 003's never)."""
    return rules_of(state).natural_20_hits(state)


def terms_of(state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon, mode: str, behind: bool) -> tuple[list[tuple[str, int]], int]:
    """Every term added to the d20 (003's situational ones included), and the AC to reach."""
    mods = modifiers(state, attacker, target, weapon, mode if mode in combat.LABEL or mode == "attack" else "attack", behind)
    _, descending = mods.pop()  # 003's last term: the target's AC, descending, shield dropped from behind
    mods = [("attack value" if name == "combat bonus" else name, v) for name, v in mods]
    if "concussion" in attacker.conditions:
        mods.append(("concussion", CONCUSSION))  # 000, death and dying 16: 'All attacks ... at -1 penalty'
    return mods, 19 - descending


def outcome(ctx: Context, attacker: Combatant, d20: int, total: int, need: int, natural_20=natural_20_hits) -> tuple[bool, bool, bool]:
    """(hit, critical, fumble). The crit range is 20 (19-20, 18-20 ... with IMPROVED CRIT RANGE),
    the fumble range 1 ('your Fumble range increases at the same rate'). A roll in the crit
    range hits whatever the AC if `natural_20(state)` says so (option `natural_20_hits`)."""
    state = ctx.state
    if not special_rolls(state, attacker):
        return total >= need, False, False
    wide = widening(state, attacker)
    crit, fumbled = d20 >= 20 - wide, d20 <= 1 + wide
    if fumbled:
        return False, False, True
    hit = total >= need or (crit and natural_20(state))
    return hit, crit and hit, False


def log_roll(ctx, attacker, target, verb, d20, mods, ac, parry_text, parry, hit, crit, fumbled) -> None:
    total = d20 + sum(v for _, v in mods)
    text = f"d20 {d20}" + "".join(f" {'-' if v < 0 else '+'} {abs(v)} {name}" for name, v in mods)
    need = f"AC {ac + parry}" + (f" ({ac} + {parry_text})" if parry else "")
    natural = f": natural {d20}" if crit or fumbled else ""
    why = "a critical hit" if crit else "a fumble" if fumbled else "hit" if hit else "miss"
    ctx.log(
        "attack",
        **reckoned(
            f"{attacker.name} {verb} {target.name}",
            f"{text} = {total} {'≥' if total >= ac + parry else '<'} {need}{natural}",
            f"d20 {d20}",
            why,
            own_terms(d20, mods, "the target's AC" + (f" + {parry_text}" if parry else "")),
        ),
        mods=mods,
        total=total,
        need=ac + parry,
        actor=attacker.id,
        target=target.id,
    )


def limbs(c: Combatant) -> list[str]:
    return [x for x in c.conditions if x.split(" ")[-1] in ("hand", "elbow", "shoulder")] or ["too few hands"]


# --- the blow: the critical hit chart, then the damage (rules.llhouse.damage) ---------


def blow(ctx: Context, step: Step, attacker: Combatant, target: Combatant, mode: str, crit: bool, called: int, subdue: bool) -> None:
    state = ctx.state
    who = LineFields(actor=attacker.id, target=target.id)
    if state.options.get("hit_location"):
        spot = ctx.dice.roll(20, f"where {attacker.name}'s blow lands")
        ctx.log("location", f"Master body table d20 {spot}: the blow lands on the {next(p for lo, hi, p in MASTER_BODY if lo <= spot <= hi)}.", **who)
    # A roll in the crit range: the criticals module's (000's chart, or 003's extra die and save).
    hit = rules_of(state).critical(ctx, attacker, target, step.weapon, MISSILE if mode == "shoot" else MELEE) if crit else NO_CRITICAL
    if hit.settled:
        return
    index = step.weapon
    if mode == "two-weapon":
        die = ctx.dice.roll(WHICH_HAND, f"which of {attacker.name}'s weapons struck")
        action = declared(state, attacker)
        index = action.weapon if die % 2 == 0 else action.off_hand
        ctx.log(
            "attack",
            f"Which weapon: d{WHICH_HAND} {die}, {'even: the main hand' if die % 2 == 0 else 'odd: the off hand'} ({attacker.weapons[index].name}).",
            **who,
        )
    weapon = attacker.weapons[index]
    points, shown = damage_roll(ctx, attacker, target, weapon, hit.times, called + (1 if mode == "set" else 0) + sum(n for _, n in hit.extra), mode)
    if subdue:
        subdual.take(ctx, attacker, target, points, shown)
        return
    ctx.log("hit", f"{attacker.name} rolls {points} damage against {target.name} ({shown}).", total=points, **who)
    land(ctx, attacker, target, points, hit.effect)
