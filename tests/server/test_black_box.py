"""The faults found by black-box probes (issue 12), each on a real `fray serve`:
an expiring link, a burst past the rate limit, an append whose outcome is
unknown, a text frame that is not UTF-8, a killed server's embedded Redis, and
refusals under /api."""

import asyncio
import contextlib
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import httpx
import pytest
import websockets
from support import FAST, ROOT, TIMEOUT, FrayServer, Table, free_port, raw_websocket, read_until_closed, stream, token_of

from fray_table.server.embedded import EmbeddedRedis, ping

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 40, "hp_max": 40, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 40, "hp_max": 40, "dex": 9, "x": 15, "y": 10},
    ]
}


async def closed_with(table: Table, limit: int = 400) -> tuple[list[dict], int]:
    """Every message until the server closes the socket, and the close code (bounded)."""
    got = []
    for _ in range(limit):
        try:
            got.append(await table.next())
        except websockets.ConnectionClosed as closed:
            return got, closed.rcvd.code if closed.rcvd else 1006
    raise AssertionError(f"not closed after {limit} messages")


async def test_a_link_that_expires_closes_its_open_socket(fray_server):
    made = fray_server.create(FIGHT)
    gm = token_of(made["links"]["gm"])
    issued = httpx.post(
        f"{fray_server.url}/api/encounters/{made['id']}/links",
        params={"token": gm},
        json={"role": "player", "name": "brief", "combatants": ["alda"], "ttl": 2},
        timeout=TIMEOUT,
    )
    assert issued.status_code == 201, issued.text
    player = await Table.join(fray_server, issued.json()["link"])
    ack = await player.send({"type": "declare", "actor": "alda", "action": {"type": "hold"}})
    assert ack["type"] in ("ack", "error") and ack.get("code") != "auth/expired"  # acting while valid
    started = time.monotonic()
    messages, code = await closed_with(player)
    assert code == 4401 and time.monotonic() - started < 5
    assert [m["code"] for m in messages if m["type"] == "error"] == ["auth/expired"]


async def test_a_burst_past_the_rate_limit_answers_every_stored_command_before_closing(fray_server, redis_url):
    made = fray_server.create(FIGHT)
    gm = await Table.join(fray_server, made["links"]["gm"])
    for command in ({"type": "force_rolls", "values": [5, 6]}, {"type": "start"}):
        assert (await gm.send(command))["type"] == "ack"
    ids = [f"burst-{i}" for i in range(200)]
    for cid in ids:
        await gm.ws.send(json.dumps({"type": "command", "id": cid, "command": {"type": "edit_combatant", "id": "gob", "notes": cid}}))
    messages, code = await closed_with(gm, limit=2000)
    answers = [m for m in messages if m["type"] in ("ack", "error")]
    assert code == 1008
    stored = {e.id.partition(".")[2]: pos for pos, e in await stream(redis_url, made["id"]) if ".burst-" in e.id}
    acked = {a["id"]: a["position"] for a in answers if a["type"] == "ack"}
    # The bucket holds 40, less the two commands before the burst; it refills at 20/s, so
    # on a loaded machine a slow burst may get a token or two more part of the way through.
    assert 38 <= len(stored) <= 45
    assert acked == stored  # every stored command answered, before the close
    assert [a["id"] for a in answers if a["type"] == "ack"] == ids[: len(stored)]  # acks in the order sent
    assert [a["type"] for a in answers[:38]] == ["ack"] * 38  # then the refusals (a dropped message's id is unread: '')
    assert answers[-1]["code"] == "rate/limited" and "closing" in answers[-1]["message"]
    assert [a["code"] for a in answers[-20:]] == ["rate/limited"] * 20  # 19 dropped in a row, then the one that closes


async def test_an_append_whose_outcome_is_unknown_says_so_and_a_resend_is_applied_once(tmp_path):
    redis = EmbeddedRedis(tmp_path / "redis")
    url = redis.start()
    server = FrayServer(url, tmp_path, env=FAST)
    pid = int((tmp_path / "redis" / "redis.pid").read_text())
    gm = None
    try:
        made = server.create(FIGHT)
        gm = await Table.join(server, made["links"]["gm"])
        os.kill(pid, signal.SIGSTOP)  # frozen, not dead: the script is sent and never answered
        try:
            await gm.ws.send(json.dumps({"type": "command", "id": "frozen", "command": {"type": "force_rolls", "values": [4]}}))
            reply = json.loads(await asyncio.wait_for(gm.ws.recv(), 40))
        finally:
            os.kill(pid, signal.SIGCONT)
        assert reply["type"] == "error" and reply["id"] == "frozen" and reply["code"] == "store/unknown", reply
        assert "send it again with the same id" in reply["message"]
        # it was stored once Redis resumed: the resend with the same id is its original position
        again = None
        for _ in range(50):
            again = await gm.send({"type": "force_rolls", "values": [4]}, command_id="frozen")
            if again["type"] == "ack":
                break
            await asyncio.sleep(0.2)
        events = [(pos, e) for pos, e in await stream(url, made["id"]) if e.id.endswith(".frozen")]
        assert again["type"] == "ack" and again["duplicate"] and [pos for pos, _ in events] == [again["position"]]
    finally:
        if gm is not None:
            await gm.close()
        server.stop()
        redis.stop()


