"""Findings of gear a fight used up: a shield given up to 000's shield sacrifice, and the
arrows a bow shot (hit or miss), read off a fight played with forced dice."""

import msgspec
from campaign_support import ALDA, begin

from fray_table.rules.campaign.findings import findings
from fray_table.rules.campaign.roster import fight_sheets
from fray_table.rules.scenario import play

GOBLIN = {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10}
BOW = {"name": "short bow", "damage": "1d6", "range": 150, "missile": "bow"}
# surprise 6, 6; Alda's arrow d20 5 (a miss); the goblin's d20 20 (a critical), crit chart 7 (maximum damage, and
# 'Shatter opponent's shield or weapon'); Alda sacrifices the shield first: 1d4 3 off the 6
DICE = [6, 6, 5, 20, 7, 3]


def fight(answer: str | None = None):
    campaign = begin({**ALDA, "sheet": {**ALDA["sheet"], "weapons": [{"name": "sword", "damage": "1d8"}, BOW]}})
    combatants = [{**msgspec.to_builtins(s), "x": 10, "y": 10, "dex": 18} for s in fight_sheets(campaign, ["alda"])] + [GOBLIN]
    commands = [
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "shoot", "target": "gob", "weapon": 1}},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "advance"},
    ]
    if answer is not None:
        commands.append(answer)
    return play({"seed": "gear", "profile": "ll-house", "combatants": combatants, "dice": DICE, "commands": commands})


def test_a_sacrificed_shield_and_a_shot_arrow_are_found():
    waiting = fight().state.awaiting
    assert waiting is not None and waiting.who == "alda"  # 000: 'You declare that you want to sacrifice your shield'
    choice = next(o for o in waiting.options if "sacrifice" in o)
    played = fight({"type": "answer", "awaiting": waiting.id, "choice": choice, "as": "gm"})
    found = sorted((f.kind, f.name, f.value) for f in findings("f1", played.events, ["alda"]))
    hp = next(c.hp for c in played.state.combatants if c.id == "alda")
    assert ("shield_lost", "", 0) in found and ("spent", "arrows", 1) in found
    assert ("hp", "", hp) in found and hp == 12 - (6 - 3)  # maximum 6, less the sacrifice's 1d4 3
