"""The demo and the GM console (issue 13, Deliver 9 and 6), in real Chromium: the demo's
goblin spears are polearms, so "Set spear" is offered; the bestiary adds to a side the GM
picks (the hidden goblins' side first, not a new "monsters"); the edit form sets AC in
the profile's own convention (003: descending, as the cards show it), the shield, the
armor and any figure the profile declares; the new-encounter options show their help."""

import re

import httpx
import pytest
from pages import ARTIFACTS, Pages, cards, screenshot
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def edit(gm: Page, who: str, field: str, value: str, choice: bool = False) -> None:
    gm.get_by_test_id("edit-combatant").select_option(who)
    gm.get_by_test_id("edit-field").select_option(field)
    if choice:
        gm.get_by_test_id("edit-choice").select_option(value)
    else:
        gm.get_by_test_id("edit-value").fill(value)
    gm.get_by_test_id("edit-submit").click()


def test_browser_demo_and_console(fray_server, table: Pages) -> None:
    made = fray_server.create()  # the demo fight
    gm = table.open(made["links"]["gm"], "gm")
    catalogue = httpx.get(f"{fray_server.url}/api/profiles").json()
    assert catalogue["holmes-phases"]["ac_style"] == "descending"

    # The bestiary adds to the side the GM picks: the hidden goblins' side comes first.
    gm.get_by_test_id("add-section").locator("summary").click()
    gm.get_by_test_id("add-template").select_option("goblin")
    expect(gm.get_by_test_id("add-side-pick")).to_have_value("goblins")
    assert gm.get_by_test_id("add-side-pick").locator("option").evaluate_all("os => os.map(o => o.value)") == ["goblins", "party", ""]
    expect(gm.get_by_test_id("add-side")).to_be_hidden()  # the new side's name, only for "a new side…"
    gm.get_by_test_id("add-submit").click()
    expect(gm.locator("[data-testid^='combatant-'][data-side='goblins']")).to_have_count(5)
    assert {c["side"] for c in cards(gm).values()} == {"party", "goblins"}

    # AC as the cards show it (003's descending AC: Alda's ascending 16 is AC 3).
    expect(gm.get_by_test_id("ac-alda")).to_have_text("3")
    gm.get_by_test_id("edit-combatant").select_option("alda")
    gm.get_by_test_id("edit-field").select_option("ac")
    expect(gm.get_by_test_id("edit-field").locator("option[value=ac]")).to_have_text("AC (descending, as on the cards)")
    expect(gm.get_by_test_id("edit-value")).to_have_value("3")
    edit(gm, "alda", "ac", "4")
    expect(gm.get_by_test_id("ac-alda")).to_have_text("4")  # sent as ascending 15
    expect(gm.get_by_test_id("log-entry").filter(has_text=re.compile(r"^GM edits Alda: ac 15")).first).to_be_visible()

    # A shield for an existing combatant: 000's +1 AC comes with it (AC 4 -> 3 descending).
    edit(gm, "alda", "shield", "on", choice=True)
    expect(gm.get_by_test_id("ac-alda")).to_have_text("3")
    expect(gm.get_by_test_id("log-entry").filter(has_text="GM edits Alda: ").filter(has_text="shield").first).to_be_visible()
    # The GM's card says she carries one now: the form offers to take it away, not to give another.
    gm.get_by_test_id("edit-field").select_option("ac")
    gm.get_by_test_id("edit-field").select_option("shield")
    expect(gm.get_by_test_id("edit-choice").locator("option")).to_have_text(["take the shield away (AC −1)"])
    # Armor from 000's chart, and figures the profile declares (003's level and PC).
    edit(gm, "alda", "armor", "chain mail", choice=True)
    expect(gm.get_by_test_id("log-entry").filter(has_text="armor chain mail").first).to_be_visible()
    gm.get_by_test_id("edit-field").select_option("level")
    gm.get_by_test_id("edit-form").screenshot(path=str(ARTIFACTS / "gm-edit-level.png"))  # docs/client.md
    expect(gm.get_by_test_id("edit-hint")).to_have_text(re.compile(r"^003: 'as per their class and level'"))
    edit(gm, "alda", "level", "3")
    edit(gm, "alda", "pc", "true", choice=True)
    expect(gm.get_by_test_id("figures-alda")).to_have_text("level 3 · pc")
    edit(gm, "alda", "level", "99")
    expect(gm.get_by_test_id("toast").filter(has_text="level must be from 0 to 36, not 99.")).to_be_visible()

    # The demo's goblin spears are polearms: "Set spear" is offered to their bearers.
    gm.get_by_test_id("force-input").fill("6 6")
    gm.get_by_test_id("force-rolls").click()
    gm.get_by_test_id("start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    expect(gm.get_by_test_id("action-gob1").locator("option[value=set_spear]")).to_have_text("Set spear")
    expect(gm.get_by_test_id("action-gob2").locator("option[value=set_spear]")).to_have_count(0)  # a short sword
    gm.get_by_test_id("declare-gob1").locator("summary").click()
    gm.get_by_test_id("action-gob1").select_option("set_spear")
    gm.get_by_test_id("submit-gob1-set_spear").click()
    expect(gm.get_by_test_id("declared-gob1")).to_contain_text("set a spear against a charge")

    # The new encounter's options, each with its help from the catalogue.
    gm.get_by_test_id("new-section").locator("summary").click()
    helped = {o["name"]: o["help"] for o in catalogue["holmes-phases"]["options"]}
    expect(gm.get_by_test_id("new-opt-morale_per_creature-help")).to_have_text(helped["morale_per_creature"])
    expect(gm.get_by_test_id("new-opt-parry_counter-help")).to_have_text(helped["parry_counter"])
    expect(gm.get_by_test_id("new-opt-parry_counter")).to_have_attribute("aria-describedby", "new-opt-parry_counter-help")
    screenshot(gm, "gm-console-edit.png")
    table.check()
