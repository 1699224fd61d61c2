"""The board every profile plays on: the 5-ft grid (engine geometry, not a rule of any one document)."""

from fray_table.rules.model import Combatant

GRID = 5  # feet: a square of the grid


def distance(a: Combatant, b: Combatant) -> int:
    """Feet on the 5-ft grid; a diagonal step counts 5 ft (a ruling)."""
    return max(abs(a.x - b.x), abs(a.y - b.y))
