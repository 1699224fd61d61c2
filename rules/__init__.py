"""The game: dice, charts, state, commands, the reducer and per-viewer views.

Pure: no I/O, no asyncio, no clock, no `random`. Everything here is a function
of its arguments, so every replica folds a stream to the same bytes.
"""

RULES_VERSION = 7  # raised when the state's shape or a rule's outcome changes: older snapshots are then folded anew (2: profiles 000, 001, 002; 3: log entries carry their public text, so a state's bytes changed; 4: a line's audience and public text are fixed where it is made, rejections are their sender's and the GM's; an encounter's modules; 5: step and prompt kinds in snake_case (natural_20, extra_attack, ll_strike), a prompt's data in its fields; 6: unseen combatants, forced dice by die, chat, the battle map: new state fields, and a roll against a hidden target keeps the roller's own terms in its public text; 7: a natural_20 step's blow and choice in the step's fields, no longer packed into its mode)
