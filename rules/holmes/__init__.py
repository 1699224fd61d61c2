"""Profile 'holmes-phases' (document 003): the round of Holmes Basic with its house
rules, the base every other profile builds on.

Its rules live in this package (combat, melee, ranged, oil, grapple, morale,
subdual, spells, footing, devices, surprise, terms, tohit, damage, fighters,
traits; its actions as records in `actions`): the engine reaches them only
through this record, and the other profiles build on them.
"""

from .. import undo
from ..conditions import CANNOT_ACT
from ..ruleset import Module, Profile, Revision, revised
from . import (
    actions,
    combat,
    criticals,
    damage,
    fighters,
    fumbles,
    kinds,
    morale,
    oil,
    order,
    ranged,
    subdual,
    surprise,
    terms,
    tohit,
    traits,
)
from .grapple import UNWILLING_WORDS
from .options import COMMON, COMMON_FIGURES

NAME = "holmes-phases"

ROUND = Module(
    "round",
    "003's round: its actions, strikes on the queue, burning oil in the magic phase, subdual and morale at its end.",
    hooks={"arrange": actions.arrange, "targets": actions.targets, "surprise": surprise.roll_surprise, "undone": undo.tell_nothing},
    actions=actions.ACTIONS,
    labels={"target_unwilling": UNWILLING_WORDS},  # 003: 'wholly unarmed or ... unwilling to use lethal force'
    steps={kinds.STRIKE: combat.strike, kinds.BURN: oil.burn},
    commands={"call_morale": (morale.check_call, morale.call)},  # 003: the GM calls for a morale check
    stops_acting=CANNOT_ACT,
    check_figures=(traits.check_traits,),  # the figures 003's oil, subdual and morale read
    round_end=(subdual.end_of_round, morale.end_of_round),
)


PROFILE = Profile(
    name=NAME,
    document="003_cb9b2e9cfc85c0a5.txt",
    title="Holmes Basic round with phases (003)",
    ac_style="descending",
    options=COMMON,
    common_figures=COMMON_FIGURES,
    modules=(
        Module(
            "to_hit",
            "003: 'd20 + combat bonus + the target's AC' reaching 19 hits, missiles, oil and torches alike; "
            "a melee roll's natural 20 that hits is a critical, its natural 1 that misses a fumble.",
            hooks={
                "melee_roll": combat.roll,
                "shot": ranged.shot,
                "bare_roll": tohit.d20_against_19,
                "combat_bonus": fighters.hit_table_bonus,
                "armor_class": traits.armor_as_given,
                "parry": terms.parry_term,  # 003: 'their opponent thusly suffers a -4 penalty to hit'
                "land": tohit.lands,
            },
            prompts={kinds.RIPOSTE_PROMPT: combat.riposte},  # 003: a parrier's counter-attack at +3
            answers={kinds.RIPOSTE_PROMPT: kinds.RIPOSTE_ANSWERS},
        ),
        Module("routine", "003: one strike, or two for a shorter, lighter weapon against a longer one.", hooks={"routine": combat.routine}),
        Module(
            "criticals",
            "003: a natural 20 on a melee attack roll that hits adds 1-6 damage, and the weapon saves against 'crushing blow' or breaks.",
            hooks={"critical": criticals.critical, "critical_effect": criticals.effect, "natural_20_hits": criticals.never_by_itself},
            options=("weapon_saves",),
        ),
        Module("fumbles", "003: a natural 1 does nothing more than miss (003 gives it no effect).", hooks={"fumble": fumbles.fumble}),
        Module("dying", "003: at 0 HP a combatant is down.", hooks={"fall": damage.falls}),
        Module("initiative", "003: 'Combat proceeds in Dexterity order'.", hooks={"order": order.in_dex_order, "declaration_order": order.declaration_order}),
        ROUND,
    ),
    revisions=(
        Revision(
            8,
            (revised(ROUND, actions=actions.AT_THE_OIL, hooks={"undone": undo.tell_changes}),),
            "the torch is thrown at the oil, never randomised into a melee (docs/rulings.md, 'Rules version 8'); "
            "an undo says what it changed of each combatant (issue 27: the events judged again may end otherwise than their lines said)",
        ),
    ),
)
