"""003's order of the round: 'Combat proceeds in Dexterity order [Holmes Basic]'; under
the formal procedure, declarations in 'reversed Intelligence order'."""

from operator import attrgetter

from ..model import Combatant, Encounter

_DEX = attrgetter("dex")  # a combatant's DEX, as sorted's key (read in C, not a Python lambda)


def dex_order(combatants: list[Combatant]) -> list[Combatant]:
    """Highest DEX first; ties keep the order combatants were added (a ruling): a reversed
    sort is still stable, so ties keep their order as they would sorted by -dex."""
    return sorted(combatants, key=_DEX, reverse=True)


def in_dex_order(state: Encounter) -> list[Combatant]:
    """003's order of actors in each phase (hook `order`)."""
    return dex_order(state.combatants)


def declaration_order(combatants: list[Combatant]) -> list[Combatant]:
    """003's formal procedure: 'reversed Intelligence order', lowest INT declares first."""
    return sorted(combatants, key=lambda c: c.int_)
