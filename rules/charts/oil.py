"""003's burning oil: the flask's size modifiers and the burn rolls."""

# 003, burning oil, 'Creature Size | To-Hit Modifier' table.
FLASK_SIZE = {"L": 4, "M": 2, "S": 0}

TORCH_AC = 9  # 003: 'The torch attack is always made as if against Armour Class 9'
FLASK_RANGE = 30  # feet; 003 gives none: a ruling (a flask thrown 3" at most)
BURN_DAMAGE = 6  # 003: 'the oil does 1-6 damage'

# 003, the burn roll of each round: the d6 rolls on which the fire goes out, and
# whether a roll that puts it out still does its damage.
FIRST_ROUND_OUT_BELOW = 4  # 'continues to burn if 4-6 is rolled' (the damage is done either way)
LATER_ROUND_OUT_FROM = 5  # '5-6 indicates the oil has burned itself out, and ... no damage'
ROLLING_OUT_FROM = 3  # stop, drop and roll: 'burns out on a damage roll of 3 or higher'
