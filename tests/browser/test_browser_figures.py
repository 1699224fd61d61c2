"""The GM console's "Figures" form in real Chromium: built from the profile's
`common_figures` (003's, read by every profile) and `figures` (its own; its package's options.py),
it sends one edit_combatant with what changed; the server folds it. A bad value is named
in a toast and nothing is sent."""

import httpx
import pytest
from pages import Pages, overflowing, screenshot
from playwright.sync_api import Page, expect
from support import encounter_of, token_of

from fray_table.rules.charts.thac0 import combat_bonus

pytestmark = pytest.mark.browser


def folded(server, link: str) -> dict:
    """The GM's view and the stream's length, as the server folds it (the replay endpoint)."""
    got = httpx.get(f"{server.url}/api/encounters/{encounter_of(link)}/replay", params={"token": token_of(link)}).json()
    return {"count": got["count"], "combatants": {c["id"]: c for c in got["view"]["combatants"]}}


def open_form(gm: Page, cid: str) -> None:
    gm.get_by_test_id("figures-section").locator("summary").click()
    gm.get_by_test_id("fig-who").select_option(cid)


def gm_with_form(server, table: Pages, profile: str, combatants: list[dict], cid: str) -> tuple[dict, str, Page]:
    """A new encounter of `profile`, its GM page open on the form for `cid`: (made, GM link, page)."""
    made = server.create({"profile": profile, "combatants": combatants})
    link = made["links"]["gm"]
    gm = table.open(link, "gm")
    open_form(gm, cid)
    return made, link, gm


def refused(gm: Page, server, link: str, message: str) -> None:
    """Submitting shows `message` and sends nothing: the stream does not grow."""
    before = folded(server, link)["count"]
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("toast").filter(has_text=message)).to_be_visible()
    gm.wait_for_timeout(300)  # a command sent anyway would have been appended by now
    assert folded(server, link)["count"] == before


def test_browser_figures_ll_house(fray_server, table: Pages) -> None:
    made, link, gm = gm_with_form(
        fray_server,
        table,
        "ll-house",
        [
            {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "klass": "fighter", "x": 10, "y": 10},
            {"id": "ukk", "name": "Ukk", "side": "orcs", "ac": 14, "hp": 8, "hp_max": 8, "hidden": True, "x": 15, "y": 10},
        ],
        "alda",
    )
    player = table.open(made["links"]["players"]["alda"], "player")
    expect(gm.get_by_test_id("fig-armor")).to_have_value("")  # the defaults, as nothing is set yet
    expect(gm.get_by_test_id("fig-con_bonus")).to_have_value("0")
    expect(gm.get_by_test_id("fig-str_adj")).to_have_count(0)  # 002's, not 000's

    gm.get_by_test_id("fig-armor").select_option("chain mail")
    gm.get_by_test_id("fig-armor_damage").fill("1")
    gm.get_by_test_id("fig-improvements-cleave").fill("1")
    gm.get_by_test_id("fig-improvements-extra_attack").fill("2")
    gm.get_by_test_id("fig-expertise").fill("sword=2, silver dagger=1")
    gm.get_by_test_id("fig-con_bonus").fill("2")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("figures-alda")).to_contain_text("armor chain mail")
    expected = {
        "armor": "chain mail",
        "armor_damage": 1,
        "improvements": {"cleave": 1, "extra_attack": 2},
        "expertise": {"sword": 2, "silver dagger": 1},
        "con_bonus": 2,
    }
    assert folded(fray_server, link)["combatants"]["alda"]["figures"] == expected
    edits = gm.get_by_test_id("log-entry").filter(has_text="GM edits Alda")
    expect(edits).to_have_count(1)  # one edit_combatant for all six
    expect(gm.get_by_test_id("figures-alda")).to_have_text(
        "klass fighter · armor chain mail · armor damage 1 · improvements cleave 1, extra attack 2 · expertise silver dagger 1, sword 2 · con bonus 2"
    )
    expect(player.get_by_test_id("figures-alda")).to_have_count(0)  # the GM's card only
    # The form follows the figures the server folded.
    expect(gm.get_by_test_id("fig-armor")).to_have_value("chain mail")
    expect(gm.get_by_test_id("fig-improvements-extra_attack")).to_have_value("2")

    # Only what changed is sent: lowering the Con bonus sends con_bonus alone.
    gm.get_by_test_id("fig-con_bonus").fill("-1")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("log-entry").filter(has_text="GM edits Alda: con bonus -1.")).to_have_count(1)

    # Bad values: named, and nothing sent.
    gm.get_by_test_id("fig-con_bonus").fill("9")
    refused(gm, fray_server, link, "Con bonus (con_bonus) must be from -3 to 3, not 9.")
    gm.get_by_test_id("fig-con_bonus").fill("two")
    refused(gm, fray_server, link, 'Con bonus (con_bonus) must be a whole number, not "two".')
    gm.get_by_test_id("fig-con_bonus").fill("-1")
    gm.get_by_test_id("fig-expertise").fill("sword 2")
    refused(gm, fray_server, link, "weapon expertise (expertise): write name=number")
    gm.get_by_test_id("fig-expertise").fill("sword=2, silver dagger=1")
    gm.get_by_test_id("fig-improvements-cleave").fill("1.5")
    refused(gm, fray_server, link, 'improved combat options (improvements): cleave must be a whole number, not "1.5".')
    gm.get_by_test_id("fig-improvements-cleave").fill("1")
    refused(gm, fray_server, link, "Nothing to set: Alda's figures are already these.")

    # The hidden orc: its figures reach the GM's card, never the player's page.
    gm.get_by_test_id("fig-who").select_option("ukk")
    expect(gm.get_by_test_id("fig-armor")).to_have_value("")
    gm.get_by_test_id("fig-armor").select_option("leather")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("figures-ukk")).to_have_text("armor leather")
    assert folded(fray_server, link)["combatants"]["ukk"]["figures"] == {"armor": "leather"}
    expect(player.get_by_test_id("combatant-ukk")).to_be_visible()
    expect(player.get_by_test_id("figures-ukk")).to_have_count(0)
    assert "leather" not in player.get_by_test_id("combatant-ukk").text_content()
    table.check()


