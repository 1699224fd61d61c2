"""The damage of each grade of 001's Attack Chart.

'Normal damage' is the weapon's damage (option weapon_damage; 003's 1-6 when off),
its fixed modifier ('d8 (sword) +1 (high strength)': damage '1d8+1'), and the
extra d6s 003 adds (called shots, a set spear). A mighty Hit doubles the 'rolled
damage': the dice, not the fixed modifier (option double_damage = 'total' doubles
both). Results are integers; halves round down, as the chart says."""

from .. import dice
from ..charts.attack_result import Grade
from ..context import Context
from ..model import Combatant

MINIMUM = 1  # 001: '(minimum 1 point)' on the weak Hits


def rolled(ctx: Context, target: Combatant, expression: str, extra: list[tuple[str, int]]) -> tuple[int, int, str]:
    """(dice rolled, fixed modifier, the dice as the log shows them)."""
    count, sides, bonus = dice.parse(expression)
    points = sum(ctx.dice.roll(sides, f"damage to {target.name}") for _ in range(count))
    shown = f"{expression} rolled {points}"
    for reason, n in extra:
        more = sum(ctx.dice.roll(6, f"{reason}: damage to {target.name}") for _ in range(n))
        points += more
        shown += f" + {n}d6 {reason} {more}"
    return points, bonus, shown


def points(ctx: Context, g: Grade, target: Combatant, expression: str, extra: list[tuple[str, int]]) -> tuple[int, str]:
    """The damage of grade `g` and how it was reached, for the log."""
    if g.damage == "one":
        return 1, "a glancing blow: exactly 1 point"
    dice_, bonus, shown = rolled(ctx, target, expression, extra)
    normal = dice_ + bonus
    fixed = f" {'+' if bonus >= 0 else '-'} {abs(bonus)}" if bonus else ""
    summed = f"{shown}{fixed}" + (f" = {normal}" if fixed or extra else "")
    match g.damage:
        case "half":
            return max(MINIMUM, normal // 2), f"{summed}, halved, round down, minimum {MINIMUM}"
        case "minus":
            return max(MINIMUM, normal - g.plus), f"{summed}, -{g.plus}, minimum {MINIMUM}"
        case "plus":
            return max(0, normal + g.plus), f"{summed}, +{g.plus} strong Hit"
        case "double":
            if ctx.state.options.get("double_damage", "dice") == "total":
                return max(0, 2 * normal), f"({shown}{fixed}) doubled"
            return max(0, 2 * dice_ + bonus), f"{shown} doubled{fixed}"
    return max(0, normal), summed
