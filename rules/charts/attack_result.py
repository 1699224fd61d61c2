"""001's Attack Chart (the Challenges System adapted to LotFP): one roll,
Attack Result = d20 Roll + your (modified) Attack Bonus - foe's Armor Class,
graded from a clumsy miss to a mighty hit; and the Wounds it inflicts."""

from msgspec import Struct


class Grade(Struct, frozen=True):
    effect: str  # the chart's own words
    damage: str = "none"  # none | one | half | minus | normal | plus | double
    plus: int = 0  # points added ('plus'), or taken off ('minus')
    wound: str = ""  # light | serious | critical
    after: str = ""  # forfeit | save-or-drop | lose-initiative | initiative | extra-attack
    initiative: int = 0  # the initiative penalty of after = 'initiative'


LOWEST, HIGHEST = -10, 10  # 001: '-10 or lower' and '+10 or higher' close the chart

# 001, Attack Chart: Attack Result -> Effect.
ATTACK_CHART = {
    -10: Grade("Miss clumsily, forfeit your next attack", after="forfeit"),
    -9: Grade("Miss clumsily, roll save vs. Paralyzation or drop weapon, thereby forfeiting next attack", after="save-or-drop"),
    -8: Grade("Miss and automatically lose initiative next round", after="lose-initiative"),
    -7: Grade("Miss and take -2 penalty to initiative next round", after="initiative", initiative=-2),
    -6: Grade("Miss and take -1 penalty to initiative next round", after="initiative", initiative=-1),
    -5: Grade("Miss, no other effect"),
    -4: Grade("Miss, no other effect"),
    -3: Grade("Glancing blow does exactly 1 point of damage", damage="one"),
    -2: Grade("A weak Hit for half normal damage (round down, minimum 1 point)", damage="half"),
    -1: Grade("A weak Hit for normal damage -2 points (minimum 1 point)", damage="minus", plus=2),
    0: Grade("A normal Hit, no other effect", damage="normal"),
    1: Grade("A strong Hit for +1 point of damage", damage="plus", plus=1),
    2: Grade("A strong Hit for +2 points of damage", damage="plus", plus=2),
    3: Grade("A strong Hit for +2 points of damage that also inflicts a Light wound", damage="plus", plus=2, wound="light"),
    4: Grade("A strong Hit for +3 points of damage that also inflicts a Light wound", damage="plus", plus=3, wound="light"),
    5: Grade("A strong Hit for +4 points of damage that also inflicts a Light wound", damage="plus", plus=4, wound="light"),
    6: Grade("A strong Hit for +4 points of damage that also inflicts a Serious wound", damage="plus", plus=4, wound="serious"),
    7: Grade("A strong Hit for +5 points of damage that also inflicts a Serious wound", damage="plus", plus=5, wound="serious"),
    8: Grade("A mighty Hit for double rolled damage that also inflicts a Serious wound", damage="double", wound="serious"),
    9: Grade("A mighty Hit for double rolled damage that also inflicts a Critical wound", damage="double", wound="critical"),
    10: Grade(
        "A mighty Hit for double rolled damage that also inflicts a Critical wound, plus gain an immediate extra attack",
        damage="double",
        wound="critical",
        after="extra-attack",
    ),
}

# 001, Attack Chart, first row: 'Any roll of "1" on the die'.
NATURAL_1 = Grade("Miss clumsily, forfeit your next attack", after="forfeit")
# 001, Attack Chart, last row: 'Any roll of "20" on the die': the other half of its choice.
NATURAL_20 = Grade("A normal Hit plus gain an immediate extra attack", damage="normal", after="extra-attack")

# 001, the wounds of the Attack Chart: the penalty each puts on attack rolls ('-1 to attack rolls, etc.').
WOUNDS = {"light": 1, "serious": 3, "critical": 5}
WOUND = " wound"  # a wound's condition is its grade and this: 'light wound' (rules.challenges.wounds, rules.campaign)


def grade(result: int) -> Grade:
    """The chart's row for an Attack Result (the natural 1 and 20 are the caller's)."""
    return ATTACK_CHART[max(LOWEST, min(HIGHEST, result))]
