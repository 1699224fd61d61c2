"""003's order of the round: 'Combat proceeds in Dexterity order [Holmes Basic]'; under
the formal procedure, declarations in 'reversed Intelligence order'."""

from fray_table.rules.model import Combatant, Encounter


def dex_order(combatants: list[Combatant]) -> list[Combatant]:
    """Highest DEX first; ties keep the order combatants were added (a ruling)."""
    return sorted(combatants, key=lambda c: -c.dex)


def in_dex_order(state: Encounter) -> list[Combatant]:
    """003's order of actors in each phase (hook `order`)."""
    return dex_order(state.combatants)


def declaration_order(combatants: list[Combatant]) -> list[Combatant]:
    """003's formal procedure: 'reversed Intelligence order', lowest INT declares first."""
    return sorted(combatants, key=lambda c: c.int_)
