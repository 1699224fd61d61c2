"""Real processes and real sockets for the end-to-end tests: `fray serve` in a
subprocess on a loopback port, websocket clients from the `websockets` package."""

import asyncio
import base64
import contextlib
import json
import os
import pathlib
import socket
import subprocess
import sys
import time
import urllib.parse
import uuid

import httpx
import msgspec
import redis.asyncio as aioredis
import uvicorn
import websockets

from fray_table.rules.events import Event, decode_event
from fray_table.rules.reducer import canonical, fold
from fray_table.server import patch
from fray_table.server.store import events_key

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMEOUT = 10.0
# Limits lifted, for tests that send many commands quickly from one socket or token.
FAST = {"FRAY_RATE": "100000", "FRAY_BURST": "100000", "FRAY_SOCKETS_PER_TOKEN": "1000"}


def wire(value):
    """What a client holds of what the server sent: its own copy, as JSON decodes it (the
    server holds equal parts once, and cards and choices as their JSON: server/views.py)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.asynccontextmanager
async def in_process(config: uvicorn.Config):
    """A real uvicorn serving `config` in this process, so its sockets can be seen: started
    within 10 s, stopped after (its connections closed) within 30."""
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(200):
            if server.started:
                break
            await asyncio.sleep(0.05)
        assert server.started, "uvicorn did not start within 10 s"
        yield server
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


class FrayServer:
    """One `fray serve` process on the given Redis."""

    def __init__(self, redis_url: str, log_dir: pathlib.Path, env: dict | None = None, port: int | None = None) -> None:
        """`port`: a fixed port, e.g. a stopped server's, to restart it where its pages expect it."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_dir / f"fray-{self.port}.log"
        self._log = self.log_path.open("a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fray_table.server.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port), "--redis-url", redis_url, "--no-demo"],
            cwd=ROOT,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "FRAY_SECRET": "test-secret-0123456789abcdef", **(env or {})},
        )
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._log.close()
                raise RuntimeError(f"fray serve exited: {self.log_path.read_text()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"fray serve did not answer in 20 s: {self.log_path.read_text()}")

    def create(self, body: dict | None = None) -> dict:
        response = httpx.post(f"{self.url}/api/encounters", json=body or {}, timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        return response.json()

    def ws_url(self, link: str, after: str | None = None) -> str:
        parts = urllib.parse.urlparse(link)
        encounter = parts.path.rsplit("/", 1)[-1]
        token = urllib.parse.parse_qs(parts.query)["token"][0]
        url = f"ws://127.0.0.1:{self.port}/ws/encounters/{encounter}?token={token}"
        return url + (f"&after={after}" if after else "")

    def stop(self) -> None:
        stop_process(self.proc)
        self._log.close()


def stop_process(proc: subprocess.Popen, grace: float = 10) -> None:
    """SIGTERM, then SIGKILL if it is not gone within `grace` seconds; bounded either way."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def token_of(link: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["token"][0]


def encounter_of(link: str) -> str:
    return urllib.parse.urlparse(link).path.rsplit("/", 1)[-1]


class Table:
    """One websocket client: keeps the latest view and every message it got."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.view: dict = {}
        self.position = "0-0"
        self.log: list[dict] = []
        self.frames: list[str] = []

    @classmethod
    async def join(cls, server: FrayServer, link: str, after: str | None = None) -> "Table":
        ws = await websockets.connect(server.ws_url(link, after), open_timeout=TIMEOUT)
        table = cls(ws)
        welcome = await table.next()
        assert welcome["type"] == "welcome", welcome
        return table

    async def next(self) -> dict:
        text = await asyncio.wait_for(self.ws.recv(), TIMEOUT)
        self.frames.append(text)
        message = json.loads(text)
        if message["type"] == "welcome":
            self.view = message["view"]
        elif message["type"] == "update":
            self.view = patch.apply(self.view, message["patch"])
        if message["type"] in ("welcome", "update"):
            self.position = message["position"]
            self.log.extend(message["log"])
        return message

    async def send(self, command: dict, command_id: str | None = None) -> dict:
        """Send a command; return its ack or error (updates that arrive meanwhile are kept)."""
        command_id = command_id or uuid.uuid4().hex
        await self.ws.send(json.dumps({"type": "command", "id": command_id, "command": command}))
        return await self.reply(command_id)

    async def reply(self, command_id: str) -> dict:
        for _ in range(100):
            message = await self.next()
            if message["type"] in ("ack", "error") and message.get("id") in (command_id, ""):
                return message
        raise AssertionError("no reply in 100 messages")

    async def answers(self, n: int) -> list[dict]:
        """The next `n` answers (acks, errors, pongs), in the order they came; updates between them are kept (bounded)."""
        got: list[dict] = []
        for _ in range(20 * n + 50):
            if len(got) == n:
                return got
            message = await self.next()
            if message["type"] in ("ack", "error", "pong"):
                got.append(message)
        raise AssertionError(f"{len(got)} answers of {n}")

    async def until(self, position: str) -> None:
        """Read updates until the view reflects `position` (bounded)."""
        for _ in range(100):
            if key(self.position) >= key(position):
                return
            await self.next()
        raise AssertionError(f"never reached {position}")

    async def close(self) -> None:
        await self.ws.close()


def key(position: str) -> tuple[int, int]:
    ms, _, seq = position.partition("-")
    return int(ms), int(seq or 0)


async def stream(redis_url: str, encounter: str) -> list[tuple[str, Event]]:
    """The encounter's stream read straight from Redis: (position, event), oldest first."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        return [(p.decode(), decode_event(f[b"e"])) for p, f in await client.xrange(events_key(encounter))]
    finally:
        await client.aclose()


async def folded(redis_url: str, encounter: str) -> bytes:
    """The canonical bytes of the state folded from scratch from the stream in Redis."""
    return canonical(fold(event for _, event in await stream(redis_url, encounter)))


async def play_script(server: FrayServer, join, made: dict, scenario: dict, then: tuple[dict, ...] = ()) -> tuple["Table", dict]:
    """A scenario's forced dice and commands, then `then`, sent to encounter `made` by the GM
    and the party (a command's 'as'), each acked; the GM's table once it has seen the last,
    and the last ack. `join` is the fixture."""
    gm = await join(server, made["links"]["gm"])
    party = await join(server, made["links"]["players"]["party"])
    script = [(gm, {"type": "force_rolls", "values": scenario["dice"]})]
    for raw in scenario["commands"]:
        command = dict(raw)
        script.append((gm if command.pop("as", "gm") == "gm" else party, command))
    script += [(gm, command) for command in then]
    for table, command in script:
        ack = await table.send(command)
        assert ack["type"] == "ack", (command, ack)
    await gm.until(ack["position"])
    return gm, ack


def digest(server: FrayServer, made: dict) -> dict:
    """A replica's live state digest, through the GM-only endpoint."""
    return httpx.get(f"{server.url}/api/encounters/{made['id']}/digest", params={"token": token_of(made["links"]["gm"])}, timeout=TIMEOUT).json()


def raw_websocket(server: FrayServer, link: str) -> socket.socket:
    """A websocket opened by hand on a socket with a small receive buffer, which
    then reads nothing: the server alone decides what happens to it."""
    url = urllib.parse.urlsplit(server.ws_url(link))
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", server.port))
    handshake = (
        f"GET {url.path}?{url.query} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(handshake.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def read_until_closed(sock: socket.socket, marker: bytes, limit: float = 30) -> bytes:
    data, deadline = b"", time.monotonic() + limit
    while marker not in data[-4096:] and time.monotonic() < deadline:
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    return data
