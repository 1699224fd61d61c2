"""The GM console in real Chromium: combatants from the bestiary with the documents'
armor, conditions and hiding, morale, invite links (issue, copy, revoke), and a new
encounter with a chosen profile option."""

import re

import httpx
import pytest
from pages import Pages, cards, screenshot
from playwright.sync_api import expect
from support import token_of

pytestmark = pytest.mark.browser

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ]
}


def test_browser_gm_console_builds_and_runs_the_table(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(made["links"]["players"]["alda"], "player", width=390)

    # Two gnolls from the bestiary: scale armor (000: AC 14), hidden figures.
    gm.get_by_test_id("add-section").locator("summary").click()
    # The ready monsters are the rules' (rules/ready.py, GET /api/profiles), with their morale scores.
    expect(gm.get_by_test_id("add-template").locator("option[value=ogre]")).to_have_text("Ogre (morale 10)")
    gm.get_by_test_id("add-template").select_option("ogre")
    expect(gm.get_by_test_id("add-ac")).to_have_text("14")  # its hide: a natural AC, no armor
    gm.get_by_test_id("add-template").select_option("gnoll")
    expect(gm.get_by_test_id("add-name")).to_have_value("Gnoll")
    expect(gm.get_by_test_id("add-ac")).to_have_text("14")
    gm.get_by_test_id("add-shield").check()
    expect(gm.get_by_test_id("add-ac")).to_have_text("15")
    gm.get_by_test_id("add-side-pick").select_option("")
    gm.get_by_test_id("add-side").fill("gnolls")
    gm.get_by_test_id("add-count").fill("2")
    gm.get_by_test_id("add-submit").click()
    expect(gm.locator("[data-testid^='combatant-'][data-side='gnolls']")).to_have_count(2)
    gnolls = [c for c in cards(gm).values() if c["side"] == "gnolls"]
    assert sorted(c["hp"] for c in gnolls) == ["10", "10"]
    first = gnolls[0]["id"]
    expect(gm.get_by_test_id(f"combatant-{first}")).to_contain_text("battle axe 1d8")
    expect(player.get_by_test_id(f"hp-{first}")).to_have_text("unhurt")  # hidden from the player
    expect(player.get_by_test_id(f"ac-{first}")).to_have_text("?")

    # Conditions: prone on the first gnoll, seen by the player on its card and token.
    gm.get_by_test_id("conditions-section").locator("summary").click()
    gm.get_by_test_id("cond-who").select_option(first)
    gm.get_by_test_id("cond-prone").check()
    gm.get_by_test_id("cond-submit").click()
    expect(player.get_by_test_id(f"conditions-{first}")).to_contain_text("prone")
    expect(gm.get_by_test_id("cond-prone")).to_be_checked()

    # Undo that edit from the GM's log: a compensating event, the line struck through.
    edit = gm.get_by_test_id("log-entry").filter(has_text=re.compile(r"^GM edits .*conditions")).first
    undo = edit.get_by_role("button", name=re.compile(r"^Undo “GM edits .*conditions"))
    undo.click()
    expect(undo).to_have_attribute("data-armed", "true")  # an undo asks first
    undo.click()
    expect(player.get_by_test_id(f"conditions-{first}")).to_have_count(0)
    expect(edit).to_have_class(re.compile(r"\bundone\b"))
    expect(player.get_by_test_id("log-entry").get_by_role("button")).to_have_count(0)  # players have no undo
    gm.get_by_test_id("cond-prone").check()
    gm.get_by_test_id("cond-submit").click()
    expect(player.get_by_test_id(f"conditions-{first}")).to_contain_text("prone")

    # Morale for a side, during declarations: the three sides' surprise d6s, then 2d6 5 + 4 + 1 = 10,
    # 003's '9-11 | Press for advantage', in the log's words on the GM's card (GET /api/profiles).
    gm.get_by_test_id("force-input").fill("6 6 6 5 4")
    gm.get_by_test_id("force-rolls").click()
    gm.get_by_test_id("start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    gm.get_by_test_id("morale-who").select_option("side:gnolls")
    gm.get_by_test_id("morale-mod").fill("1")
    gm.get_by_test_id("morale-submit").click()
    expect(gm.get_by_test_id("log-entry").filter(has_text="= 10: presses for advantage.").first).to_be_visible()
    expect(gm.get_by_test_id(f"morale-{first}")).to_have_text(re.compile(r"^presses for advantage \(round \d\)$"))
    expect(player.get_by_test_id(f"morale-{first}")).to_have_count(0)  # morale is the GM's

    # Invite links: list, issue a spectator link, revoke it; its page is closed.
    gm.get_by_test_id("links-section").locator("summary").click()
    expect(gm.locator("[data-testid^='link-'][data-role]")).to_have_count(3)  # GM, spectator, Alda
    gm.get_by_test_id("link-role").select_option("spectator")
    gm.get_by_test_id("link-name").fill("Aunt Edna")
    gm.get_by_test_id("link-issue").click()
    edna = gm.locator("[data-testid^='link-'][data-name='Aunt Edna']")
    expect(edna).to_have_count(1)
    url = edna.locator("input").input_value()
    watcher = table.open(url, "edna")
    expect(watcher.get_by_test_id("role")).to_have_text("spectator")
    edna.get_by_role("button", name="Copy").click()
    expect(gm.get_by_test_id("toast").filter(has_text=re.compile("copied|Selected"))).to_be_visible()
    screenshot(gm, "gm-console.png")
    edna.get_by_role("button", name="Revoke").click()
    expect(edna).to_have_attribute("data-revoked", "true")
    expect(watcher.get_by_test_id("status-banner")).to_contain_text("Cannot join")

    # A new encounter: the current fight's combatants, one option changed.
    gm.get_by_test_id("new-section").locator("summary").click()
    expect(gm.get_by_test_id("new-opt-morale_per_creature")).to_be_visible()
    gm.get_by_test_id("new-opt-morale_per_creature").check()
    gm.get_by_test_id("new-submit").click()
    link = gm.get_by_test_id("new-gm-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    encounter = re.search(r"/e/([^?]+)", href).group(1)
    state = httpx.get(f"{fray_server.url}/api/encounters/{encounter}/replay", params={"token": token_of(href)}).json()["view"]
    assert state["options"]["morale_per_creature"] is True
    assert {c["side"] for c in state["combatants"]} == {"party", "goblins", "gnolls"}
    assert all(c["hp"] == c["hp_max"] for c in state["combatants"])
    table.problems = [p for p in table.problems if "edna" not in p]  # the revoked page's refusal is expected
    table.check()
