"""Tokens, links and revocation, the admin key, the Origin check, security
headers and limits: on real `fray serve` processes, over real sockets."""

import asyncio
import json
import subprocess
import sys
import time
import urllib.parse

import httpx
import pytest
import websockets
from support import ROOT, FrayServer, Table, encounter_of, free_port, token_of

from fray_table.server.limits import Limits, RateGuard, TokenBucket
from fray_table.server.security import Access
from fray_table.server.tokens import BadToken, Signer

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "dex": 9, "x": 15, "y": 10},
    ]
}
ADMIN_KEY = "admin-key-for-tests-0123456789"
TIGHT = {
    "FRAY_ADMIN_KEY": ADMIN_KEY,
    "FRAY_ORIGINS": "https://table.example",
    "FRAY_MAX_FRAME": "4096",
    "FRAY_MAX_BODY": "8192",
    "FRAY_RATE": "5",
    "FRAY_BURST": "5",
    "FRAY_SOCKETS_PER_TOKEN": "2",
}


@pytest.fixture(scope="module")
def tight_server(redis_url, tmp_path_factory):
    """A server with an admin key, an extra origin and small limits."""
    server = FrayServer(redis_url, tmp_path_factory.mktemp("tight"), env=TIGHT)
    yield server
    server.stop()


def create_with_key(server: FrayServer, body: dict | None = None) -> dict:
    r = httpx.post(f"{server.url}/api/encounters", json=body or FIGHT, headers={"Authorization": f"Bearer {ADMIN_KEY}"})
    assert r.status_code == 201, r.text
    return r.json()


async def closed(ws, within: float = 5.0) -> tuple[int, str, list[dict]]:
    """Read until the server closes the socket (bounded): its close code, reason and the messages before."""
    messages = []
    try:
        async with asyncio.timeout(within):
            while True:
                messages.append(json.loads(await ws.recv()))
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else 1006, e.rcvd.reason if e.rcvd else "", messages
    raise AssertionError("unreachable")


# --- tokens ----------------------------------------------------------------------


def test_token_signature_encounter_and_expiry_are_checked():
    signer = Signer(b"0123456789abcdef0123")
    token = signer.issue("enc1", "player", ("alda",), name="Ann")
    claims = signer.verify(token, "enc1")
    assert (claims.r, claims.c, claims.n) == ("player", ("alda",), "Ann")
    body, _, sig = token.partition(".")
    forged = signer.sign(claims.__class__(e="enc1", r="gm", i=claims.i)).partition(".")[0] + "." + sig
    for bad, why in [(forged, "bad signature"), (token + "x", "bad signature"), ("é.é", "malformed"), ("x" * 5000 + ".y", "malformed")]:
        with pytest.raises(BadToken, match=why):
            signer.verify(bad, "enc1")
    with pytest.raises(BadToken, match="another encounter"):
        signer.verify(token, "enc2")
    with pytest.raises(BadToken, match="expired"):
        signer.verify(signer.sign(claims.__class__(e="enc1", r="player", x=int(time.time()) - 1, i="old")), "enc1")
    with pytest.raises(BadToken, match="bad signature"):
        Signer(b"another-secret-0123456").verify(token, "enc1")


def test_signing_the_same_claims_gives_the_same_token():
    signer = Signer(b"0123456789abcdef0123")
    claims = signer.claims("enc1", "spectator", name="Tom")
    assert signer.sign(claims) == signer.sign(claims)
    with pytest.raises(RuntimeError, match="role"):
        signer.claims("enc1", "admin")


