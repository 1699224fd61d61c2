"""002 'Striking': unarmed blows.

'Attacker must be at least half size of defender. Damage is 1 + δS (or 0 if pulled).
Stunned if t = 1d20 - C' > 0. (Monster C = 2 x HD.) If stunned, SvDR +4 - δS or
knocked out for t rounds. Haymaker: Lose initiative, -5 to hit: -4 on SvDR, and no
size limit.'
"""

from ..actions import Strike
from ..charts.thac0_sheet import (
    BLOW,
    HAYMAKER_SAVE,
    HAYMAKER_TO_HIT,
    KNOCKOUT_SAVE,
    MONSTER_C,
    REACH,
    SIZE_SCALE,
    STUN_DIE,
)
from ..conditions import PRONE as PRONE_CONDITION
from ..context import Context, LineFields, lookup, said, standing
from ..errors import Rejected
from ..grid import distance
from ..holmes.damage import lose_hp
from ..holmes.ranged import check_target
from ..holmes.terms import SURPRISE_BONUS, parry_penalty, parrying
from ..model import ACT, Combatant, Encounter, Step
from .melee import situation
from .tohit import Reckoning, judge, thac0_of

STUNNED, KNOCKED_OUT = "stunned", "knocked out"
PRONE = 4  # 003: 'prone but awake and lively, the offender gets a +4'


def too_small(attacker: Combatant, target: Combatant) -> bool:
    """002: 'Attacker must be at least half size of defender.'"""
    return 2 * SIZE_SCALE[attacker.size] < SIZE_SCALE[target.size]


def check(state: Encounter, actor: Combatant, a: Strike) -> None:
    target = check_target(state, actor, a.target, "strike", "strike")
    if actor.vessel or target.vessel:
        raise Rejected("strike/vessel", "vessels neither strike nor are struck with fists")
    if too_small(actor, target) and not a.haymaker:
        raise Rejected(
            "strike/too-small",
            f"{actor.name} ({actor.size}) is less than half the size of {target.name} ({target.size}); only a haymaker has no size limit (002)",
        )


def describe(state: Encounter, a: Strike) -> str:
    target = lookup(state, a.target)
    how = " with a haymaker" if a.haymaker else ""
    return f"strike {target.name if target else a.target}{how}{' (pulled)' if a.pulled else ''}"


def last_in_phase(ctx: Context, step: Step) -> None:
    """A STEPS handler for kind 'haymaker': 002 'Lose initiative': the blow is struck
    after every other turn of the attack phase (haymakers among themselves by DEX)."""
    steps = ctx.state.steps
    after = max((i + 1 for i, s in enumerate(steps) if s.phase == step.phase), default=0)
    steps.insert(after, Step(phase=step.phase, actor=step.actor, kind=ACT))


def resolve(ctx: Context, actor: Combatant, a: Strike, step: Step) -> None:
    state = ctx.state
    target = standing(ctx, actor, a.target, "attack", "has no one to strike")
    if target is None:
        return
    who = LineFields(actor=actor.id, target=target.id)
    if distance(actor, target) > REACH:
        ctx.log("attack", **said(f"{actor.name} cannot reach {target.name} with a blow", (f" ({distance(actor, target)} ft away)", ""), "."), **who)
        return
    reckoning = Reckoning(state, thac0_of(state, actor), 19 - target.ac, mods_of(state, actor, target, a))
    hit, _ = judge(ctx, actor, f"{'throws a haymaker at' if a.haymaker else 'strikes'} {target.name}", reckoning, target.id)
    if hit:
        blow(ctx, actor, target, a, reckoning.bonus)


def mods_of(state: Encounter, actor: Combatant, target: Combatant, a: Strike) -> list[tuple[str, int]]:
    mods = []
    if state.surprised and actor.side not in state.surprised:
        mods.append(("surprise", SURPRISE_BONUS))  # 003 stands: the free round at +2
    if a.haymaker:
        mods.append(("haymaker", HAYMAKER_TO_HIT))
    if PRONE_CONDITION in target.conditions:
        mods.append(("prone target", PRONE))
    mods += situation(actor, target)
    if parrying(state, target) is not None:  # 003: a parrier's foe takes -4, the need kept to 20 at most
        need = Reckoning(state, thac0_of(state, actor), 19 - target.ac, mods).need
        mods.append(("parry", -parry_penalty(need)))
    return mods


def blow(ctx: Context, actor: Combatant, target: Combatant, a: Strike, bonus: int) -> None:
    """Damage, then the stun roll, then the save against a knock-out."""
    who = LineFields(actor=actor.id, target=target.id)
    points = 0 if a.pulled else max(0, BLOW + actor.str_adj + bonus)
    shown = "pulled" if a.pulled else f"{BLOW} + {actor.str_adj} δS"
    lose_hp(ctx, target, points, shown, actor.id, f" + {bonus} for the negative H" if bonus and not a.pulled else "")
    if target.down:
        return
    c = MONSTER_C * target.hd if target.klass == "monster" else target.con
    d20 = ctx.dice.roll(STUN_DIE, f"{target.name} shrugs off the blow")
    t = d20 - c
    if t <= 0:
        ctx.log("strike", **said(f"{target.name} is not stunned: ", (f"t = d20 {d20} - C' {c} = {t}, not above 0", f"d20 {d20}"), "."), total=t, **who)
        return
    stun = (f"t = d20 {d20} - C' {c} = {t}", f"d20 {d20}")
    save_mods = KNOCKOUT_SAVE - actor.str_adj + (HAYMAKER_SAVE if a.haymaker else 0)
    roll = ctx.dice.roll(20, f"{target.name} saves vs death ray against a knock-out")
    made = roll + save_mods >= target.save_death
    save = (f"SvDR d20 {roll} {sign(save_mods)} = {roll + save_mods} {'≥' if made else '<'} {target.save_death}", f"SvDR d20 {roll}")
    round_ = ctx.state.round
    if made:
        target.out_until = max(target.out_until, round_ + 1)
        condition(target, STUNNED)
        ctx.log("strike", **said(f"{target.name} is stunned (", stun, "): ", save, ", stays awake; loses its next round."), total=t, **who)
    else:
        target.out_until = max(target.out_until, round_ + t)
        condition(target, KNOCKED_OUT)
        ctx.log("strike", **said(f"{target.name} is knocked out for {t} rounds (", stun, "): ", save, "."), total=t, **who)


def sign(v: int) -> str:
    return f"{'-' if v < 0 else '+'} {abs(v)}"


def condition(c: Combatant, name: str) -> None:
    if name not in c.conditions:
        c.conditions.append(name)


def end_of_round(ctx: Context) -> None:
    """Stunned and knocked-out combatants come round once their rounds are spent."""
    for c in ctx.state.combatants:
        out = [x for x in (STUNNED, KNOCKED_OUT) if x in c.conditions]
        if out and c.out_until <= ctx.state.round:
            for x in out:
                c.conditions.remove(x)
            if not c.down:
                ctx.log("strike", f"{c.name} comes round ({' and '.join(out)} no longer).", target=c.id)
