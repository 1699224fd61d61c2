"""The charts of 000 (Labyrinth Lord house rules, profile 'll-house'), as data.

Each chart keeps the document's own rows and words; rules.llhouse reads them.
"""

# 000, ARMOR CLASS: armor type -> (Armor Class, the points it raises AC by).
ARMOR = {
    "unarmored": (10, 0),
    "padded": (11, 1),
    "leather": (12, 2),
    "studded leather": (13, 3),
    "scale": (14, 4),
    "chain mail": (15, 5),
    "horse barding": (15, 5),
    "banded mail": (16, 6),
    "splint mail": (16, 6),
    "plate mail": (17, 7),
}
SHIELD = 1  # 000, ARMOR CLASS: 'Shield +1'

# 000, ARMOR DAMAGE: 'armor becomes beyond repair and MUST be replaced upon receiving this much damage'.
BEYOND_REPAIR = {
    "padded": 1,
    "leather": 1,
    "studded leather": 2,
    "scale": 2,
    "chain mail": 3,
    "horse barding": 3,
    "banded mail": 3,
    "splint mail": 3,
    "plate mail": 4,
}

# 000, ATTACK VALUE: (attack value, Cleric/Thief levels, Fighter/Dwarf/Elf/Halfling levels,
# Magic-User levels); a level range is (first, last), last None for '21+'; None: no entry.
ATTACK_VALUE = (
    (0, (1, 3), (1, 2), (1, 3)),
    (1, (4, 5), (3, 3), (4, 7)),
    (2, (6, 8), (4, 4), (8, 10)),
    (3, (9, 10), (5, 5), (11, 12)),
    (4, (11, 11), (6, 6), (13, 13)),
    (5, (12, 12), (7, 8), (14, 15)),
    (6, (13, 14), (9, 9), (16, 18)),
    (7, (15, 16), (10, 11), (19, 20)),
    (8, (17, 18), (12, 12), (21, 23)),
    (9, (19, 20), (13, 13), (24, None)),
    (10, (21, None), (14, 14), None),
    (11, None, (15, 15), None),
    (12, None, (16, 16), None),
    (13, None, (17, 17), None),
    (14, None, (18, 18), None),
    (15, None, (19, None), None),
)
# 000's column heads: which column each of Fray's classes reads.
CLASS_GROUP = {
    "cleric": 1,
    "thief": 1,  # CLERIC/THIEF LEVEL
    "fighter": 2,
    "dwarf": 2,
    "elf": 2,
    "halfling": 2,  # FIGHTER/DWARF/ ELF/HALF..LEVEL
    "magic-user": 3,  # MAGIC-USER LEVEL
}

# 000, CRITICAL HIT (ROLLED NAT 20): d20 -> (damage, effect). Damage: 'kill' (Automatic Kill),
# 3 / 2 (Dam + Bonus, then x3 / x2), 'max' (Maximum Damage ... plus all bonuses), 1 (Normal Damage).
# Effects: 'armor' (permanent damage to victim's armor, AC lowers by 1), 'limb' (chop/shatter
# one limb, roll on chart), 'disarm' (knock weapon from opponent's hand), 'knockdown' (victim
# loses 1 round to stand), 'shatter' (shatter opponent's shield or weapon).
CRITICAL_HIT = {
    20: ("kill", ""),
    19: (3, "armor"),
    18: (3, "limb"),
    17: (3, "disarm"),
    16: (3, "knockdown"),
    15: (3, ""),
    14: (2, "armor"),
    13: (2, "limb"),
    12: (2, "disarm"),
    11: (2, "knockdown"),
    10: (2, ""),
    9: ("max", "armor"),
    8: ("max", "limb"),
    7: ("max", "shatter"),
    6: ("max", "disarm"),
    5: ("max", ""),
    4: (1, "armor"),
    3: (1, "limb"),
    2: (1, "shatter"),
    1: (1, "disarm"),
}

# 000, LIMB TABLE: d6 -> (limb, what it costs). 'hand': cannot wield weapon; 'elbow': cannot
# use shield or weapon; 'shoulder': arm completely lost/ruined.
LIMB = {
    6: ("left hand", "cannot wield weapon"),
    5: ("right hand", "cannot wield weapon"),
    4: ("left elbow", "cannot use shield or weapon"),
    3: ("right elbow", "cannot use shield or weapon"),
    2: ("left shoulder", "arm completely lost/ruined"),
    1: ("right shoulder", "arm completely lost/ruined"),
}

# 000, FUMBLE TABLE (ROLLED A NAT 1): d6 -> (effect, text).
FUMBLE = {
    6: ("stuck", "weapon stuck in wall, shield, etc; takes 1d4 rounds to remove"),
    5: ("dropped", "dropped weapon; draw new weapon or lose 1 round to retrieve"),
    4: ("harm self", "accidentally harms self for 1-2 HP"),
    3: ("harm ally", "accidentally harms nearest ally for 1-2 HP"),
    2: ("harm self and fall", "accidentally harms self for 1-4 HP and falls down; loses 1 round to regain feet"),
    1: ("run into ally", "accidentally runs into nearest ally: both lose 1-4 HP and fall down; each loses 1 round to regain feet"),
}
FUMBLE_DICE = {"harm self": "1d2", "harm ally": "1d2", "harm self and fall": "1d4", "run into ally": "1d4"}
STUCK_DICE = "1d4"  # 000: 'takes 1d4 rounds to remove'

