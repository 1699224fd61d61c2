"""The hooks of 000's modules `criticals` (the critical hit chart) and `fumbles` (the fumble
table): 'Any roll of Natural 20 yields special effects, and so does any roll of Natural 1'.

Whether a roll is one (the crit range IMPROVED CRIT RANGE widens, a natural 20 hitting
whatever the AC) is the to_hit's; under 003's or 002's roll it is a natural 20 that hits and
a natural 1 that misses. The chart's effects and the fumble table are rules.llhouse.criticals."""

from ..actions import Recover
from ..charts.ll_house import CRIT_DAMAGE_WORDS, CRIT_EFFECT_WORDS, CRITICAL_HIT
from ..context import Context
from ..errors import Rejected
from ..model import Combatant, Encounter
from ..ruleset import SUBDUE, Critical
from . import criticals
from .damage import kill
from .figures import special_rolls

NOTHING = Critical()


def critical(ctx: Context, attacker: Combatant, target: Combatant, index: int, kind: str) -> Critical:
    """Hook `critical`: a d20 on the critical hit chart, for a blow or a missile. Subduing blows
    never roll on it, nor (option `special_rolls = "pcs"`) those who are not PCs."""
    if kind == SUBDUE or not special_rolls(ctx.state, attacker):
        return NOTHING
    chart = ctx.dice.roll(20, f"critical hit chart for {attacker.name}")
    times, effect = CRITICAL_HIT[chart]  # times: 1, 2, 3, 'max' or 'kill'
    words = CRIT_DAMAGE_WORDS[times] + (f" + {CRIT_EFFECT_WORDS[effect]}" if effect else "")
    ctx.log("critical", f"Critical hit chart d20 {chart}: {words}.", actor=attacker.id, target=target.id)
    if times == "kill":
        kill(ctx, attacker, target)
        return Critical(settled=True)
    return Critical(times=times if isinstance(times, int) else str(times), effect=effect)


def effect(ctx: Context, attacker: Combatant, target: Combatant, what: str) -> None:
    """Hook `critical_effect`: the chart's effect once the damage has landed."""
    criticals.effect(ctx, attacker, target, what)


def fumble(ctx: Context, attacker: Combatant, target: Combatant, index: int, kind: str) -> None:
    """Hook `fumble`: a d6 on the fumble table (option `special_rolls` as for the chart)."""
    if special_rolls(ctx.state, attacker):
        criticals.fumble(ctx, attacker, index)


def check_stuck(state: Encounter, actor: Combatant, action) -> None:
    """The fumbles module's check_declaration: 'Weapon stuck ... takes 1d4 rounds to remove'."""
    if isinstance(action, Recover) and f"{criticals.STUCK}:{action.weapon}" in actor.until:
        raise Rejected("ll-house/weapon-stuck", f"{actor.name}'s weapon is stuck until the end of round {actor.until[f'{criticals.STUCK}:{action.weapon}']}")
