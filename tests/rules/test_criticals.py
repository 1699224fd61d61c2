"""Natural 20s and natural 1s as rule modules of their own (`criticals`, `fumbles`), each
played under 003's round with every die forced: the to_hit decides when a roll is one, the
module what it does. 001's one-roll chart decides its own and refuses the others'."""

import pytest
from ll_house_scenes import SWORD, alda
from scenes import ADVANCE, NO_SURPRISE, all_forced, fighter, texts, who

from fray_table.rules.profiles import catalogue
from fray_table.rules.ruleset import RulesUnavailable, compose
from fray_table.rules.scenario import play

ATTACK = {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}


def fight(profile: str, modules: dict, dice: list[int], *commands, combatants=None, rounds: int = 1, version: int | None = None, options=None):
    """Alda attacks Gob (40 HP, 5 ft away) in round 1, then `commands` and the next rounds;
    under rules `version` if given (else today's)."""
    played = play(
        {
            **({"rules_version": version} if version is not None else {}),
            "options": options or {},
            "profile": profile,
            "modules": modules,
            "dice": [*NO_SURPRISE, *dice],
            "combatants": combatants or [fighter("alda", "party", x=10, y=10), fighter("gob", "goblins", x=15, y=10, hp=40, hp_max=40)],
            "commands": [{"type": "start"}, ATTACK, *([ADVANCE] * rounds), *commands],
        }
    )
    assert all_forced(played, [*NO_SURPRISE, *dice])
    return played


def ll_house_pair():
    """000's example: 'an Orc in Chain Mail Armor': AC 15; a 4th-level cleric (Attack Value +1)."""
    return [
        alda(),
        {"id": "gob", "name": "Gob", "side": "orcs", "ac": 15, "armor": "chain mail", "hp": 30, "hp_max": 30, "dex": 9, "x": 15, "y": 10, "weapons": [SWORD]},
    ]


# --- 003's roll, 000's critical hit chart ------------------------------------------------


def test_003s_natural_20_rolls_on_000s_crit_chart():
    """003: 'd20 + combat bonus + AC' 20 + 0 + 9 = 29 >= 19 hits; 000: 'Any roll of Natural 20
    yields special effects': chart d20 15, '15—Triple Damage (Dam+Bonus, then X3)'; 003's 1-6
    (d6 4) x 3 = 12. 000's chart replaces 003's extra d6 and crushing-blow save: neither is rolled."""
    played = fight("holmes-phases", {"criticals": "ll-house"}, [20, 15, 4])
    assert texts(played, "attack", "critical", "damage", "weapon") == [
        "Alda attacks Gob: d20 20 + 0 combat bonus + AC 9 = 29 ≥ 19: hit.",
        "Critical hit chart d20 15: Triple Damage (Dam + Bonus, then X3).",
        "Gob takes 12 damage ((1d6 = 4) x 3), 28 HP left.",
    ]
    assert who(played, "gob").hp == 28


def test_003s_natural_20_and_000s_automatic_kill():
    """000: '20—Automatic Kill': no damage roll."""
    played = fight("holmes-phases", {"criticals": "ll-house"}, [20, 20])
    assert texts(played, "critical", "down") == ["Critical hit chart d20 20: Automatic Kill.", "Gob is killed outright."]
    assert who(played, "gob").down and "dead" in who(played, "gob").conditions
    assert texts(played, "damage") == []


def test_000s_knockdown_under_003s_round_loses_the_next_round():
    """000: '16—Triple Damage (Dam+Bonus, then X3) + knock down victim, victim loses 1 round to
    stand'. Gob has acted (it declared nothing), so the round it loses is the next: its attack
    in round 2 is not made, and it regains its feet as round 2 ends."""
    gob_attacks = {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}
    played = fight("holmes-phases", {"criticals": "ll-house"}, [20, 16, 4], gob_attacks, ADVANCE)
    assert texts(played, "knockdown") == ["Gob is knocked down (critical hit) and loses the next round to stand."]
    assert [t for t in texts(played, "attack") if t.startswith("Gob")] == []  # no roll in round 2
    assert texts(played, "move")[-1] == "Gob regains its feet."
    assert "knocked down" not in who(played, "gob").conditions and who(played, "gob").hp == 28


