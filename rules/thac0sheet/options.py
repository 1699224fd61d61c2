"""002's options and figures (thac0-sheet), declared once (rules.thac0sheet.figures checks what relates them)."""

from ..charts.thac0_sheet import HOLDS, PINNED_WR
from ..profiles import Option, figure

# 002's options (rules.thac0sheet): where the sheet reads two ways (docs/rulings.md).
THAC0_SHEET = (
    Option("h_floor", False, "An H of 0 or 1 after 002's steps also needs 2 on the die; off, as written, only a negative H 'use[s] 2'."),
    Option(
        "mods_before_steps",
        False,
        "Roll modifiers (surprise, range, cover, haymaker, boarding...) come off H before 002's steps; off, they adjust the d20 against H.",
    ),
    Option(
        "wrestle_helpers",
        "defender",
        "002 'Multiple wrestlers: +1/+5 for each with less/more than 1/2 HD': half the defender's HD, or half a Hit Die.",
        ("defender", "half-hd"),
    ),
    Option("pin_penalty", PINNED_WR, "002: a pinned wrestler's 'WR -3 (or more)'.", (3, 4, 5, 6)),
    Option("rounds_per_turn", 10, "Rounds in a turn, for 002's repairs, '1 hp per turn'.", (1, 6, 10, 60)),
)

# 002's figures (rules.thac0sheet.figures.check_figures holds the bounds).
THAC0_SHEET_FIGURES = (
    figure("str_adj", "δS", "int", "002: the Strength adjustment, to blows and wrestling.", low=-5, high=5),
    figure("dex_adj", "δD", "int", "002: the Dexterity adjustment, to wrestling.", low=-5, high=5),
    figure("con", "C'", "int", "002 striking: Constitution, against a blow's stun (a monster's is 2 x HD).", low=1, high=25),
    figure("basic_ac", "basic AC", "int", "002 wrestling's 'basic AC' (ascending): no armour or shield.", low=-20, high=40),
    figure("save_death", "SvDR", "int", "002: the d20 needed to save vs death ray.", low=1, high=30),
    figure("vessel", "vessel", "bool", "002 naval combat: a ship; its HP are hull points, its move its full speed."),
    figure("rowers", "rowers", "int", "002 naval combat: a vessel's rowers now.", low=0, high=10_000),
    figure("rowers_max", "rowers, full strength", "int", "002 naval combat: a vessel's rowers at full strength.", low=0, high=10_000),
    figure("crew", "crew", "int", "002 naval combat: crewmen aboard, for repairs ('five crewmen required').", low=0, high=10_000),
    figure("aboard", "aboard", "combatant", "002 naval combat: the vessel a fighter stands on."),
    figure("lashed_to", "lashed to", "combatant", "002 naval combat: the vessel this one is grappled to."),
    figure("hold", "hold", "str", "002 wrestling: the hold on this combatant; '' (and held by '') parts the wrestlers.", choices=("", *HOLDS)),
    figure("held_by", "held by", "combatant", "002 wrestling: who has that hold."),
    figure("out_until", "out through round", "int", "002: stunned or knocked out through this round.", low=0, high=10_000),
    figure("repaired", "hull repaired", "int", "002: hull points the crew has patched (at most max HP).", low=0),
    figure("repair_work", "repair work", "int", "002: rounds of work toward the next hull point ('1 hp per turn').", low=0, high=1_000),
)
