"""The game's words the pages show, each defined once in the rules and served with every
profile by GET /api/profiles (`words`), so that no page keeps a copy of its own.

- `morale`: 003's morale results (as a GM's card holds them) in the log's words
  (rules/charts/morale.py).
- `conditions`: the conditions a GM sets or clears by hand on a card (the GM console's
  checkboxes): 003's that the round's rules read or write. A profile's own conditions
  (001's wounds, 002's 'stunned') are on the card when its rules put them there.
- `torch_lights`: the condition a thrown torch needs on its target to do anything.
"""

from .charts.morale import MORALE_TEXT
from .conditions import ASLEEP, BURNING, DEAD, DISARMED, FLED, HELPLESS, OILED, PINNED, PRONE, SURPRISED, SURRENDERED

SET_BY_HAND = (PRONE, BURNING, OILED, PINNED, DISARMED, HELPLESS, ASLEEP, SURPRISED, FLED, SURRENDERED, DEAD)

WORDS = {
    "morale": dict(MORALE_TEXT),
    "conditions": list(SET_BY_HAND),
    "torch_lights": OILED,  # 003: a torch ignites the oil on its target, nothing else (the page warns of a torch at the unoiled)
}