def test_000s_armor_damage_under_003_is_shown_in_descending_ac():
    """000: '14—Double Damage (Dam +Bonus, then X2) + inflict permanent damage to victim's armor
    (victim's AC lowers by 1)': (d6 4) x 2 = 8, then AC 9 becomes 10 in 003's descending terms."""
    played = fight("holmes-phases", {"criticals": "ll-house"}, [20, 14, 4])
    assert texts(played, "damage", "armor") == ["Gob takes 8 damage ((1d6 = 4) x 2), 32 HP left.", "Gob's armor is damaged: its AC 9 → 10."]
    assert who(played, "gob").ac == 9  # stored ascending: 10 - 1


def test_000s_chart_with_special_rolls_for_pcs_only_leaves_a_monsters_natural_20_plain():
    """000: 'The list below pertains to PCs' (option special_rolls = 'pcs', borrowed with the
    module): Alda is no PC, so her natural 20 is an ordinary hit of 003's 1-6 (d6 4)."""
    played = play(
        {
            "profile": "holmes-phases",
            "modules": {"criticals": "ll-house"},
            "options": {"special_rolls": "pcs"},
            "dice": [*NO_SURPRISE, 20, 4],
            "combatants": [fighter("alda", "party", x=10, y=10), fighter("gob", "goblins", x=15, y=10)],
            "commands": [{"type": "start"}, ATTACK, ADVANCE],
        }
    )
    assert all_forced(played, [*NO_SURPRISE, 20, 4])
    assert texts(played, "critical") == [] and texts(played, "damage") == ["Gob takes 4 damage (1d6), 6 HP left."]


def test_003s_natural_20_is_still_not_an_automatic_hit_with_000s_chart_under_version_7():
    """003: 'a natural 20 is not an automatic hit!': 20 + 0 + AC -11 = 9 < 19 misses; no chart.
    (Rules version 7: 003's roll never asks the criticals module.)"""
    played = fight(
        "holmes-phases",
        {"criticals": "ll-house"},
        [20],
        combatants=[fighter("alda", "party", x=10, y=10), fighter("gob", "goblins", x=15, y=10, ac=30)],
        version=7,
    )
    assert texts(played, "attack") == ["Alda attacks Gob: d20 20 + 0 combat bonus + AC -11 = 9 < 19: miss."]
    assert texts(played, "critical") == []


def test_003s_own_natural_20_is_its_criticals_module():
    """003: 'A natural 20 on a melee attack roll adds an additional 1-6 damage to the victim, at
    the risk of the attacker's weapon breaking': d6 3 + d6 4, then the save d20 15 >= 6 (steel)."""
    played = fight("holmes-phases", {}, [20, 3, 4, 15])
    assert texts(played, "damage", "weapon") == ["Gob takes 7 damage (1d6 + 1d6 natural 20), 33 HP left.", "Alda's sword (steel) holds: d20 15 ≥ 6."]


def test_002s_roll_with_000s_crit_chart():
    """002: 'H = THAC0 - AC' (19 - 9 = 10), d20 20 hits; 000's chart d20 10: 'Double Damage
    (Dam +Bonus, then X2)', 003's 1-6 (d6 4) x 2 = 8."""
    played = fight("thac0-sheet", {"criticals": "ll-house"}, [20, 10, 4])
    assert texts(played, "critical", "damage") == [
        "Critical hit chart d20 10: Double Damage (Dam + Bonus, then X2).",
        "Gob takes 8 damage ((1d6 = 4) x 2), 32 HP left.",
    ]


BOW = {"name": "short bow", "range": 150, "missile": "short bow", "damage": "1d6"}
SHOOT = {"type": "declare", "actor": "alda", "action": {"type": "shoot", "target": "gob", "weapon": 0}}