async def test_gm_lists_issues_and_revokes_links(fray_server, join):
    made = fray_server.create(FIGHT)
    gm_token = token_of(made["links"]["gm"])
    url = f"{fray_server.url}/api/encounters/{made['id']}/links"
    listed = httpx.get(url, params={"token": gm_token}).json()["links"]
    assert [(link["role"], link["name"], link["revoked"]) for link in listed] == [
        ("gm", "GM", False),
        ("player", "alda", False),
        ("spectator", "spectator", False),
    ]
    assert {link["link"] for link in listed} == {made["links"]["gm"], made["links"]["players"]["alda"], made["links"]["spectator"]}

    r = httpx.post(url, params={"token": gm_token}, json={"role": "player", "name": "Bo", "combatants": ["gob"]})
    assert r.status_code == 201, r.text
    new = r.json()
    table = await join(fray_server, new["link"])
    assert table.view["you"] == {"role": "player", "combatants": ["gob"]}

    player_token = token_of(made["links"]["players"]["alda"])
    for bad in ({"role": "gm"}, {"role": "player", "combatants": ["nobody"]}, {"role": "spectator", "combatants": ["alda"]}, {"role": "x", "y": 1}):
        r = httpx.post(url, params={"token": gm_token}, json=bad)
        assert r.status_code == 400 and r.json()["code"] == "request/invalid", (bad, r.text)
    for token in (player_token, token_of(made["links"]["spectator"])):
        assert httpx.get(url, params={"token": token}).json()["code"] == "auth/forbidden"
        r = httpx.post(f"{url}/{new['token_id']}/revoke", params={"token": token}, json={})
        assert r.status_code == 403 and r.json()["code"] == "auth/forbidden"

    r = httpx.post(f"{url}/{new['token_id']}/revoke", params={"token": gm_token}, json={})
    assert r.status_code == 200 and r.json() == {"token_id": new["token_id"], "revoked": True}
    code, reason, messages = await closed(table.ws)
    assert code == 4403 and "revoked" in reason
    assert messages[-1]["code"] == "auth/revoked"
    assert httpx.post(f"{url}/nope/revoke", params={"token": gm_token}, json={}).json()["code"] == "link/unknown"
    gm_id = listed[0]["token_id"]
    assert httpx.post(f"{url}/{gm_id}/revoke", params={"token": gm_token}, json={}).json()["code"] == "link/is-gm"
    listed = httpx.get(url, params={"token": gm_token}).json()["links"]
    assert [link["revoked"] for link in listed if link["token_id"] == new["token_id"]] == [True]


async def test_revoked_token_is_refused_at_once_and_closed_on_every_replica(fray_replicas):
    one, two = fray_replicas
    made = one.create(FIGHT)
    link = made["links"]["players"]["alda"]
    on_one = await Table.join(one, link)
    on_two = await Table.join(two, link)
    listed = httpx.get(f"{one.url}/api/encounters/{made['id']}/links", params={"token": token_of(made["links"]["gm"])}).json()["links"]
    token_id = next(link["token_id"] for link in listed if link["role"] == "player")
    started = time.monotonic()
    r = httpx.post(f"{one.url}/api/encounters/{made['id']}/links/{token_id}/revoke", params={"token": token_of(made["links"]["gm"])}, json={})
    assert r.status_code == 200
    for table in (on_one, on_two):  # the other replica learns it within its poll interval
        code, reason, _ = await closed(table.ws, within=3)
        assert code == 4403 and "revoked" in reason
    assert time.monotonic() - started < 3
    for server in (one, two):
        async with websockets.connect(server.ws_url(link)) as ws:
            code, reason, messages = await closed(ws)
            assert code == 4401 and messages[0]["code"] == "auth/bad-token" and "revoked" in messages[0]["message"]
        r = httpx.get(f"{server.url}/api/encounters/{made['id']}/log", params={"token": token_of(link)})
        assert r.status_code == 403 and "revoked" in r.json()["message"]


