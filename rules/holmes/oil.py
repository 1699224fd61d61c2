"""Burning oil (003): 'A burning oil attack requires two attack rolls to be effective -
firstly to hit with the thrown flask and then with a thrown lit torch or similar
object to ignite the oil.' The fire burns in the magic phase, 'prior to any spells
being cast (effectively at the highest DEX rating of any combatant acting in that
round, +1)'.

A flask that hits leaves the target 'oiled'; a torch that hits lights it
('burning', with `burning` counting the burn rolls made). A flask whose torch
missed may be lit later by anyone's `throw_torch`.
"""

from ..actions import Cast, StopDropRoll, ThrowOil, ThrowTorch
from ..charts.oil import (
    BURN_DAMAGE,
    FIRST_ROUND_OUT_BELOW,
    FLASK_RANGE,
    FLASK_SIZE,
    LATER_ROUND_OUT_FROM,
    ROLLING_OUT_FROM,
    TORCH_AC,
)
from ..charts.range_cover import range_band
from ..conditions import BURNING, OILED, PRONE
from ..context import Context, lookup
from ..errors import Rejected
from ..grid import distance
from ..model import Combatant, Encounter, Step
from .fighters import gone
from .kinds import BURN
from .order import dex_order
from .ranged import aim_mods, check_aim, check_target, into_melee
from .terms import descending
from .tohit import base_mods, hurt, roll_to_hit


def check_throw(state: Encounter, actor: Combatant, a: ThrowOil | ThrowTorch) -> None:
    check_target(state, actor, a.target, "oil")
    check_aim(a.range_band, a.cover, a.cover_kind, "oil")


def check_roll(state: Encounter, actor: Combatant) -> None:
    if BURNING not in actor.conditions:
        raise Rejected("oil/not-burning", f"{actor.name} is not on fire")
    if actor.burning < 1:
        raise Rejected("oil/too-soon", "stop, drop and roll only 'after the first round' of burning (003)")


def in_reach(ctx: Context, actor: Combatant, tid: str, what: str) -> tuple[Combatant, int] | None:
    """The target `tid` and the distance to it, if it is there, live and within a flask's throw; else None (logged)."""
    target = lookup(ctx.state, tid)
    if target is None or target.down or gone(ctx.state, target):
        ctx.log("attack", f"{actor.name} has nobody to throw {what} at.", actor=actor.id)
        return None
    feet = distance(actor, target)
    if feet > FLASK_RANGE:
        ctx.log("attack", f"{actor.name} cannot throw {what} {feet} ft (at most {FLASK_RANGE} ft).", actor=actor.id, target=target.id)
        return None
    return target, feet


def torch_into_melee(ctx: Context, actor: Combatant, aimed: Combatant, band: str, cover: str, kind: str) -> None:
    """Rules version 7's torch: a missile of its own, into a melee it may fly at someone
    else, and light nothing."""
    torch_at_the_oil(ctx, actor, into_melee(ctx, actor, aimed, "throws the torch", "torch"), band, cover, kind)


def torch_at_the_oil(ctx: Context, actor: Combatant, target: Combatant, band: str, cover: str, kind: str) -> None:
    """The torch thrown at the oil on `target` (rules version 8: no die picks it out of a
    melee, 003: 'you are targeting the splashed oil rather than the monster'; docs/rulings.md)."""
    # 003: 'always made as if against Armour Class 9, modified by range etc. as normal'
    mods = base_mods(ctx, actor) + aim_mods(cover, kind, band)
    at = f"the oil on {target.name}" if OILED in target.conditions else target.name
    if roll_to_hit(ctx, actor, f"throws a lit torch at {at}", TORCH_AC, mods, target.id):
        if OILED not in target.conditions:
            ctx.log("oil", f"The torch strikes {target.name}, but there is no unlit oil on {target.name} to catch.", actor=actor.id, target=target.id)
            return
        target.conditions.remove(OILED)
        target.conditions.append(BURNING)
        target.burning = 0
        ctx.log("oil", f"The oil on {target.name} catches fire.", actor=actor.id, target=target.id)
        schedule(ctx.state)


