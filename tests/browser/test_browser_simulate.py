"""'How deadly is this fight?' in the GM console, in real Chromium: the server plays the
fight many times (server/simulate.py) and the page shows each side's odds."""

import json
import re

import pytest
from pages import Pages
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Alda (100 HP) against a 1-HP goblin: she cannot lose, the goblin cannot win.
FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 100, "hp_max": 100, "attack_bonus": 0, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 11, "hp": 1, "hp_max": 1, "dex": 9, "x": 15, "y": 10},
    ]
}


def test_browser_gm_asks_how_deadly_the_fight_is(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    section = gm.get_by_test_id("simulate-section")
    section.locator("summary").click()
    expect(gm.locator("#simulate-tactic-goblins")).to_be_visible()
    gm.locator("#simulate-tactic-goblins").select_option("weakest")
    gm.get_by_test_id("simulate-runs").select_option("200")
    gm.locator('[data-options="goblins"]').check()  # the goblins use the attack options their rules offer
    with gm.expect_request(lambda r: "/simulate" in r.url) as asked:
        gm.get_by_test_id("simulate-go").click()
    assert json.loads(asked.value.post_data or "{}")["sides"] == {"goblins": {"tactic": "weakest", "options": True}, "party": {"tactic": "nearest"}}
    expect(gm.get_by_test_id("simulate-odds-party")).to_have_text(
        re.compile(r"^party wins 100\.0% of the fights \(95% interval 98\.\d% to 100\.0%\)$"), timeout=30_000
    )
    expect(gm.get_by_test_id("simulate-odds-goblins")).to_have_text(re.compile(r"^goblins wins 0\.0% of the fights"))
    expect(gm.get_by_test_id("simulate-summary")).to_have_text(re.compile(r"^200 fights, \d+\.\d rounds on average \(\d+ to \d+\)\.$"))
    table.check()
