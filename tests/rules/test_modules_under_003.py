"""Every module of every profile, played under 003's round (issue 11: 'every module of every
profile played under 003's round in a scenario with forced dice quoting the document').

Each scenario here is a `holmes-phases` encounter taking one document's modules (with what
they need), every die forced and commented with the document's numbers. `UNDER_003` names
them all; `test_every_module_of_every_profile_is_played_under_003` fails when an installed
profile has a module no scenario here takes, so a new module cannot go untested."""

import pathlib
import tomllib

import pytest
from scenes import all_forced, scenario, texts, who
from support import ROOT as REPOSITORY

from fray_table.rules.profiles import catalogue
from fray_table.rules.ruleset import RULES_VERSION, RulesUnavailable, compose, installed, modules_at
from fray_table.rules.scenario import play

ROOT = "holmes-phases"
GOLDEN_V8 = REPOSITORY / "tests" / "golden" / "v8"


def under_003(name: str, dice: list[int] | None = None, **modules: str) -> dict:
    """docs/scenarios/<name>.toml, its modules replaced by `modules` and its dice by `dice` when given."""
    data = scenario(name)
    assert data["profile"] == ROOT
    if modules:
        data["modules"] = modules
    if dice is not None:
        data["dice"] = dice
    return data


def example_under_003(**modules: str) -> dict:
    """001's worked example (docs/scenarios/challenges.toml), in a holmes-phases encounter
    taking 001's modules, with 001's weapon damage ('d8 (sword)')."""
    data = scenario("challenges")
    return {**data, "profile": ROOT, "modules": modules, "options": {**data.get("options", {}), "weapon_damage": True}}


def showcase_under_003(**modules: str) -> dict:
    """002's showcase at sea (docs/scenarios/thac0-sheet.toml), in a holmes-phases encounter taking 002's modules."""
    return {**scenario("thac0-sheet"), "profile": ROOT, "modules": modules}


def wounded_under_003(**modules: str) -> dict:
    """Alda, with a Light wound on her card, swings at Gob (AC 10): d20 2; then a save vs.
    Paralyzation's d20 14 (option save_vs_paralyzation, 14) if the chart's -9 asks for one."""
    return {
        "profile": ROOT,
        "modules": modules,
        "dice": [5, 6, 2, *([14] if modules.get("wounds") else [])],
        "combatants": [
            {
                "id": "alda",
                "name": "Alda",
                "side": "party",
                "hp": 10,
                "hp_max": 10,
                "attack_bonus": 0,
                "dex": 14,
                "x": 10,
                "y": 10,
                "conditions": ["light wound"],
            },
            {"id": "gob", "name": "Gob", "side": "goblins", "hp": 10, "hp_max": 10, "attack_bonus": 0, "ac": 10, "dex": 9, "x": 15, "y": 10},
        ],
        "commands": [{"type": "start"}, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}, {"type": "advance"}],
    }


def kicks_under_003() -> dict:
    """The table's own kick (tests/house_rules) in a holmes-phases encounter: 003's 'd20 + combat
    bonus + AC' 16 + 0 + 9 = 25 >= 19 hits; the kick chart's d6 5 is '2 damage, knocked prone'."""
    return {
        "profile": ROOT,
        "modules": {"kicks": "house-kicks"},
        "dice": [5, 6, 16, 5],
        "combatants": [
            {"id": "alda", "name": "Alda", "side": "party", "hp": 10, "hp_max": 10, "attack_bonus": 0, "x": 10, "y": 10},
            {"id": "gob", "name": "Gob", "side": "goblins", "hp": 10, "hp_max": 10, "attack_bonus": 0, "x": 15, "y": 10},
        ],
        "commands": [
            {"type": "start"},
            {"type": "declare", "actor": "alda", "action": {"type": "house", "name": "kick", "target": "gob"}},
            {"type": "advance"},
        ],
    }


