"""The replay viewer in real Chromium: a fight played over websockets (the showcase
of docs/scenarios, every die forced), then replayed from a player's link, scrubbed
back to round 1, stepped, played, and exported."""

import copy
import json
import re
import tomllib
import uuid

import httpx
import pytest
from pages import Pages, overflowing, screenshot
from playwright.sync_api import Page, expect
from support import ROOT, token_of
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

SHOWCASE = ROOT / "docs" / "scenarios" / "holmes-showcase.toml"
SCENARIO = tomllib.loads(SHOWCASE.read_text())


def send(ws, command: dict) -> dict:
    """Send a command on a synchronous websocket and wait for its answer (updates are skipped)."""
    cid = uuid.uuid4().hex
    ws.send(json.dumps({"type": "command", "id": cid, "command": command}))
    for _ in range(200):
        message = json.loads(ws.recv(timeout=10))
        if message["type"] in ("ack", "error") and message.get("id") == cid:
            assert message["type"] == "ack", (command, message)
            return message
    raise AssertionError(f"no answer to {command}")


def play_showcase(server, hidden: tuple[str, ...] = ()) -> dict:
    combatants = copy.deepcopy(SCENARIO["combatants"])
    for c in combatants:
        c["hidden"] = c["id"] in hidden
    made = server.create({"combatants": combatants, "options": SCENARIO["options"], "players": {"party": ["alda", "bran", "cora"]}})
    with (
        connect(server.ws_url(made["links"]["gm"]), open_timeout=10) as gm,
        connect(server.ws_url(made["links"]["players"]["party"]), open_timeout=10) as party,
    ):
        for ws in (gm, party):
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        send(gm, {"type": "force_rolls", "values": SCENARIO["dice"]})
        for raw in SCENARIO["commands"]:
            command = dict(raw)
            send(gm if command.pop("as", "gm") == "gm" else party, command)
    return made


def replay_url(link: str, at: int | None = None) -> str:
    return link + "&replay=1" + (f"&at={at}" if at is not None else "")


def at_event(page: Page, seq: int) -> None:
    expect(page.get_by_test_id("replay-position")).to_have_text(re.compile(rf"^Event {seq} of \d+$"))
    expect(page.locator(f"body[data-replay-seq='{seq}']")).to_have_count(1)


def test_browser_replay_scrubs_back_to_round_one(fray_server, table: Pages) -> None:
    made = play_showcase(fray_server, hidden=("mog",))
    link = made["links"]["players"]["party"]
    page = table.open(replay_url(link), "replay", live=False)

    # It opens at the end: round 4, Ukk and Mog down, the orcs fled.
    expect(page.get_by_test_id("round")).to_have_text("4")
    expect(page.get_by_test_id("connection")).to_have_text("replay")
    expect(page.get_by_test_id("down-ukk")).to_be_visible()
    last = int(page.get_by_test_id("replay-slider").get_attribute("max"))
    at_event(page, last)
    expect(page.get_by_test_id("hp-mog")).to_have_text("down")  # hidden: the condition word, not HP
    screenshot(page, "replay-end.png")

    # Jump to round 1 (event 9: surprise rolled, declarations open).
    page.get_by_test_id("replay-round").select_option(label="Round 1 (event 9)")
    at_event(page, 9)
    expect(page.get_by_test_id("round")).to_have_text("1")
    expect(page.get_by_test_id("phase")).to_have_text("declaration")
    expect(page.get_by_test_id("log-entry").first).to_have_text("Round 1: declarations are open.")
    expect(page.get_by_test_id("log-entry").filter(has_text="orcs rolls d6 2: surprised.")).to_have_count(1)
    expect(page.get_by_test_id("log-entry").filter(has_text="Bran attacks Grul")).to_have_count(0)
    expect(page.get_by_test_id("hp-snag")).to_have_text("9/9")
    expect(page.get_by_test_id("hp-alda")).to_have_text("12/12")
    expect(page.get_by_test_id("pos-alda")).to_have_text("10, 10")
    expect(page.get_by_test_id("down-ukk")).to_have_count(0)
    expect(page.get_by_test_id("awaited-bran")).to_be_visible()

    # Step forward with the keyboard: Bran's declaration appears.
    page.get_by_test_id("replay-forward").focus()
    page.keyboard.press("Enter")
    at_event(page, 10)
    expect(page.get_by_test_id("declared-bran")).to_contain_text("attack Grul")
    page.get_by_test_id("replay-forward").press("Enter")
    page.get_by_test_id("replay-forward").press("Enter")
    page.get_by_test_id("replay-forward").press("Enter")
    at_event(page, 13)  # round 1 resolved: Snag burns, Alda moved
    expect(page.get_by_test_id("round")).to_have_text("2")
    expect(page.get_by_test_id("hp-snag")).to_have_text("4/9")
    expect(page.get_by_test_id("conditions-snag")).to_contain_text("burning")
    expect(page.get_by_test_id("pos-alda")).to_have_text("20, 10")
    page.get_by_test_id("replay-back").click()
    at_event(page, 12)
    expect(page.get_by_test_id("hp-snag")).to_have_text("9/9")
    screenshot(page, "replay-round-1.png")

    # Scrub with the slider (arrow keys on a range input), then play at speed to the end.
    page.get_by_test_id("replay-slider").focus()
    page.keyboard.press("Home")
    at_event(page, 0)
    expect(page.get_by_test_id("round")).to_have_text("–")
    page.get_by_test_id("replay-speed").select_option("10")
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-pressed", "true")
    at_event(page, last)
    expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-pressed", "false")

    # Exports are linked, and what they give is this viewer's.
    md = page.get_by_test_id("export-md").get_attribute("href")
    text = httpx.get(fray_server.url + md, timeout=10).text
    assert "## Round 1" in text and "Seed: still secret" in text
    assert page.get_by_test_id("export-json").get_attribute("href").endswith("format=json")

    # A phone: no sideways scrolling.
    phone = table.open(replay_url(link, at=9), "replay phone", width=390, live=False)
    at_event(phone, 9)
    assert overflowing(phone) == []
    screenshot(phone, "replay-phone.png")
    table.check()


