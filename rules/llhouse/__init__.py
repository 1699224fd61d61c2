"""Profile 'll-house': the Labyrinth Lord house rules of 000 (Combat: Special Rules and Charts).

Over holmes-phases it replaces the attack roll (ascending AC, the Attack Value,
the crit and fumble ranges), what a critical hit does (the crit chart, limbs),
what a fumble does (the fumble table), the attack routine (extra attacks), what
happens at 0 HP (the death and dying chart), and adds the maneuvers open to
everyone.
"""

import functools

from ..conditions import CANNOT_ACT
from ..ruleset import Added, Module, Profile, Revision, revised
from . import attack, damage, dying, figures, improved, manoeuvres, missiles, naturals
from .criticals import KNOCKED_DOWN
from .options import LL_HOUSE, LL_HOUSE_COMMON_FIGURES, LL_HOUSE_FIGURES

TO_HIT = "000's own attack roll"

PROFILE = Profile(
    name=figures.PROFILE,
    document="000_4bfcd4b7bf9a9218.txt",
    title="Labyrinth Lord house rules: ascending AC, crits, fumbles, death and dying (000)",
    ac_style="ascending",
    options=LL_HOUSE,
    figures=LL_HOUSE_FIGURES,
    common_figures=LL_HOUSE_COMMON_FIGURES,
    base="holmes-phases",
    modules=(
        TO_HIT_7 := Module(
            "to_hit",
            "000: d20 + Attack Value against ascending AC, missiles alike; a roll in the crit range (20, wider with "
            "improved crit range) hits and is a critical, one in the fumble range misses and is a fumble.",
            hooks={
                "melee_roll": attack.roll,
                "shot": missiles.shot,
                "bare_roll": missiles.to_hit,
                "combat_bonus": figures.combat_bonus,
                "armor_class": figures.armor_class,
            },
            stops_acting=(*CANNOT_ACT, KNOCKED_DOWN),  # 000: 'loses 1 round to stand'
            check_figures=(figures.check_figures,),
            check_declaration=(manoeuvres.check,),  # a hurt limb cannot wield; a stuck weapon
            options=("natural_20_hits", "special_rolls", "crit_range_ranks", "hit_location"),
        ),
        CRITICALS_7 := Module(
            "criticals",
            "000's critical hit chart on a natural 20: double or triple damage, maximum damage, armor damage, a limb "
            "chopped or shattered (the limb table), disarm, knockdown, shatter, an automatic kill.",
            hooks={"critical": naturals.critical, "critical_effect": naturals.effect},
            stops_acting=(KNOCKED_DOWN,),  # 'victim loses 1 round to stand'
            round_end=(dying.round_end,),  # the knockdown's round lapses (so does the dying module's)
            options=("special_rolls",),
        ),
        Module(
            "fumbles",
            "000's fumble table on a natural 1: a weapon stuck or dropped, harm to self or the nearest ally, a fall.",
            hooks={"fumble": naturals.fumble},
            stops_acting=(KNOCKED_DOWN,),  # 'loses 1 round to regain feet'
            check_declaration=(naturals.check_stuck,),  # a stuck weapon is not picked up
            round_end=(dying.round_end,),  # the stuck weapon's and the fall's rounds lapse
            options=("special_rolls",),
        ),
        Module(
            "routine",
            "000's improved combat options: cleave and extra attacks, struck on 000's roll.",
            hooks={"routine": attack.routine},
            steps={attack.LL_STRIKE: attack.extra_strike},
            former={"ll-strike": attack.LL_STRIKE},  # RULES_VERSION 4's spelling
            needs=("to_hit",),
            why=f"its extra strikes are rolled on {TO_HIT}",
        ),
        Module(
            "dying",
            "000's death and dying chart at 0 HP: knocked out, bleeding out, staunching the wound.",
            hooks={"fall": dying.fall},
            actions={"staunch": Added(manoeuvres.describe, dying.staunch, phase="attack")},
            round_end=(dying.round_end,),
            options=("death_chart",),
        ),
        Module(
            "maneuvers",
            "000's maneuvers open to everyone: shield bash, shield sacrifice, two-weapon fighting.",
            actions={
                "shield_bash": Added(manoeuvres.describe, manoeuvres.bash, phase="attack"),
                "two_weapons": Added(manoeuvres.describe, attack.two_weapons, phase="attack", weapons=lambda a: [a.weapon, a.off_hand]),
            },
            choices=(manoeuvres.choices,),
            prompts={damage.SACRIFICE_PROMPT: damage.sacrifice},
            answers={damage.SACRIFICE_PROMPT: damage.SACRIFICE_ANSWERS},
            options=("maneuvers", "two_weapon_fighting"),
            needs=("to_hit",),
            why=f"the shield bash and two weapons are rolled on {TO_HIT}",
        ),
    ),
    revisions=(
        Revision(
            8,
            (
                # 003: 'Please note that a "natural 20" is not an automatic hit!': whether one is
                # belongs to the natural-20 module that says so, and 000's roll asks it.
                revised(
                    TO_HIT_7,
                    hooks={
                        "melee_roll": functools.partial(attack.roll, natural_20=attack.criticals_say),
                        "shot": functools.partial(missiles.shot, natural_20=attack.criticals_say),
                    },
                    options=("special_rolls", "crit_range_ranks", "hit_location"),
                ),
                revised(CRITICALS_7, hooks={"natural_20_hits": figures.natural_20_hits}, options=("natural_20_hits", "special_rolls")),
                # 000's parry (+2 AC), shield bash and shield sacrifice on the fight's own roll
                # (003's asks hooks parry and land; 000's does them itself).
                Module(
                    "maneuvers",
                    "000's maneuvers open to everyone: parry (+2 AC), shield bash, shield sacrifice, on the fight's own attack roll.",
                    hooks={"parry": improved.parry_as_ac, "land": damage.land_on_own_roll},
                    actions={"shield_bash": Added(manoeuvres.describe, manoeuvres.bash_on_own_roll, phase="attack")},
                    choices=(manoeuvres.shield_choices,),
                    prompts={damage.SACRIFICE_PROMPT: damage.sacrifice},
                    answers={damage.SACRIFICE_PROMPT: damage.SACRIFICE_ANSWERS},
                    stops_acting=(KNOCKED_DOWN,),  # a bash's 20: 'loses 1 round climbing back to their feet'
                    check_declaration=(manoeuvres.check_maneuver,),
                    round_end=(dying.round_end,),  # the knockdown's round lapses
                    options=("maneuvers",),
                    rolled_on=("holmes-phases", figures.PROFILE),
                    why="000's parry and shield sacrifice come into 003's roll through its hooks parry and land, and 000's roll has its own; "
                    "001's and 002's rolls ask neither",
                ),
                Module(
                    "two_weapons",
                    "000's two-weapon fighting: +2 and a die for the hand that struck, or main hand -2 and off hand -4.",
                    actions={"two_weapons": Added(manoeuvres.describe, attack.two_weapons, phase="attack", weapons=lambda a: [a.weapon, a.off_hand])},
                    choices=(manoeuvres.two_weapon_choices,),
                    check_declaration=(manoeuvres.check_maneuver,),
                    options=("maneuvers", "two_weapon_fighting"),
                    needs=("to_hit",),
                    why=f"its strikes are {TO_HIT}'s (the +2 and the die for the hand that struck, or -2 and -4), and 003 rules two "
                    "weapons its own way ('A character wielding two weapons may choose which he will attack with each round')",
                ),
            ),
            "whether a natural 20 hits whatever the AC is the criticals module's; 000's parry, shield bash and sacrifice "
            "come to 003's roll, two weapons is a module of its own (docs/rulings.md, 'Rules version 8')",
        ),
    ),
)
