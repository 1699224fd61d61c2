"""The campaign page in real Chromium: the GM starts a fight from the campaign, the fight
is played (a real websocket), the GM brings back what it did and accepts it, and the
player's phone shows the scar with the fight it came from; axe finds nothing grave."""

import json
import re
import urllib.parse

import httpx
import pytest
from pages import Pages, overflowing, screenshot
from playwright.sync_api import expect
from support import ROOT, token_of
from test_browser_a11y import violations
from websockets.sync.client import connect

pytestmark = [pytest.mark.browser, pytest.mark.redis]

ALDA = {
    "id": "alda",
    "owner": "Ann",
    "sheet": {"name": "Alda", "side": "party", "klass": "fighter", "level": 3, "hp": 3, "hp_max": 12, "dex": 13, "armor": "chain mail"},
    "gear": {"oil": 2, "coin": 50, "armor_cost": 70},
}
BORS = {"id": "bors", "owner": "Ben", "sheet": {"name": "Bors", "side": "party", "klass": "cleric", "hp": 7, "hp_max": 7}}
# surprise 6, 6; the goblin's d20 20 (a critical), crit chart 19, d6 2 x 3; death and dying 15 (broken collarbone); 2d4 3, 1; 1d4+6 weeks: 1
DICE = [6, 6, 20, 19, 2, 15, 3, 1, 1]
GNOLL = json.dumps(
    [{"name": "Gnoll", "hd": 2, "ac": 14, "hp": 10, "hp_max": 10, "size": "L", "weapons": [{"name": "battle axe", "damage": "1d8"}], "morale": 9}]
).encode()


def play_fight(port: int, gm_link: str) -> dict[str, tuple[int, int]]:
    """The fight, by the GM over its websocket: the goblin strikes Alda down."""
    parts = urllib.parse.urlparse(gm_link)
    fight, token = parts.path.rsplit("/", 1)[-1], urllib.parse.parse_qs(parts.query)["token"][0]
    with connect(f"ws://127.0.0.1:{port}/ws/encounters/{fight}?token={token}", open_timeout=10) as ws:
        welcome = json.loads(ws.recv(timeout=10))
        goblin = next(c["id"] for c in welcome["view"]["combatants"] if c["side"] == "monsters")
        where = {c["name"]: (c["x"], c["y"]) for c in welcome["view"]["combatants"]}
        commands = [
            {"type": "force_rolls", "values": DICE},
            {"type": "start"},
            {"type": "declare", "actor": goblin, "action": {"type": "attack", "target": "alda"}},
            {"type": "advance"},
            {"type": "end"},
        ]
        for i, command in enumerate(commands):
            ws.send(json.dumps({"type": "command", "id": f"b{i}", "command": command}))
            for _ in range(50):
                message = json.loads(ws.recv(timeout=10))
                if message.get("id") == f"b{i}" and message["type"] in ("ack", "error"):
                    assert message["type"] == "ack", message
                    break
            else:
                raise AssertionError(f"no answer to {command}")
    return where


