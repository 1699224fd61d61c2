"""What a server refuses before any route (server/edge.py): a Host it does not answer
to (DNS rebinding), and a state-changing API request a page of another site could
send (plain text, a form, a foreign Origin). Real `fray serve` processes, real requests."""

import json
import socket

import httpx
import pytest
import redis.asyncio as aioredis
import websockets
from support import TIMEOUT, FrayServer, Table, token_of

from fray_table.server.edge import bracketed, host_of, hosts_answered
from fray_table.server.store import ENCOUNTERS

pytestmark = pytest.mark.redis

FIGHT = {"combatants": [{"id": "alda", "name": "Alda", "side": "party"}, {"id": "gob", "name": "Goblin", "side": "goblins"}]}
JSON = {"content-type": "application/json"}


async def encounters(redis_url: str) -> set[bytes]:
    client = aioredis.Redis.from_url(redis_url)
    try:
        return await client.smembers(ENCOUNTERS)
    finally:
        await client.aclose()


@pytest.fixture(scope="module")
def lan_server(redis_url, tmp_path_factory):
    """A server that also answers to a LAN name (FRAY_ALLOWED_HOSTS), as phones reach it."""
    server = FrayServer(redis_url, tmp_path_factory.mktemp("lan"), env={"FRAY_ALLOWED_HOSTS": "table.lan,*.fray.test"})
    yield server
    server.stop()


