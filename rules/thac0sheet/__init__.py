"""The thac0-sheet profile (document 002): to-hit from THAC0 and AC with its steps,
striking, wrestling, range and cover, naval combat. Over holmes-phases it replaces
the attack roll, and adds striking, wrestling (in place of 003's grappling) and
naval combat."""

from ..actions import HAYMAKER
from ..conditions import CANNOT_ACT
from ..holmes.options import COMMON, COMMON_FIGURES
from ..ruleset import Added, Module, Profile
from . import figures, melee, naval, profile, striking, tohit, wrestling
from .options import THAC0_SHEET, THAC0_SHEET_FIGURES

NAME = profile.NAME


def added(*kinds: str) -> dict[str, Added]:
    return {kind: Added(profile.ADDED[kind].describe, profile.ADDED[kind].resolve) for kind in kinds}


PROFILE = Profile(
    name=NAME,
    document="002_b7d3390b1b702b95.txt",
    title="THAC0 combat sheet: to-hit steps, striking, wrestling, naval combat (002)",
    ac_style="descending",
    options=COMMON + THAC0_SHEET,
    figures=THAC0_SHEET_FIGURES,
    common_figures=COMMON_FIGURES,
    base="holmes-phases",
    modules=(
        Module(
            "to_hit",
            "002: H = THAC0 - AC with the sheet's steps, and d20 >= H hits; range and cover adjust it.",
            hooks={"melee_roll": melee.roll, "bare_roll": tohit.roll_to_hit},  # missiles, oil and torches likewise
            check_figures=(figures.check_figures,),  # striking, wrestling and naval figures
            options=("h_floor", "mods_before_steps"),
        ),
        Module(
            "striking",
            "002 'Striking': unarmed blows of 1 + δS, pulled blows, haymakers, stun and knock-out.",
            actions=added("strike"),
            steps={HAYMAKER: striking.last_in_phase},  # 002: a haymaker loses initiative
            stops_acting=(*CANNOT_ACT, striking.STUNNED, striking.KNOCKED_OUT),  # by a blow
            check_declaration=(profile.check_striking,),
            choices=(profile.choices_striking,),
            round_end=(striking.end_of_round,),
        ),
        Module(
            "wrestling",
            "002 'Wrestling': 1d20 + w against each other, grab, fall and pin; it replaces 003's grappling.",
            actions=added("wrestle"),
            check_declaration=(profile.check_wrestling,),
            choices=(profile.choices_wrestling,),
            round_end=(wrestling.end_of_round,),
            options=("wrestle_helpers", "pin_penalty"),
        ),
        Module(
            "naval",
            "002 'Naval combat': hull points, speed lost to damage and rowers, grappling, boarding and repairs.",
            actions=added("grapple_ship", "board", "repair"),
            check_declaration=(profile.check_naval,),
            choices=(profile.choices_naval,),
            round_end=(naval.end_of_round,),
            options=("rounds_per_turn",),
            needs=("to_hit",),
            why="002's blows on a hull ('1 hull point for each 5 hit points') and the boarding round's -2 are reckoned in 002's own roll",
        ),
    ),
)
