"""Unseen combatants in real Chromium (issue 13, Deliver 1): the GM's page shows the
ambusher's card with an "unseen" badge and a reveal button; the player's page has no
card, no token and no target for it, and no "hidden" badge anywhere; one click reveals it."""

import pytest
from pages import Pages
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10, "hidden": True},
        {"id": "lurk", "name": "Grimsby", "side": "goblins", "ac": 13, "hp": 7, "hp_max": 7, "x": 20, "y": 10, "hidden": True, "unseen": True},
    ]
}


def test_browser_an_unseen_combatant_is_off_the_players_page_until_the_gm_reveals_it(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(made["links"]["players"]["alda"], "player")
    expect(gm.get_by_test_id("combatant-lurk")).to_contain_text("unseen by the table")
    expect(gm.get_by_test_id("combatant-gob")).to_contain_text("figures hidden")
    expect(gm.get_by_test_id("token-lurk")).to_have_class("token side-1 unseen")  # drawn faint on the GM's map alone
    expect(player.get_by_test_id("combatant-gob")).to_have_count(1)
    expect(player.get_by_test_id("combatant-lurk")).to_have_count(0)
    expect(player.get_by_test_id("token-lurk")).to_have_count(0)
    expect(player.locator("body")).not_to_contain_text("Grimsby")
    expect(player.get_by_test_id("combatants")).not_to_contain_text("hidden")  # no badge outside the GM's page

    gm.get_by_test_id("reveal-lurk").click()
    expect(player.get_by_test_id("combatant-lurk")).to_have_count(1)
    expect(player.get_by_test_id("token-lurk")).to_have_count(1)
    expect(player.get_by_test_id("hp-lurk")).to_have_text("unhurt")  # its figures stay hidden
    expect(player.get_by_test_id("log")).to_contain_text("The GM reveals Grimsby.")
    expect(gm.get_by_test_id("reveal-lurk")).to_have_count(0)
    expect(gm.get_by_test_id("token-lurk")).to_have_class("token side-1")
    expect(gm.get_by_test_id("combatant-lurk")).to_contain_text("figures hidden")
    assert not table.problems, table.problems
