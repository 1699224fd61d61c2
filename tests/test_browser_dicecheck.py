"""Check the dice in real Chromium (issue 13, Deliver 8): after the end, the replay page
re-derives every die the seed rolled from the revealed seed (BLAKE2b in the page, as
rules/dice.py) and says they match; a tampered roll is named as the first that does not."""

import json

import pytest
from conftest import Pages
from playwright.sync_api import Route, expect
from test_browser_replay import send
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

FIGHT = {
    "options": {"sealed_declarations": False, "weapon_damage": True},
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 12, "hp": 40, "hp_max": 40, "attack_bonus": 3, "dex": 14, "x": 10, "y": 10},
        {
            "id": "gob",
            "name": "Goblin",
            "side": "goblins",
            "ac": 12,
            "hp": 40,
            "hp_max": 40,
            "dex": 9,
            "x": 15,
            "y": 10,
            "weapons": [{"name": "club", "damage": "1d6"}],
        },
    ],
    "players": {"Ann": ["alda"]},
}
ROUND = [
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
    {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
    {"type": "advance"},
]


def test_browser_the_replay_checks_every_seeded_die_against_the_revealed_seed(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    with connect(fray_server.ws_url(made["links"]["gm"]), open_timeout=10) as ws:
        ws.recv(timeout=10)
        for command in [
            {"type": "force_rolls", "values": [5, 6], "sides": 6},
            {"type": "force_rolls", "values": [7], "sides": 20},
            {"type": "start"},
            *ROUND * 3,
            {"type": "end"},
        ]:
            send(ws, command)
    page = table.open(made["links"]["players"]["Ann"] + "&replay=1", "replay", live=False)
    expect(page.get_by_test_id("check-dice")).to_be_enabled()
    expect(page.get_by_test_id("summary-rounds")).to_have_text("4 rounds.")  # the end-of-fight summary, in the replay too
    log = page.evaluate(
        "() => fetch(location.pathname.replace('/e/', '/api/encounters/') + '/log' + location.search.replace('&replay=1', '')).then(r => r.json())"
    )
    seeded = [r for e in log for r in e.get("rolls", []) if r.get("draw", -1) >= 0]
    assert len(seeded) >= 6 and any(r.get("forced") for e in log for r in e.get("rolls", []))  # the forced dice (surprise: nobody) are not the seed's
    page.get_by_test_id("check-dice").click()
    expect(page.get_by_test_id("dice-check")).to_have_text(
        f"All {len(seeded)} dice the seed rolled match the revealed seed (sha256 {made['seed_hash'][:12]}…, as shown from the start)."
    )

    expect(page.locator("[data-testid=roll][data-check=match]")).to_have_count(len(seeded))  # each die marked in the log
    expect(page.locator("[data-testid=roll][data-check=mismatch]")).to_have_count(0)

    def tamper(route: Route) -> None:
        body = route.fetch().json()
        for e in body["log"]:
            for r in e.get("rolls", []):
                if r.get("draw", -1) >= 0 and r["sides"] == 20:
                    r["value"] = r["value"] % 20 + 1  # one seeded d20 off by one
                    route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
                    return
        raise AssertionError("no seeded d20 to tamper with")

    page.route("**/replay?*", tamper)
    page.reload()
    page.get_by_test_id("check-dice").click()
    expect(page.get_by_test_id("dice-check")).to_contain_text("does not match the seed, which gives")
    expect(page.get_by_test_id("dice-check")).to_contain_text(f"{len(seeded) - 1} of {len(seeded)} match.")
    expect(page.locator("[data-testid=roll][data-check=mismatch]")).to_have_count(1)
    assert not table.problems, table.problems