async def test_a_create_a_page_of_another_site_could_send_is_refused_and_makes_nothing(fray_server, redis_url):
    url = f"{fray_server.url}/api/encounters"
    body = json.dumps(FIGHT)
    before = await encounters(redis_url)
    for content_type in ("text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"content-type": content_type} if content_type else {}
        r = httpx.post(url, content=body, headers=headers, timeout=TIMEOUT)
        assert r.status_code == 415, (content_type, r.text)
        assert r.json()["code"] == "request/not-json" and "application/json" in r.json()["message"]
    r = httpx.post(url, data={"combatants": "x"}, timeout=TIMEOUT)  # a real form
    assert r.status_code == 415 and r.json()["code"] == "request/not-json"
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{fray_server.port + 1}"):
        r = httpx.post(url, content=body, headers={**JSON, "origin": origin}, timeout=TIMEOUT)
        assert r.status_code == 403, (origin, r.text)
        assert r.json()["code"] == "auth/origin" and "links" not in r.json()
    assert await encounters(redis_url) == before
    same = httpx.post(url, content=body, headers={**JSON, "origin": fray_server.url}, timeout=TIMEOUT)  # the home page's own request
    assert same.status_code == 201, same.text
    assert (await encounters(redis_url)) - before == {same.json()["id"].encode()}


def test_every_state_changing_route_needs_json_and_this_sites_origin(fray_server):
    made = fray_server.create(FIGHT)
    gm = {"token": token_of(made["links"]["gm"])}
    base = f"{fray_server.url}/api/encounters/{made['id']}"
    links = httpx.get(f"{base}/links", params=gm, timeout=TIMEOUT).json()["links"]
    spectator = next(link["token_id"] for link in links if link["role"] == "spectator")
    routes = [
        ("POST", f"{base}/links", {"role": "spectator"}),
        ("POST", f"{base}/links/{spectator}/revoke", {}),
        ("POST", f"{base}/fork", {"at": 1}),
        ("POST", f"{base}/simulate", {"runs": 1}),
        ("DELETE", base, None),
    ]
    for method, url, body in routes:
        content = json.dumps(body).encode() if body is not None else b""
        plain = httpx.request(method, url, params=gm, content=content, headers={"content-type": "text/plain"}, timeout=TIMEOUT)
        assert (plain.status_code, plain.json()["code"]) == (415, "request/not-json"), (method, url)
        foreign = httpx.request(method, url, params=gm, content=content, headers={**JSON, "origin": "https://evil.example"}, timeout=TIMEOUT)
        assert (foreign.status_code, foreign.json()["code"]) == (403, "auth/origin"), (method, url)
    listed = httpx.get(f"{base}/links", params=gm, timeout=TIMEOUT).json()["links"]
    assert [(link["role"], link["revoked"]) for link in listed] == [(link["role"], link["revoked"]) for link in links]  # nothing issued, nothing revoked
    revoked = httpx.post(f"{base}/links/{spectator}/revoke", params=gm, json={}, headers={"origin": fray_server.url}, timeout=TIMEOUT)
    assert revoked.status_code == 200 and revoked.json()["revoked"] is True


async def connect_as(server: FrayServer, link: str, host: str, origin: str):
    """A websocket to `server` under another name: the URL names `host`, the socket goes to the server (a name rebound to 127.0.0.1)."""
    url = server.ws_url(link).replace(f"127.0.0.1:{server.port}", host)
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
    return await websockets.connect(url, sock=sock, origin=origin, open_timeout=TIMEOUT)


def raw_request(port: int, request: bytes) -> bytes:
    """One request on a plain socket, as a probe or an old client sends it; the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(request)
        chunks = []
        for _ in range(1000):
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


async def test_a_host_the_server_does_not_answer_to_is_refused_before_any_route(fray_server):
    """A page that rebinds its own name to 127.0.0.1 is same-origin with Fray: refused, HTTP and websocket alike."""
    made = fray_server.create(FIGHT)
    rebound = f"evil.example:{fray_server.port}"
    for method, path, body in (
        ("POST", "/api/encounters", json.dumps(FIGHT)),
        ("GET", f"/api/encounters/{made['id']}/links?token={token_of(made['links']['gm'])}", None),
        ("GET", "/", None),
        ("GET", "/api/about", None),
        ("GET", "/static/index.html", None),
    ):
        headers = {"host": rebound, "origin": f"http://{rebound}", **JSON}
        r = httpx.request(method, f"{fray_server.url}{path}", content=body, headers=headers, timeout=TIMEOUT)
        assert r.status_code == 400, (path, r.text)
        assert r.json()["code"] == "request/unknown-host" and "evil.example" in r.json()["message"]
        assert "token=" not in r.text
        assert r.headers["x-content-type-options"] == "nosniff"
    with pytest.raises(websockets.InvalidStatus) as refused:
        await connect_as(fray_server, made["links"]["gm"], rebound, f"http://{rebound}")
    assert refused.value.response.status_code == 400
    assert json.loads(refused.value.response.body)["code"] == "request/unknown-host"
    # What the server does answer to: its address, localhost; a probe with no Host at all (HTTP/1.0).
    for host in (f"127.0.0.1:{fray_server.port}", f"localhost:{fray_server.port}", "LOCALHOST"):
        assert httpx.get(f"{fray_server.url}/api/about", headers={"host": host}, timeout=TIMEOUT).status_code == 200, host
    assert raw_request(fray_server.port, b"GET /healthz HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 200")
    assert b"request/unknown-host" in raw_request(fray_server.port, b"GET /api/about HTTP/1.0\r\n\r\n")


async def test_a_lan_name_given_with_allowed_hosts_is_answered_and_its_links_use_it(lan_server):
    for host in (f"table.lan:{lan_server.port}", f"phone.fray.test:{lan_server.port}"):
        r = httpx.post(f"{lan_server.url}/api/encounters", json=FIGHT, headers={"host": host, "origin": f"http://{host}"}, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        assert r.json()["links"]["gm"].startswith(f"http://{host}/e/")
    r = httpx.post(f"{lan_server.url}/api/encounters", json=FIGHT, headers={"host": f"fray.test.evil.example:{lan_server.port}"}, timeout=TIMEOUT)
    assert r.status_code == 400 and r.json()["code"] == "request/unknown-host"
    made = lan_server.create(FIGHT)
    host = f"table.lan:{lan_server.port}"
    table = Table(await connect_as(lan_server, made["links"]["gm"], host, f"http://{host}"))
    assert (await table.next())["type"] == "welcome"
    await table.close()


async def test_the_websocket_origin_check_does_not_trust_a_rebound_host(fray_server):
    """Before, a page at evil.example whose name pointed at 127.0.0.1 passed the Origin
    check, its Host being its own name: the socket was opened and the welcome sent."""
    made = fray_server.create(FIGHT)
    rebound = f"evil.example:{fray_server.port}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        ws = await connect_as(fray_server, made["links"]["spectator"], rebound, f"http://{rebound}")
        await ws.close()
    assert refused.value.response.status_code == 400


def test_hosts_answered_and_host_headers_are_read_as_starlette_reads_them():
    assert hosts_answered("127.0.0.1") == ["localhost", "127.0.0.1", "[::1]"]
    assert hosts_answered("::1", "https://Table.Example:8443/x/", ["a.lan", "*.b.lan"]) == [
        "localhost",
        "127.0.0.1",
        "[::1]",
        "table.example",
        "a.lan",
        "*.b.lan",
    ]
    everywhere = hosts_answered("0.0.0.0")
    assert everywhere[:3] == ["localhost", "127.0.0.1", "[::1]"] and len(everywhere) >= 4  # and the LAN address it prints
    assert [host_of(h) for h in ("a.example:80", "[::1]:8000", "[::1]", "A.Example", "a:b:c", "x@y:1", "[::1]x", "")] == [
        "a.example",
        "[::1]",
        "[::1]",
        "a.example",
        None,
        None,
        None,
        None,
    ]
    assert bracketed("::1") == "[::1]" and bracketed("Table.LAN") == "table.lan"


def test_serve_refuses_a_bad_allowed_host(tmp_path):
    import subprocess
    import sys

    from support import ROOT

    for bad in ("http://table.lan", "table.lan:80", "*x.lan", "a b"):
        done = subprocess.run(
            [sys.executable, "-m", "fray_table.server.cli", "serve", "--allowed-hosts", bad], cwd=ROOT, capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 2 and "--allowed-hosts" in done.stderr and "a host is a name" in done.stderr, (bad, done.stderr)
