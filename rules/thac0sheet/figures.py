"""Checks on the combatant figures 002's striking, wrestling and naval combat read."""

from fray_table.rules.charts.thac0_sheet import HOLDS
from fray_table.rules.errors import Rejected
from fray_table.rules.model import Combatant

MAX_ADJ = 5  # δS, δD


def check_figures(c: Combatant, code: str) -> None:
    if not (-MAX_ADJ <= c.str_adj <= MAX_ADJ and -MAX_ADJ <= c.dex_adj <= MAX_ADJ):
        raise Rejected(code, f"str_adj {c.str_adj} and dex_adj {c.dex_adj} (002's δS, δD) are -{MAX_ADJ}..{MAX_ADJ}")
    if not 1 <= c.con <= 25:
        raise Rejected(code, f"con {c.con} (002's C') is 1..25")
    if not -20 <= c.basic_ac <= 40:
        raise Rejected(code, f"basic AC {c.basic_ac} is outside -20..40 (ascending)")
    if not 1 <= c.save_death <= 30:
        raise Rejected(code, f"save_death {c.save_death} (the d20 needed vs death ray) is 1..30")
    if not (0 <= c.out_until <= 10_000 and 0 <= c.repaired <= c.hp_max and 0 <= c.repair_work <= 1_000):
        raise Rejected(code, "out_until 0..10000, repaired 0..max HP, repair_work 0..1000")
    if c.hold and c.hold not in HOLDS:
        raise Rejected(code, f"hold {c.hold!r} must be one of {', '.join(HOLDS)}")
    if not 0 <= c.rowers <= c.rowers_max <= 10_000 or not 0 <= c.crew <= 10_000:
        raise Rejected(code, f"rowers {c.rowers} of {c.rowers_max} and crew {c.crew}: 0 <= rowers <= rowers_max <= 10000, crew 0..10000")
    if (c.rowers_max or c.crew or c.lashed_to) and not c.vessel:
        raise Rejected(code, f"{c.name} has rowers, crew or grapnels but is not a vessel (set vessel)")
    if c.vessel and c.aboard:
        raise Rejected(code, f"{c.name} is a vessel and cannot be aboard another")
