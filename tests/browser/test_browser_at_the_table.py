"""What broke when a real table played (issue 27, items 4 to 9), in real Chromium at a
phone's size (390x844) and a laptop's (1366x768): the phone's declare flow (the button
near the top, "your turn to declare", a notice when your own combatant falls, a reload
that keeps the declared target in the form); the GM's "what just happened" after
resolving; the map in a melee (tokens and their marks apart, names shown without
hover); grapple's box in 003's words; focus kept where the action was, the GM's bar
announced, undo buttons named for what they undo and asking first; and "the same as
last round" offered only where the order still holds, saying why not elsewhere.
Each page also passes axe-core (tests/browser/test_browser_a11y.py)."""

import re

import pytest
from pages import ARTIFACTS, Pages, declare, gm_edit, gm_force, overflowing
from playwright.sync_api import Page, expect
from test_browser_a11y import violations

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
SIZES = pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])

SWORD = {"name": "sword", "damage": "1d8", "length": 3, "weight": 3}
DAGGER = {"name": "dagger", "damage": "1d4", "length": 1, "weight": 1}


def fighter(cid: str, name: str, side: str, x: int, y: int, **more) -> dict:
    weapons = [SWORD] if side == "party" else [DAGGER]
    hp = 9 if side == "party" else 4
    return {
        "id": cid,
        "name": name,
        "side": side,
        "ac": 13,
        "hp": hp,
        "hp_max": hp,
        "dex": 14 if side == "party" else 9,
        "x": x,
        "y": y,
        "weapons": weapons,
        **more,
    }


FIGHT = {
    "combatants": [
        fighter("alda", "Alda", "party", 10, 10),
        fighter("gob", "Goblin", "goblins", 15, 10),
        fighter("gob2", "Goblin 2", "goblins", 30, 10, dex=8),
        fighter("gob3", "Goblin 3", "goblins", 10, 15, dex=7),
    ],
    "players": {"Alda's player": ["alda"]},
}


def open_at(table: Pages, link: str, name: str, size: dict) -> Page:
    page = table.open(link, name, width=size["width"])
    page.set_viewport_size(size)
    return page


def start(gm: Page) -> None:
    gm_force(gm, [6, 6])  # nobody surprised
    gm.get_by_test_id("bar-start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")


def resolve(gm: Page) -> None:
    """Close declarations and resolve from the bar, confirming if someone has not declared."""
    advance = gm.get_by_test_id("bar-advance")
    advance.click()
    if advance.get_attribute("data-armed") == "true":
        advance.click()


