"""The conditions of 003 that take a combatant out of the fight or its actions, each
word defined once (a condition is a word in `Combatant.conditions`)."""

FLED = "fled"  # 003 morale's 'Flee', or a declared flight: off the field (rules.holmes.morale, rules.holmes.devices)
SURRENDERED = "surrendered"  # 003 morale's 'Surrender', or beaten by subdual damage (rules.holmes.subdual)
PINNED = "pinned"  # 003 grappling: 'pinned and helpless' (rules.holmes.grapple)
PRONE = "prone"  # 003: 'prone but awake and lively, the offender gets a +4'; stop-drop-roll leaves one prone
DISARMED = "disarmed"  # 003's parry that disarms; a weapon on the floor (rules.holmes.footing picks it up)
OILED = "oiled"  # 003: doused with oil, not yet alight (rules.holmes.oil)
BURNING = "burning"  # 003's burning oil
HELPLESS = "helpless"  # 003: 'truly helpless' (a pinned wrestler too)
ASLEEP = "asleep"  # 003: a helpless sleeper (a sleep spell's effect is the GM's)
SURPRISED = "surprised"  # 003's surprise
DEAD = "dead"  # killed outright (003's kill of the helpless; 000's death and dying)

OUT_OF_FIGHT = (FLED, SURRENDERED)  # no longer fighting: neither strikes nor is counted standing
CANNOT_ACT = (*OUT_OF_FIGHT, PINNED)  # 003's conditions that stop a combatant acting

# The same as sets, read on every strike: `c.conditions and not OUT.isdisjoint(c.conditions)`
# asks 'has it one of them?' with no loop in Python (most combatants have no condition at all).
OUT = frozenset(OUT_OF_FIGHT)


def fighting(c) -> bool:
    """Not fled nor surrendered (it may be down)."""
    return not c.conditions or OUT.isdisjoint(c.conditions)


def out_of_fight(c) -> bool:
    """Down, fled or surrendered: no longer counted standing (rules.model.Combatant)."""
    return c.down or not fighting(c)
