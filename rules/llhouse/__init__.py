"""Profile 'll-house': the Labyrinth Lord house rules of 000 (Combat: Special Rules and Charts).

Importing the package registers its rules in the shared seams: the attack roll
(rules.combat.ROLLS, rules.ranged.SHOTS, rules.tohit.BARE_ROLLS), the attack routine
(rules.combat.ATTACKS), what happens at 0 HP (FALLS), the Attack Value (rules.fighters.BONUS), its declarations and their checks (rules.declare,
rules.view), what stops a combatant acting (rules.round.HOLDS) and its figures' checks
(rules.traits). rules.resolve takes RESUME, STEPS, ACTS and ROUND_ENDS from here.
"""

from rules import combat, declare, fighters, ranged, round, tohit, traits, view
from rules.llhouse import attack, damage, dying, figures, manoeuvres, missiles
from rules.llhouse.criticals import KNOCKED_DOWN
from rules.llhouse.figures import PROFILE

combat.ROLLS[PROFILE] = attack.roll
combat.ATTACKS[PROFILE] = attack.routine
combat.FALLS[PROFILE] = dying.fall
ranged.SHOTS[PROFILE] = missiles.shot
tohit.BARE_ROLLS[PROFILE] = missiles.to_hit
fighters.BONUS[PROFILE] = figures.combatant_attack_value
round.HOLDS[PROFILE] = (KNOCKED_DOWN,)  # 000: 'loses 1 round to stand'
traits.FIGURE_CHECKS.append(figures.check_figures)
declare.CHECKS[PROFILE] = manoeuvres.check
view.CHOICES[PROFILE] = manoeuvres.choices
for name in ("shield_bash", "two_weapons", "staunch"):
    declare.OWN_ACTIONS[name] = PROFILE
    declare.DESCRIBE[name] = manoeuvres.describe

RESUME = {"shield_sacrifice": damage.sacrifice}
STEPS = {"ll-strike": attack.extra_strike}
ACTS = {"shield_bash": manoeuvres.bash, "two_weapons": attack.two_weapons, "staunch": dying.staunch}
ROUND_ENDS = {PROFILE: dying.round_end}
