"""The conditions of 003 that take a combatant out of the fight or its actions, each
word defined once (a condition is a word in `Combatant.conditions`)."""

FLED = "fled"  # 003 morale's 'Flee', or a declared flight: off the field (rules.morale, rules.devices)
SURRENDERED = "surrendered"  # 003 morale's 'Surrender', or beaten by subdual damage (rules.subdual)
PINNED = "pinned"  # 003 grappling: 'pinned and helpless' (rules.grapple)

OUT_OF_FIGHT = (FLED, SURRENDERED)  # no longer fighting: neither strikes nor is counted standing
CANNOT_ACT = (*OUT_OF_FIGHT, PINNED)  # 003's conditions that stop a combatant acting