def test_the_campaign_page_brings_a_fights_scar_home(fray_server, table: Pages) -> None:
    made = httpx.post(f"{fray_server.url}/api/campaigns", json={"name": "The Keep", "characters": [ALDA, BORS]}, timeout=10).json()
    gm = table.open(made["links"]["gm"], "gm", live=False)
    expect(gm.get_by_test_id("campaign-name")).to_have_text("The Keep")
    expect(gm.get_by_test_id("ac-alda")).to_have_text("15")  # 000: Chain Mail 15
    expect(gm.get_by_test_id("monster-Goblin")).to_contain_text("HD 1, AC 13, 4 HP, short sword 1d6, size S, morale 7")  # rules/ready.py
    expect(gm.get_by_test_id("monster-Ogre")).to_contain_text("HD 4, AC 14, 20 HP, club 1d4, size L, morale 10")  # docs/scenarios/thac0-sheet.toml's
    gm.get_by_test_id("bestiary-file").set_input_files(files=[{"name": "gnoll.json", "mimeType": "application/json", "buffer": GNOLL}])
    expect(gm.get_by_test_id("monster-Gnoll")).to_contain_text("HD 2, AC 14, 10 HP, battle axe 1d8, size L, morale 9")
    gm.get_by_test_id("fight-with-bors").uncheck()
    expect(gm.get_by_test_id("token-bors")).to_have_count(0)
    gm.get_by_test_id("count-Goblin").fill("1")
    gm.get_by_test_id("count-Goblin").dispatch_event("change")
    # The goblin, dragged from its square facing Alda (10, 15) to the one north of her (10, 5).
    expect(gm.get_by_test_id("square-10-15").get_by_test_id("token-Goblin")).to_be_visible()
    gm.get_by_test_id("token-Goblin").drag_to(gm.get_by_test_id("square-10-5"))
    expect(gm.get_by_test_id("square-10-5").get_by_test_id("token-Goblin")).to_be_visible()
    gm.get_by_test_id("token-alda").click()  # chosen, then a square: the click (and keyboard) way
    expect(gm.get_by_test_id("token-alda")).to_have_attribute("aria-pressed", "true")
    gm.get_by_test_id("square-5-10").click()
    expect(gm.get_by_test_id("square-5-10").get_by_test_id("token-alda")).to_be_visible()
    gm.get_by_test_id("token-alda").click()
    gm.get_by_test_id("square-10-10").click()
    gm.get_by_test_id("start-fight").click()
    opened = gm.locator("[data-testid^=open-]")
    expect(opened).to_have_count(1)
    fight = opened.get_attribute("data-testid").removeprefix("open-")
    where = play_fight(fray_server.port, opened.get_attribute("href"))
    assert where == {"Alda": (10, 10), "Goblin": (10, 5)}

    gm.get_by_test_id(f"report-{fight}").click()
    expect(gm.get_by_test_id("error")).to_be_hidden()
    expect(gm.locator("[data-testid^=finding-]")).to_have_count(3)  # HP, armor damage, the broken collarbone
    expect(gm.get_by_test_id("findings")).to_contain_text("broken collarbone for 49 days")
    for _ in range(3):
        gm.locator("[data-testid^=accept-]").first.click()
        gm.wait_for_timeout(50)
    expect(gm.locator("[data-testid^=finding-]")).to_have_count(0)
    expect(gm.get_by_test_id("lasting-alda-broken-collarbone")).to_contain_text(f"49 days left (fight {fight}, event")
    expect(gm.get_by_test_id("ac-alda")).to_have_text("14")  # 'victim's AC lowers by 1'
    gm.get_by_test_id("edit-character").select_option("bors")
    edit = json.loads(gm.get_by_test_id("edit-json").input_value())
    edit["gear"] = {"oil": 4}
    gm.get_by_test_id("edit-json").fill(json.dumps(edit))
    gm.get_by_test_id("edit-save").click()
    expect(gm.get_by_test_id("gear-bors")).to_contain_text("4 oil")
    expect(gm.get_by_test_id(f"replay-{fight}")).to_have_attribute("href", re.compile(f"/fights/{fight}/replay"))
    gm.get_by_test_id("foundry-owner").fill("Hal")
    gm.get_by_test_id("foundry-file").set_input_files(str(ROOT / "tests" / "campaign" / "foundry_ose_actor.json"))
    expect(gm.locator("[data-testid^=character-pc]")).to_contain_text("Hilda the Bold · Hal")
    expect(gm.get_by_test_id("foundry-note")).to_contain_text("left out: system.encumbrance")
    gm.get_by_test_id("show-links").click()
    expect(gm.get_by_test_id("revoke-Ann")).to_be_visible()
    screenshot(gm, "campaign-gm.png")

    phone = table.open(made["links"]["players"]["Ann"], "phone", width=390, live=False)
    expect(phone.get_by_test_id("lasting-alda-broken-collarbone")).to_contain_text(f"fight {fight}")
    expect(phone.get_by_test_id("gm-panel")).to_be_hidden()
    expect(phone.get_by_test_id("character-bors")).to_have_count(0)
    phone.get_by_test_id("repair-alda").click()  # 50 gp: 1/2 of 70 is 35
    expect(phone.get_by_test_id("armor-alda")).to_have_text("chain mail")
    expect(phone.get_by_test_id("gear-alda")).to_contain_text("15 gp")
    screenshot(phone, "campaign-phone.png")
    assert overflowing(phone) == []
    assert {"gm": violations(gm), "phone": violations(phone)} == {"gm": [], "phone": []}
    table.check()