def two_weapons_under_003() -> dict:
    """Rules version 8's `two_weapons` module of 000, with 000's roll it needs, in 003's round: Alda
    (a 4th-level cleric, Attack Value +1) with sword and dagger against Ukk in chain mail (AC 15)."""
    sword, dagger = {"name": "sword", "damage": "1d8", "length": 3, "weight": 3}, {"name": "dagger", "damage": "1d4", "length": 1, "weight": 1}
    return {
        "profile": ROOT,
        "modules": {"to_hit": "ll-house", "two_weapons": "ll-house"},
        "dice": [5, 6, 12, 2, 5],
        "combatants": [
            {"id": "alda", "name": "Alda", "side": "party", "pc": True, "klass": "cleric", "level": 4, "armor": "chain mail", "hp": 9, "hp_max": 9}
            | {"dex": 14, "x": 10, "y": 10, "weapons": [sword, dagger]},
            {"id": "ukk", "name": "Ukk", "side": "orcs", "armor": "chain mail", "hp": 8, "hp_max": 8, "attack_bonus": 0, "dex": 9, "x": 15, "y": 10}
            | {"weapons": [sword]},
        ],
        "commands": [
            {"type": "start"},
            {"type": "declare", "actor": "alda", "action": {"type": "two_weapons", "target": "ukk", "weapon": 0, "off_hand": 1}},
            {"type": "advance"},
        ],
    }


# Every scenario played below, by name: the modules each takes are what the coverage test reads.
UNDER_003 = {
    "challenges-under-003": lambda: under_003("challenges-under-003"),
    "challenges-under-003, no wounds": lambda: under_003("challenges-under-003", to_hit="challenges", initiative="challenges"),
    # round 2 in DEX order: Alda's d20 14 and d6 4 first, then Gob's d20 9 and d6 4
    "challenges-under-003, 003's initiative": lambda: under_003(
        "challenges-under-003", [5, 6, 4, 13, 3, 14, 4, 9, 4], to_hit="challenges", wounds="challenges"
    ),
    "001's example under 003": lambda: example_under_003(to_hit="challenges", wounds="challenges", initiative="challenges"),
    "a wounded save under 003": lambda: wounded_under_003(to_hit="challenges", wounds="challenges"),
    "a wound on a card, no wounds module": lambda: wounded_under_003(to_hit="challenges"),
    "ll-house-under-003": lambda: under_003("ll-house-under-003"),
    "ll-house-maneuvers-under-003": lambda: under_003("ll-house-maneuvers-under-003"),
    "thac0-sheet-under-003": lambda: under_003("thac0-sheet-under-003"),
    "002's showcase under 003": lambda: showcase_under_003(to_hit="thac0-sheet", striking="thac0-sheet", wrestling="thac0-sheet", naval="thac0-sheet"),
    "kicks under 003": lambda: kicks_under_003(),
    "two weapons under 003": lambda: two_weapons_under_003(),
    # rules version 8: 000's parry, shield bash and sacrifice on 003's own roll (its golden stream's scenario)
    "shield under 003": lambda: tomllib.loads((GOLDEN_V8 / "shield-under-003.toml").read_text()),
}


def played(name: str):
    data = UNDER_003[name]()
    done = play(data)
    assert all_forced(done, data["dice"])
    return done


# --- challenges (001): to_hit, wounds, initiative ---------------------------------------------


