"""The end-of-fight summary (issue 13, Deliver 8), in the replay body of each viewer:
rounds, who fell and to whom, damage dealt and taken, forced and table-rolled dice;
a hidden combatant's damage counts for all who read its line (tests/server/test_summary_log.py)."""

import httpx
import pytest
from support import token_of

FIGHT = {
    "options": {"sealed_declarations": False},
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 5, "hp_max": 5, "dex": 9, "x": 15, "y": 10},
        {"id": "ogre", "name": "Ogre", "side": "goblins", "ac": 12, "hp": 20, "hp_max": 20, "dex": 8, "x": 10, "y": 15, "hidden": True},
    ],
    "players": {"Ann": ["alda"]},
}


@pytest.mark.redis
async def test_the_summary_counts_rounds_falls_damage_and_dice_as_each_viewer_saw_them(fray_server, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    script = [
        {"type": "force_rolls", "values": [5, 6]},  # 003 surprise: nobody
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "ogre"}},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "declare", "actor": "ogre", "action": {"type": "hold"}},
        {"type": "force_rolls", "values": [18, 2], "sides": 20},  # Alda: d20 18 + 1 + AC 7 = 26 hits the ogre; the goblin's 2 misses
        {"type": "force_rolls", "values": [4], "sides": 6},  # her damage
        {"type": "advance"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
        {"type": "declare", "actor": "gob", "action": {"type": "hold"}},
        {"type": "declare", "actor": "ogre", "action": {"type": "hold"}},
        {"type": "force_rolls", "values": [19], "sides": 20},
        {"type": "force_rolls", "values": [6], "sides": 6},  # 6 damage: the goblin (5 HP) falls to Alda
        {"type": "advance"},
        {"type": "end"},
    ]
    for command in script:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
    await gm.until(ack["position"])
    base = f"{fray_server.url}/api/encounters/{made['id']}/replay"
    gm_summary = httpx.get(base, params={"token": token_of(made["links"]["gm"])}).json()["summary"]
    player_summary = httpx.get(base, params={"token": token_of(made["links"]["players"]["Ann"])}).json()["summary"]

    assert gm_summary["rounds"] == player_summary["rounds"] == 3  # ended as round 3's declarations opened
    assert gm_summary["fell"] == player_summary["fell"] == [{"id": "gob", "name": "Goblin", "round": 2, "by": "Alda"}]
    assert gm_summary["damage"] == [
        {"id": "ogre", "name": "Ogre", "dealt": 0, "taken": 4},
        {"id": "alda", "name": "Alda", "dealt": 10, "taken": 0},
        {"id": "gob", "name": "Goblin", "dealt": 0, "taken": 6},
    ]
    # The player's log read 'Ogre takes 4 damage (1d6).' (the hidden ogre's HP left is the GM's alone):
    # the player's summary counts what the player's log showed, the 4 too (issue 27: it used to leave them out).
    assert player_summary["damage"] == gm_summary["damage"]
    forced = [(d["sides"], d["value"], d["purpose"]) for d in gm_summary["forced"]]
    assert forced == [
        (6, 5, "surprise for party"),
        (6, 6, "surprise for goblins"),
        (20, 18, "Alda attacks Ogre"),
        (6, 4, "damage to Ogre"),
        (20, 2, "Goblin attacks Alda"),
        (20, 19, "Alda attacks Goblin"),
        (6, 6, "damage to Goblin"),
    ]
    assert gm_summary["entered"] == [] and gm_summary["seeded"] == 0
