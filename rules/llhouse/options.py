"""000's options and figures (ll-house), declared once: 003's options with 000's own,
and 003's figures with 000's open-ended level (rules.llhouse.figures checks what relates them)."""

import msgspec

from ..charts.ll_house import ARMOR, IMPROVEMENTS
from ..holmes.options import COMMON, COMMON_FIGURES
from ..profiles import Option, figure

# 000 reads the level off its ATTACK VALUE table, open-ended ('21+', '19+', '24+'): a sane cap, not the table's.
LL_HOUSE_LEVEL_CAP = 100
LL_HOUSE_COMMON_FIGURES = tuple(
    msgspec.structs.replace(f, high=LL_HOUSE_LEVEL_CAP, help="000, ATTACK VALUE: by class group and level, open-ended ('21+', '19+', '24+'), so up to 100.")
    if f.name == "level"
    else f
    for f in COMMON_FIGURES
)

# 000 (ll-house): Labyrinth Lord house rules (rules.llhouse, rules/charts/ll_house.py)
LL_HOUSE = tuple(
    msgspec.structs.replace(o, default=True, help="Hits roll the weapon's damage dice (000: 'Maximum Damage for attack used'); off, 1-6.")
    if o.name == "weapon_damage"
    else o
    for o in COMMON
) + (
    Option("natural_20_hits", True, "A natural roll in the crit range hits whatever the AC and rolls on the crit chart; off, it must reach the AC too (000)."),
    Option(
        "special_rolls", "all", "Who rolls on the crit chart and fumble table: everyone, or PCs only ('The list below pertains to PCs', 000).", ("all", "pcs")
    ),
    Option("death_chart", "pcs", "Who rolls on the death and dying chart at 0 HP: PCs, everyone, or nobody (they die) (000).", ("pcs", "all", "off")),
    Option(
        "maneuvers",
        "all",
        "Shield bash, shield sacrifice and two weapons: for everyone, or PCs only ('available to ALL Player Characters', 000).",
        ("all", "pcs"),
    ),
    Option(
        "two_weapon_fighting",
        "one-roll",
        "000's two readings: +2 and a die picks the weapon that struck, or both attack, main hand -2, off hand -4.",
        ("one-roll", "both"),
    ),
    Option(
        "crit_range_ranks",
        "one-per-rank",
        "Improved crit range: each rank widens it by 1, or as written (19-20 at rank 1, 18-20 at rank 3) (000).",
        ("one-per-rank", "as-written"),
    ),
    Option("hit_location", False, "Each hit rolls where it lands on the master body table (000: 'Perhaps if someone gets hit by a sniper'); logged only."),
)

# 000's figures (rules.llhouse.figures.check_figures holds the bounds).
LL_HOUSE_FIGURES = (
    figure("armor", "armor", "str", "000, ARMOR CLASS: the armor worn, which a critical hit damages ('' = not tracked).", choices=("", *ARMOR)),
    figure(
        "armor_damage",
        "armor damage",
        "int",
        "000, ARMOR DAMAGE: points the armor has taken, each lowering AC by 1.",
        low=0,
        high=max(points for _, points in ARMOR.values()),
    ),
    figure(
        "improvements",
        "improved combat options",
        "dict",
        "000: ranks of each option (extra attack: 'Only available 3 times').",
        choices=tuple(IMPROVEMENTS),
        low=0,
        high=max(IMPROVEMENTS.values()),
    ),
    figure("expertise", "weapon expertise", "dict", "000, WEAPON EXPERTISE: ranks by weapon name, '+2 to Dam and to Parry' each.", low=0, high=10),
    figure("con_bonus", "Con bonus", "int", "000: bleeding out lasts '1d6+Con Bonus' rounds.", low=-3, high=3),
    figure(
        "until",
        "lasts through round",
        "dict",
        "000: the last round of a condition (knocked down, bleeding out...); the rules set it, the GM may correct it.",
        low=0,
        high=100_000,
    ),
)