def test_001s_chart_wounds_and_initiative_in_003s_round():
    """001's Attack Chart: '-8 Miss and automatically lose initiative next round'; '+3 A strong
    Hit for +2 points of damage that also inflicts a Light wound (-1 to attack rolls, etc.)';
    '-1 A weak Hit for normal damage -2 points'; '+1 A strong Hit for +1 point of damage'."""
    fight = played("challenges-under-003")
    assert texts(fight, "attack", "initiative", "damage", "wound") == [
        "Alda attacks Gob: d20 4 + 0 attack bonus - AC 12 = Attack Result -8: Miss and automatically lose initiative next round.",
        "Alda automatically loses initiative in round 2: last in each phase.",
        "Gob attacks Alda: d20 13 + 0 attack bonus - AC 10 = Attack Result +3: A strong Hit for +2 points of damage that also inflicts a Light wound.",
        "Alda takes 5 damage (1d6 rolled 3, +2 strong Hit), 5 HP left.",
        "Alda suffers a Light wound (-1 to attack rolls and saves); now light wound -1.",
        # round 2: Gob first, Alda having lost the initiative (003's DEX order would put Alda, 14, before Gob, 9)
        "Gob attacks Alda: d20 9 + 0 attack bonus - AC 10 = Attack Result -1: A weak Hit for normal damage -2 points (minimum 1 point).",
        "Alda takes 2 damage (1d6 rolled 4, -2, minimum 1), 3 HP left.",
        "Alda attacks Gob: d20 14 + 0 attack bonus - 1 light wound - AC 12 = Attack Result +1: A strong Hit for +1 point of damage.",
        "Gob takes 5 damage (1d6 rolled 4, +1 strong Hit), 5 HP left.",
    ]
    assert (who(fight, "alda").hp, who(fight, "gob").hp) == (3, 5)
    assert who(fight, "alda").conditions == ["light wound"]  # the lost initiative lapsed with round 2


def test_001s_chart_without_its_wounds_deals_the_hits_damage_and_no_wound():
    """The same dice with 001's to_hit and no `wounds`: the +3 is 'A strong Hit for +2 points of
    damage' and nothing more, so Alda's round-2 roll is 14 + 0 - 12 = +2, '+2 points of damage'."""
    fight = played("challenges-under-003, no wounds")
    assert texts(fight, "wound") == []
    attacks = texts(fight, "attack")
    assert attacks[1] == "Gob attacks Alda: d20 13 + 0 attack bonus - AC 10 = Attack Result +3: A strong Hit for +2 points of damage."
    assert attacks[3] == "Alda attacks Gob: d20 14 + 0 attack bonus - AC 12 = Attack Result +2: A strong Hit for +2 points of damage."
    assert (who(fight, "alda").hp, who(fight, "gob").hp, who(fight, "alda").conditions) == (3, 4, [])


def test_001s_chart_with_003s_initiative_keeps_dexterity_order():
    """Without 001's `initiative`, round 2 goes in 003's 'Dexterity order': Alda (DEX 14) first."""
    fight = played("challenges-under-003, 003's initiative")
    assert [line.split(" attacks ")[0] for line in texts(fight, "attack")] == ["Alda", "Gob", "Alda", "Gob"]
    assert texts(fight, "initiative") == ["Alda would lose initiative in round 2, but this encounter keeps 003's Dexterity order, which no miss changes."]
    assert (who(fight, "alda").hp, who(fight, "gob").hp) == (3, 5)
    assert who(fight, "alda").conditions == ["light wound"]


def test_001s_worked_example_plays_alike_in_003s_round():
    """001's example, taken into a holmes-phases encounter with its three modules, logs every
    line as under the challenges profile (docs/scenarios/challenges.toml): 'Gnoll 2 ... suffer a
    Light Wound (-1 on to-hit rolls, saves, etc.)', '13+3-16=0 ... knocking that 0 to a -1'."""
    fight = played("001's example under 003")
    own = play(scenario("challenges"))
    assert texts(fight)[1:] == texts(own)[1:]  # all but 'Encounter created (profile)'
    assert "Gnoll 2 suffers a Light wound (-1 to attack rolls and saves); now light wound -1." in texts(fight, "wound")
    assert (
        "Gnoll 2 attacks Dulcia the Mighty: d20 13 + 3 attack bonus - 1 light wound - AC 16 = Attack Result -1: "
        "A weak Hit for normal damage -2 points (minimum 1 point)." in texts(fight, "attack")
    )


