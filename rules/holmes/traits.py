"""Checks on the combatant figures that 003's oil, subdual, grappling and morale read."""

from ..charts.morale import MORALE_TEXT
from ..errors import Rejected
from ..model import Combatant


def armor_as_given(c: Combatant, before: Combatant | None) -> None:
    """003's hook `armor_class`: AC is the figure given (003 reads no armor chart)."""
    return None


def check_traits(c: Combatant, code: str) -> None:
    if not 0 <= c.subdual <= 10_000:
        raise Rejected(code, f"subdual damage {c.subdual} is outside 0..10000")
    if c.morale and c.morale not in MORALE_TEXT:
        raise Rejected(code, f"morale {c.morale!r} must be one of {', '.join(MORALE_TEXT)}")
    if c.burning < 0:
        raise Rejected(code, "burning rounds cannot be negative")