def in_first_screen(page: Page, testid: str) -> bool:
    """Whether the element is wholly inside the window with the page scrolled to the top."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.get_by_test_id(testid).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def focused(page: Page) -> dict:
    """What has the keyboard's focus: its test id, tag and the log line's position it sits in."""
    return page.evaluate(
        """() => { const e = document.activeElement;
            return { testid: e?.dataset?.testid ?? '', tag: e?.tagName ?? '',
                     panel: e?.closest('[data-testid^=declare-]')?.dataset.testid ?? '',
                     seq: e?.closest('[data-seq]')?.dataset.seq ?? '' }; }"""
    )


# --- item 4: the phone's declare flow ----------------------------------------------


@SIZES
def test_browser_player_declares_from_the_top_and_is_told(fray_server, table: Pages, size: dict) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    link = made["links"]["players"]["Alda's player"]
    player = open_at(table, link, "player", size)
    start(gm)

    # The page says it is the player's turn, and the Declare button is on the first screen.
    turn = player.get_by_test_id("your-turn")
    expect(turn).to_have_text("Your turn to declare: Alda (round 1).")
    assert in_first_screen(player, "your-turn")
    assert in_first_screen(player, "submit-alda-attack"), player.get_by_test_id("submit-alda-attack").bounding_box()
    assert overflowing(player) == []
    player.screenshot(path=str(ARTIFACTS / f"your-turn-{size['width']}.png"))  # docs/client.md

    # Goblin 3 is as near as Goblin, listed second: the declaration names it.
    declare(player, "alda", "attack", "gob3")
    expect(gm.get_by_test_id("declared-alda")).to_contain_text("Goblin 3")
    expect(turn).to_be_hidden()

    # A reload mid-round shows the declared target in the form, and the button says it changes it.
    player.reload()
    expect(player.get_by_test_id("connection")).to_have_text("live")
    expect(player.get_by_test_id("current-alda")).to_contain_text("Goblin 3")
    expect(player.get_by_test_id("action-alda")).to_have_value("attack")
    expect(player.get_by_test_id("target-alda-attack")).to_have_value("gob3")
    expect(player.get_by_test_id("submit-alda-attack")).to_have_text("Change the declaration: attack")
    expect(turn).to_be_hidden()

    # Alda falls: the player is told, by name, not "down or surprised".
    gm_edit(gm, "alda", "hp", 0)
    expect(player.get_by_test_id("toast").filter(has_text="Alda has fallen")).to_be_visible()
    expect(player.get_by_test_id("no-actions")).to_have_text("Alda is down: there is nothing to declare for Alda.")
    expect(player.get_by_test_id("fallen")).to_have_text("Alda has fallen (0 HP).")
    assert in_first_screen(player, "fallen")
    assert violations(player) == []
    player.screenshot(path=str(ARTIFACTS / f"player-fallen-{size['width']}.png"))
    table.check()


# --- item 5: the GM sees what just happened ------------------------------------------


@SIZES
def test_browser_gm_sees_what_just_happened(fray_server, table: Pages, size: dict) -> None:
    made = fray_server.create(FIGHT)
    gm = open_at(table, made["links"]["gm"], "gm", size)
    start(gm)
    declare(gm, "gob", "attack", "alda")
    gm_force(gm, [17, 3])  # Goblin's d20 and its damage (003: a d6)
    gm.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # where the console is
    resolve(gm)
    expect(gm.get_by_test_id("round")).to_have_text("2")

    recent = gm.get_by_test_id("recent")
    expect(recent).to_be_in_viewport()
    expect(recent.get_by_role("heading")).to_have_text("What just happened: round 1")
    expect(recent).to_contain_text("Goblin")
    expect(recent).to_contain_text("d20 → 17 forced")
    expect(recent).to_contain_text("6 HP left")
    # As it happened, newest last: from the close of declarations to the next round's opening.
    lines = recent.get_by_test_id("recent-line").all_text_contents()
    assert lines[0] == "Round 1: declarations close." and lines[-1] == "Round 2: declarations are open.", lines
    gm.evaluate("window.scrollTo(0, 0)")
    assert in_first_screen(gm, "recent")
    # Folded away while declaring, it opens again with the next round's resolution.
    gm.get_by_test_id("recent-fold").click()
    expect(recent.get_by_test_id("recent-line").first).to_be_hidden()
    gm.get_by_test_id("recent-fold").click()
    assert violations(gm) == []
    gm.screenshot(path=str(ARTIFACTS / f"gm-recent-{size['width']}.png"))
    table.check()


# --- item 6: the map in a melee ------------------------------------------------------

MELEE = {
    "combatants": [
        fighter("alda", "Alda", "party", 10, 10),
        fighter("bran", "Bran", "party", 15, 10, conditions=["prone"]),
        fighter("gob", "Goblin 1", "goblins", 15, 10, conditions=["prone", "oiled"]),
        fighter("gob2", "Goblin 2", "goblins", 15, 10, conditions=["burning"]),
        fighter("gob3", "Goblin 3", "goblins", 20, 10),
    ],
    "players": {"Alda's player": ["alda"]},
}


def token_boxes(page: Page) -> dict[str, list[dict]]:
    """Each token's drawn parts (its disc, initials, marks, HP bar), as boxes on the page."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-testid^=token-]')].map(t =>
            [t.dataset.id, [...t.querySelectorAll('circle, text, rect')].map(e => {
                const r = e.getBoundingClientRect();
                return { kind: e.tagName + '.' + (e.getAttribute('class') ?? ''), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
            })]))"""
    )


def overlapping(a: list[dict], b: list[dict]) -> list[tuple[str, str]]:
    touch = 0.5  # px: shapes that only meet at an edge do not hide each other
    return [
        (p["kind"], q["kind"])
        for p in a
        for q in b
        if min(p["x1"], q["x1"]) - max(p["x0"], q["x0"]) > touch and min(p["y1"], q["y1"]) - max(p["y0"], q["y0"]) > touch
    ]


@SIZES
def test_browser_map_in_a_melee(fray_server, table: Pages, size: dict) -> None:
    made = fray_server.create(MELEE)
    player = open_at(table, made["links"]["players"]["Alda's player"], "player", size)
    expect(player.get_by_test_id("token-gob2")).to_be_visible()

    # Three tokens on one square: no disc, letter or mark of one lies over another's.
    boxes = token_boxes(player)
    crowd = ["bran", "gob", "gob2"]
    for i, a in enumerate(crowd):
        for b in crowd[i + 1 :]:
            assert overlapping(boxes[a], boxes[b]) == [], (a, b)
    # The marks of a token in a crowd stay within their square (Goblin 3 is on the next one).
    for cid in crowd:
        assert overlapping(boxes[cid], boxes["gob3"]) == [], cid
    # Every token's initials are its own.
    initials = player.eval_on_selector_all("[data-testid^=token-] > text", "ts => ts.map(t => t.textContent)")
    assert len(set(initials)) == len(initials), initials

    # Names without hover: a key under the map, each token's letters beside its name and marks.
    key = player.get_by_test_id("map-key")
    expect(key).to_be_visible()
    expect(key.get_by_test_id("key-gob")).to_have_text("G1 Goblin 1 (prone, oiled), sharing a square with Bran and Goblin 2")
    expect(key.get_by_test_id("key-gob2")).to_contain_text("Goblin 2 (burning)")
    expect(key.get_by_test_id("key-alda")).to_contain_text("Alda")
    # A tap (a click) on a token says who it is, in words, for a phone has no hover.
    player.get_by_test_id("token-gob3").click()
    expect(player.get_by_test_id("map-said")).to_have_text(re.compile(r"^Goblin 3 \(goblins\), unhurt|^Goblin 3 \(goblins\), 4/4 HP"))
    assert overflowing(player) == []
    assert violations(player) == []
    player.get_by_test_id("grid").screenshot(path=str(ARTIFACTS / f"map-melee-{size['width']}.png"))
    table.check()


# --- item 7: grapple's box in 003's words --------------------------------------------


@SIZES
def test_browser_grapple_box_in_the_documents_words(fray_server, table: Pages, size: dict) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    player = open_at(table, made["links"]["players"]["Alda's player"], "player", size)
    start(gm)
    player.get_by_test_id("action-alda").select_option("grapple")
    box = player.get_by_test_id("opt-alda-grapple-target_unwilling")
    label = player.locator("label[for='alda-grapple-target_unwilling']")
    expect(label).to_have_text("The target is wholly unarmed or otherwise unwilling to use lethal force")
    help_id = box.get_attribute("aria-describedby")
    assert help_id, "the box's help is tied to it"
    expect(player.locator(f"#{help_id}")).to_have_text(
        "003: then no attack roll is needed to approach it: closing in is automatic. The brawl's dice (d6 per hit die) still decide who is pinned."
    )
    expect(box).to_be_visible()
    box.check()
    player.get_by_test_id("choice-alda-grapple").screenshot(path=str(ARTIFACTS / f"grapple-{size['width']}.png"))  # docs/client.md
    player.get_by_test_id("submit-alda-grapple").click()
    expect(gm.get_by_test_id("declared-alda")).to_have_text("Alda: grapple Goblin (no hit needed)")
    assert overflowing(player) == []
    assert violations(player) == []
    table.check()


# --- item 8: keyboard and screen readers ---------------------------------------------


@SIZES
def test_browser_keyboard_keeps_its_place(fray_server, table: Pages, size: dict) -> None:
    made = fray_server.create(FIGHT)
    gm = open_at(table, made["links"]["gm"], "gm", size)
    bar = gm.get_by_test_id("gm-bar")
    # The bar's next step is announced when it changes.
    expect(bar.get_by_test_id("bar-step")).to_have_attribute("aria-live", "polite")
    start(gm)

    # Declaring with the keyboard: the GM's panel folds, and the focus stays on its summary.
    panel = gm.get_by_test_id("declare-gob")
    panel.locator("summary").click()
    gm.get_by_test_id("action-gob").select_option("parry")
    gm.get_by_test_id("submit-gob-parry").focus()
    gm.keyboard.press("Enter")
    expect(gm.get_by_test_id("declared-gob")).to_contain_text("parr")
    expect(panel).not_to_have_attribute("open", "")
    assert focused(gm)["panel"] == "declare-gob", focused(gm)
    assert focused(gm)["tag"] == "SUMMARY", focused(gm)

    # Resolving from the bar with the keyboard: the focus stays on the bar's button.
    gm_force(gm, [6, 6, 6])
    advance = bar.get_by_test_id("bar-advance")
    advance.focus()
    gm.keyboard.press("Enter")
    expect(advance).to_have_attribute("data-armed", "true")
    gm.keyboard.press("Enter")
    expect(gm.get_by_test_id("round")).to_have_text("2")
    assert focused(gm)["testid"] == "bar-advance", focused(gm)

    # An undo is named for what it undoes, and asks before it acts.
    gm_edit(gm, "gob2", "hp", 3)
    edit = gm.get_by_test_id("log-entry").filter(has_text=re.compile(r"^GM edits Goblin 2")).first
    seq = edit.get_attribute("data-seq")
    undo = edit.get_by_role("button", name="Undo “GM edits Goblin 2: hp 3.”")
    expect(undo).to_have_text("undo")
    undo.focus()
    gm.keyboard.press("Enter")
    expect(undo).to_have_text("Undo this? Press again")
    expect(undo).to_have_attribute("data-armed", "true")
    edit.screenshot(path=str(ARTIFACTS / f"undo-asks-{size['width']}.png"))  # docs/client.md
    gm.wait_for_timeout(400)
    expect(gm.get_by_test_id("log-entry").filter(has_text="GM undid")).to_have_count(0)
    expect(gm.get_by_test_id("hp-gob2")).to_have_text("3/4")
    gm.keyboard.press("Enter")
    expect(gm.get_by_test_id("log-entry").filter(has_text="GM undid")).to_have_count(1)
    expect(gm.get_by_test_id("hp-gob2")).to_have_text("4/4")
    # The undone line keeps the focus (its button is gone).
    assert focused(gm)["seq"] == seq, focused(gm)
    assert violations(gm) == []
    table.check()


# --- item 9: the same as last round, where it still holds ----------------------------

SAME = {
    "combatants": [
        fighter("alda", "Alda", "party", 10, 10),
        fighter("gob", "Goblin", "goblins", 15, 10),
        fighter("gob2", "Goblin 2", "goblins", 30, 10, dex=8),
        fighter("gob3", "Goblin 3", "goblins", 50, 30, dex=7),
    ],
    "players": {"Alda's player": ["alda"]},
}


@SIZES
def test_browser_same_as_last_round_only_where_it_holds(fray_server, table: Pages, size: dict) -> None:
    made = fray_server.create(SAME)
    gm = open_at(table, made["links"]["gm"], "gm", size)
    player = open_at(table, made["links"]["players"]["Alda's player"], "player", size)
    start(gm)
    declare(player, "alda", "attack", "gob")
    declare(gm, "gob", "attack", "alda")
    declare(gm, "gob2", "approach", "alda")
    declare(gm, "gob3", "hold")
    gm_force(gm, [19, 6])  # Alda hits Goblin for 6 (003: a d6): it falls before it strikes
    resolve(gm)
    expect(gm.get_by_test_id("round")).to_have_text("2")
    expect(gm.get_by_test_id("down-gob")).to_be_visible()
    expect(gm.get_by_test_id("fallen")).to_be_hidden()  # a player's own notice: the GM's page "controls" everyone
    expect(gm.get_by_test_id("pos-gob2")).to_have_text("15, 10")  # Goblin 2 closed on Alda (beside her)

    # The goblins: Goblin (down) has nothing to repeat; Goblin 2's approach no longer makes sense.
    same = gm.get_by_test_id("same-goblins")
    expect(same).to_have_text("goblins: the same as last round (Goblin 3)")
    expect(gm.get_by_test_id("same-not")).to_have_text("Not the same as last round: Goblin 2's approach Alda no longer holds: Goblin 2 is already beside Alda.")
    # Alda's attack on a downed goblin is not offered; the page says why.
    expect(player.get_by_test_id("same-party")).to_have_count(0)
    expect(player.get_by_test_id("same-not")).to_have_text("Not the same as last round: Alda's attack Goblin no longer holds: Goblin is down.")
    expect(gm.get_by_test_id("same-last")).not_to_contain_text("null")
    gm.get_by_test_id("same-last").screenshot(path=str(ARTIFACTS / f"same-not-{size['width']}.png"))  # docs/client.md
    same.click()
    expect(gm.get_by_test_id("declared-gob3")).to_contain_text("hold")
    expect(gm.get_by_test_id("declared-gob2")).to_have_count(0)  # not sent
    assert violations(gm) == [] and violations(player) == []
    table.check()