class Closed:
    """A seat's close: what it was told, and when."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.at = 0.0

    async def __call__(self, code: str, reason: str, close_code: int) -> None:
        self.calls.append((code, close_code))
        self.at = time.monotonic()

    async def until(self, within: float) -> None:
        deadline = time.monotonic() + within
        while not self.calls and time.monotonic() < deadline:
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("where", ["redis", pytest.param("cluster", marks=pytest.mark.cluster)])
async def test_a_revocation_reaches_another_replica_in_one_read_and_an_older_replicas_within_a_sweep(request, redis_url, where):
    """A revocation made here adds an entry to fray:revocations, which every replica
    reads at each poll (prompt, however many sockets it holds: here its sweep of every
    link would take 600 s). A replica of an older version only adds the token to the
    revoked set: the sweep (0.5 s here) finds it. On one Redis and on a Cluster."""
    signer = Signer(b"0123456789abcdef0123")
    url, cluster = (request.getfixturevalue("redis_cluster").url, True) if where == "cluster" else (redis_url, False)
    revoking = Access(url, signer, limits=Limits(), cluster=cluster)
    prompt = Access(url, signer, limits=Limits(revoke_poll=0.05, revoke_sweep=600), cluster=cluster)
    swept = Access(url, signer, limits=Limits(revoke_poll=0.05, revoke_sweep=0.5), cluster=cluster)
    for access in (revoking, prompt, swept):
        await access.start()
    try:
        encounter = f"test-revoke-{time.time_ns()}"
        first, second, kept = [await revoking.issue_claims(encounter, "player", ("alda",)) for _ in range(3)]
        closes = {name: Closed() for name in ("prompt", "swept", "kept")}
        prompt.sit(first, closes["prompt"])
        swept.sit(second, closes["swept"])
        swept.sit(kept, closes["kept"])
        await asyncio.sleep(0.2)  # both have read the stream's end

        started = time.monotonic()
        await revoking.revoke(encounter, first.i)
        await closes["prompt"].until(3)
        assert closes["prompt"].calls == [("auth/revoked", 4403)]
        assert closes["prompt"].at - started < 0.5

        started = time.monotonic()
        await revoking._client().sadd(f"fray:{{{encounter}}}:revoked", second.i)  # as an older replica revokes
        await closes["swept"].until(3)
        assert closes["swept"].calls == [("auth/revoked", 4403)]
        assert closes["swept"].at - started < 1.5
        assert closes["kept"].calls == []
    finally:
        for access in (revoking, prompt, swept):
            await access.close()


async def test_expired_link_is_refused(fray_server):
    made = fray_server.create(FIGHT)
    url = f"{fray_server.url}/api/encounters/{made['id']}/links"
    new = httpx.post(url, params={"token": token_of(made["links"]["gm"])}, json={"role": "spectator", "ttl": 1}).json()
    assert new["expires"] > 0
    await asyncio.sleep(max(0.0, new["expires"] + 1.05 - time.time()))
    async with websockets.connect(fray_server.ws_url(new["link"])) as ws:
        code, _, messages = await closed(ws)
    assert code == 4401 and "expired" in messages[0]["message"]


# --- creating encounters ------------------------------------------------------------


def test_admin_key_is_needed_to_create_when_set(tight_server):
    url = f"{tight_server.url}/api/encounters"
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Bearer {ADMIN_KEY}x"}, {"Authorization": "Bearer é".encode()}):
        r = httpx.post(url, json=FIGHT, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "auth/admin-key", r.text
    assert create_with_key(tight_server)["id"]
    assert "needs the admin key" in tight_server.log_path.read_text()


def test_creation_is_open_on_loopback_only_and_serve_says_so(fray_server):
    assert "open to anyone who reaches this loopback address" in fray_server.log_path.read_text()
    signer = Signer(b"0123456789abcdef0123")
    open_ = Access("redis://unused", signer, limits=Limits(), loopback=True)
    closed_ = Access("redis://unused", signer, limits=Limits(), loopback=False)
    keyed = Access("redis://unused", signer, limits=Limits(), loopback=False, admin_key="k" * 20)
    assert open_.creation_refused("") is None
    assert "closed" in closed_.creation_refused("") and "CLOSED" in closed_.creation_policy()
    assert keyed.creation_refused("") is not None and keyed.creation_refused("k" * 20) is None


def test_creation_behind_a_proxy_or_a_tunnel_needs_the_admin_key(fray_server, redis_url, tmp_path):
    """Issue 28, item 5: the documented --public-url setup on 127.0.0.1, a tunnel on this
    machine (it adds X-Forwarded-For) or trusted proxies reach the server from beyond
    loopback: without FRAY_ADMIN_KEY nobody creates a fight; with it, the key does."""
    url = f"{fray_server.url}/api/encounters"
    tunnelled = httpx.post(url, json=FIGHT, headers={"x-forwarded-for": "203.0.113.9"})
    assert tunnelled.status_code == 403 and tunnelled.json()["code"] == "auth/admin-key", tunnelled.text
    assert "proxy or a tunnel" in tunnelled.json()["message"]
    for header in ("forwarded", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"):
        assert httpx.post(url, json=FIGHT, headers={header: "x"}).status_code == 403, header
    assert httpx.get(f"{fray_server.url}/api/about", headers={"x-forwarded-for": "203.0.113.9"}).json()["creation"] == "closed"
    assert httpx.post(url, json=FIGHT).status_code == 201  # on loopback itself, still open
    for env in ({"FRAY_PUBLIC_URL": "https://table.example/"}, {"FRAY_FORWARDED_ALLOW_IPS": "127.0.0.1"}):
        server = FrayServer(redis_url, tmp_path, env=env)
        try:
            r = httpx.post(f"{server.url}/api/encounters", json=FIGHT)
            assert r.status_code == 403 and r.json()["code"] == "auth/admin-key", (env, r.text)
            assert httpx.get(f"{server.url}/api/about").json()["creation"] == "closed"
            assert "creating encounters is CLOSED: reached through a proxy or a tunnel" in server.log_path.read_text()
        finally:
            server.stop()
    keyed = FrayServer(redis_url, tmp_path, env={"FRAY_PUBLIC_URL": "https://table.example/", "FRAY_ADMIN_KEY": ADMIN_KEY})
    try:
        assert httpx.post(f"{keyed.url}/api/encounters", json=FIGHT).status_code == 403
        made = create_with_key(keyed)
        assert made["links"]["gm"].startswith("https://table.example/e/")
    finally:
        keyed.stop()


# --- origin and headers ---------------------------------------------------------------


async def test_websocket_origin_must_be_the_same_host_or_configured(tight_server):
    made = create_with_key(tight_server)
    url = tight_server.ws_url(made["links"]["spectator"])
    for origin in ("https://evil.example", "null", f"http://127.0.0.1:{free_port()}"):
        async with websockets.connect(url, origin=origin) as ws:
            code, reason, messages = await closed(ws)
        assert code == 4403 and messages[0]["code"] == "auth/origin", origin
    for origin in (f"http://127.0.0.1:{tight_server.port}", "https://table.example", None):
        table = Table(await websockets.connect(url, origin=origin))
        assert (await table.next())["type"] == "welcome"
        await table.close()


def test_pages_and_api_send_security_headers(fray_server):
    made = fray_server.create(FIGHT)
    page = urllib.parse.urlparse(made["links"]["spectator"])
    for path in (f"{page.path}?{page.query}", "/", "/healthz", "/api/encounters/x/log", "/static/index.html"):
        r = httpx.get(f"{fray_server.url}{path}")
        assert r.status_code < 500, path
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"


# --- limits -------------------------------------------------------------------------------


def test_token_bucket_refills_at_its_rate():
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert [bucket.take(), bucket.take()] == [True, False]
    assert not bucket.full()
    now[0] += 1.5  # 3 tokens at 2 a second: full again, as a new bucket (a link's chat bucket is then forgotten)
    assert bucket.full()
    guard = RateGuard(Limits(rate=1, burst=1, strikes=2), clock=lambda: now[0])
    assert guard.admit() and not guard.admit() and not guard.exhausted
    assert not guard.admit() and guard.exhausted


async def test_oversized_frame_is_closed_with_a_reason_and_others_carry_on(tight_server):
    made = create_with_key(tight_server)
    big = await Table.join(tight_server, made["links"]["spectator"])
    other = await Table.join(tight_server, made["links"]["gm"])
    await big.ws.send(json.dumps({"type": "ping", "id": "x" * 5000}))
    code, reason, _ = await closed(big.ws)
    assert code == 1009 and "exceeds limit of 4096 bytes" in reason
    await other.ws.send(json.dumps({"type": "ping", "id": "still-here"}))
    assert (await other.next()) == {"type": "pong", "id": "still-here"}
    await other.close()


async def test_message_rate_is_limited_then_the_connection_closed(tight_server):
    made = create_with_key(tight_server)
    table = await Table.join(tight_server, made["links"]["gm"])
    for i in range(7):  # a burst of 5, then two over
        await table.ws.send(json.dumps({"type": "ping", "id": str(i)}))
    replies = [await table.next() for _ in range(7)]
    assert [r["type"] for r in replies].count("pong") == 5
    limited = [r for r in replies if r["type"] == "error"]
    assert len(limited) == 2 and all(r["code"] == "rate/limited" for r in limited)
    await asyncio.sleep(0.5)  # the bucket refills: the connection is usable again
    await table.ws.send(json.dumps({"type": "ping", "id": "again"}))
    assert (await table.next()) == {"type": "pong", "id": "again"}
    for i in range(60):  # persists: closed with a reason
        await table.ws.send(json.dumps({"type": "ping", "id": str(i)}))
    code, reason, messages = await closed(table.ws)
    assert code == 1008 and "too many messages" in reason
    assert messages[-1]["code"] == "rate/limited"


async def test_message_rate_is_per_link_across_its_sockets_and_reconnects(tight_server):
    """Issue 28: 8 sockets of one link, each under its own rate, stored ~148 events a second.
    The rate is the link's: its sockets share one bucket, and a new socket does not refill it."""
    made = create_with_key(tight_server)
    link = made["links"]["spectator"]
    first, second = await Table.join(tight_server, link), await Table.join(tight_server, link)
    for table in (first, second):  # the burst is 5: 5 each would be 10 answered
        for i in range(5):
            await table.ws.send(json.dumps({"type": "ping", "id": str(i)}))
    replies = [await first.next() for _ in range(5)] + [await second.next() for _ in range(5)]
    pongs = [r for r in replies if r["type"] == "pong"]
    assert len(pongs) <= 6, replies  # the burst, and at most one refilled meanwhile (5 a second)
    assert [r["code"] for r in replies if r["type"] == "error"] == ["rate/limited"] * (10 - len(pongs))
    await first.close()
    await second.close()
    await asyncio.sleep(0.2)
    again = await Table.join(tight_server, link)  # a new socket of the same link: no fresh burst
    try:
        for i in range(5):
            await again.ws.send(json.dumps({"type": "ping", "id": f"again-{i}"}))
        replies = [await again.next() for _ in range(5)]
        assert [r["type"] for r in replies].count("pong") <= 3, replies  # what ~0.3 s refilled, not 5
    finally:
        await again.close()