def test_browser_replay_for_the_gm_shows_the_gm_view(fray_server, table: Pages) -> None:
    made = play_showcase(fray_server, hidden=("mog",))
    page = table.open(replay_url(made["links"]["gm"], at=12), "gm replay", live=False)
    at_event(page, 12)
    expect(page.get_by_test_id("hp-mog")).to_have_text("4/4")
    expect(page.get_by_test_id("gm-console")).to_be_hidden()  # read-only
    expect(page.get_by_test_id("seed")).to_contain_text("sha256")
    assert httpx.get(fray_server.url + "/api/encounters/" + made["id"] + "/replay", params={"token": token_of(made["links"]["gm"])}).json()["view"]["seed"]
    table.check()


def test_browser_replay_forks_the_fight_and_opens_the_fork_as_its_gm(fray_server, redis_url, table: Pages) -> None:
    """'Fork here' (server/forks.py): a player's replay of a running fight offers no fork;
    the GM's forks at the event shown and lands on the fork's GM page, which says where it came from."""
    made = play_showcase(fray_server)
    player = table.open(replay_url(made["links"]["players"]["party"], at=12), "player replay", live=False)
    at_event(player, 12)
    expect(player.get_by_test_id("replay-fork")).to_be_hidden()  # the fight runs: only its GM may fork it
    gm = table.open(replay_url(made["links"]["gm"], at=12), "gm replay", live=False)
    at_event(gm, 12)
    gm.get_by_test_id("replay-fork").click()
    gm.wait_for_url(re.compile(r"/e/(?!" + re.escape(made["id"]) + r")[^?]+\?token="))
    expect(gm.get_by_test_id("rules")).to_contain_text(f"A fork of fight {made['id']} after its event #12.")
    expect(gm.get_by_test_id("gm-console")).to_be_visible()
    fork_id = gm.url.split("/e/")[1].split("?")[0]
    replay = httpx.get(f"{fray_server.url}/api/encounters/{fork_id}/replay", params={"token": gm.url.split("token=")[1], "at": "12"}).json()
    origin = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/replay", params={"token": token_of(made["links"]["gm"]), "at": "12"}).json()
    assert replay["view"] == origin["view"] and replay["log"] == origin["log"]  # the same fight up to the fork point
    assert replay["count"] == 14
    table.check()
