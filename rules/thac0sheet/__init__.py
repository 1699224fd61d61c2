"""The thac0-sheet profile (document 002): to-hit from THAC0 and AC with its steps,
striking, wrestling, range and cover, naval combat. Importing it registers it with
the shared round (rules.resolve imports it)."""

from rules import combat, extras, view
from rules import tohit as shared_tohit
from rules.thac0sheet import melee, naval, profile, striking, tohit, wrestling

NAME = profile.NAME

combat.ROLLS[NAME] = melee.roll  # a melee strike: THAC0 against AC, 002's steps
shared_tohit.JUDGE[NAME] = tohit.roll_to_hit  # missiles, oil and torches likewise
extras.ADDED.update({
    "strike": (NAME, striking),
    "wrestle": (NAME, wrestling),
    "grapple_ship": (NAME, naval),
    "board": (NAME, naval),
    "repair": (NAME, naval),
})
extras.CHECKS[NAME] = profile.check
extras.END_OF_ROUND[NAME] = profile.end_of_round
extras.STEPS["haymaker"] = striking.last_in_phase  # 002: a haymaker loses initiative
view.CHOICES[NAME] = profile.choices
