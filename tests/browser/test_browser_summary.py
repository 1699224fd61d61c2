"""The end-of-fight summary in real Chromium (issue 13, Deliver 8): when the GM ends the
fight, each page shows its own summary; the hidden ogre's damage on the player's too, as
the player's log told it (issue 27)."""

import pytest
from pages import Pages
from playwright.sync_api import expect
from test_browser_replay import send
from test_summary import FIGHT
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

SCRIPT = [
    {"type": "force_rolls", "values": [5, 6]},
    {"type": "start"},
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "ogre"}},
    {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
    {"type": "declare", "actor": "ogre", "action": {"type": "hold"}},
    {"type": "force_rolls", "values": [18, 2], "sides": 20},
    {"type": "force_rolls", "values": [4], "sides": 6},
    {"type": "advance"},
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
    {"type": "declare", "actor": "gob", "action": {"type": "hold"}},
    {"type": "declare", "actor": "ogre", "action": {"type": "hold"}},
    {"type": "force_rolls", "values": [19], "sides": 20},
    {"type": "force_rolls", "values": [6], "sides": 6},
    {"type": "advance"},
]


def test_browser_each_page_shows_its_summary_when_the_fight_ends(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    with connect(fray_server.ws_url(made["links"]["gm"]), open_timeout=10) as ws:
        ws.recv(timeout=10)  # the welcome
        for command in SCRIPT:
            send(ws, command)
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(made["links"]["players"]["Ann"], "player")
    expect(gm.get_by_test_id("round")).to_have_text("3")
    expect(gm.get_by_test_id("summary")).to_be_hidden()
    gm.get_by_test_id("end").click()
    gm.get_by_test_id("end").click()  # the console asks twice
    for page in (gm, player):
        expect(page.get_by_test_id("summary-rounds")).to_have_text("3 rounds.")
        expect(page.get_by_test_id("summary-fell")).to_have_text("Goblin, in round 2, to Alda")
    expect(gm.locator("[data-testid=summary-damage] tr[data-id=alda] td")).to_have_text(["10", "0"])
    expect(gm.locator("[data-testid=summary-damage] tr[data-id=ogre] td")).to_have_text(["0", "4"])
    expect(player.locator("[data-testid=summary-damage] tr[data-id=alda] td")).to_have_text(["10", "0"])  # the ogre's 4 too: the log said so
    expect(player.locator("[data-testid=summary-damage] tr[data-id=ogre] td")).to_have_text(["0", "4"])
    expect(gm.get_by_test_id("summary-dice")).to_contain_text("7 forced by the GM: d6 5 (surprise for party)")
    assert not table.problems, table.problems
