"""The game: dice, charts, state, commands, the reducer and per-viewer views.

Pure: no I/O, no asyncio, no clock, no `random`. Everything here is a function
of its arguments, so every replica folds a stream to the same bytes.
"""

# The rules version a new fight is created with; a fight folds forever under the version of
# its first event (DESIGN, 'Versions of the rules'; docs/decisions.md, 'History never
# changes'). A version is raised for anything a viewer of a new fight would see otherwise:
# an outcome, a draw, a prompt, a log line. What changed in each is in rules.ruleset's
# revisions of each profile (Profile.revisions), never an `if version` inside a rule.
# History of the numbers before any was kept (1-6, pre-release: their fights fold as 7's):
# 2: profiles 000, 001, 002; 3: log entries carry their public text; 4: a line's audience and
# public text fixed where it is made, an encounter's modules; 5: step and prompt kinds in
# snake_case, a prompt's data in its fields; 6: unseen combatants, forced dice by die, chat, the
# battle map; 7: a natural_20 step's blow and choice in the step's fields.
# 8: the rule points found by playing whole fights (docs/rulings.md, 'Rules version 8').
RULES_VERSION = 8

# The oldest version whose fights are kept exactly: fights recorded with an earlier,
# pre-release version fold under this one (docs/decisions.md), with a warning.
FIRST_KEPT_VERSION = 7
