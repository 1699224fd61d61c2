"""002's combat sheet as data: the steps that derive the to-hit value H, striking,
wrestling and naval combat. The sheet's hit table is rules/charts/thac0.py, its range
and cover adjustments rules/charts/range_cover.py."""

# 002, 'To derive to-hit value from AC and THAC0': 'The basic to-hit is H = THAC0 - AC.'
STEP = 4  # 'add up to 4' / 'subtract up to 4': as much as 4, never past the line
LOW_LINE = 2  # 'If H < 2, add up to 4.'
HIGH_LINES = (20, 30)  # 'If H > 20, subtract up to 4.' 'If H > 30 still, subtract up to 4 again; etc.'
LOW_LINES = (-10,)  # 'Conversely, if H < -10, add up to 4, etc.'
LINE_EVERY = 10  # the 'etc.': 40, 50, ... above and -20, -30, ... below (a ruling)
NEGATIVE_NEED = 2  # 'If H is negative, use 2 and add -H bonus to damage.'

# 002, 'Striking'.
SIZE_SCALE = {"S": 1, "M": 2, "L": 4}  # 'Attacker must be at least half size of defender' (a ruling: each size twice the last)
BLOW = 1  # 'Damage is 1 + δS (or 0 if pulled).'
STUN_DIE = 20  # 'Stunned if t = 1d20 - C' > 0.'
MONSTER_C = 2  # '(Monster C = 2 x HD.)'
KNOCKOUT_SAVE = 4  # 'If stunned, SvDR +4 - δS or knocked out for t rounds.'
HAYMAKER_TO_HIT = -5  # 'Haymaker: Lose initiative, -5 to hit:
HAYMAKER_SAVE = -4  # -4 on SvDR, and no size limit.'
REACH = 5  # feet: a blow or a hold needs the foe beside one

# 002, 'Wrestling'.
MONSTER_W = 2  # 'Monster w = 2 x HD + basic AC.'
HELPERS = (1, 5)  # 'Multiple wrestlers: +1/+5 for each with less/more than 1/2 HD.'
HOLDS = ("grab", "fall", "pin")  # 'Compare 1d20 + w; grab -> fall -> pin.'
HOLD_CONDITION = {"grab": "grabbed", "fall": "prone", "pin": "pinned"}
PINNED_DAMAGE = 1  # 'Pinned: SvDR or take 1 + δS hp damage;
PINNED_WR = 3  # WR -3 (or more)' (option pin_penalty)

# 002, 'Naval combat'.
HP_PER_HULL_POINT = 5  # 'Magic and giant monsters: usually 1 hull point for each 5 hit points, rounding down.'
SPEED_STEP = 10  # percent: 'Each 10% of damage or 10% loss of rowers reduces speed by 10%.'
DEAD_IN_WATER = 75  # percent of hull lost: 'Dead in water at 75% damage;
SINKS = 100  # sinks at 100%.'
GRAPPLE_RANGE = 50  # feet: 'Grappling: at 50' or less;
GRAPPLE_ON = 2  # successful 2 in 6 or by mutual agreement.' (a d6 of 1 or 2)
BOARDING = -2  # 'Boarding: -2 on hit rolls and AC during boarding round.'
REPAIR_CREW = 5  # 'Repairs: five crewmen required;
REPAIR_PER_TURN = 1  # 1 hp per turn
REPAIR_SHARE = 2  # up to half damage,
REPAIR_FAILS = "5d6"  # fails after 5d6 days.'
