"""Load generator: drives one encounter's clients over loopback websockets.

Client 0 sends the commands; every client (0 included) records when each
update arrives and its stream position. A command has reached a client when
that client has an update at or past the command's acknowledged position.

    python bench/load.py --mode MODE --count N [--rate R] URL [URL ...] < commands.json

Modes: `throughput` (keep --window commands in flight), `latency` (one at a
time, a short pause between), `paced` (open loop at --rate commands/s).
Prints one JSON object. Every loop is bounded by --count and --seconds.
"""

import argparse
import asyncio
import bisect
import itertools
import json
import sys
import time
import uuid

import msgspec
import uvloop
from websockets.client import ClientProtocol
from websockets.frames import Frame as WireFrame
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri


class Frame(msgspec.Struct):
    """What the load generator reads of a server frame; the rest is skipped unparsed."""

    type: str
    position: str = ""
    id: str = ""


read_frame = msgspec.json.Decoder(Frame).decode


def key(position: str) -> tuple[int, int]:
    ms, _, seq = position.partition("-")
    return int(ms), int(seq or 0)


class Receiver(asyncio.Protocol):
    """One client: websockets' sans-I/O protocol straight on an asyncio transport,
    so the generator adds no task or queue per message, and each message is timed
    as its bytes arrive. What the server costs is measured, not the client library."""

    def __init__(self, url: str) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=None)
        self.transport: asyncio.Transport | None = None
        self.keys: list[tuple[int, int]] = []
        self.times: list[float] = []
        self.bytes = 0
        self.updates = 0
        self.acks: dict[str, asyncio.Future] = {}
        self.errors = 0
        self.moved = asyncio.Event()
        self.welcomed: asyncio.Future = asyncio.get_running_loop().create_future()
        self.gone: asyncio.Future = asyncio.get_running_loop().create_future()
        self.parts: list[bytes] = []

    @classmethod
    async def connect(cls, url: str) -> "Receiver":
        uri = parse_uri(url)
        _, receiver = await asyncio.wait_for(asyncio.get_running_loop().create_connection(lambda: cls(url), uri.host, uri.port), 10)
        await asyncio.wait_for(receiver.welcomed, 10)
        return receiver

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self.flush()

    def flush(self) -> None:
        for chunk in self.ws.data_to_send():
            if chunk:
                self.transport.write(chunk)
            elif self.transport.can_write_eof():
                self.transport.write_eof()

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101 and not self.welcomed.done():
                    self.welcomed.set_exception(ConnectionError(f"handshake refused: {event.status_code}"))
            elif isinstance(event, WireFrame) and event.opcode in (Opcode.TEXT, Opcode.CONT):
                self.parts.append(event.data)
                if event.fin:
                    text, self.parts = b"".join(self.parts), []
                    self.message(text, now)
        self.flush()  # pongs and the closing handshake

    def message(self, text: bytes, now: float) -> None:
        message = read_frame(text)
        kind = message.type
        if kind == "update":
            self.keys.append(key(message.position))
            self.times.append(now)
            self.bytes += len(text)
            self.updates += 1
            self.moved.set()
        elif kind in ("ack", "error"):
            if kind == "error":
                self.errors += 1
            future = self.acks.pop(message.id, None)
            if future is not None and not future.done():
                future.set_result({"type": kind, "position": message.position})
        elif kind == "welcome" and not self.welcomed.done():
            self.welcomed.set_result(None)

    def send(self, text: str) -> None:
        self.ws.send_text(text.encode())
        self.flush()

    async def close(self) -> None:
        self.ws.send_close()
        self.flush()
        try:
            await asyncio.wait_for(asyncio.shield(self.gone), 5)
        except TimeoutError:
            self.transport.close()

    def connection_lost(self, exc) -> None:
        if not self.welcomed.done():
            self.welcomed.set_exception(ConnectionError("closed before the welcome"))
        if not self.gone.done():
            self.gone.set_result(None)

    def seen(self, target: tuple[int, int]) -> bool:
        return bool(self.keys) and self.keys[-1] >= target

    def reached_at(self, target: tuple[int, int]) -> float | None:
        i = bisect.bisect_left(self.keys, target)
        return self.times[i] if i < len(self.times) else None


async def send(driver: Receiver, command: dict) -> tuple[float, dict]:
    command_id = uuid.uuid4().hex
    future = asyncio.get_running_loop().create_future()
    driver.acks[command_id] = future
    sent = time.perf_counter()
    driver.send(json.dumps({"type": "command", "id": command_id, "command": command}))
    return sent, await asyncio.wait_for(future, 10)


async def everyone_saw(receivers: list[Receiver], target: tuple[int, int], deadline: float) -> None:
    for r in receivers:
        while not r.seen(target):
            r.moved.clear()
            await asyncio.wait_for(r.moved.wait(), max(0.001, deadline - time.perf_counter()))


async def main(args, commands: list[dict]) -> dict:
    receivers = [await Receiver.connect(u) for u in args.urls]
    driver = receivers[0]
    sent: list[tuple[float, tuple[int, int]]] = []
    cycle = itertools.cycle(commands)
    deadline = time.perf_counter() + args.seconds
    start = time.perf_counter()

    async def one() -> bool:
        t, reply = await send(driver, next(cycle))
        if reply["type"] == "ack":
            sent.append((t, key(reply["position"])))
        return reply["type"] == "ack"  # an error (a declaration the same as the one standing) is counted, not waited on

    if args.mode == "latency":
        for _ in range(args.count):
            if time.perf_counter() > deadline:
                break
            if await one():
                await everyone_saw(receivers, sent[-1][1], deadline + 5)
            await asyncio.sleep(0.002)
    elif args.mode == "throughput":
        window = asyncio.Semaphore(args.window)

        async def windowed() -> None:
            async with window:
                await one()

        tasks = []
        for _ in range(args.count):
            if time.perf_counter() > deadline:
                break
            await window.acquire()
            window.release()
            tasks.append(asyncio.create_task(windowed()))
            await asyncio.sleep(0)
        await asyncio.gather(*tasks)
    else:  # paced
        tasks = []
        for i in range(args.count):
            due = start + i / args.rate
            if due > deadline:
                break
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            tasks.append(asyncio.create_task(one()))
        await asyncio.gather(*tasks)
    if sent:
        await everyone_saw(receivers, max(k for _, k in sent), time.perf_counter() + 10)
    elapsed = max(r.times[-1] for r in receivers) - start if sent else 0.0
    latencies = []
    for t, target in sent:
        reached = [r.reached_at(target) for r in receivers]
        if all(x is not None for x in reached):
            latencies.append((max(reached) - t) * 1000)
    await asyncio.gather(*(r.close() for r in receivers))
    return {
        "mode": args.mode,
        "commands": len(sent),
        "elapsed_s": elapsed,
        "per_s": len(sent) / elapsed if elapsed else 0.0,
        "latencies_ms": sorted(latencies),
        "bytes_per_update": [r.bytes / r.updates if r.updates else 0 for r in receivers],
        "updates_per_command": sum(r.updates for r in receivers) / len(receivers) / len(sent) if sent else 0.0,
        "errors": driver.errors,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["throughput", "latency", "paced"], required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--window", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("urls", nargs="+")
    args = parser.parse_args()
    commands = json.load(sys.stdin)
    print(json.dumps(uvloop.run(main(args, commands))))
