"""001's options (challenges), declared once: 003's, with 001's own."""

from ..holmes.options import COMMON
from ..profiles import Option

# 001's own options (rules.challenges); hits roll the weapon's damage ('d8 (sword)').
CHALLENGES = tuple(
    Option(o.name, True, "Hits roll the weapon's damage dice (001: 'd8 (sword)'); off, 003's 1-6.") if o.name == "weapon_damage" else o for o in COMMON
) + (
    Option(
        "attack_bonus",
        "base",
        "A combatant with no attack_bonus attacks at +1 (001: 'It starts at +1 for all characters'), or by 002's hit table as in 003.",
        ("base", "hit-table"),
    ),
    Option("wound_penalties", "stack", "Every wound's penalty counts (001: 'one or more Wounds'), or only the worst.", ("stack", "worst")),
    Option(
        "double_damage",
        "dice",
        "A mighty Hit doubles the dice rolled (001: 'double rolled damage'), or the whole damage with its fixed modifier.",
        ("dice", "total"),
    ),
    Option("save_vs_paralyzation", 14, "The d20 (less wounds) that saves vs. Paralyzation on a -9 (001 gives no number).", tuple(range(2, 21))),
    Option(
        "wound_slows",
        0,
        "Feet of movement lost per point of wound penalty (001's referee: 'Serious wound ... moving 3 points slower'); 0 leaves movement to the GM.",
        (0, 5, 10),
    ),
    Option(
        "drop_forfeits",
        False,
        "A weapon dropped on a -9 also forfeits the next attack made (with another weapon or "
        "after picking it up); off, the next attack is lost to picking it up or drawing another weapon.",
    ),
)
