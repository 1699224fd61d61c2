"""003's natural 1 (module `fumbles` of holmes-phases): 003 gives a natural 1 no effect,
so a fumble is a miss and nothing more. The module is here so that an encounter can
take another profile's fumbles (000's fumble table) over 003's roll."""

from ..context import Context
from ..model import Combatant


def fumble(ctx: Context, attacker: Combatant, target: Combatant, index: int, kind: str) -> None:
    """Hook `fumble`: nothing."""