async def test_a_text_frame_that_is_not_utf8_is_closed_with_1007_without_a_traceback(fray_server):
    made = fray_server.create(FIGHT)
    sock = raw_websocket(fray_server, made["links"]["gm"])
    try:
        payload = b'{"type": "ping", "id": "\xff\xfe"}'
        mask = os.urandom(4)
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        data = await asyncio.to_thread(read_until_closed, sock, b"\x88\x02\x03\xef", 10)  # close frame, code 1007
        assert data.endswith(b"\x88\x02\x03\xef")
    finally:
        sock.close()
    await asyncio.sleep(0.3)
    log = fray_server.log_path.read_text()
    assert "Traceback" not in log and "UnicodeDecodeError" not in log and "ERROR" not in log


def serve_embedded(data: pathlib.Path, log: pathlib.Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    with log.open("a") as out:  # the child has its own copy
        proc = subprocess.Popen(
            [sys.executable, "-m", "fray_table.server.cli", "serve", "--port", str(port), "--data", str(data), "--no-demo"],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**env, "FRAY_SECRET": "test-secret-0123456789abcdef"},
        )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc, f"http://127.0.0.1:{port}"
        time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"fray serve did not start: {log.read_text()}")


def gone(pid: int) -> bool:
    """No such process, or a zombie (dead, not yet reaped by whoever inherited it)."""
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def wait_gone(pid: int, limit: float = 5.0) -> bool:
    deadline = time.monotonic() + limit
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return gone(pid)


def test_the_embedded_redis_dies_with_a_server_killed_by_sigkill(tmp_path):
    proc, _ = serve_embedded(tmp_path / "data", tmp_path / "serve.log")
    pid = int((tmp_path / "data" / "redis.pid").read_text())
    assert not gone(pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert wait_gone(pid), "the embedded Redis outlived its server"
    assert ping(EmbeddedRedis(tmp_path / "data").socket_path) is None


def test_an_adopted_redis_is_shut_down_when_the_adopting_server_is_killed(tmp_path):
    data = tmp_path / "data"
    left = EmbeddedRedis(data)  # a Redis nobody holds, as a crashed server of an older Fray left it
    left._prepare_folder()
    left._spawn()
    left._wait_until_ready()
    orphan = left._process
    try:
        proc, url = serve_embedded(data, tmp_path / "serve.log")
        assert httpx.post(f"{url}/api/encounters", json=FIGHT, timeout=TIMEOUT).status_code == 201  # it uses that Redis
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        orphan.wait(8)  # shut down by the server's watchdog (SHUTDOWN: the AOF flushed)
        assert orphan.returncode == 0
        # and its data is there for the next server
        proc, url = serve_embedded(data, tmp_path / "serve.log")
        try:
            assert len(httpx.get(f"{url}/healthz", timeout=TIMEOUT).json()) >= 1
        finally:
            proc.terminate()
            proc.wait(10)
    finally:
        if orphan.poll() is None:
            orphan.kill()
            orphan.wait(5)


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/nothing-here", 404, "api/not-found"),
        ("GET", "/api/encounters", 405, "api/method-not-allowed"),
        ("PUT", "/api/encounters/abc/links", 405, "api/method-not-allowed"),
        ("DELETE", "/api/profiles", 405, "api/method-not-allowed"),
    ],
)
def test_every_refusal_under_api_is_code_and_message_json(fray_server, method, path, status, code):
    got = httpx.request(method, f"{fray_server.url}{path}", timeout=TIMEOUT)
    assert got.status_code == status and got.headers["content-type"] == "application/json"
    body = got.json()
    assert set(body) == {"code", "message"} and body["code"] == code and body["message"]
    outside = httpx.get(f"{fray_server.url}/no-such-page", timeout=TIMEOUT)
    assert outside.status_code == 404 and outside.text == "Not Found"