def command(server, campaign: str, link: str, cid: str, body: dict) -> dict:
    r = httpx.post(f"{server.url}/api/campaigns/{campaign}/commands", params={"token": token_of(link)}, json={"id": cid, "command": body}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_players_page_follows_the_gms_changes_without_a_reload(fray_server, table: Pages) -> None:
    made = httpx.post(f"{fray_server.url}/api/campaigns", json={"name": "Live", "characters": [ALDA, BORS]}, timeout=10).json()
    phone = table.open(made["links"]["players"]["Ann"], "phone", width=390, live=False)
    expect(phone.get_by_test_id("gear-alda")).to_contain_text("2 oil")
    phone.evaluate("window.notReloaded = true")
    gm_link = made["links"]["gm"]
    command(fray_server, made["id"], gm_link, "g1", {"type": "edit_character", "id": "alda", "gear": {"oil": 5, "coin": 50, "armor_cost": 70}})
    command(fray_server, made["id"], gm_link, "g2", {"type": "pass_time", "days": 3, "rest": True})
    expect(phone.get_by_test_id("gear-alda")).to_contain_text("5 oil", timeout=8_000)  # polled: within a few seconds
    expect(phone.get_by_test_id("day")).to_have_text("3")
    assert phone.evaluate("window.notReloaded") is True
    # A note being typed is not swept away by another's change: the page waits until the field is left.
    phone.get_by_test_id("notes-alda").fill("half a thought")
    command(fray_server, made["id"], gm_link, "g3", {"type": "pass_time", "days": 1, "rest": True})
    phone.wait_for_timeout(3_000)
    expect(phone.get_by_test_id("notes-alda")).to_have_value("half a thought")
    expect(phone.get_by_test_id("day")).to_have_text("3")
    phone.get_by_test_id("save-notes-alda").click()
    expect(phone.get_by_test_id("day")).to_have_text("4")
    expect(phone.get_by_test_id("notes-alda")).to_have_value("half a thought")
    table.check()


def test_the_gm_revokes_a_player_link_on_the_page(fray_server, table: Pages) -> None:
    made = httpx.post(f"{fray_server.url}/api/campaigns", json={"name": "Revoke", "characters": [ALDA, BORS]}, timeout=10).json()
    ann = made["links"]["players"]["Ann"]
    assert httpx.get(f"{fray_server.url}/api/campaigns/{made['id']}", params={"token": token_of(ann)}, timeout=10).status_code == 200
    gm = table.open(made["links"]["gm"], "gm", live=False)
    gm.get_by_test_id("show-links").click()
    expect(gm.locator("[data-testid^=link-]")).to_have_count(2)
    gm.get_by_test_id("revoke-Ann").click()
    expect(gm.get_by_test_id("revoke-Ann")).to_have_text("Really revoke Ann's link? Click again")
    assert httpx.get(f"{fray_server.url}/api/campaigns/{made['id']}", params={"token": token_of(ann)}, timeout=10).status_code == 200  # armed, not sent
    gm.get_by_test_id("revoke-Ann").click()
    expect(gm.get_by_test_id("link-Ann")).to_have_text("Ann: revoked")
    expect(gm.get_by_test_id("revoke-Ann")).to_have_count(0)
    expect(gm.get_by_test_id("revoke-Ben")).to_be_visible()
    expect(gm.get_by_test_id("error")).to_be_hidden()
    refused = httpx.get(f"{fray_server.url}/api/campaigns/{made['id']}", params={"token": token_of(ann)}, timeout=10)
    assert (refused.status_code, refused.json()["code"]) == (403, "auth/bad-token")
    phone = table.open(ann, "phone", width=390, live=False)
    expect(phone.get_by_test_id("error")).to_contain_text("revoked")
    table.problems.clear()  # the revoked page's refused request is the console's error line
    assert violations(gm) == []
    table.check()
