"""An automated accessibility check (issue 13, Deliver 10): axe-core, the engine of the
browser extensions, on the player's, the GM's, the spectator's and the replay's pages
of a fight under way, at desktop and phone width: no serious or critical violation of
WCAG 2 A/AA. axe-core comes from the npm registry (tests/vendor/axe.min.js, MPL-2.0,
version in its first line; `npm pack axe-core` to update it). It is run through
Playwright's evaluate, which the page's CSP (script-src 'self') does not govern."""

import pytest
from pages import Pages, gm_force
from playwright.sync_api import Page, expect
from support import ROOT

pytestmark = pytest.mark.browser

AXE = (ROOT / "tests" / "vendor" / "axe.min.js").read_text()
GRAVE = {"serious", "critical"}

SWORD = {"name": "sword", "damage": "1d8", "length": 3, "weight": 3}
FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10, "weapons": [SWORD]},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10, "hidden": True},
        {"id": "gob2", "name": "Goblin 2", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 8, "x": 30, "y": 20, "conditions": ["prone"]},
    ],
    "players": {"Alda's player": ["alda"]},
}


def violations(page: Page) -> list[str]:
    """The serious and critical WCAG 2 A/AA violations axe finds on the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE)
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
            return result.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.slice(0, 4).map(n => n.target.join(' ')) }));
        }"""
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['targets']}" for v in found if v["impact"] in GRAVE]


def test_browser_pages_pass_axe(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    gm_force(gm, [6, 6, 15, 3])
    gm.get_by_test_id("bar-start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    player = table.open(made["links"]["players"]["Alda's player"], "player")
    player.get_by_test_id("action-alda").select_option("attack")
    player.get_by_test_id("submit-alda-attack").click()
    expect(gm.get_by_test_id("declared-alda")).to_contain_text("attack")
    gm.get_by_test_id("bar-advance").click()
    gm.get_by_test_id("bar-advance").click()  # confirm: the goblins did not declare
    expect(gm.get_by_test_id("round")).to_have_text("2")
    spectator = table.open(made["links"]["spectator"], "spectator")
    phone = table.open(made["links"]["players"]["Alda's player"], "phone", width=390)
    replay = table.open(made["links"]["players"]["Alda's player"] + "&replay=1", "replay", live=False)
    expect(replay.get_by_test_id("replay")).to_be_visible()
    expect(replay.get_by_test_id("round")).to_have_text("2")

    found = {name: violations(page) for name, page in [("gm", gm), ("player", player), ("spectator", spectator), ("phone", phone), ("replay", replay)]}
    assert found == {name: [] for name in found}
    table.check()