def volley(modules: dict, dice: list[int]):
    """Alda shoots her short bow at Gob, 50 ft away, in round 1."""
    played = play(
        {
            "profile": "holmes-phases",
            "modules": modules,
            "dice": [*NO_SURPRISE, *dice],
            "combatants": [fighter("alda", "party", x=10, y=10, weapons=[BOW]), fighter("gob", "goblins", x=60, y=10, hp=40, hp_max=40)],
            "commands": [{"type": "start"}, SHOOT, ADVANCE],
        }
    )
    assert all_forced(played, [*NO_SURPRISE, *dice])
    return played


def test_003s_missile_with_000s_chart_and_table():
    """000: 'Any roll of Natural 20 yields special effects, and so does any roll of Natural 1',
    missiles included: chart d20 10 doubles 003's 1-6 (d6 3); a natural 1 rolls the fumble table
    (d6 5, the bow dropped). 003's own natural 20 is 'on a melee attack roll': a plain hit (d6 3)."""
    crit = volley({"criticals": "ll-house"}, [20, 10, 3])
    assert texts(crit, "critical", "damage") == [
        "Critical hit chart d20 10: Double Damage (Dam + Bonus, then X2).",
        "Gob takes 6 damage ((1d6 = 3) x 2), 34 HP left.",
    ]
    fumbled = volley({"fumbles": "ll-house"}, [1, 5])
    assert texts(fumbled, "fumble") == ["Fumble table d6 5: Alda dropped weapon; draw new weapon or lose 1 round to retrieve."]
    assert who(fumbled, "alda").weapons[0].dropped
    plain = volley({}, [20, 3])
    assert texts(plain, "damage", "weapon") == ["Gob takes 3 damage (1d6), 37 HP left."]


# --- 000's roll, 003's criticals and fumbles -----------------------------------------------


def test_000s_natural_20_with_003s_criticals_adds_a_d6_and_tests_the_weapon():
    """000: 'You must roll the Armor Class or higher' (20 + 1 = 21 >= AC 15), a natural 20 is a
    critical; 003's: 'an additional 1-6 damage' (1d8 5 + d6 3 = 8), then the crushing-blow save
    (d20 15 >= 6). No roll on 000's chart."""
    played = fight("ll-house", {"criticals": "holmes-phases"}, [20, 5, 3, 15], combatants=ll_house_pair())
    assert texts(played, "attack", "critical", "hit", "weapon") == [
        "Alda attacks Gob: d20 20 + 1 attack value = 21 ≥ AC 15: natural 20: a critical hit.",
        "Alda rolls 8 damage against Gob (1d8 + 1d6 8).",
        "Alda's sword (steel) holds: d20 15 ≥ 6.",
    ]
    assert who(played, "gob").hp == 22


def test_000s_natural_1_with_003s_fumbles_does_nothing_more_than_miss():
    """000: a natural 1 always misses ('2 < AC 15'); 003 gives a natural 1 no effect, so no
    fumble table: one die is rolled, and Alda keeps her sword and her HP."""
    played = fight("ll-house", {"fumbles": "holmes-phases"}, [1], combatants=ll_house_pair())
    assert texts(played, "attack") == ["Alda attacks Gob: d20 1 + 1 attack value = 2 < AC 15: natural 1: a fumble."]
    assert texts(played, "fumble", "damage") == []
    alda = who(played, "alda")
    assert alda.hp == 9 and not alda.weapons[0].dropped and alda.conditions == []


def test_000s_own_natural_1_still_rolls_its_fumble_table():
    """000: 'FUMBLE TABLE (ROLLED A NAT 1)', d6 4: 'accidentally harms self for 1-2 HP' (d2 2)."""
    played = fight("ll-house", {}, [1, 4, 2], combatants=ll_house_pair())
    assert texts(played, "fumble", "damage") == ["Fumble table d6 4: Alda accidentally harms self for 1-2 HP.", "Alda takes 2 damage (fumble), 7 HP left."]


# --- 003's roll, 000's fumble table ------------------------------------------------------


def test_003s_natural_1_rolls_on_000s_fumble_table():
    """003's roll misses (1 + 0 + 9 = 10 < 19); 000's fumble table d6 5: 'Dropped weapon; draw
    new weapon or lose 1 round to retrieve'."""
    played = fight("holmes-phases", {"fumbles": "ll-house"}, [1, 5])
    assert texts(played, "attack", "fumble") == [
        "Alda attacks Gob: d20 1 + 0 combat bonus + AC 9 = 10 < 19: miss.",
        "Fumble table d6 5: Alda dropped weapon; draw new weapon or lose 1 round to retrieve.",
    ]
    assert who(played, "alda").weapons[0].dropped and "disarmed" in who(played, "alda").conditions


