"""'Monsters on tactics' in the GM console, in real Chromium: the GM hands the goblins
to a tactic (server/handover.py), the bot declares for them as soon as declarations
open, marked in the log; the GM changes one, resolves, and takes the side back."""

import re

import pytest
from pages import Pages, declare, gm_advance, gm_force, until_round
from playwright.sync_api import APIResponse, Route, expect

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


def test_browser_hand_over_waits_for_the_tactics_and_a_late_listing_undoes_nothing(fray_server, table: Pages) -> None:
    """The console asks for the tactics as the section opens. Until they are listed, 'Hand
    over' has no tactic to name and is disabled (a GM quicker than the server once sent
    none and got nobody on tactics). A listing asked for before a hand-over that arrives
    after it does not wipe the hand-over from the list."""
    made = fray_server.create()
    gm = table.open(made["links"]["gm"], "gm")
    held: list[tuple[Route, APIResponse]] = []  # a listing and the answer it had when asked

    def hold_the_first_listing(route: Route) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    gm.route(re.compile(r"/api/encounters/[^/?]+/tactics\?"), hold_the_first_listing)
    section = gm.get_by_test_id("tactics-section")
    section.locator("summary").click()
    go = gm.get_by_test_id("tactics-go")
    for _ in range(100):  # 5 s at most
        if held:
            break
        gm.wait_for_timeout(50)
    assert held, "the section asked for no listing"
    expect(go).to_be_disabled()
    section.locator("summary").click()  # closed and opened again: a second listing, answered
    section.locator("summary").click()
    expect(go).to_be_enabled()
    gm.get_by_test_id("tactics-who").select_option("side:goblins")
    go.click()
    handed = gm.get_by_test_id("tactics-list").locator("li")
    expect(handed).to_contain_text("gob1, gob2, gob3, gob4 on tactics: nearest")
    route, answer = held[0]
    route.fulfill(response=answer)  # the first listing (nobody on tactics), from before the hand-over, arrives last
    gm.wait_for_timeout(500)
    expect(handed).to_have_count(1)
    table.check()
