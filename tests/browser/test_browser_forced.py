"""Forced dice by die in real Chromium (issue 13, Deliver 4): the GM types
"d20: 20, 17; d6: 3", sees each value and the roll it will feed, and clears them."""

import pytest
from pages import Pages
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ]
}


def test_browser_gm_queues_dice_by_kind_sees_what_each_feeds_and_clears_them(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    expect(gm.get_by_test_id("clear-forced")).to_be_disabled()
    gm.get_by_test_id("force-input").fill("d20: 20, 17; d6: 3; 5 6")
    gm.get_by_test_id("force-rolls").click()
    expect(gm.get_by_test_id("forced-by-die")).to_have_text("d6: 3 (the next d6); d20: 20 (the next d20), 17 (the 2nd d20)")
    expect(gm.get_by_test_id("forced-queue")).to_have_text("5, 6")
    gm.get_by_test_id("force-input").fill("d6: 7")
    gm.get_by_test_id("force-rolls").click()
    expect(gm.get_by_test_id("toast").last).to_contain_text("A d6 shows whole numbers from 1 to 6.")
    gm.get_by_test_id("clear-forced").click()
    expect(gm.get_by_test_id("forced-by-die")).to_have_text("none")
    expect(gm.get_by_test_id("forced-queue")).to_have_text("none")
    expect(gm.get_by_test_id("log")).to_contain_text("GM clears every forced result.")
    expect(gm.get_by_test_id("clear-forced")).to_be_disabled()
    assert not table.problems, table.problems
