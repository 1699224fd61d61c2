"""Issue 21, 'Moving on, by choice', in real Chromium: the GM console of a fight created
under the rules version before today's offers 'Play on under today's rules'; two clicks
send upgrade_rules, the log says so, and the offer goes. A fight of today's rules, and a
player's page, have no such offer."""

import pytest
from pages import Pages
from playwright.sync_api import expect
from support import FrayServer

from fray_table.rules import RULES_VERSION

pytestmark = [pytest.mark.browser, pytest.mark.redis]
FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ]
}


@pytest.fixture(scope="module")
def older_server(redis_url, tmp_path_factory):
    server = FrayServer(redis_url, tmp_path_factory.mktemp("older"), env={"FRAY_RULES_VERSION": str(RULES_VERSION - 1)})
    yield server
    server.stop()


def test_browser_gm_plays_an_older_fight_on_under_todays_rules(fray_server, older_server, table: Pages) -> None:
    made = older_server.create(FIGHT)  # created under the version before today's, served by today's
    link = made["links"]["gm"].replace(older_server.url, fray_server.url)
    gm = table.open(link, "gm")
    player = table.open(made["links"]["players"]["alda"].replace(older_server.url, fray_server.url), "player", width=390)
    box = gm.get_by_test_id("upgrade-rules-box")
    expect(box).to_be_visible()
    expect(gm.get_by_test_id("upgrade-note")).to_have_text(
        f"This fight is played under the rules of version {RULES_VERSION - 1}, as it was created; this server's are version {RULES_VERSION}."
    )
    expect(player.get_by_test_id("upgrade-rules-box")).to_have_count(0)
    gm.get_by_test_id("upgrade-rules").click()
    expect(gm.get_by_test_id("upgrade-rules")).to_have_text("Really? Click again: the log will say so")
    gm.get_by_test_id("upgrade-rules").click()
    line = f"The GM moves the fight on to rules version {RULES_VERSION} (it was played under version {RULES_VERSION - 1})"
    expect(gm.get_by_test_id("log-entry").filter(has_text=line)).to_have_count(1)
    expect(player.get_by_test_id("log-entry").filter(has_text=line)).to_have_count(1)
    expect(box).to_be_hidden()
    gm.reload()
    expect(gm.get_by_test_id("connection")).to_have_text("live")
    expect(gm.get_by_test_id("upgrade-rules-box")).to_be_hidden()
    table.check()


def test_browser_a_fight_of_todays_rules_offers_no_move(fray_server, table: Pages) -> None:
    gm = table.open(fray_server.create(FIGHT)["links"]["gm"], "gm")
    expect(gm.get_by_test_id("start")).to_be_visible()
    expect(gm.get_by_test_id("upgrade-rules-box")).to_be_hidden()
    table.check()
