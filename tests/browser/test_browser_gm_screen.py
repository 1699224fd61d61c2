"""The GM screen keeps up (issue 13, Deliver 3), in real Chromium: the sticky bar with
the round's next step and who is still awaited, a confirmation before resolving with
declarations missing, the GM's prompt in the bar (answers in sentences, the tab's title,
an optional chime), declared panels folded, "the same as last round" for a side, an
undo in words, the page at phone width, and no empty scroll area under the log."""

import re

import pytest
from pages import ARTIFACTS, Pages, declare, gm_edit, gm_force, overflowing, screenshot
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SWORD = {"name": "sword", "damage": "1d8", "length": 3, "weight": 3}
DAGGER = {"name": "dagger", "damage": "1d4", "length": 1, "weight": 1}
FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10, "weapons": [SWORD], "move": 20},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10, "weapons": [DAGGER]},
        {"id": "gob2", "name": "Goblin 2", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 8, "x": 50, "y": 30, "weapons": [DAGGER]},
    ],
    "players": {"Alda's player": ["alda"]},
}


def test_browser_gm_bar_leads_the_round(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(made["links"]["players"]["Alda's player"], "player", width=390)
    bar = gm.get_by_test_id("gm-bar")

    # Before the start: the bar's one step, and the GM is not told to wait for the GM.
    expect(bar.get_by_test_id("bar-step")).to_have_text(re.compile(r"^Next: start the fight"))
    expect(gm.get_by_test_id("no-actions")).not_to_contain_text("Waiting for the GM")
    expect(player.get_by_test_id("no-actions")).to_have_text("Waiting for the GM to start the fight.")
    expect(player.get_by_test_id("gm-bar")).to_have_count(0)
    gm_force(gm, [6, 6])  # nobody surprised
    bar.get_by_test_id("bar-start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    expect(bar.get_by_test_id("bar-step")).to_have_text("Next: close round 1's declarations and resolve it.")
    expect(bar.get_by_test_id("bar-awaited")).to_have_text("Still to declare: Alda, Goblin, Goblin 2")

    declare(player, "alda", "attack", "gob")
    declare(gm, "gob", "parry")
    expect(bar.get_by_test_id("bar-awaited")).to_have_text("Still to declare: Goblin 2")
    expect(gm.get_by_test_id("declare-gob")).not_to_have_attribute("open", "")  # declared: folded away
    expect(player.get_by_test_id("declare-alda")).to_have_attribute("open", "")  # a player's one panel stays open

    # Resolving with Goblin 2 undeclared asks first; nothing is sent until the second click.
    gm.get_by_test_id("bar-sound").check()  # off by default
    gm_force(gm, [2])  # Alda's d20: 2, a miss even without the parry's -4
    advance = bar.get_by_test_id("bar-advance")
    advance.click()
    expect(advance).to_have_text("Goblin 2 has not declared: resolve anyway? Click again")
    gm.wait_for_timeout(300)
    expect(gm.get_by_test_id("phase")).to_have_text("declaration")
    expect(gm.get_by_test_id("forced-queue")).to_have_text("2")
    advance.click()

    # 003's parry: the dagger (weight 1) is lighter than the sword (3): Goblin may counter.
    # The question is the GM's, in the bar, with its answers in sentences; the title says so.
    expect(bar).to_have_attribute("data-state", "prompt")
    expect(bar.get_by_test_id("bar-step")).to_contain_text("Goblin parried Alda's sword: counter-attack once at +")
    expect(bar.get_by_test_id("bar-answer-counter")).to_have_text("Counter-attack once")
    expect(bar.get_by_test_id("bar-answer-decline")).to_have_text("Let it pass: no counter-attack")
    expect(gm.get_by_test_id("answer-decline")).to_have_text("Let it pass: no counter-attack")
    expect(gm).to_have_title(re.compile(r"^\(!\) Answer needed: Goblin"))
    expect(bar).to_have_attribute("data-chimes", "1")
    expect(bar).to_be_in_viewport()
    screenshot(gm, "gm-bar-prompt.png")
    gm.screenshot(path=str(ARTIFACTS / "gm-bar.png"), clip={"x": 0, "y": 0, "width": 1280, "height": 420})  # docs/client.md
    bar.get_by_test_id("bar-answer-decline").click()
    expect(gm.get_by_test_id("round")).to_have_text("2")
    expect(gm).not_to_have_title(re.compile(r"^\(!\)"))
    expect(gm.get_by_test_id("log-entry").filter(has_text="d20 → 2 forced").first).to_be_visible()

    # Round 2: "the same as last round" for each side sends last round's declarations again.
    same = gm.get_by_test_id("same-goblins")
    expect(same).to_have_text("goblins: the same as last round (Goblin)")
    same.click()
    expect(gm.get_by_test_id("declared-gob")).to_contain_text("parr")
    expect(same).to_have_count(0)
    player.get_by_test_id("same-party").click()
    expect(gm.get_by_test_id("declared-alda")).to_contain_text("attack Goblin")
    expect(gm.get_by_test_id("bar-awaited")).to_have_text("Still to declare: Goblin 2")

    # An undo says what it undid, in words.
    gm_edit(gm, "gob2", "hp", 3)
    edit = gm.get_by_test_id("log-entry").filter(has_text=re.compile(r"^GM edits Goblin 2")).first
    expect(edit).to_be_visible()
    said = edit.locator(".text").text_content()
    undo = edit.get_by_role("button", name=f"Undo “{said}”")  # named for what it undoes
    undo.click()
    undo.click()  # it asks first
    undid = gm.get_by_test_id("log-entry").filter(has_text="GM undid").first
    expect(undid.locator(".text")).to_have_text(re.compile(rf"^GM undid “{re.escape(said)}” \(event #\d+\)\.$"))
    table.check()


def page_height(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def empty_below(page: Page) -> float:
    """How far the page scrolls past the bottom of its content (the layout)."""
    return page.evaluate(
        """() => document.documentElement.scrollHeight
            - (document.querySelector('main.layout').getBoundingClientRect().bottom + window.scrollY)"""
    )


def test_browser_gm_page_at_phone_width_and_no_empty_scroll(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    gm_force(gm, [6, 6])
    gm.get_by_test_id("bar-start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    # Many log lines with dice: each roll chip carries screen-reader text. (+10: 2d6 + 10 is
    # at least 12, 003's 'fights with redoubled effort', so nobody flees and every call rolls.)
    gm.get_by_test_id("morale-mod").fill("10")
    for _ in range(14):
        gm.get_by_test_id("morale-who").select_option("side:goblins")
        gm.get_by_test_id("morale-submit").click()
    expect(gm.get_by_test_id("log-entry").filter(has_text="checks morale")).to_have_count(28)
    expect(gm.locator(".log .sr-only")).not_to_have_count(0)
    assert gm.evaluate("document.querySelector('.log').scrollHeight > document.querySelector('.log').clientHeight")  # the log scrolls
    assert empty_below(gm) <= 20, f"{empty_below(gm)} px of empty page under the layout"

    phone = table.open(made["links"]["gm"], "gm-phone", width=390)
    phone.set_viewport_size({"width": 390, "height": 844})
    bar = phone.get_by_test_id("gm-bar")
    expect(bar.get_by_test_id("bar-advance")).to_be_visible()
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(bar).to_be_in_viewport()  # sticky: the next step is in reach at the bottom of the page too
    box = bar.bounding_box()
    assert box is not None and box["y"] <= 1 and box["height"] < 844 / 3, box
    height = page_height(phone)
    assert height < 5 * 844, f"the GM page is {height} px tall at phone width"
    assert empty_below(phone) <= 20
    assert overflowing(phone) == []  # nothing makes the phone scroll sideways
    phone.evaluate("window.scrollTo(0, 0)")
    screenshot(phone, "gm-phone.png")
    phone.screenshot(path=str(ARTIFACTS / "gm-phone-top.png"))  # the viewport: docs/client.md
    table.check()


def test_browser_gm_enters_a_real_die_in_the_bar(fray_server, table: Pages) -> None:
    """Option physical_dice 'all': the GM rolls for the monsters; the die is asked in the bar."""
    made = fray_server.create({**FIGHT, "options": {"physical_dice": "all"}})
    gm = table.open(made["links"]["gm"], "gm")
    bar = gm.get_by_test_id("gm-bar")
    gm_force(gm, [6, 6])
    bar.get_by_test_id("bar-start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    declare(gm, "gob", "attack", "alda")
    advance = bar.get_by_test_id("bar-advance")
    advance.click()
    advance.click()  # Alda and Goblin 2 have not declared: resolve anyway
    expect(bar.get_by_test_id("bar-step")).to_contain_text("Roll a d20 at the table")
    expect(gm).to_have_title(re.compile(r"^\(!\) Answer needed: Goblin"))
    bar.get_by_test_id("bar-die-input").fill("21")  # no d20 shows 21: refused in the page
    bar.get_by_test_id("bar-die-submit").click()
    expect(bar.get_by_test_id("bar-step")).to_contain_text("Roll a d20 at the table")
    bar.get_by_test_id("bar-die-input").fill("3")  # a miss
    bar.get_by_test_id("bar-die-input").press("Enter")
    expect(gm.get_by_test_id("round")).to_have_text("2")
    expect(gm.get_by_test_id("log")).to_contain_text("d20 → 3 rolled at the table")
    table.check()
