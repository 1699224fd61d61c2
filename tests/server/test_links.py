"""Links for a table on several devices: the public URL, the LAN address, and
forwarded headers believed only from the proxies named (server/addresses.py,
server/forwarded.py); and the home page at /."""

import ipaddress
import os
import subprocess
import sys
import time
import urllib.parse

import httpx
import pytest
import websockets
from support import ROOT, TIMEOUT, FrayServer, Table, free_port

from fray_table.server import addresses

pytestmark = pytest.mark.redis

FORWARDED = {"x-forwarded-proto": "https", "x-forwarded-host": "table.example", "x-forwarded-for": "203.0.113.9"}
ADMIN_KEY = "admin-key-for-tests-0123456789"  # reached through a proxy or a tunnel, creating needs it (docs/security.md)
KEY = {"authorization": f"Bearer {ADMIN_KEY}"}
PROXIED = {"FRAY_FORWARDED_ALLOW_IPS": "127.0.0.1", "FRAY_ADMIN_KEY": ADMIN_KEY, "FRAY_ALLOWED_HOSTS": "table.example"}


def base_of(link: str) -> str:
    parts = urllib.parse.urlsplit(link)
    return f"{parts.scheme}://{parts.netloc}"


def test_public_url_is_in_generated_and_printed_links(redis_url, tmp_path):
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    serve = subprocess.Popen(
        [sys.executable, "-m", "fray_table.server.cli", "serve", "--port", str(port), "--redis-url", redis_url, "--public-url", "https://fray.example/table"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "FRAY_SECRET": "test-secret-0123456789abcdef", "FRAY_ADMIN_KEY": ADMIN_KEY},
    )
    try:
        deadline = time.monotonic() + 20
        while "  GM:" not in (tmp_path / "serve.log").read_text() and time.monotonic() < deadline and serve.poll() is None:
            time.sleep(0.1)
        printed = (tmp_path / "serve.log").read_text()
        assert "fray: serving on https://fray.example/table/" in printed, printed
        gm_line = next(line for line in printed.splitlines() if line.startswith("  GM:"))
        assert gm_line.split()[1].startswith("https://fray.example/table/e/")
        made = httpx.post(f"http://127.0.0.1:{port}/api/encounters", json={}, headers=KEY, timeout=TIMEOUT).json()
        for link in (made["links"]["gm"], made["links"]["spectator"], *made["links"]["players"].values()):
            assert link.startswith(f"https://fray.example/table/e/{made['id']}?token="), link
    finally:
        serve.terminate()
        serve.wait(10)
        log.close()


def test_links_follow_forwarded_headers_from_an_allowed_proxy_only(redis_url, tmp_path):
    trusting = FrayServer(redis_url, tmp_path, env=PROXIED)
    other = FrayServer(redis_url, tmp_path, env={**PROXIED, "FRAY_FORWARDED_ALLOW_IPS": "10.0.0.0/8"})  # the test is not that proxy
    try:
        made = httpx.post(f"{trusting.url}/api/encounters", json={}, headers={**FORWARDED, **KEY}, timeout=TIMEOUT).json()
        assert base_of(made["links"]["gm"]) == "https://table.example"
        listed = httpx.get(
            f"{trusting.url}/api/encounters/{made['id']}/links",
            headers=FORWARDED,
            params={"token": urllib.parse.parse_qs(urllib.parse.urlsplit(made["links"]["gm"]).query)["token"][0]},
            timeout=TIMEOUT,
        ).json()
        assert {base_of(item["link"]) for item in listed["links"]} == {"https://table.example"}
        refused = httpx.post(f"{other.url}/api/encounters", json={}, headers={**FORWARDED, **KEY}, timeout=TIMEOUT).json()
        assert base_of(refused["links"]["gm"]) == f"http://127.0.0.1:{other.port}"
    finally:
        trusting.stop()
        other.stop()


async def test_websocket_origin_follows_the_forwarded_host(redis_url, tmp_path):
    """A page served as https://table.example through the proxy opens its socket there too."""
    server = FrayServer(redis_url, tmp_path, env=PROXIED)
    try:
        made = httpx.post(f"{server.url}/api/encounters", json={}, headers=KEY, timeout=TIMEOUT).json()
        url = server.ws_url(made["links"]["gm"])
        ws = await websockets.connect(url, origin="https://table.example", additional_headers=FORWARDED, open_timeout=TIMEOUT)
        table = Table(ws)
        assert (await table.next())["type"] == "welcome"
        await table.close()
    finally:
        server.stop()


def test_lan_address_is_an_interface_address_and_used_for_0000():
    lan = addresses.lan_address()
    found = [str(a) for a in addresses.interface_addresses()]
    assert lan in found or lan == "127.0.0.1" or lan == str(addresses.routed_address())
    if any(not ipaddress.ip_address(a).is_loopback for a in found):
        assert not ipaddress.ip_address(lan).is_loopback
    assert addresses.start_url("0.0.0.0", 8123) == f"http://{lan}:8123/"
    assert addresses.start_url("127.0.0.1", 8123) == "http://127.0.0.1:8123/"
    assert addresses.start_url("::1", 80) == "http://[::1]:80/"
    assert addresses.start_url("0.0.0.0", 8123, "https://t.example/") == "https://t.example/"


def test_home_page_says_what_fray_is_and_offers_a_fight(fray_server):
    r = httpx.get(fray_server.url + "/", timeout=TIMEOUT)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "A shared fight for an old-school D&amp;D table" in r.text
    assert 'src="/static/home.js"' in r.text and 'data-testid="create-form"' in r.text
    assert httpx.get(fray_server.url + "/static/home.js", timeout=TIMEOUT).status_code == 200
    about = httpx.get(fray_server.url + "/", headers={"accept": "application/json"}, timeout=TIMEOUT).json()
    assert about["creation"] == "open" and about["create"] == "POST /api/encounters"


def test_home_page_asks_for_the_admin_key_when_one_is_set(redis_url, tmp_path):
    server = FrayServer(redis_url, tmp_path, env={"FRAY_ADMIN_KEY": "k" * 20})
    try:
        assert httpx.get(server.url + "/api/about", timeout=TIMEOUT).json()["creation"] == "admin-key"
    finally:
        server.stop()
