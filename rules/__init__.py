"""The game: dice, charts, state, commands, the reducer and per-viewer views.

Pure: no I/O, no asyncio, no clock, no `random`. Everything here is a function
of its arguments, so every replica folds a stream to the same bytes.
"""

RULES_VERSION = 1