def test_a_wound_counts_against_the_save_001s_minus_9_asks_for():
    """001: 'a Light wound (-1 to attack rolls, etc.)', the example's '-1 on to-hit rolls, saves,
    etc.': d20 2 + 0 - 1 - AC 10 = -9, 'Miss clumsily, roll save vs. Paralyzation or drop weapon,
    thereby forfeiting next attack'; the save's d20 14 - 1 = 13 < 14 fails and the sword drops."""
    fight = played("a wounded save under 003")
    assert texts(fight, "attack", "save", "weapon") == [
        "Alda attacks Gob: d20 2 + 0 attack bonus - 1 light wound - AC 10 = Attack Result -9: "
        "Miss clumsily, roll save vs. Paralyzation or drop weapon, thereby forfeiting next attack.",
        "Alda saves vs. Paralyzation: d20 14 - 1 light wound = 13 < 14: failed.",
        "Alda drops the sword, forfeiting the next attack to pick it up or draw another weapon.",
    ]
    assert who(fight, "alda").weapons[0].dropped


def test_a_wound_on_a_card_costs_nothing_without_001s_wounds():
    """The same swing with 001's chart and no `wounds`: 2 + 0 - 10 = -8, 'Miss and automatically lose
    initiative next round' (and 003's order keeps DEX), no save."""
    fight = played("a wound on a card, no wounds module")
    assert texts(fight, "attack", "save") == [
        "Alda attacks Gob: d20 2 + 0 attack bonus - AC 10 = Attack Result -8: Miss and automatically lose initiative next round."
    ]
    assert not who(fight, "alda").weapons[0].dropped and who(fight, "alda").conditions == ["light wound"]


def test_001s_wounds_need_its_chart():
    """Only 001's chart inflicts its wounds: taken with another to_hit, they are refused with a sentence."""
    why = "001's wounds are what its attack chart's strong and mighty Hits inflict (an Attack Result of +3 or more)"
    with pytest.raises(RulesUnavailable) as refused:
        compose(ROOT, (("wounds", "challenges"),))
    assert str(refused.value) == f"challenges' 'wounds' cannot be combined with holmes-phases 'to_hit': {why}"
    with pytest.raises(ValueError, match="^scenario: challenges' 'wounds' cannot be combined with thac0-sheet 'to_hit'"):
        play({"profile": ROOT, "modules": {"wounds": "challenges", "to_hit": "thac0-sheet"}})
    listed = {m["name"]: m for m in catalogue()["challenges"]["modules"]}
    assert listed["wounds"]["needs"] == ["to_hit"] and listed["wounds"]["why"] == why
    assert listed["wounds"]["options"] == ["wound_penalties", "wound_slows"] and listed["wounds"]["replaces"] is None
    assert "Light wound (-1 to attack rolls, etc.)" in listed["wounds"]["help"]
    assert {o.name for o in compose(ROOT, (("to_hit", "challenges"), ("wounds", "challenges"))).options} >= {"wound_penalties", "wound_slows"}
    assert not {"wound_penalties", "wound_slows"} & {o.name for o in compose(ROOT, (("to_hit", "challenges"),)).options}


# --- ll-house (000): criticals, fumbles, dying; to_hit, routine, maneuvers ----------------------


def test_000s_charts_on_003s_roll():
    """003's roll ('d20 + combat bonus + AC' reaching 19) with 000's charts: '10— Double Damage
    (Dam +Bonus, then X2)' on 003's 1-6; the fumble table's '4—accidentally harm self for 1-2 HP';
    the death and dying chart's '10-11=Bleeding out. Roll 1d6+Con Bonus, you linger for this number
    of round and then you die' for a PC at 0 HP."""
    fight = played("ll-house-under-003")
    assert texts(fight, "attack", "critical", "fumble", "damage", "down") == [
        "Alda attacks Ukk: d20 20 + 0 combat bonus + AC 9 = 29 ≥ 19: hit.",
        "Critical hit chart d20 10: Double Damage (Dam + Bonus, then X2).",
        "Ukk takes 6 damage ((1d6 = 3) x 2), 4 HP left.",
        "Ukk attacks Alda: d20 1 + 0 combat bonus + AC 7 = 8 < 19: miss.",
        "Fumble table d6 4: Ukk accidentally harms self for 1-2 HP.",
        "Ukk takes 2 damage (fumble), 2 HP left.",
        "Alda attacks Ukk: d20 5 + 0 combat bonus + AC 9 = 14 < 19: miss.",
        "Ukk attacks Alda: d20 18 + 0 combat bonus + AC 7 = 25 ≥ 19: hit.",
        "Alda takes 6 damage (1d6), -1 HP left.",
        "Alda falls: death and dying d20 10: Bleeding out. Lingers 2 round(s) (1d6+0 Con bonus) and dies at the end of round 4, "
        "unless the wound is staunched (DC11).",
    ]
    assert (who(fight, "alda").hp, who(fight, "ukk").hp) == (-1, 2)
    assert who(fight, "alda").down and not texts(fight, "weapon")  # 000's chart in place of 003's crushing-blow save


