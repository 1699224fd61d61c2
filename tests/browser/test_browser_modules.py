"""Rule modules in the new-encounter forms, in real Chromium: the home page and the GM
console offer, for each module any installed profile has, the profile's own or another
profile's (with its help and the options it brings); the fight is created with them and
its pages say so; a mix that cannot work shows the server's sentence beside the form."""

import re

import httpx
import pytest
from pages import ARTIFACTS, Pages, overflowing
from playwright.sync_api import expect
from support import TIMEOUT, token_of

pytestmark = [pytest.mark.browser, pytest.mark.redis]

MIXED = {"to_hit": "thac0-sheet", "dying": "ll-house", "striking": "thac0-sheet"}
IN_WORDS = "Rules: holmes-phases, with dying from ll-house, striking from thac0-sheet, to hit from thac0-sheet."  # as the state holds them
REFUSED = "ll-house's 'routine' cannot be combined with challenges 'to_hit': its extra strikes are rolled on 000's own attack roll"


def view_of(server, gm_link: str) -> dict:
    encounter = re.search(r"/e/([^?]+)", gm_link).group(1)
    return httpx.get(f"{server.url}/api/encounters/{encounter}/replay", params={"token": token_of(gm_link)}, timeout=TIMEOUT).json()["view"]


def test_home_creates_a_fight_with_modules_from_three_documents(fray_server, table: Pages) -> None:
    home = table.open(fray_server.url + "/", "home", width=900, live=False)
    home.get_by_test_id("profile").select_option("holmes-phases")
    home.get_by_test_id("home-modules-toggle").click()
    expect(home.get_by_test_id("home-modules-summary")).to_have_text("Rule modules: all the profile's own")
    expect(home.get_by_test_id("home-mod-to_hit-holmes-phases")).to_be_checked()  # the profile's own, kept by default
    expect(home.get_by_test_id("home-mod-striking-none")).to_be_checked()  # 003 has no striking of its own
    # Each choice with its help (the catalogue's words) and the options it brings.
    expect(home.get_by_test_id("home-mod-to_hit")).to_contain_text("002: H = THAC0 - AC with the sheet's steps")
    expect(home.get_by_test_id("home-mod-dying")).to_contain_text("000's death and dying chart at 0 HP")
    expect(home.get_by_test_id("home-mod-dying")).to_contain_text("Options it brings: death chart (default pcs)")
    expect(home.get_by_test_id("home-mod-striking")).to_contain_text("Adds the actions: strike.")
    for module, source in MIXED.items():
        home.get_by_test_id(f"home-mod-{module}-{source}").check()
    expect(home.get_by_test_id("home-modules-summary")).to_have_text("Rule modules: 3 taken from other profiles")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    box = home.get_by_test_id("create-form").bounding_box()  # its top: the profile, to hit, initiative, routine, dying
    home.screenshot(
        path=str(ARTIFACTS / "modules-form.png"),
        full_page=True,
        clip={"x": box["x"], "y": box["y"] + home.evaluate("window.scrollY"), "width": box["width"], "height": min(box["height"], 1450)},
    )

    home.get_by_test_id("create").click()
    links = home.get_by_test_id("links").locator("a")
    expect(links).to_have_count(2 + 3)
    gm_link = links.first.get_attribute("href")
    view = view_of(fray_server, gm_link)
    assert view["profile"] == "holmes-phases" and view["modules"] == MIXED
    assert view["options"]["death_chart"] == "pcs" and view["options"]["h_floor"] is False  # the modules' options, at their defaults
    gm = table.open(gm_link, "gm")
    expect(gm.get_by_test_id("rules")).to_have_text(IN_WORDS)
    player = table.open(links.nth(2).get_attribute("href"), "player", width=390)
    expect(player.get_by_test_id("rules")).to_have_text(IN_WORDS)  # fixed at creation: the table reads it too
    table.check()


def test_a_mix_that_cannot_work_shows_the_servers_sentence(fray_server, table: Pages) -> None:
    home = table.open(fray_server.url + "/", "home", width=390, live=False)  # a phone
    home.get_by_test_id("profile").select_option("ll-house")
    home.get_by_test_id("home-modules-toggle").click()
    expect(home.get_by_test_id("home-mod-naval")).to_be_visible()
    assert overflowing(home) == []  # the help texts wrap: nothing scrolls sideways
    expect(home.get_by_test_id("home-mod-to_hit-ll-house")).to_be_checked()
    home.get_by_test_id("home-mod-to_hit-challenges").check()
    home.get_by_test_id("create").click()
    expect(home.get_by_test_id("create-error")).to_have_text(REFUSED)
    expect(home.get_by_test_id("created")).to_be_hidden()

    # The GM console's new-encounter form: the same refusal beside it, then a mix that works,
    # with the option the borrowed module brings (000's death chart) set in the form.
    made = fray_server.create({"profile": "holmes-phases"})
    gm = table.open(made["links"]["gm"], "gm")
    expect(gm.get_by_test_id("rules")).to_have_text("Rules: holmes-phases.")
    gm.get_by_test_id("new-section").locator("summary").click()
    gm.get_by_test_id("new-profile").select_option("ll-house")
    gm.get_by_test_id("new-modules-toggle").click()
    gm.get_by_test_id("new-mod-to_hit-challenges").check()
    gm.get_by_test_id("new-submit").click()
    expect(gm.get_by_test_id("new-error")).to_have_text(f"Cannot create the encounter: {REFUSED}")
    expect(gm.get_by_test_id("new-gm-link")).to_have_count(0)

    gm.get_by_test_id("new-profile").select_option("holmes-phases")
    expect(gm.get_by_test_id("new-mod-to_hit-challenges")).to_be_checked()  # a pick outlives a change of profile
    gm.get_by_test_id("new-mod-to_hit-holmes-phases").check()
    expect(gm.get_by_test_id("new-modules-summary")).to_have_text("Rule modules: all the profile's own")
    expect(gm.get_by_test_id("new-opt-death_chart")).to_have_count(0)
    gm.get_by_test_id("new-mod-dying-ll-house").check()
    gm.get_by_test_id("new-opt-death_chart").select_option("all")
    gm.get_by_test_id("new-submit").click()
    link = gm.get_by_test_id("new-gm-link")
    expect(link).to_be_visible()
    expect(gm.get_by_test_id("new-error")).to_be_hidden()
    view = view_of(fray_server, link.get_attribute("href"))
    assert view["modules"] == {"dying": "ll-house"} and view["options"]["death_chart"] == "all"
    fresh = table.open(link.get_attribute("href"), "fresh")
    expect(fresh.get_by_test_id("rules")).to_have_text("Rules: holmes-phases, with dying from ll-house.")
    table.problems = [p for p in table.problems if "400" not in p]  # the refused POSTs, logged by Chromium
    table.check()
