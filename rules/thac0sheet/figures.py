"""Checks on the combatant figures 002's striking, wrestling and naval combat read."""

from ..errors import Rejected
from ..model import Combatant


def check_figures(c: Combatant, code: str) -> None:
    """What relates 002's figures to each other; each one's own bounds are its declaration's
    (rules.thac0sheet.options.THAC0_SHEET_FIGURES, checked by rules.profiles.check_declared)."""
    if c.repaired > c.hp_max:
        raise Rejected(code, f"repaired {c.repaired} is more than max HP {c.hp_max}")
    if c.rowers > c.rowers_max:
        raise Rejected(code, f"rowers {c.rowers} of {c.rowers_max}: a vessel rows no more than its full strength")
    if (c.rowers_max or c.crew or c.lashed_to) and not c.vessel:
        raise Rejected(code, f"{c.name} has rowers, crew or grapnels but is not a vessel (set vessel)")
    if c.vessel and c.aboard:
        raise Rejected(code, f"{c.name} is a vessel and cannot be aboard another")
