"""Moves and declarations that make sense (issue 13, Deliver 5), in real Chromium:
targets foes first by distance; a declaration that can only fail is said before it is
sent (out of reach; out of range unless moving first; a broken weapon; nothing to
ignite, with its override); an emptied move field is an error, not (0, 0); a drop onto
an occupied square is refused; a redraw in the middle of a drag does not cancel it; and
a touch drag on a phone."""

import re

import pytest
from pages import ARTIFACTS, Pages, gm_edit, gm_force, screenshot, square
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SWORD = {"name": "sword", "damage": "1d8", "length": 3, "weight": 3}
OLD_SWORD = {"name": "old sword", "damage": "1d8", "length": 3, "weight": 3, "broken": True}
JAVELIN = {"name": "javelin", "damage": "1d6", "length": 5, "weight": 2, "range": 20, "missile": "thrown"}
FIGHT = {
    "combatants": [
        {
            "id": "alda",
            "name": "Alda",
            "side": "party",
            "ac": 15,
            "hp": 9,
            "hp_max": 9,
            "dex": 14,
            "x": 10,
            "y": 10,
            "move": 20,
            "weapons": [SWORD, OLD_SWORD, JAVELIN],
        },
        {"id": "bran", "name": "Bran", "side": "party", "ac": 15, "hp": 8, "hp_max": 8, "dex": 9, "x": 10, "y": 15},
        {"id": "gob2", "name": "Goblin 2", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 8, "x": 40, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ],
    "players": {"Alda's player": ["alda"]},
}


def started(fray_server, table: Pages, width: int = 1280):
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    gm_force(gm, [6, 6])  # nobody surprised
    gm.get_by_test_id("start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    return made, gm


def test_browser_declarations_that_can_only_fail_are_said_first(fray_server, table: Pages) -> None:
    made, gm = started(fray_server, table)
    alda = table.open(made["links"]["players"]["Alda's player"], "alda")
    alda.get_by_test_id("action-alda").select_option("attack")

    # Foes first, nearest first, then the allies; the nearest foe is the default.
    target = alda.get_by_test_id("target-alda-attack")
    assert target.locator("option").evaluate_all("os => os.map(o => o.value)") == ["gob", "gob2", "bran"]
    expect(target.locator("option").first).to_have_text("Goblin (goblins, 5 ft)")
    expect(target).to_have_value("gob")
    warn = alda.get_by_test_id("warn-alda-attack")
    expect(warn).to_be_hidden()

    # Out of reach: said at once, and the submit sends nothing. 003 resolves a standing attack in
    # the attack phase, before anyone moves: it can only fail, so there is no override.
    target.select_option("gob2")
    expect(warn).to_have_text(
        "Goblin 2 is 30 ft away and the sword reaches 5 ft: a standing attack comes before anyone moves, so it cannot land. Charge or approach to close in."
    )
    override = alda.get_by_test_id("override-alda-attack")
    expect(override).to_be_hidden()
    alda.get_by_test_id("submit-alda-attack").click()
    toast = alda.get_by_test_id("toast").filter(has_text="Goblin 2 is 30 ft away")
    expect(toast).to_have_attribute("data-code", "declare/can-only-fail")
    alda.wait_for_timeout(300)
    expect(alda.get_by_test_id("current-alda")).to_have_text("Not declared yet.")

    # A javelin (20 ft) at Goblin 2, 30 ft off: out of range from here; moving first, the
    # throw is taken from the new square (Shoot.steps: the movement phase), and the check follows.
    alda.get_by_test_id("action-alda").select_option("shoot")
    alda.get_by_test_id("target-alda-shoot").select_option("gob2")
    shoot_warn = alda.get_by_test_id("warn-alda-shoot")
    expect(shoot_warn).to_have_text(re.compile(r"^Goblin 2 is 30 ft away from here and the javelin ranges 20 ft\. Move first"))
    alda.get_by_test_id("opt-alda-shoot-moving").check()
    alda.get_by_test_id("opt-alda-shoot-move_first").check()
    alda.get_by_test_id("opt-alda-shoot-x").fill("20")
    expect(shoot_warn).to_be_hidden()  # from (20, 10), Goblin 2 is 20 ft away
    alda.get_by_test_id("submit-alda-shoot").click()
    expect(alda.get_by_test_id("current-alda")).to_have_text(re.compile(r"^Declared: .*Goblin 2"))
    declared = alda.get_by_test_id("current-alda").text_content()

    # A broken weapon: named in the list, and no override (the rules give it no use).
    alda.get_by_test_id("action-alda").select_option("attack")
    weapon = alda.get_by_test_id("opt-alda-attack-weapon")
    expect(weapon.locator("option").nth(1)).to_have_text("old sword (1d8, broken)")
    target.select_option("gob")
    weapon.select_option(label="old sword (1d8, broken)")
    expect(warn).to_have_text("Alda's old sword is broken: pick another weapon.")
    expect(override).to_be_hidden()
    alda.get_by_test_id("submit-alda-attack").click()
    expect(alda.get_by_test_id("toast").filter(has_text="old sword is broken")).to_have_attribute("data-code", "declare/can-only-fail")
    expect(alda.get_by_test_id("current-alda")).to_have_text(declared)  # unchanged

    alda.get_by_test_id("action-alda").select_option("attack")
    target.select_option("gob2")
    weapon.select_option(label="sword (1d8)")
    expect(warn).to_contain_text("Goblin 2 is 30 ft away")
    alda.get_by_test_id("declare-alda").screenshot(path=str(ARTIFACTS / "declare-out-of-reach.png"))  # docs/client.md

    # A torch at a target with no oil on it: nothing to ignite, unless a flask lands first.
    alda.get_by_test_id("action-alda").select_option("throw_torch")
    alda.get_by_test_id("target-alda-throw_torch").select_option("gob")
    expect(alda.get_by_test_id("warn-alda-throw_torch")).to_have_text("There is no oil on Goblin to ignite.")
    expect(alda.get_by_test_id("override-alda-throw_torch")).to_be_visible()
    # Once Goblin 2 is oiled, the torch's list starts with it (the nearer Goblin after), and nothing is said.
    gm.get_by_test_id("conditions-section").locator("summary").click()
    gm.get_by_test_id("cond-who").select_option("gob2")
    gm.get_by_test_id("cond-oiled").check()
    gm.get_by_test_id("cond-submit").click()
    expect(alda.get_by_test_id("conditions-gob2")).to_contain_text("oiled")
    torch = alda.get_by_test_id("target-alda-throw_torch")
    expect(torch).to_have_value("gob2")
    assert torch.locator("option").evaluate_all("os => os.map(o => o.value)") == ["gob2", "gob", "bran"]
    expect(alda.get_by_test_id("warn-alda-throw_torch")).to_be_hidden()

    # An emptied move field is an error, not a move to (0, 0).
    alda.get_by_test_id("action-alda").select_option("move")
    alda.get_by_test_id("opt-alda-move-x").fill("")
    alda.get_by_test_id("submit-alda-move").click()
    expect(alda.get_by_test_id("toast").filter(has_text="The x field is empty")).to_have_attribute("data-code", "declare/bad-field")
    alda.wait_for_timeout(300)
    expect(alda.get_by_test_id("current-alda")).to_have_text(declared)
    screenshot(alda, "declare-flagged.png")
    table.check()


def test_browser_drag_survives_a_redraw_and_refuses_an_occupied_square(fray_server, table: Pages) -> None:
    made, gm = started(fray_server, table)
    alda = table.open(made["links"]["players"]["Alda's player"], "alda")
    alda.wait_for_load_state("networkidle")  # the rules' words loaded (GET /api/profiles) and the page drawn again with them
    expect(alda.locator("[data-testid=token-alda].draggable")).to_have_count(1)  # hers to move, before the press

    # Onto Goblin's square: refused with a message, nothing declared.
    alda.mouse.move(*square(alda, 10, 10))
    alda.mouse.down()
    alda.mouse.move(*square(alda, 15, 10), steps=5)
    expect(alda.get_by_test_id("drag-ghost")).to_contain_text("Goblin is there")
    alda.mouse.up()
    toast = alda.get_by_test_id("toast").filter(has_text="Goblin stands on that square: Alda cannot end a move there. Nothing was declared.")
    expect(toast).to_have_attribute("data-code", "move/occupied")
    expect(alda.get_by_test_id("current-alda")).to_have_text("Not declared yet.")

    # Held while the GM acts: the update arrives, the drag goes on, the drop declares.
    alda.mouse.move(*square(alda, 10, 10))
    alda.mouse.down()
    alda.mouse.move(*square(alda, 20, 15), steps=5)
    gm_edit(gm, "gob2", "hp", 3)
    expect(alda.get_by_test_id("hp-gob2")).to_have_text("3/4")  # the update is in the page
    expect(alda.get_by_test_id("drag-ghost")).to_have_text("10 ft")  # still held
    alda.mouse.up()
    expect(alda.get_by_test_id("current-alda")).to_have_text("Declared: move to (20, 15)")
    expect(alda.get_by_test_id("drag-ghost")).to_have_count(0)
    expect(alda.locator("[data-testid=token-gob2] title")).to_contain_text("3/4 HP")  # drawn after the drop
    table.check()


def touch_drag(page: Page, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
    """A finger on the screen: Chromium's touch events (CDP), turned into pointer events by the page."""
    cdp = page.context.new_cdp_session(page)
    point = lambda x, y: [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]  # noqa: E731
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point(*start)})
    for i in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": point(x, y)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_browser_touch_drag_on_a_phone(fray_server, table: Pages) -> None:
    made, gm = started(fray_server, table)
    context = table.browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2)
    table.contexts.append(context)
    phone = context.new_page()
    phone.on("pageerror", lambda e: table.problems.append(f"phone: {e}"))
    phone.goto(made["links"]["players"]["Alda's player"])
    expect(phone.get_by_test_id("connection")).to_have_text("live")
    assert phone.evaluate("navigator.maxTouchPoints") > 0
    token = phone.get_by_test_id("token-alda")
    token.scroll_into_view_if_needed()
    expect(phone.locator("[data-testid=token-alda].draggable")).to_have_count(1)
    touch_drag(phone, square(phone, 10, 10), square(phone, 25, 20))
    screenshot(phone, "touch-drag-phone.png")
    expect(phone.get_by_test_id("current-alda")).to_have_text("Declared: move to (25, 20)")
    expect(gm.get_by_test_id("declared-alda")).to_contain_text("move to (25, 20)")
    # Too far by touch: refused in words.
    touch_drag(phone, square(phone, 10, 10), square(phone, 40, 25))
    expect(phone.get_by_test_id("toast").filter(has_text=re.compile(r"Alda moves at most 20 ft a round, and that square is 30 ft away"))).to_be_visible()
    expect(phone.get_by_test_id("current-alda")).to_have_text("Declared: move to (25, 20)")
    table.check()
