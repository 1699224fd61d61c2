"""Issue 27, item 3, in real Chromium: after an undo, the log and the cards agree on every
page. The GM's mistaken HP edit (Goblin 1 at 7) is undone after Alda hit it for 4
('3 HP left'); judged again, the 4 takes its real 4 HP, so its card shows it down, and the
undo's own line says so on the GM's page and on the player's and spectator's (hidden
figures: no HP for them). The same script over websockets alone: tests/server/test_undo_log.py."""

import re

import pytest
from pages import Pages
from playwright.sync_api import expect
from test_browser_replay import send
from test_undo_log import SCRIPT, fight
from websockets.sync.client import connect

pytestmark = pytest.mark.browser


def test_browser_after_an_undo_each_page_says_what_the_card_shows(fray_server, table: Pages) -> None:
    made = fray_server.create(fight(hidden=True))
    with connect(fray_server.ws_url(made["links"]["gm"]), open_timeout=10) as ws:
        for command in SCRIPT:
            send(ws, command)
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(made["links"]["players"]["Ann"], "player", width=390)
    spectator = table.open(made["links"]["spectator"], "spectator")
    before = gm.get_by_test_id("log-entry").filter(has_text="Goblin 1 takes 4 damage (1d6), 3 HP left.")
    expect(before).to_have_count(1)
    expect(gm.get_by_test_id("hp-gob1")).to_have_text("3/8")

    edit = gm.locator('[data-testid=log-entry][data-seq="6"]')
    undo = edit.get_by_role("button", name=re.compile("Undo"))
    undo.click()
    undo.click()  # an undo asks first (item 8): the second press sends it
    expect(gm.get_by_test_id("log-entry").filter(has_text="After the undo, Goblin 1: 0 HP (was 3), down.")).to_have_count(1)
    expect(gm.get_by_test_id("hp-gob1")).to_have_text("0/8")
    for page in (player, spectator):  # Goblin 1's figures are hidden: its fall, not its HP
        expect(page.get_by_test_id("log-entry").filter(has_text="After the undo, Goblin 1: down.")).to_have_count(1)
        expect(page.get_by_test_id("hp-gob1")).to_have_text("down")
        expect(page.get_by_test_id("log-entry").filter(has_text="0 HP (was 3)")).to_have_count(0)
    table.check()