def test_000s_roll_extra_attack_and_shield_in_003s_round():
    """000: 'Attack Value' +1 for a 'CLERIC/THIEF LEVEL 4-5' against the armor chart's chain mail
    (AC 15; 16 with a shield); 'EXTRA ATTACK ... one more attack per combat round'; 'SHIELD
    SACRIFICE': Alda is asked, and keeps it; 'SHIELD BASH ... the victim takes 1d3 damage. A roll
    of 20 means the victim is also knocked down and loses 1 round'."""
    fight = played("ll-house-maneuvers-under-003")
    assert texts(fight, "attack") == [
        "Alda attacks Ukk: d20 14 + 1 attack value = 15 ≥ AC 15: hit.",
        "Alda attacks Ukk: d20 3 + 1 attack value = 4 < AC 15: miss.",
        "Ukk attacks Alda: d20 16 + 0 attack value = 16 ≥ AC 16: hit.",
        "Alda shield-bashes Ukk: d20 20 + 1 attack value = 21 ≥ AC 15: hit.",
    ]
    lines = texts(fight)
    assert "Alda may sacrifice the shield against 5 damage." in lines and "Alda keeps the shield." in lines
    assert "Alda rolls 2 damage against Ukk (1d3 2); d20 20 knocks it down." in lines and "Ukk cannot act (knocked down)." in lines
    alda, ukk = who(fight, "alda"), who(fight, "ukk")
    assert (alda.hp, alda.ac, alda.shield, ukk.hp, ukk.ac) == (4, 16, True, 2, 15)


@pytest.mark.parametrize("module", ["routine", "maneuvers"])
def test_000s_routine_and_maneuvers_need_its_roll_under_version_7(module):
    with pytest.raises(RulesUnavailable, match=f"^ll-house's '{module}' cannot be combined with holmes-phases 'to_hit': "):
        compose(ROOT, ((module, "ll-house"),), 7)


def test_000s_routine_and_two_weapons_still_need_its_roll():
    """From rules version 8 two weapons is a module of its own, refused under 003's roll with why:
    000's 'Two Weapon Fighting gives you a +2 to your Hit roll ... you must roll another die to
    determine which weapon you struck with' is 000's roll, and 003 has its own: 'A character
    wielding two weapons may choose which he will attack with each round'."""
    with pytest.raises(RulesUnavailable, match="^ll-house's 'routine' cannot be combined with holmes-phases 'to_hit': "):
        compose(ROOT, (("routine", "ll-house"),))
    with pytest.raises(RulesUnavailable) as refused:
        compose(ROOT, (("two_weapons", "ll-house"),))
    assert str(refused.value).startswith("ll-house's 'two_weapons' cannot be combined with holmes-phases 'to_hit': its strikes are 000's own attack roll's")
    assert "'A character wielding two weapons may choose which he will attack with each round'" in str(refused.value)


@pytest.mark.parametrize("to_hit, whose", [("thac0-sheet", "thac0-sheet's"), ("challenges", "challenges'")])
def test_000s_maneuvers_need_a_roll_that_asks_for_them(to_hit, whose):
    """001's and 002's rolls ask for no parry or shield sacrifice of another module: refused, naming why."""
    with pytest.raises(RulesUnavailable) as refused:
        compose(ROOT, (("maneuvers", "ll-house"), ("to_hit", to_hit)))
    assert str(refused.value) == (
        f"ll-house's 'maneuvers' cannot be combined with {whose} 'to_hit': 000's parry and shield sacrifice come into 003's roll "
        "through its hooks parry and land, and 000's roll has its own; 001's and 002's rolls ask neither"
    )


