"""The conditions of 003 that take a combatant out of the fight or its actions, each
word defined once (a condition is a word in `Combatant.conditions`)."""

FLED = "fled"  # 003 morale's 'Flee', or a declared flight: off the field (rules.morale, rules.devices)
SURRENDERED = "surrendered"  # 003 morale's 'Surrender', or beaten by subdual damage (rules.subdual)
PINNED = "pinned"  # 003 grappling: 'pinned and helpless' (rules.grapple)

OUT_OF_FIGHT = (FLED, SURRENDERED)  # no longer fighting: neither strikes nor is counted standing
CANNOT_ACT = (*OUT_OF_FIGHT, PINNED)  # 003's conditions that stop a combatant acting

# The words of 003's conditions the GM sets or clears by hand on a card (the GM console's
# checkboxes, served with GET /api/profiles as each profile's `words`): what the round's
# rules read or write. A profile's own conditions (001's wounds, 002's 'stunned') are on
# the card when its rules put them there.
PRONE = "prone"  # 003: 'prone but awake and lively, the offender gets a +4'
BURNING = "burning"  # 003's burning oil
OILED = "oiled"  # 003: doused with oil, not yet alight
DISARMED = "disarmed"  # 003's parry that disarms; a weapon on the floor
HELPLESS = "helpless"  # 003: 'truly helpless'
ASLEEP = "asleep"  # 003: a helpless sleeper (a sleep spell's effect is the GM's)
SURPRISED = "surprised"  # 003's surprise
DEAD = "dead"  # killed outright
SET_BY_HAND = (PRONE, BURNING, OILED, PINNED, DISARMED, HELPLESS, ASLEEP, SURPRISED, FLED, SURRENDERED, DEAD)
