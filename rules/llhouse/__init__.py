"""Profile 'll-house': the Labyrinth Lord house rules of 000 (Combat: Special Rules and Charts).

Importing the package registers its rules in the shared seams: the attack roll
(rules.combat.ROLLS, rules.ranged.SHOTS, rules.tohit.BARE_ROLLS), the attack routine
(rules.combat.ATTACKS), what happens at 0 HP (rules.damage.FALLS), the Attack Value
(rules.fighters.COMBAT_BONUS), its own actions and its checks on every declaration
(rules.declare.ADDED, CHECKS), what it offers each combatant (rules.view.CHOICES), what
stops a combatant acting (rules.round.STOPS_ACTING), its figures' checks
(rules.traits.FIGURE_CHECKS) and the AC its armor chart gives (rules.traits.ARMOR_CLASS). rules.resolve merges RESUME, STEPS and ROUND_ENDS from here.
"""

from fray_table.rules import combat, declare, fighters, ranged, round, tohit, traits, view
from fray_table.rules.damage import FALLS
from fray_table.rules.llhouse import attack, damage, dying, figures, manoeuvres, missiles
from fray_table.rules.llhouse.criticals import KNOCKED_DOWN
from fray_table.rules.llhouse.figures import PROFILE

combat.ROLLS[PROFILE] = attack.roll
combat.ATTACKS[PROFILE] = attack.routine
FALLS[PROFILE] = dying.fall  # rules.damage.FALLS
ranged.SHOTS[PROFILE] = missiles.shot
tohit.BARE_ROLLS[PROFILE] = missiles.to_hit
fighters.COMBAT_BONUS[PROFILE] = figures.combat_bonus
round.STOPS_ACTING[PROFILE] = (*round.CANNOT_ACT, KNOCKED_DOWN)  # 000: 'loses 1 round to stand'
traits.FIGURE_CHECKS[PROFILE] = figures.check_figures
traits.ARMOR_CLASS[PROFILE] = figures.armor_class  # 000's armor chart gives AC (rules.setup)
declare.CHECKS[PROFILE] = manoeuvres.check
declare.ADDED[PROFILE] = {
    "shield_bash": declare.Added(manoeuvres.describe, manoeuvres.bash),
    "two_weapons": declare.Added(manoeuvres.describe, attack.two_weapons),
    "staunch": declare.Added(manoeuvres.describe, dying.staunch),
}
view.CHOICES[PROFILE] = manoeuvres.choices

# Merged into rules.resolve's registries (this package is imported before they exist).
RESUME = {"shield_sacrifice": damage.sacrifice}
STEPS = {"ll-strike": attack.extra_strike}
ROUND_ENDS = {PROFILE: dying.round_end}
