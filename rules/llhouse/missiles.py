"""000's roll for what is not a melee blow. Missiles are weapon attacks: 'Any roll of
Natural 20 yields special effects, and so does any roll of Natural 1', so a shot rolls
on the critical hit chart and the fumble table as a blow does. Oil flasks, torches and a
grappler's approach keep 003's rules and no special rolls (a ruling), but are shown as
000 reads them: 'You must roll the Armor Class or higher to hit'."""

from ..actions import SHOOT
from ..charts.ll_house import CONCUSSION
from ..context import Context, own_terms, reckoned
from ..holmes.terms import called_in
from ..model import Combatant, Step
from ..ruleset import MISSILE, rules_of
from .attack import blow, log_roll, outcome
from .figures import natural_20_hits


def terms(attacker: Combatant, mods: list[tuple[str, int]]) -> list[tuple[str, int]]:
    mods = [("attack value" if name == "combat bonus" else name, v) for name, v in mods]
    if "concussion" in attacker.conditions:
        mods.append(("concussion", CONCUSSION))
    return mods


def to_hit(ctx: Context, attacker: Combatant, what: str, descending: int, mods: list[tuple[str, int]], target: str | None = None) -> tuple[bool, int]:
    """Hook `bare_roll` of 000's to_hit: 003's sum against 19 is the d20 and the terms against
    the ascending AC (19 - descending), which is what the log shows."""
    ac = 19 - descending
    mods = terms(attacker, mods)
    d20 = ctx.dice.roll(20, f"{attacker.name} {what}")
    total = d20 + sum(v for _, v in mods)
    hit = total >= ac
    shown = "".join(f" {'-' if v < 0 else '+'} {abs(v)} {name}" for name, v in mods)
    ctx.log(
        "attack",
        **reckoned(
            f"{attacker.name} {what}", f"d20 {d20}{shown} = {total} {'≥' if hit else '<'} AC {ac}", f"d20 {d20}", "hit" if hit else "miss", own_terms(d20, mods)
        ),
        actor=attacker.id,
        target=target,
        mods=mods,
        total=total,
        need=ac,
    )
    return hit, d20


def shot(ctx: Context, attacker: Combatant, target: Combatant, index: int, mods: list[tuple[str, int]], natural_20=natural_20_hits) -> None:
    """Hook `shot` of 000's to_hit: a missile at `target` (already picked out of a melee);
    `natural_20` as for a blow (rules.llhouse.attack.roll)."""
    weapon = attacker.weapons[index]
    mods = terms(attacker, mods)
    d20 = ctx.dice.roll(20, f"{attacker.name} shoots at {target.name}")
    hit, crit, fumbled = outcome(ctx, attacker, d20, d20 + sum(v for _, v in mods), target.ac, natural_20)
    log_roll(ctx, attacker, target, f"shoots the {weapon.name} at", d20, mods, target.ac, "", 0, hit, crit, fumbled)
    step = Step(phase=ctx.state.phase, actor=attacker.id, kind=SHOOT, target=target.id, weapon=index, mode="shoot")
    if hit:
        blow(ctx, step, attacker, target, "shoot", crit, called_in(mods, target), False)
    elif fumbled:
        rules_of(ctx.state).fumble(ctx, attacker, target, index, MISSILE)
