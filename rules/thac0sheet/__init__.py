"""The thac0-sheet profile (document 002): to-hit from THAC0 and AC with its steps,
striking, wrestling, range and cover, naval combat. Importing it registers it with
the shared round; rules.resolve imports it and merges STEPS and ROUND_ENDS."""

from fray_table.rules import combat, declare, traits, view
from fray_table.rules import round as round_
from fray_table.rules import tohit as shared_tohit
from fray_table.rules.thac0sheet import figures, melee, profile, striking, tohit

NAME = profile.NAME

combat.ROLLS[NAME] = melee.roll  # a melee strike: THAC0 against AC, 002's steps
shared_tohit.BARE_ROLLS[NAME] = tohit.roll_to_hit  # missiles, oil and torches likewise
declare.ADDED[NAME] = {kind: declare.Added(module.describe, module.resolve) for kind, module in profile.ADDED.items()}
declare.CHECKS[NAME] = profile.check
round_.STOPS_ACTING[NAME] = (*round_.CANNOT_ACT, striking.STUNNED, striking.KNOCKED_OUT)  # by a blow
view.CHOICES[NAME] = profile.choices
traits.FIGURE_CHECKS[NAME] = figures.check_figures  # striking, wrestling and naval figures

# Merged into rules.resolve's registries (this package is imported before they exist).
STEPS = {"haymaker": striking.last_in_phase}  # 002: a haymaker loses initiative
ROUND_ENDS = {NAME: profile.end_of_round}
