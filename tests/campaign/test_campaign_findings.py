"""What a fight did, read off its stream as findings (rules.campaign.findings): 000's
numbers in a fight played with forced dice, then landed on the campaign's character."""

import msgspec
from campaign_support import ALDA, SYSTEM, accept_all, begin, char, run

from fray_table.rules.campaign.findings import findings
from fray_table.rules.campaign.roster import fight_sheets
from fray_table.rules.scenario import play

GOBLIN = {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10}
# surprise d6 6, 6; Alda's flask d20 15 and lit torch d20 15 (both hit); the goblin's d20 20 (a critical), crit chart 19 (triple damage and
# armor damage), damage d6 2 (x3 = 6); death and dying 15 (broken collarbone), wakes in 2d4 (3, 1); heals in 1d4+6 weeks (1); the oil burns the goblin (d6 1)
DICE = [6, 6, 15, 15, 20, 19, 2, 15, 3, 1, 1, 1]


def fight(campaign):
    sheets = fight_sheets(campaign, ["alda"])
    combatants = [{**msgspec.to_builtins(s), "x": 10, "y": 10, "dex": 18} for s in sheets] + [GOBLIN]
    commands = [
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "throw_oil", "target": "gob"}},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "advance"},
    ]
    return play({"seed": "campaign", "profile": "ll-house", "combatants": combatants, "dice": DICE, "commands": commands})


def test_a_critical_and_the_death_chart_come_back_as_findings_naming_their_event():
    campaign = begin({**ALDA, "sheet": {**ALDA["sheet"], "hp": 3, "shield": False}})
    played = fight(campaign)
    found = findings("f1", played.events, ["alda"])
    blow = next(e.seq for e in played.log if e.kind == "critical")
    throw = next(e.seq for e in played.log if e.kind == "oil")
    assert sorted((f.kind, f.name, f.value, f.days, f.event) for f in found) == sorted(
        [
            # 000, 15: 'Takes 1d4+6 weeks to heal': d4 1 + 6 = 7 weeks = 49 days
            ("condition", "broken collarbone", 0, 49, blow),
            # 000, crit 19: 'inflict permanent damage to victim's armor'
            ("armor_damage", "", 1, 0, blow),
            # 3 HP - (1d6 2) x 3
            ("hp", "", 3 - 6, 0, blow),
            ("spent", "oil", 1, 0, throw),
            ("spent", "torches", 1, 0, throw),
        ]
    )


def test_the_findings_land_only_as_the_gm_accepts_them():
    campaign = begin({**ALDA, "sheet": {**ALDA["sheet"], "hp": 3, "shield": False}})
    played = fight(campaign)
    campaign = run(campaign, {"type": "start_fight", "fight": "f1", "characters": ["alda"]}, by=SYSTEM)
    report = {"type": "report_fight", "fight": "f1", "findings": [msgspec.to_builtins(f) for f in findings("f1", played.events, ["alda"])]}
    campaign = run(campaign, report, by=SYSTEM)
    assert char(campaign, "alda").sheet.armor_damage == 0 and len(campaign.findings) == 5
    campaign = accept_all(campaign)
    alda = char(campaign, "alda")
    assert (alda.sheet.armor_damage, alda.sheet.hp, alda.gear.oil, alda.gear.torches) == (1, 0, 3 - 1, 2 - 1)
    assert [(x.name, x.days, x.fight) for x in alda.lasting] == [("broken collarbone", 49, "f1")]


def test_a_fight_copies_lasting_conditions_onto_its_sheets():
    campaign = begin({**ALDA, "lasting": [{"name": "concussion", "days": 7}]})
    (sheet,) = fight_sheets(campaign, ["alda"])
    assert sheet.id == "alda" and sheet.pc and sheet.conditions == ["concussion"]


def test_an_undone_round_leaves_nothing_to_find():
    campaign = begin({**ALDA, "sheet": {**ALDA["sheet"], "hp": 3, "shield": False}})
    sheets = fight_sheets(campaign, ["alda"])
    combatants = [{**msgspec.to_builtins(s), "x": 10, "y": 10, "dex": 18} for s in sheets] + [GOBLIN]
    played = fight(campaign)
    advance = next(e.seq for e in played.log if e.kind == "critical")  # the round's resolution: the flask, the torch, the blow
    undone = play(
        {
            "seed": "campaign",
            "profile": "ll-house",
            "combatants": combatants,
            "dice": DICE,
            "commands": [
                {"type": "start"},
                {"type": "declare", "actor": "alda", "action": {"type": "throw_oil", "target": "gob"}},
                {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
                {"type": "advance"},
                {"type": "undo", "seq": advance},
            ],
        }
    )
    assert undone.state.undone == [advance]
    assert findings("f1", undone.events, ["alda"]) == []
