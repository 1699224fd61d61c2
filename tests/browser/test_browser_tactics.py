"""'Monsters on tactics' in the GM console, in real Chromium: the GM hands the goblins
to a tactic (server/handover.py), the bot declares for them as soon as declarations
open, marked in the log; the GM changes one, resolves, and takes the side back."""

import re

import pytest
from pages import Pages, declare, gm_advance, gm_force, until_round
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TACTIC_LINE = re.compile(r"^Goblin \d \(tactics: nearest\) declares: ")


def test_browser_gm_hands_the_goblins_to_a_tactic_and_takes_them_back(fray_server, table: Pages) -> None:
    made = fray_server.create()  # the demo: three adventurers, four goblins
    gm = table.open(made["links"]["gm"], "gm")
    gm.get_by_test_id("tactics-section").locator("summary").click()
    expect(gm.get_by_test_id("tactics-tactic").locator("option")).to_have_text(["nearest", "weakest", "focus"])
    gm.get_by_test_id("tactics-who").select_option("side:goblins")
    gm.get_by_test_id("tactics-go").click()
    handed = gm.get_by_test_id("tactics-list").locator("li")
    expect(handed).to_have_count(1)
    expect(handed).to_contain_text("gob1, gob2, gob3, gob4 on tactics: nearest")

    gm_force(gm, [6, 6])  # nobody surprised
    gm.get_by_test_id("start").click()
    lines = gm.get_by_test_id("log-entry").filter(has_text=TACTIC_LINE)
    expect(lines).to_have_count(4)

    # The GM changes one goblin's declaration before resolving: the bot leaves it be.
    declare(gm, "gob1", "hold")
    expect(gm.get_by_test_id("log-entry").filter(has_text="Goblin 1 declares: hold.")).to_have_count(1)
    gm.wait_for_timeout(500)
    expect(lines).to_have_count(4)

    gm_advance(gm)
    until_round(gm, 2)
    goblins_waiting = gm.get_by_test_id("awaited").locator("li[data-testid^='awaited-gob']")
    expect(goblins_waiting).to_have_count(0)  # the bot has declared for every goblin that may act
    in_round_2 = lines.count()
    assert in_round_2 > 4

    gm.get_by_test_id("tactics-release").click()
    expect(handed).to_have_count(0)
    gm_advance(gm)
    until_round(gm, 3)
    gm.wait_for_timeout(500)
    expect(lines).to_have_count(in_round_2)  # round 3 is the GM's again
    assert goblins_waiting.count() > 0
    table.check()
