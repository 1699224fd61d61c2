"""The bare attack roll of 003, for the attacks that are not melee blows (missiles,
oil flasks and torches, a grappler's approach), and harm that is not a weapon's.

'Hits are made when the sum of the 20 sided die + the attacking character's
combat bonus + any applicable weapon bonuses + the target's Armour Class is
equal to 19 or higher.' (003) Melee, with its own options, is rules.holmes.combat.
"""

from ..context import Context, own_terms, reckoned
from ..model import Combatant
from ..ruleset import rules_of
from .damage import MISSILE_MODES, gawper_struck, lose_hp
from .fighters import combat_bonus
from .terms import SURPRISE_BONUS, TO_HIT


def base_mods(ctx: Context, attacker: Combatant) -> list[tuple[str, int]]:
    mods = [("combat bonus", combat_bonus(ctx.state, attacker))]
    if ctx.state.surprised and attacker.side not in ctx.state.surprised:
        mods.append(("surprise", SURPRISE_BONUS))  # 003: the active side 'attacks at +2 to-hit'
    return mods


def roll_to_hit(ctx: Context, attacker: Combatant, what: str, ac: int, mods: list[tuple[str, int]], target: str | None = None) -> bool:
    """A bare attack roll (missiles, oil, torches, an approach) by the encounter's rules
    (hook `bare_roll`); `what` reads 'throws oil at Orc', `ac` is descending."""
    return rules_of(ctx.state).bare_roll(ctx, attacker, what, ac, mods, target)[0]


def roll_d20(ctx: Context, attacker: Combatant, what: str, ac: int, mods: list[tuple[str, int]], target: str | None = None) -> tuple[bool, int]:
    """`roll_to_hit`, and the d20 it rolled: a missile's natural 20 or 1 (rules.holmes.ranged)."""
    return rules_of(ctx.state).bare_roll(ctx, attacker, what, ac, mods, target)


def d20_against_19(ctx: Context, attacker: Combatant, what: str, ac: int, mods: list[tuple[str, int]], target: str | None = None) -> tuple[bool, int]:
    """003's: roll d20 + mods + AC (descending) against 19 and log it."""
    d20 = ctx.dice.roll(20, f"{attacker.name} {what}")
    total = d20 + sum(v for _, v in mods) + ac
    hit = total >= TO_HIT
    terms = "".join(f" {'+' if v >= 0 else '-'} {abs(v)} {n}" for n, v in mods)
    ctx.log(
        "attack",
        **reckoned(
            f"{attacker.name} {what}",
            f"d20 {d20}{terms} + AC {ac} = {total} {'≥' if hit else '<'} {TO_HIT}",
            f"d20 {d20}",
            "hit" if hit else "miss",
            own_terms(d20, mods),
        ),
        actor=attacker.id,
        target=target,
        mods=mods + [("target AC", ac)],
        total=total,
        need=TO_HIT,
    )
    return hit, d20


def hurt(ctx: Context, target: Combatant, points: int, why: str, actor: str | None = None) -> None:
    """Take `points` of killing damage (already rolled) and fall at 0 HP."""
    owed = ctx.owed.pop(target.id, 0)
    lose_hp(ctx, target, points + owed, why, actor, f" + {owed} for the negative H" if owed else "")


def lands(ctx: Context, attacker: Combatant, target: Combatant, points: int, shown: str, effect: str, mode: str) -> None:
    """Hook `land`, 003's: a hit's damage comes off HP (a missile's with what 002's striking
    still owes, as `hurt`), then its critical's effect, then a surprised target's drop."""
    if mode in MISSILE_MODES:
        hurt(ctx, target, points, shown, attacker.id)
    else:
        lose_hp(ctx, target, points, shown, attacker.id)
    if effect:
        ctx.rules.critical_effect(ctx, attacker, target, effect)
    gawper_struck(ctx, target, mode)
