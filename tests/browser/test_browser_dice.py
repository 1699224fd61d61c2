"""Option physical_dice in the page: the player is asked for the real die, types
it, and the round resolves with it. Numbers from 003."""

import json
import uuid

import pytest
from pages import Pages, screenshot
from playwright.sync_api import expect
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

FIGHT = {
    "options": {"physical_dice": "players"},
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10, "pc": True},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 6, "hp_max": 6, "dex": 9, "x": 15, "y": 10},
    ],
}


def gm_commands(server, link: str, commands: list[dict]) -> None:
    with connect(server.ws_url(link), open_timeout=10) as ws:
        json.loads(ws.recv(timeout=10))  # welcome
        for command in commands:
            command_id = uuid.uuid4().hex
            ws.send(json.dumps({"type": "command", "id": command_id, "command": command}))
            for _ in range(50):
                reply = json.loads(ws.recv(timeout=10))
                if reply.get("id") == command_id:
                    break
            assert reply["type"] == "ack", reply


def test_browser_player_enters_the_real_dice(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    player = table.open(made["links"]["players"]["alda"], "player", width=390)
    gm_commands(
        fray_server,
        made["links"]["gm"],
        [
            {"type": "force_rolls", "values": [5, 5]},  # surprise: nobody (003: 1-2 on a d6)
            {"type": "start"},
            {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
            {"type": "declare", "actor": "gob", "action": {"type": "hold"}},
            {"type": "advance"},
        ],
    )
    prompt = player.get_by_test_id("awaiting")
    expect(prompt).to_contain_text("Roll a d20 at the table")
    player.get_by_test_id("die-input").fill("25")  # no d20 shows 25: refused in the page, nothing sent
    player.get_by_test_id("die-submit").click()
    expect(prompt).to_contain_text("Roll a d20 at the table")
    player.get_by_test_id("die-input").fill("12")  # 12 + 1 + descending AC 6 = 19: a hit
    player.get_by_test_id("die-input").press("Enter")
    expect(prompt).to_contain_text("Roll a d6 at the table")
    screenshot(player, "dice-prompt-phone.png")
    player.get_by_test_id("die-input").fill("4")
    player.get_by_test_id("die-submit").click()
    expect(player.get_by_test_id("round")).to_have_text("2")
    expect(prompt).to_be_hidden()
    expect(player.get_by_test_id("hp-gob")).to_have_text("2/6")
    log = player.get_by_test_id("log")
    expect(log).to_contain_text("d20 → 12 rolled at the table")
    expect(log).to_contain_text("Goblin takes 4 damage")
    table.check()
