"""000's IMPROVED COMBAT OPTIONS that change a blow's outcome: improved parry, weapon
expertise (damage and parry) and cleave. Extra attack is rules.llhouse.attack's routine,
improved crit range rules.llhouse.figures.widening, improved shield bash rules.llhouse.manoeuvres."""

from ..charts.ll_house import CLEAVE_REACH, EXPERTISE, IMPROVED_PARRY, PARRY
from ..context import Context
from ..grid import distance
from ..holmes.terms import parrying
from ..holmes.tohit import hurt
from ..model import Combatant, Encounter
from .figures import expertise, rank


def parry_parts(state: Encounter, defender: Combatant) -> list[tuple[str, int]]:
    """000: PARRY 'Add 2 to your AC for this round'; IMPROVED PARRY +2 a rank; WEAPON
    EXPERTISE +2 a rank 'to Parry' with that weapon. None when not parrying."""
    index = parrying(state, defender)
    if index is None:
        return []
    parts = [("parry", PARRY)]
    if rank(defender, "improved_parry"):
        parts.append(("improved parry", IMPROVED_PARRY * rank(defender, "improved_parry")))
    skill = expertise(defender, defender.weapons[index])
    if skill:
        parts.append((f"{defender.weapons[index].name} expertise", EXPERTISE * skill))
    return parts


def parry_bonus(state: Encounter, defender: Combatant) -> tuple[int, str]:
    """The AC 000's parry adds, and how the log names it: (0, '') when not parrying."""
    parts = parry_parts(state, defender)
    return sum(v for _, v in parts), " + ".join(f"{v} {name}" for name, v in parts)


def parry_as_ac(state: Encounter, target: Combatant, mods: list[tuple[str, int]], melee: bool) -> tuple[int | None, int]:
    """Hook `parry` of 000's maneuvers (rules version 8), on another roll's sum: the AC 000's
    parry adds is that much off the sum (003's terms are the die, the bonuses and the
    descending AC). 000's parry only adds to AC: no disarm or counter-attack follows it."""
    if melee:
        mods[-1:-1] = [(name, -v) for name, v in parry_parts(state, target)]
    return None, 0


def cleave(ctx: Context, attacker: Combatant, fallen: Combatant, leftover: int) -> None:
    """000: 'If you kill an enemy and have leftover damage, it can be carried over to another
    enemy that is within 5 feet of the original target.' A rank per further enemy."""
    hit = {fallen.id}
    last = fallen
    for _ in range(rank(attacker, "cleave")):
        if leftover <= 0:
            return
        near = [c for c in ctx.state.combatants if c.side != attacker.side and not c.down and c.id not in hit and distance(c, last) <= CLEAVE_REACH]
        if not near:
            return
        victim = min(near, key=lambda c: distance(c, last))
        ctx.log("cleave", f"{attacker.name} cleaves on into {victim.name} with {leftover} leftover damage.", actor=attacker.id, target=victim.id)
        before = victim.hp
        hurt(ctx, victim, leftover, "cleave", attacker.id)
        hit.add(victim.id)
        leftover = leftover - before if victim.down else 0
        last = victim