def test_000s_stuck_weapon_under_003s_round_cannot_be_picked_up_until_free():
    """000: '6—Weapon stuck in wall, shield, etc takes 1d4 rounds to remove' (d4 2: free at the
    end of round 3); 003's recover is refused meanwhile, with 000's sentence."""
    recover = {"type": "declare", "actor": "alda", "action": {"type": "recover", "weapon": 0}}
    played = fight("holmes-phases", {"fumbles": "ll-house"}, [1, 6, 2], recover)
    assert texts(played, "fumble")[-1] == "The sword is stuck for 2 round(s): free at the end of round 3."
    assert [e.code for e in played.log if e.kind == "rejected"] == ["ll-house/weapon-stuck"]
    freed = fight("holmes-phases", {"fumbles": "ll-house"}, [1, 6, 2], rounds=3)
    assert "Alda frees the sword." in texts(freed, "weapon") and not who(freed, "alda").weapons[0].dropped


def test_003s_natural_1_that_hits_is_a_hit():
    """003 gives a natural 1 no miss: 1 + 10 combat bonus + AC 9 = 20 >= 19 hits (d6 2), and no
    fumble table is rolled even with 000's."""
    played = fight(
        "holmes-phases",
        {"fumbles": "ll-house"},
        [1, 2],
        combatants=[fighter("alda", "party", x=10, y=10, attack_bonus=10), fighter("gob", "goblins", x=15, y=10)],
    )
    assert texts(played, "fumble") == [] and who(played, "gob").hp == 8


# --- what cannot be combined ---------------------------------------------------------


@pytest.mark.parametrize(
    "profile, modules",
    [
        ("challenges", {"criticals": "ll-house"}),
        ("challenges", {"fumbles": "ll-house"}),
        ("holmes-phases", {"to_hit": "challenges", "criticals": "ll-house"}),
    ],
)
def test_001s_chart_decides_its_own_natural_1_and_20(profile, modules):
    with pytest.raises(RulesUnavailable) as refused:
        compose(profile, tuple(sorted(modules.items())))
    taken = "criticals" if "criticals" in modules else "fumbles"
    assert str(refused.value) == (
        f"challenges' 'to_hit' cannot be combined with ll-house's {taken!r}: "
        "001's one-roll attack chart decides its own natural 1 ('Miss clumsily') and natural 20"
    )


def test_a_scenario_taking_another_fumbles_with_001s_to_hit_is_refused_at_creation():
    with pytest.raises(ValueError, match="^scenario: challenges' 'to_hit' cannot be combined with ll-house's 'fumbles'"):
        play({"profile": "challenges", "modules": {"fumbles": "ll-house"}, "combatants": [fighter("alda", "party")], "commands": []})


def test_001s_to_hit_under_003_keeps_003s_modules_it_never_calls():
    rules = compose("holmes-phases", (("to_hit", "challenges"),))
    assert rules.modules["criticals"][0] == rules.modules["fumbles"][0] == "holmes-phases"


def test_the_catalogue_lists_the_new_modules_and_what_001_decides():
    listed = catalogue()
    holmes = {m["name"]: m for m in listed["holmes-phases"]["modules"]}
    house = {m["name"]: m for m in listed["ll-house"]["modules"]}
    assert holmes["fumbles"]["help"] == "003: a natural 1 does nothing more than miss (003 gives it no effect)."
    assert house["criticals"]["replaces"] == "holmes-phases" and house["fumbles"]["options"] == ["special_rolls"]
    assert {m["name"]: m["decides"] for m in listed["challenges"]["modules"]}["to_hit"] == ["criticals", "fumbles"]
    assert listed["ll-house"]["uses"]["criticals"] == "ll-house" and listed["challenges"]["uses"]["criticals"] == "holmes-phases"
    assert "special_rolls" in {o.name for o in compose("holmes-phases", (("criticals", "ll-house"),)).options}