def test_browser_figures_thac0_sheet(fray_server, table: Pages) -> None:
    _, link, gm = gm_with_form(
        fray_server,
        table,
        "thac0-sheet",
        [
            {"id": "bran", "name": "Bran", "side": "party", "ac": 14, "hp": 9, "hp_max": 9, "x": 10, "y": 10},
            {"id": "ship", "name": "Sea Wolf", "side": "party", "ac": 12, "hp": 40, "hp_max": 40, "x": 20, "y": 20},
        ],
        "ship",
    )
    expect(gm.get_by_test_id("fig-save_death")).to_have_value("14")  # 002's figures, at their defaults
    expect(gm.get_by_test_id("fig-armor")).to_have_count(0)  # 000's, not 002's
    gm.get_by_test_id("fig-vessel").check()
    gm.get_by_test_id("fig-rowers_max").fill("20")
    gm.get_by_test_id("fig-rowers").fill("30")  # more than the full strength: the server refuses
    gm.get_by_test_id("fig-crew").fill("6")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("toast").filter(has_text="rowers 30 of 20")).to_be_visible()
    assert folded(fray_server, link)["combatants"]["ship"].get("figures") is None
    gm.get_by_test_id("fig-rowers").fill("20")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("figures-ship")).to_have_text("vessel · rowers 20 · rowers max 20 · crew 6")

    gm.get_by_test_id("fig-who").select_option("bran")
    gm.get_by_test_id("fig-str_adj").fill("2")
    gm.get_by_test_id("fig-basic_ac").fill("12")
    gm.get_by_test_id("fig-save_death").fill("12")
    gm.get_by_test_id("fig-aboard").select_option("ship")
    gm.get_by_test_id("fig-dex_adj").fill("7")
    refused(gm, fray_server, link, "δD (dex_adj) must be from -5 to 5, not 7.")
    gm.get_by_test_id("fig-dex_adj").fill("-1")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("figures-bran")).to_contain_text("str adj 2")
    screenshot(gm, "gm-figures.png")
    gm.set_viewport_size({"width": 390, "height": 900})
    assert overflowing(gm) == []  # the open form on a phone: no sideways scrolling
    ship, bran = (folded(fray_server, link)["combatants"][c]["figures"] for c in ("ship", "bran"))
    assert ship == {"vessel": True, "rowers": 20, "rowers_max": 20, "crew": 6}
    assert bran == {"str_adj": 2, "dex_adj": -1, "basic_ac": 12, "save_death": 12, "aboard": "ship"}
    table.check()


