"""A page survives a server restart: the server stops, the page shows the
reconnecting banner, a new server comes up on the same port (same Redis), and the
page resumes from its last position with `after=` and takes live updates again."""

import json
import uuid

import pytest
from pages import Pages, screenshot
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from support import FrayServer
from websockets.sync.client import connect

pytestmark = pytest.mark.browser


def command(server: FrayServer, link: str, cmd: dict) -> None:
    with connect(server.ws_url(link), open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        cid = uuid.uuid4().hex
        ws.send(json.dumps({"type": "command", "id": cid, "command": cmd}))
        for _ in range(50):
            reply = json.loads(ws.recv(timeout=10))
            if reply.get("id") == cid:
                assert reply["type"] == "ack", reply
                return
        raise AssertionError("no ack")


def test_browser_page_survives_a_server_restart(redis_url, tmp_path, table: Pages) -> None:
    first = FrayServer(redis_url, tmp_path)
    second = None
    try:
        made = first.create()
        player = table.open(next(iter(made["links"]["players"].values())), "player")
        joined = player.get_by_test_id("log-entry").filter(has_text="joins")
        expect(joined).not_to_have_count(0)
        count = joined.count()

        first.stop()
        expect(player.get_by_test_id("status-banner")).to_contain_text("Reconnecting")
        expect(player.get_by_test_id("connection")).to_have_text("offline")
        screenshot(player, "restart-reconnecting.png")

        second = FrayServer(redis_url, tmp_path, port=first.port)
        retry = player.get_by_test_id("retry-now")
        if retry.is_visible():
            try:
                retry.click(timeout=2_000)  # no need to sit out the backoff
            except PlaywrightTimeout:
                pass  # the page's own next try came first, and the button went with it
        expect(player.get_by_test_id("connection")).to_have_text("live", timeout=20_000)
        expect(player.get_by_test_id("status-banner")).to_be_hidden()

        command(second, made["links"]["gm"], {"type": "start"})
        expect(player.get_by_test_id("round")).to_have_text("1")
        expect(joined).to_have_count(count)  # resumed, not replayed twice
        # While the server is down the browser reports each refused connection; nothing else may go wrong.
        table.problems = [p for p in table.problems if "ERR_CONNECTION_REFUSED" not in p]
        table.check()
    finally:
        first.stop()
        if second is not None:
            second.stop()