# --- rules version 8: whether a natural 20 always hits is the criticals module's ----------------

HIGH_AC = [fighter("alda", "party", x=10, y=10, klass="cleric", level=4, attack_bonus=0), fighter("gob", "goblins", x=15, y=10, ac=21, hp=40, hp_max=40)]


def test_000s_roll_with_003s_criticals_a_natural_20_is_not_an_automatic_hit():
    """003: 'Please note that a "natural 20" is not an automatic hit! It is sometimes impossible
    to hit an opponent.': 000's roll d20 20 + 0 = 20 < AC 21 misses with 003's natural 20; no
    extra d6, no weapon save, Gob unhurt."""
    played = fight("ll-house", {"criticals": "holmes-phases"}, [20], combatants=HIGH_AC)
    assert texts(played, "attack") == ["Alda attacks Gob: d20 20 + 0 attack value = 20 < AC 21: miss."]
    assert texts(played, "hit", "weapon") == [] and who(played, "gob").hp == 40


def test_000s_roll_with_003s_criticals_hits_on_any_natural_20_under_version_7():
    """Rules version 7 keeps what its tables saw: 000's roll read its own natural_20_hits, so the
    20 hit AC 21 and was 003's critical: 1d6 5 + 1d6 3, then the save d20 15 >= 6 (steel)."""
    played = fight("ll-house", {"criticals": "holmes-phases"}, [20, 5, 3, 15], combatants=HIGH_AC, version=7)
    assert texts(played, "attack") == ["Alda attacks Gob: d20 20 + 0 attack value = 20 < AC 21: natural 20: a critical hit."]
    assert texts(played, "hit") == ["Alda rolls 8 damage against Gob (1d6 + 1d6 8)."]


def test_003s_roll_with_000s_chart_a_natural_20_hits_as_000s_chart_says():
    """Under rules version 8 003's roll asks the natural-20 module: 000's ('Any roll of Natural 20
    yields special effects', option natural_20_hits on) hits AC -11 (20 + 0 - 11 = 9 < 19) and
    rolls the chart: d20 10, 'Double Damage (Dam +Bonus, then X2)' on 003's 1-6 (d6 4) = 8.
    With natural_20_hits off it is 003's 'not an automatic hit' again."""
    plated = [fighter("alda", "party", x=10, y=10), fighter("gob", "goblins", x=15, y=10, ac=30, hp=40, hp_max=40)]
    played = fight("holmes-phases", {"criticals": "ll-house"}, [20, 10, 4], combatants=plated)
    assert texts(played, "attack", "critical", "damage") == [
        "Alda attacks Gob: d20 20 + 0 combat bonus + AC -11 = 9 < 19: natural 20: hit.",
        "Critical hit chart d20 10: Double Damage (Dam + Bonus, then X2).",
        "Gob takes 8 damage ((1d6 = 4) x 2), 32 HP left.",
    ]
    off = fight("holmes-phases", {"criticals": "ll-house"}, [20], combatants=plated, options={"natural_20_hits": False})
    assert texts(off, "attack") == ["Alda attacks Gob: d20 20 + 0 combat bonus + AC -11 = 9 < 19: miss."]


def test_natural_20_hits_is_the_option_of_000s_criticals_from_version_8():
    """The option goes with the module that reads it: 000's to_hit alone no longer brings it, 000's
    chart does; under version 7 it was the roll's."""
    options = {v: {m: {o.name for o in compose("holmes-phases", ((m, "ll-house"),), v).options} for m in ("to_hit", "criticals")} for v in (7, 8)}
    assert "natural_20_hits" in options[7]["to_hit"] and "natural_20_hits" not in options[7]["criticals"]
    assert "natural_20_hits" not in options[8]["to_hit"] and "natural_20_hits" in options[8]["criticals"]
    house = {m["name"]: m for m in catalogue()["ll-house"]["modules"]}  # the catalogue: as a new fight takes them
    assert house["criticals"]["options"] == ["natural_20_hits", "special_rolls"] and "natural_20_hits" not in house["to_hit"]["options"]
