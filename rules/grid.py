"""The board every profile plays on: the 5-ft grid (engine geometry, not a rule of any one document)."""

from .model import Combatant

GRID = 5  # feet: a square of the grid


def distance(a: Combatant, b: Combatant) -> int:
    """Feet on the 5-ft grid; a diagonal step counts 5 ft (a ruling): the larger of the two
    offsets (written out, not max(abs(), abs()): read on every strike and every target picked)."""
    dx, dy = a.x - b.x, a.y - b.y
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    return dx if dx > dy else dy


def distance_from(x: int, y: int, c: Combatant) -> int:
    """`distance` from the square (x, y) to `c`: for a square no one stands on yet (a step of a move)."""
    return max(abs(c.x - x), abs(c.y - y))
