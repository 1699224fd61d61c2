"""The battle map image in real Chromium (issue 13, Deliver 7): the GM uploads a PNG with
its scale; it is drawn under the grid on the player's map at that scale, and removed."""

import pytest
from pages import Pages
from playwright.sync_api import expect
from test_battle_map import FIGHT, png

pytestmark = pytest.mark.browser


def test_browser_gm_sets_a_battle_map_the_player_sees_under_the_grid(fray_server, table: Pages, tmp_path) -> None:
    made = fray_server.create(FIGHT)
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(made["links"]["players"]["Ann"], "player")
    expect(player.get_by_test_id("map-section")).to_have_count(0)  # the GM's tools only
    path = tmp_path / "cave.png"
    path.write_bytes(png(200, 120))
    gm.get_by_test_id("map-section").locator("summary").click()
    gm.get_by_test_id("map-file").set_input_files(str(path))
    gm.get_by_test_id("map-square").fill("20")
    gm.get_by_test_id("map-set").click()
    backdrop = player.get_by_test_id("map-backdrop")
    expect(backdrop).to_have_count(1)
    # 200 px at 20 px a square: 10 squares of 40 map units; 120 px: 6 squares
    expect(backdrop).to_have_attribute("width", "400")
    expect(backdrop).to_have_attribute("height", "240")
    assert backdrop.get_attribute("href").startswith("data:image/png;base64,iVBORw0KGgo")
    expect(player.get_by_test_id("log")).to_contain_text("GM sets the battle map: 200 × 120 px, 20 px a 5-ft square (50 × 30 ft).")
    gm.get_by_test_id("map-remove").click()
    expect(player.get_by_test_id("map-backdrop")).to_have_count(0)
    assert not table.problems, table.problems