def test_000s_parry_shield_bash_and_sacrifice_on_003s_roll():
    """Rules version 8, 003's round with 000's maneuvers: PARRY 'Add 2 to your AC for this round'
    (2 off 003's sum, no disarm or counter); SHIELD BASH 'Make a normal attack roll' (003's 'd20 +
    combat bonus + AC' reaching 19), 'the victim takes 1d3 damage. A roll of 20 means the victim
    is also knocked down and loses 1 round'; SHIELD SACRIFICE 'roll 1d4, subtract that from the
    Attacker's Damage', 'This move shatters your shield beyond use, altering your AC'."""
    fight = played("shield under 003")
    assert texts(fight, "attack") == [
        "Ukk attacks Alda: d20 15 + 0 combat bonus - 2 parry + AC 5 = 18 < 19: miss.",
        "Alda shield-bashes Ukk: d20 20 + 1 combat bonus + AC 6 = 27 ≥ 19: hit.",
        "Alda attacks Ukk: d20 9 + 1 combat bonus + AC 6 = 16 < 19: miss.",
        "Ukk attacks Alda: d20 16 + 0 combat bonus + AC 5 = 21 ≥ 19: hit.",
    ]
    assert texts(fight, "parry") == []  # 000's parry is AC alone: no disarm, no counter-attack
    lines = texts(fight)
    assert "Alda rolls 2 damage against Ukk (1d3 2); d20 20 knocks it down." in lines and "Ukk cannot act (knocked down)." in lines
    assert texts(fight, "shield") == [
        "Alda may sacrifice the shield against 5 damage.",
        "Alda sacrifices the shield: 1d4 3; 5 - 3 = 2 damage.",
        "Alda loses the shield (shattered beyond use): its AC 5 → 6.",
    ]
    alda, ukk = who(fight, "alda"), who(fight, "ukk")
    assert (alda.hp, alda.shield, ukk.hp) == (7, False, 6)


def test_000s_two_weapons_with_its_roll_in_003s_round():
    """000: 'Two Weapon Fighting gives you a +2 to your Hit roll, in addition to your normal Attack
    Value' (12 + 1 + 2 = 15 >= AC 15); 'you must roll another die to determine which weapon you
    struck with. If you roll an Even number then you hit with your Main Hand Weapon'; 003's 1-6."""
    fight = played("two weapons under 003")
    assert texts(fight, "attack", "hit") == [
        "Alda attacks with two weapons Ukk: d20 12 + 1 attack value + 2 two weapons = 15 ≥ AC 15: hit.",
        "Which weapon: d6 2, even: the main hand (sword).",
        "Alda rolls 5 damage against Ukk (1d6 5).",
    ]
    assert who(fight, "ukk").hp == 3


def test_000s_maneuvers_under_003s_roll_are_refused_under_version_7():
    """A fight of rules version 7 keeps what its table could do: the combination is refused at creation."""
    with pytest.raises(ValueError, match="the shield bash and two weapons are rolled on 000's own attack roll"):
        play({**UNDER_003["shield under 003"](), "rules_version": 7})


# --- thac0-sheet (002): striking, wrestling; to_hit, naval ---------------------------------------