def throw_oil(ctx: Context, actor: Combatant, a: ThrowOil, torch=torch_into_melee) -> None:
    """The flask, and its torch if declared: `torch` (rules version 7's `torch_into_melee`;
    version 8's `torch_at_the_oil`: rules.holmes.actions.AT_THE_OIL)."""
    reached = in_reach(ctx, actor, a.target, "a flask")
    if reached is None:
        return
    aimed, feet = reached
    band = a.range_band or range_band(feet, FLASK_RANGE)
    # 003: 'Any character attacking into an ongoing melee must randomly determine which combatant will be hit'
    target = into_melee(ctx, actor, aimed, "throws a flask", "flask")
    # 003: 'as hitting larger creatures is easier than smaller ones', L +4, M +2, S 0.
    mods = base_mods(ctx, actor) + [(f"size {target.size}", FLASK_SIZE[target.size])] + aim_mods(a.cover, a.cover_kind, band)
    if not roll_to_hit(ctx, actor, f"throws a flask of oil at {target.name}", descending(target.ac), mods, target.id):
        return
    if OILED not in target.conditions and BURNING not in target.conditions:
        target.conditions.append(OILED)
    ctx.log("oil", f"Oil splashes over {target.name}.", actor=actor.id, target=target.id)
    if a.torch:
        torch(ctx, actor, target, band, a.cover, a.cover_kind)


def throw_torch(ctx: Context, actor: Combatant, a: ThrowTorch, torch=torch_into_melee) -> None:
    reached = in_reach(ctx, actor, a.target, "a torch")
    if reached is None:
        return
    target, feet = reached
    if OILED not in target.conditions:
        ctx.log("oil", f"{actor.name} holds the torch: there is no unlit oil on {target.name}.", actor=actor.id, target=target.id)
        return
    torch(ctx, actor, target, a.range_band or range_band(feet, FLASK_RANGE), a.cover, a.cover_kind)


def schedule(state: Encounter) -> None:
    """Queue a burn step for each burning combatant at the head of the magic phase.
    Oil lit in the magic phase, after that moment, first burns next round (a ruling)."""
    if state.phase in ("magic", "end"):
        return
    burning: list[Combatant] = []
    for c in state.combatants:  # a plain loop: run every round, and most rounds nothing burns
        if c.conditions and BURNING in c.conditions and not c.down:
            burning.append(c)
    if not burning:
        return
    queued = {s.actor for s in state.steps if s.kind == BURN}
    at = next((i for i, s in enumerate(state.steps) if s.phase in ("magic", "end") and s.kind != BURN), len(state.steps))
    at = max(at, max((i + 1 for i, s in enumerate(state.steps) if s.kind == BURN), default=0))
    for c in dex_order(burning):
        if c.id not in queued:
            state.steps.insert(at, Step(phase="magic", actor=c.id, kind=BURN))
            at += 1


def stop_drop_roll(ctx: Context, actor: Combatant) -> None:
    """003: 'involves dropping prone (melee attackers thus gain the bonus ...)'."""
    if PRONE not in actor.conditions:
        actor.conditions.append(PRONE)
    ctx.log("oil", f"{actor.name} stops, drops and rolls (prone).", actor=actor.id)


def declared(state: Encounter, cid: str, kind: type):
    return next((d for d in state.declarations if d.actor == cid and isinstance(d.action, kind)), None)


def burn(ctx: Context, step: Step) -> None:
    state = ctx.state
    c = lookup(state, step.actor)
    if c is None or c.down or BURNING not in c.conditions:
        return
    roll = ctx.dice.roll(BURN_DAMAGE, f"the oil burning on {c.name}")
    if c.burning == 0:
        # 'In the first round, the oil does 1-6 damage, and continues to burn if 4-6 is rolled'
        points, out = roll, roll < FIRST_ROUND_OUT_BELOW
        how = "gutters out (1-3)" if out else "keeps burning (4-6)"
    elif declared(state, c.id, StopDropRoll):
        # 'the oil burns out on a damage roll of 3 or higher, and continues to burn on a roll of 1 or 2'
        out = roll >= ROLLING_OUT_FROM
        points = 0 if out else roll
        how = "the rolling puts it out (3-6), no damage" if out else "burns on despite the rolling (1-2)"
    else:
        # '5-6 indicates the oil has burned itself out, and the afflicted character takes no damage'
        out = roll >= LATER_ROUND_OUT_FROM
        points = 0 if out else roll
        how = "it has burned itself out (5-6), no damage" if out else "burns on (1-4)"
    c.burning += 1
    ctx.log("oil", f"The oil on {c.name} burns (round {c.burning}): d6 {roll}, {how}.", target=c.id, total=points)
    if points:
        hurt(ctx, c, points, "burning oil")
    if out:
        c.conditions.remove(BURNING)
        c.burning = 0
    spell = declared(state, c.id, Cast)
    if spell is not None and (points or ctx.option("oil_spell_loss") == "burning"):
        # 003: 'Burning spellcasters will lose their spells as usual.'
        state.declarations.remove(spell)
        ctx.log("spell", f"{c.name} loses the spell ({spell.action.spell}) to the flames.", actor=c.id)
