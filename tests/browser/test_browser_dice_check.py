"""'Check the dice' in the replay viewer, in real Chromium (issue 14): the page fetches the log
as its link saw it and recomputes every roll from the revealed seed with its own code
(client_web/dice.js), trusting no answer of the server; it agrees with `fray verify`."""

import json

import httpx
import pytest
from pages import Pages
from playwright.sync_api import expect
from support import token_of
from test_browser_replay import replay_url, send
from test_verify import BRAWL, UNBREAKABLE
from websockets.sync.client import connect

from fray_table.server import verify

pytestmark = pytest.mark.browser


def brawl(server, end: bool) -> dict:
    """BRAWL on the server (surprise forced, every other die the server's seed), ended or not."""
    made = server.create({"combatants": BRAWL["combatants"], "players": {"party": ["alda"]}, "options": UNBREAKABLE})
    with connect(server.ws_url(made["links"]["gm"]), open_timeout=10) as gm:
        assert json.loads(gm.recv(timeout=10))["type"] == "welcome"
        for command in [{"type": "force_rolls", "values": [5, 6]}, *BRAWL["commands"][: None if end else -1]]:
            send(gm, command)
    return made


def test_browser_checks_the_dice_of_an_ended_fight(fray_server, table: Pages) -> None:
    made = brawl(fray_server, end=True)
    link = made["links"]["players"]["party"]
    exported = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/export", params={"token": token_of(link), "format": "json"}, timeout=10)
    python = verify.check(verify.parse(exported.content))
    assert python.ok and python.random >= 7

    page = table.open(replay_url(link), "player replay", live=False)
    page.get_by_test_id("check-dice").click()
    result = page.get_by_test_id("dice-result")
    expect(result).to_have_text(
        f"Every random roll is the one the seed gives ({python.random} random rolls checked; 3 forced by the GM and 0 entered at the table)."
    )
    expect(result).to_have_attribute("data-ok", "true")
    table.check()


def test_browser_cannot_check_the_dice_before_the_end(fray_server, table: Pages) -> None:
    made = brawl(fray_server, end=False)
    page = table.open(replay_url(made["links"]["gm"]), "gm replay", live=False)
    page.get_by_test_id("check-dice").click()
    expect(page.get_by_test_id("dice-result")).to_have_text("Not verified: the seed is not revealed (the fight has not ended): the rolls cannot be checked.")
    table.check()
