"""A melee strike under 002 (hook `melee_roll` of 002's to_hit): THAC0 against AC with
002's steps; 003's modifiers, called shots, parry, natural 20 and surprise drop stand
where 002 is silent. A negative H adds -H to the damage; a blow on a vessel counts
1 hull point for each 5 hit points (rules.thac0sheet.naval)."""

from ..charts.thac0_sheet import BOARDING
from ..context import Context, LineFields
from ..dice import parse
from ..holmes import combat, subdual
from ..holmes.damage import after_critical, critical, damage, damage_dice, extra_dice, fumble, gawper_struck
from ..holmes.terms import called_shot_penalty, called_shot_term, declaration, modifiers, parry_penalty, parrying, shots_dropped
from ..model import Combatant, Step, Weapon
from ..ruleset import MELEE, MISSILE, SUBDUE
from . import naval
from .tohit import CEILING, Reckoning, judge

BOARDING_ROUND = "boarding"  # the condition a boarder holds through its boarding round
LABEL = {**combat.LABEL, "board": "boards and attacks"}


def situation(attacker: Combatant, target: Combatant) -> list[tuple[str, int]]:
    """002: 'Boarding: -2 on hit rolls and AC during boarding round.'"""
    mods = []
    if BOARDING_ROUND in attacker.conditions:
        mods.append(("boarding", BOARDING))
    if BOARDING_ROUND in target.conditions:
        mods.append(("target boarding (AC 2 worse)", -BOARDING))
    return mods


def reckon(state, attacker: Combatant, target: Combatant, weapon: Weapon, mode: str, behind: bool) -> Reckoning:
    """003's modifiers reckoned under 002: its first term (the combat bonus) becomes the THAC0."""
    terms = modifiers(state, attacker, target, weapon, mode, behind)
    thac0, ac = 19 - terms[0][1], terms[-1][1]  # 003's last term is the target's AC
    return Reckoning(state, thac0, ac, terms[1:-1] + situation(attacker, target))


def called_allowed(state, base: Reckoning, target: Combatant, wanted: int) -> int:
    """003: no called shot that makes the number needed 20 or more."""
    n = wanted
    while n and Reckoning(state, base.thac0, base.ac, base.mods + [("called", n * called_shot_penalty(target))]).need >= CEILING:
        n -= 1
    return n


def with_bonus(dice: str, bonus: int) -> str:
    """'1d6' and 3 -> '1d6+3' (002: 'add -H bonus to damage')."""
    if not bonus:
        return dice
    count, sides, plus = parse(dice)
    return f"{count}d{sides}+{plus + bonus}"


def roll(ctx: Context, step: Step, attacker: Combatant, target: Combatant, weapon: Weapon) -> None:
    state = ctx.state
    who = LineFields(actor=attacker.id, target=target.id)
    action, behind, wanted = declaration(state, attacker, step.mode)
    base = reckon(state, attacker, target, weapon, step.mode, behind)
    called = called_allowed(state, base, target, wanted)
    if called < wanted:
        ctx.log("attack", **shots_dropped(attacker, wanted, called, f"{base.need} is needed on the d20 already"), **who)
    mods = list(base.mods)
    if called:
        mods.append(called_shot_term(called, target))
    melee = combat.in_melee(attacker, target, weapon)
    parry = parrying(state, target) if melee else None
    penalty = 0
    if parry is not None:
        penalty = parry_penalty(Reckoning(state, base.thac0, base.ac, mods).need)
        mods.append(("parry", -penalty))
    reckoning = Reckoning(state, base.thac0, base.ac, mods)
    hit, d20 = judge(ctx, attacker, f"{LABEL.get(step.mode, 'attacks')} {target.name}", reckoning, target.id)
    subdue = getattr(action, "subdue", False)
    kind = MISSILE if not melee else SUBDUE if subdue else MELEE
    if not hit:
        fumble(ctx, d20, attacker, target, step.weapon, kind)  # 002 is silent: the fumbles module's (003's: nothing)
        if parry is not None:
            but_for = Reckoning(state, base.thac0, base.ac, mods[:-1])
            combat.parried(ctx, attacker, target, weapon, parry, step, but_for.total(d20) >= but_for.target)
        return
    crit = critical(ctx, d20, attacker, target, step.weapon, kind)  # 002 is silent: the criticals module's
    if crit.settled:
        return
    extra = extra_dice(called, step.mode, crit)
    dice = with_bonus(damage_dice(ctx, weapon, step.mode), reckoning.bonus)
    if target.vessel:
        naval.hull_damage(ctx, attacker, target, dice, extra)  # hull points: a critical's extra dice, no multiple
    elif subdue:
        subdual.strike(ctx, attacker, target, dice, extra)
    else:
        damage(ctx, attacker, target, dice, extra, crit.times)
    after_critical(ctx, attacker, target, crit)
    gawper_struck(ctx, target, step.mode)
