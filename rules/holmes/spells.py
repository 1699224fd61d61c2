"""Casting (003): 'Magic spells cast by Magic-Users and magically inclined monsters now
their effects are resolved.' Fray resolves the casting; the spell's effects are the GM's."""

from ..actions import Cast
from ..context import Context, lookup
from ..errors import Rejected
from ..model import Combatant, Encounter

MAX_SPELL = 80


def check(state: Encounter, actor: Combatant, a: Cast) -> None:
    if not actor.caster:
        raise Rejected("cast/not-a-caster", f"{actor.name} casts no spells")
    if not a.spell.strip() or len(a.spell) > MAX_SPELL:
        raise Rejected("cast/bad-spell", f"name the spell in 1 to {MAX_SPELL} characters")
    if a.target and lookup(state, a.target) is None:
        raise Rejected("cast/unknown-target", f"there is no combatant {a.target!r}")


def describe(state: Encounter, a: Cast) -> str:
    target = lookup(state, a.target) if a.target else None
    return f"cast {a.spell}" + (f" at {target.name}" if target else "")


def cast(ctx: Context, actor: Combatant, a: Cast) -> None:
    ctx.log("spell", f"{actor.name} casts {describe(ctx.state, a)[5:]}; its effects are the GM's.", actor=actor.id, target=a.target or None)