# 000, MASTER BODY TABLE: (lowest, highest d20) -> location.
MASTER_BODY = (
    (20, 20, "Head"),
    (19, 19, "Throat/Neck"),
    (17, 18, "Upper torso/Chest"),
    (15, 16, "Ribs/Stomach"),
    (14, 14, "Left Shoulder"),
    (13, 13, "Right Shoulder"),
    (12, 12, "Left Elbow"),
    (11, 11, "Right Elbow"),
    (10, 10, "Left Hand"),
    (9, 9, "Right Hand"),
    (7, 8, "Midsection/Waist"),
    (6, 6, "Left Thigh"),
    (5, 5, "Right Thigh"),
    (4, 4, "Left Knee"),
    (3, 3, "Right Knee"),
    (2, 2, "Left Foot"),
    (1, 1, "Right Foot"),
)

# 000, DEATH AND DYING CHART: (lowest, highest d20, outcome, effect, text). Outcomes: 'ko'
# (wakes up in 1d4 rounds with 1d4 HP: 18-20), 'wound' (wakes up in 2d4 rounds with 1d4 HP:
# 12-17), 'bleeding' (lingers 1d6+Con Bonus rounds, then dies), 'succumb' (dies; a dramatic
# death speech), 'dead' (death is instantaneous).
DEATH_AND_DYING = (
    (20, 20, "ko", "", "KO. Lucky you."),
    (19, 19, "ko", "scar", "KO. Gain faint but noticeable scar on your eyebrow or cheek."),
    (18, 18, "ko", "teeth", "KO. Lose 1d4 teeth."),
    (17, 17, "wound", "fingertip", "Lose a fingertip, thumb, or earlobe. Could be worse."),
    (16, 16, "wound", "concussion", "Concussion. All attacks and ability checks at -1 penalty until you rest for 1 week."),
    (
        15,
        15,
        "wound",
        "broken collarbone",
        "Broken collarbone or arm. -3 penalty on all STR, DEX, CON checks until medical attention/magical healing is received. Takes 1d4+6 weeks to heal.",
    ),
    (14, 14, "wound", "head wound", "Massive head wound. Brain matter exposed. INT permanently reduced by 2."),
    (13, 13, "wound", "lost eye or limb", "Lose an eye or limb. DEX permanently reduced by 2."),
    (12, 12, "wound", "disfigured", "Severe facial scars or disfigurement. CHA permanently reduced by 2."),
    (10, 11, "bleeding", "", "Bleeding out."),
    (8, 9, "succumb", "", "You succumb to your injuries. No medical or magical healing can save you, but you get a dramatic death speech."),
    (1, 7, "dead", "", "Disintegrated, immolated, masticated, impaled, or beheaded. Death is instantaneous!"),
)
WAKE_DICE = {"ko": "1d4", "wound": "2d4"}  # 000: 'wakes up in 1d4 rounds' / 'in 2d4 rounds'
WAKE_HP = "1d4"  # 000: 'with 1d4HP'
TEETH = "1d4"  # 000, 18: 'Lose 1d4 teeth'
HEAL_WEEKS = "1d4+6"  # 000, 15: 'Takes 1d4+6 weeks to heal'
BLEEDING_DICE = "1d6"  # 000, 10-11: 'Roll 1d6+Con Bonus'
STAUNCH_DC = 11  # 000: 'staunching the wound (DC11)'
CONCUSSION = -1  # 000, 16: 'All attacks ... at -1 penalty'
LOSS = {"head wound": ("int_", 2), "lost eye or limb": ("dex", 2)}  # 000: 'permanently reduced by 2'

# 000, COMBAT MANEUVERS.
PARRY = 2  # PARRY: 'Add 2 to your AC for this round.'
SHIELD_BASH = "1d3"  # SHIELD BASH: 'success means the victim takes 1d3 damage'
SHIELD_SACRIFICE = "1d4"  # SHIELD SACRIFICE: 'prevent 1d4 HP of damage'
TWO_WEAPON_BONUS = 2  # TWO-WEAPON FIGHTING: 'gives you a +2 to your Hit roll'
MAIN_HAND, OFF_HAND = -2, -4  # TWO-WEAPON FIGHTING: 'Main Hand Weapon gets a -2 ... Off Hand Weapon gets a -4'
WHICH_HAND = 6  # TWO-WEAPON FIGHTING: 'roll another die ... Even ... Main Hand ... Odd ... Off Hand' (a d6: a ruling)

# 000, IMPROVED COMBAT OPTIONS: the names Fray's `improvements` take, and the most ranks of each.
IMPROVEMENTS = {
    "cleave": 10,
    "extra_attack": 3,  # 'Only available 3 times, for a total of 4 attacks per round.'
    "improved_crit_range": 10,
    "improved_parry": 10,
    "improved_shield_bash": 10,
}
IMPROVED_PARRY = 2  # IMPROVED PARRY: 'Every time you get this your Parry improves by +2.'
EXPERTISE = 2  # WEAPON EXPERTISE: '+2 to Dam and to Parry'
CLEAVE_REACH = 5  # CLEAVE: 'within 5 feet of the original target'

# 000, CRITICAL HIT: the chart's words for each damage and effect.
CRIT_DAMAGE_WORDS = {
    "kill": "Automatic Kill",
    3: "Triple Damage (Dam + Bonus, then X3)",
    2: "Double Damage (Dam + Bonus, then X2)",
    "max": "Maximum Damage for attack used (plus all bonuses)",
    1: "Normal Damage",
}
CRIT_EFFECT_WORDS = {
    "armor": "inflict permanent damage to victim's armor (victim's AC lowers by 1)",
    "limb": "chop/shatter one limb (roll on chart)",
    "disarm": "knock weapon from opponent's hand",
    "knockdown": "knock down victim, victim loses 1 round to stand",
    "shatter": "Shatter opponent's shield or weapon",
}
