"""When a character may choose one of 000's IMPROVED COMBAT OPTIONS: 'Every time you reach a
level where your Saving Throws Improve you may choose 1 of these Improvements.'

None of the four documents holds a saving throw table. 000 is a house rule of Labyrinth
Lord, so its saving throw tables say where they improve: the first level of each of its
bands (a ruling, docs/campaign.md). The GM may offer a choice at any other level
(`level_up`'s `offer`)."""

# Labyrinth Lord's saving throw tables, by class: the levels at which the saves improve.
SAVES_IMPROVE: dict[str, tuple[int, ...]] = {
    "fighter": (4, 7, 10, 13, 16, 19),  # bands 1-3, 4-6, 7-9, 10-12, 13-15, 16-18, 19-20
    "cleric": (5, 9, 13, 17),  # bands 1-4, 5-8, 9-12, 13-16, 17-20
    "thief": (5, 9, 13, 17),  # bands 1-4, 5-8, 9-12, 13-16, 17-20
    "magic-user": (6, 11, 16),  # bands 1-5, 6-10, 11-15, 16-20
    "dwarf": (4, 7, 10),  # bands 1-3, 4-6, 7-9, 10-12
    "elf": (4, 7, 10),  # bands 1-3, 4-6, 7-9, 10
    "halfling": (4, 7),  # bands 1-3, 4-6, 7-8
}


def saves_improve(klass: str, level: int) -> bool:
    """Whether reaching `level` improves the class's saving throws."""
    return level in SAVES_IMPROVE.get(klass, ())
