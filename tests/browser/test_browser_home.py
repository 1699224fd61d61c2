"""The home page at / in real Chromium: a GM creates a fight there, with the
admin key when the server has one, and gets links that open the table."""

import pytest
from pages import Pages
from playwright.sync_api import expect
from support import FrayServer

pytestmark = [pytest.mark.browser, pytest.mark.redis]

KEY = "home-admin-key-0123456789"


@pytest.fixture(scope="module")
def keyed_server(redis_url, tmp_path_factory):
    server = FrayServer(redis_url, tmp_path_factory.mktemp("home"), env={"FRAY_ADMIN_KEY": KEY})
    yield server
    server.stop()


def test_home_creates_a_fight_with_the_admin_key(keyed_server, table: Pages) -> None:
    home = table.open(keyed_server.url + "/", "home", width=390, live=False)  # a phone
    expect(home.get_by_test_id("admin-key-field")).to_be_visible()
    home.get_by_test_id("profile").select_option("challenges")
    home.get_by_test_id("create").click()
    expect(home.get_by_test_id("create-error")).to_contain_text("admin key")  # refused without it
    home.get_by_test_id("admin-key").fill(KEY)
    home.get_by_test_id("create").click()
    links = home.get_by_test_id("links").locator("a")
    expect(links).to_have_count(2 + 3)  # GM, spectator, the demo's three adventurers
    gm_link = links.first.get_attribute("href")
    assert gm_link.startswith(f"http://127.0.0.1:{keyed_server.port}/e/")
    gm = table.open(gm_link, "gm")
    expect(gm.get_by_test_id("role")).to_contain_text("GM")
    table.problems = [p for p in table.problems if "403" not in p]  # the refused POST, logged by Chromium
    table.check()