async def test_a_declaration_that_changes_nothing_is_not_stored(tight_server, redis_url):
    """Issue 28: the same declaration sent again was stored each time, so one player could
    grow a fight past what a replay reads. It is refused before the append, and only for a
    combatant the sender controls (no probe of another side's sealed declarations)."""
    from support import stream

    made = create_with_key(tight_server)
    gm = await Table.join(tight_server, made["links"]["gm"])
    player = await Table.join(tight_server, made["links"]["players"]["alda"])
    try:
        for command in ({"type": "force_rolls", "values": [5, 6]}, {"type": "start"}):
            assert (await gm.send(command))["type"] == "ack", command
        assert (await gm.send({"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}))["type"] == "ack"
        await player.until(gm.position)
        attack = {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}
        assert (await player.send(attack))["type"] == "ack"
        length = len(await stream(redis_url, made["id"]))
        for _ in range(2):
            again = await player.send(attack)
            assert (again["type"], again["code"]) == ("error", "declare/unchanged"), again
        probe = await player.send({"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}})
        assert probe["code"] == "declare/not-your-combatant"  # the goblin's standing declaration is not told
        assert len(await stream(redis_url, made["id"])) == length
        changed = await player.send({"type": "declare", "actor": "alda", "action": {"type": "parry"}})
        assert changed["type"] == "ack", changed  # a changed mind is stored, as ever
        assert len(await stream(redis_url, made["id"])) == length + 1
    finally:
        await gm.close()
        await player.close()


async def test_open_sockets_per_token_are_limited(tight_server):
    made = create_with_key(tight_server)
    link = made["links"]["spectator"]
    first, second = await Table.join(tight_server, link), await Table.join(tight_server, link)
    async with websockets.connect(tight_server.ws_url(link)) as ws:
        code, _, messages = await closed(ws)
    assert code == 4429 and messages[0]["code"] == "limit/sockets"
    await first.close()
    await asyncio.sleep(0.2)
    third = await Table.join(tight_server, link)  # a closed one frees its place
    for table in (second, third):
        await table.close()


def test_request_body_and_scenario_size_are_limited(tight_server):
    url = f"{tight_server.url}/api/encounters"
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    r = httpx.post(url, content=b" " * 9000, headers={**headers, "content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "request/too-large"

    def chunks():
        yield b"{"
        yield b" " * 9000

    r = httpx.post(url, content=chunks(), headers={**headers, "content-type": "application/json"})  # chunked: no content-length to trust
    assert r.status_code == 413


def test_combatants_per_encounter_are_capped(fray_server):
    many = [{"name": f"G{i}", "side": "a" if i % 2 else "b"} for i in range(201)]
    r = httpx.post(f"{fray_server.url}/api/encounters", json={"combatants": many})
    assert r.status_code == 400 and "at most 200 combatants" in r.json()["message"]
    made = fray_server.create({"combatants": many[:200]})
    assert len(made["id"]) > 5


async def test_bad_after_position_is_refused_clearly(fray_server):
    made = fray_server.create(FIGHT)
    async with websockets.connect(fray_server.ws_url(made["links"]["gm"], after="nope")) as ws:
        code, _, messages = await closed(ws)
    assert code == 4400 and messages[0]["code"] == "protocol/bad-position"


def test_serve_prints_creation_policy_and_accepts_limit_flags(redis_url, tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fray_table.server.cli",
            "serve",
            "--port",
            str(port),
            "--redis-url",
            redis_url,
            "--no-demo",
            "--max-frame",
            "2048",
            "--rate",
            "3",
            "--burst",
            "4",
            "--sockets-per-token",
            "1",
            "--origin",
            "https://a.example",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={"PATH": "/usr/bin:/bin", "FRAY_SECRET": "test-secret-0123456789abcdef"},
    )
    try:
        deadline = time.monotonic() + 20
        lines = []
        while time.monotonic() < deadline and not any("creating encounters" in line for line in lines):
            lines.append(proc.stdout.readline())
        assert any("open to anyone who reaches this loopback address" in line for line in lines), lines
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stdout.close()
    assert encounter_of("http://x/e/abc?token=t") == "abc"


def test_a_link_lasts_at_least_its_ttl():
    """A link of ttl 1 is good for a whole second from now, not until the next whole second
    (the link endpoint answered 500 when one had expired before it was read back)."""
    signer = Signer(b"0123456789abcdef0123")
    for _ in range(50):
        before = time.time()
        claims = signer.claims("e1", "spectator", ttl=1)
        assert claims.x >= before + 1
        assert signer.verify(signer.sign(claims), "e1") == claims


def closed_within(sock, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closed `sock` within `seconds` (bounded), and what it sent first."""

    sock.settimeout(0.2)
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            return True, got
        if not chunk:
            return True, got
        got += chunk
    return False, got


async def test_idle_and_half_sent_connections_are_dropped_and_open_tables_are_not(redis_url, tmp_path):
    """Issue 28: a connection that sends nothing, or a request by halves, was held for ever
    (uvicorn times out only a keep-alive connection after a response). With
    --request-timeout 1: the idle one and the half-sent head are closed, a body sent by
    halves is answered 408, while a websocket table left idle stays open."""
    import socket

    server = FrayServer(redis_url, tmp_path, env={"FRAY_REQUEST_TIMEOUT": "1"})
    try:
        made = server.create(FIGHT)
        table = await Table.join(server, made["links"]["spectator"])
        idle = socket.create_connection(("127.0.0.1", server.port))
        half = socket.create_connection(("127.0.0.1", server.port))
        half.sendall(b"GET /api/about HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        body = socket.create_connection(("127.0.0.1", server.port))
        body.sendall(b'POST /api/encounters HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"combatants": ')
        started = time.monotonic()
        for sock in (idle, half):
            gone, sent = closed_within(sock, 5)
            assert gone and sent == b"", sent
            sock.close()
        assert time.monotonic() - started < 4
        gone, sent = closed_within(body, 5)
        body.close()
        assert b"408" in sent.split(b"\r\n")[0] and b"request/timeout" in sent, sent
        await table.ws.send(json.dumps({"type": "ping", "id": "still-here"}))  # the table, idle 1 s and more, is open
        assert (await table.next()) == {"type": "pong", "id": "still-here"}
        await table.close()
        assert httpx.get(f"{server.url}/api/about").status_code == 200
    finally:
        server.stop()