def test_browser_figures_combatant_by_name(fray_server, table: Pages) -> None:
    """A figure of kind 'combatant' (002's `aboard`) is picked from the encounter's combatants
    by name; the server holds the id, the GM's card shows the name, or the id once that
    combatant has left the fight. The empty choice sets it back to none."""
    _, link, gm = gm_with_form(
        fray_server,
        table,
        "thac0-sheet",
        [
            {"id": "bran", "name": "Bran", "side": "party", "ac": 14, "hp": 9, "hp_max": 9, "x": 10, "y": 10},
            {"id": "ship", "name": "Sea Wolf", "side": "party", "ac": 12, "hp": 40, "hp_max": 40, "vessel": True, "x": 20, "y": 20},
            {"id": "kraken", "name": "Kraken", "side": "deep", "ac": 15, "hp": 30, "hp_max": 30, "x": 40, "y": 20},
        ],
        "bran",
    )
    aboard = gm.get_by_label("aboard", exact=True)  # labelled as every field is
    expect(aboard).to_have_attribute("data-testid", "fig-aboard")
    options = "el => [...el.options].map(o => [o.value, o.textContent])"
    assert aboard.evaluate(options) == [["", "(none)"], ["ship", "Sea Wolf (party)"], ["kraken", "Kraken (deep)"]]  # not Bran
    expect(aboard).to_have_value("")

    aboard.focus()
    gm.keyboard.press("ArrowDown")  # the keyboard picks the first combatant
    expect(aboard).to_have_value("ship")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("figures-bran")).to_have_text("aboard Sea Wolf")
    expect(gm.get_by_test_id("figures-bran")).not_to_contain_text("ship")
    assert folded(fray_server, link)["combatants"]["bran"]["figures"] == {"aboard": "ship"}
    expect(aboard).to_have_value("ship")  # the form follows the figures the server folded
    replay = table.open(link + "&replay=1", "gm replay", live=False)  # the GM's replay names it too
    expect(replay.get_by_test_id("figures-bran")).to_have_text("aboard Sea Wolf")

    # The ship leaves the fight: the figure keeps its id, shown as it is.
    gm.get_by_test_id("conditions-section").locator("summary").click()
    gm.get_by_test_id("cond-who").select_option("ship")
    gm.get_by_test_id("remove-combatant").click()
    gm.get_by_test_id("remove-combatant").click()
    expect(gm.get_by_test_id("combatant-ship")).to_have_count(0)
    expect(gm.get_by_test_id("figures-bran")).to_have_text("aboard ship")
    assert aboard.evaluate(options) == [["", "(none)"], ["kraken", "Kraken (deep)"], ["ship", "ship (not in the fight)"]]
    expect(aboard).to_have_value("ship")

    aboard.select_option("")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("figures-bran")).to_have_count(0)  # nothing set: no figures line
    assert folded(fray_server, link)["combatants"]["bran"].get("figures") is None
    table.check()


def test_browser_figures_common(fray_server, table: Pages) -> None:
    """003's figures, which every profile reads, come first in the form, even under
    holmes-phases, which reads no figures of its own: PC, class and level move the
    combat bonus the server derives from 002's hit table."""
    _, link, gm = gm_with_form(
        fray_server,
        table,
        "holmes-phases",
        [
            {"id": "bran", "name": "Bran", "side": "party", "ac": 14, "hp": 9, "hp_max": 9, "x": 10, "y": 10},
            {"id": "grul", "name": "Grul", "side": "orcs", "ac": 13, "hp": 6, "hp_max": 6, "x": 15, "y": 10},
        ],
        "bran",
    )
    expect(gm.get_by_test_id("fig-common").locator("legend")).to_have_text("003's figures, read by every profile")
    expect(gm.get_by_test_id("fig-own")).to_contain_text("The holmes-phases profile reads no figures beyond 003's.")
    expect(gm.get_by_test_id("fig-klass")).to_have_value("monster")  # the defaults, as nothing is set yet
    expect(gm.get_by_test_id("fig-level")).to_have_value("1")
    expect(gm.get_by_test_id("fig-pc")).not_to_be_checked()
    assert folded(fray_server, link)["combatants"]["bran"]["attack_bonus"] == combat_bonus("monster", 1, 1)

    gm.get_by_test_id("fig-pc").check()
    gm.get_by_test_id("fig-klass").select_option("fighter")
    gm.get_by_test_id("fig-level").fill("7")
    gm.get_by_test_id("fig-submit").click()
    expect(gm.get_by_test_id("log-entry").filter(has_text="GM edits Bran")).to_have_count(1)  # one edit for all three
    bran = folded(fray_server, link)["combatants"]["bran"]
    assert bran["common"] == {"pc": True, "klass": "fighter", "level": 7}
    assert bran["attack_bonus"] == combat_bonus("fighter", 7, 1) > combat_bonus("monster", 1, 1)
    assert bran.get("figures") is None  # holmes-phases has none of its own
    expect(gm.get_by_test_id("fig-level")).to_have_value("7")  # the form follows what the server folded

    # A bad level: named, and nothing sent.
    gm.get_by_test_id("fig-level").fill("40")
    refused(gm, fray_server, link, "level must be from 0 to 36, not 40.")
    gm.get_by_test_id("fig-level").fill("3rd")
    refused(gm, fray_server, link, 'level must be a whole number, not "3rd".')
    assert folded(fray_server, link)["combatants"]["bran"]["common"]["level"] == 7
    table.check()