def test_002s_striking_and_wrestling_in_003s_round():
    """003's roll for Pete's club (a normal man's -1 from 002's hit table, which 003 reads); 002's
    'Striking': 'THAC0 - AC' 17 - 7 = H 10, 'Damage is 1 + δS', 'Stunned if t = 1d20 - C' > 0 ...
    SvDR +4 - δS or knocked out for t rounds'; 'Wrestling': '1d20 + w' against each other."""
    fight = played("thac0-sheet-under-003")
    assert texts(fight, "attack", "damage", "strike", "wrestle") == [
        "Pete attacks Alda: d20 16 - 1 combat bonus + AC 4 = 19 ≥ 19: hit.",
        "Alda takes 3 damage (1d6), 7 HP left.",
        "Alda strikes Pete: THAC0 17 - AC 7 = H 10; d20 12 ≥ 10: hit.",
        "Pete takes 2 damage (1 + 1 δS), 8 HP left.",
        "Pete is knocked out for 6 rounds (t = d20 15 - C' 9 = 6): SvDR d20 9 + 3 = 12 < 14.",
        "Ogre wrestles Alda: d20 11 + w 13 (2 x HD 4 + basic AC 5) = 24 against d20 6 + w 12 "
        "(ceil(L 4/2) 2 + δS 1 + δD 0 + basic AC 9) = 18: Ogre wins, a grab on Alda.",
    ]
    assert (who(fight, "alda").hp, who(fight, "pete").hp) == (7, 8)
    assert "knocked out" in who(fight, "pete").conditions


def test_002s_wrestling_replaces_003s_grappling():
    data = under_003("thac0-sheet-under-003")
    data["commands"].insert(2, {"type": "declare", "actor": "alda", "action": {"type": "grapple", "target": "pete"}})
    assert "declare/replaced" in [e.code for e in play(data).log if e.kind == "rejected"]


def test_002s_showcase_at_sea_plays_alike_in_003s_round():
    """002's showcase, taken into a holmes-phases encounter with its four modules, logs every line
    as under the thac0-sheet profile: 'THAC0 12 - AC 7 = H 5', '18 hit points (4d6) / 5', 'Boarding:
    -2 on hit rolls'."""
    fight = played("002's showcase under 003")
    own = play(scenario("thac0-sheet"))
    assert texts(fight)[1:] == texts(own)[1:]
    assert "Galley takes 3 hull points (18 hit points (4d6) / 5, rounded down), 27 HP left." in texts(fight, "damage")
    assert "Alda boards and attacks Pete: THAC0 17 - AC 7 = H 10; d20 12 - 2 boarding = 10 ≥ 10: hit." in texts(fight, "attack")


def test_002s_naval_needs_its_roll():
    """Under another roll a blow on a vessel would be plain hit points: refused with the reason."""
    with pytest.raises(RulesUnavailable) as refused:
        compose(ROOT, (("naval", "thac0-sheet"),))
    assert str(refused.value) == (
        "thac0-sheet's 'naval' cannot be combined with holmes-phases 'to_hit': 002's blows on a hull "
        "('1 hull point for each 5 hit points') and the boarding round's -2 are reckoned in 002's own roll"
    )


# --- a table's own package (tests/house_rules) ---------------------------------------------------


def test_the_house_kick_in_003s_round():
    if "house-kicks" not in installed():
        pytest.skip("tests/house_rules is not installed (pip install ./tests/house_rules)")
    fight = played("kicks under 003")
    assert texts(fight, "attack", "kick") == ["Alda kicks Gob: d20 16 + 0 combat bonus + AC 9 = 25 ≥ 19: hit.", "Kick chart d6 5: 2 damage, knocked prone."]
    assert who(fight, "gob").hp == 8 and "prone" in who(fight, "gob").conditions


# --- every module is played ---------------------------------------------------------------------


def test_every_module_of_every_profile_is_played_under_003():
    """Each module of each installed profile but the root is taken, from its profile, by a
    holmes-phases scenario played here."""
    taken = set()
    for make in UNDER_003.values():
        data = make()
        assert data["profile"] == ROOT
        taken |= {(module, source) for module, source in data["modules"].items()}
    wanted = {(m.name, p.name) for p in installed().values() if p.name != ROOT for m in (*p.modules, *modules_at(p, RULES_VERSION))}
    assert sorted(wanted - taken) == []
    source = pathlib.Path(__file__).read_text()
    assert [name for name in UNDER_003 if f'played("{name}")' not in source] == []  # each is played by a test above
