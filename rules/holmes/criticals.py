"""003's natural 20 (module `criticals` of holmes-phases): 'A "natural 20" on a melee attack
roll adds an additional 1-6 damage to the victim, at the risk of the attacker's weapon
breaking'; the weapon saves against 'crushing blow' once the damage has landed.

003's natural 20 'is not an automatic hit': whether it hits is the to_hit's; this is what it
does when it has. A missile's natural 20 does nothing more (003 says 'melee')."""

import msgspec

from ..charts import weapon_saves
from ..context import Context
from ..model import Combatant
from ..ruleset import MISSILE, Critical

NOTHING = Critical()
SAVE = "weapon save"  # the effect, with the index of the weapon that saves: 'weapon save 1'


def critical(ctx: Context, attacker: Combatant, target: Combatant, index: int, kind: str) -> Critical:
    """Hook `critical`: an extra d6, then the save of the weapon that struck."""
    if kind == MISSILE:
        return NOTHING
    return Critical(extra=(("natural 20", 1),), effect=f"{SAVE} {index}")


def never_by_itself(state) -> bool:
    """Hook `natural_20_hits`: 003, 'Please note that a "natural 20" is not an automatic hit! It
    is sometimes impossible to hit an opponent.'"""
    return False


def effect(ctx: Context, attacker: Combatant, target: Combatant, what: str) -> None:
    """Hook `critical_effect`: the weapon's save named by `critical`."""
    if what.startswith(SAVE):
        weapon_save(ctx, attacker, int(what.rpartition(" ")[2]))


def weapon_save(ctx: Context, attacker: Combatant, index: int) -> None:
    """003: 'immediately make a saving throw for their weapon against "crushing blow" ...
    Failure means the weapon has broken.'"""
    if not 0 <= index < len(attacker.weapons):
        return  # the effect names a weapon an edit has since taken away
    weapon = attacker.weapons[index]
    need = weapon_saves.save_value(weapon.material, str(ctx.state.options.get("weapon_saves", "")))
    roll = ctx.dice.roll(20, f"{attacker.name}'s {weapon.name} saves vs crushing blow")
    if roll >= need:
        ctx.log("weapon", f"{attacker.name}'s {weapon.name} ({weapon.material}) holds: d20 {roll} ≥ {need}.", actor=attacker.id, total=roll, need=need)
        return
    attacker.weapons[index] = msgspec.structs.replace(weapon, broken=True)
    ctx.log("weapon", f"{attacker.name}'s {weapon.name} ({weapon.material}) breaks: d20 {roll} < {need}.", actor=attacker.id, total=roll, need=need)
