"""The cost of sending one update to each socket of an audience, by each path (issue 24,
docs/decisions.md): `wire`, hub.Client.push with Fray's wire (the frame built once and
written onto uvicorn's transport: connection.UvicornWire); `asgi`, the same without a
wire (each message waits in the client's outbox for its writer task, which sends it
through the ASGI `websocket.send`, connection.texts_to); `asgi-awaited`, the ASGI send
awaited in turn for each socket, no outbox; `asgi-driven`, the ASGI send's coroutine run
to its end in place (`coroutine.send(None)`) when it does not wait, as a sender on the
documented interface could do without a task; `starlette`, Starlette's
`WebSocket.send_text`, awaited in turn (what uvicorn and Starlette document). The server is uvicorn in
this process (websockets-sansio, no compression, as `fray serve`) with an app that only
accepts sockets; bench/hold.py holds them idle and reads everything, in its own process.

    .venv/bin/python bench/send_path.py [--sockets 8] [--messages 2000] [--rounds 5] [--size 400]

Each round sends --messages updates of --size bytes to every socket by each path in turn
(the order rotates), in batches of 50 with a pause between them so no transport pushes
back, and reads this process's CPU time (user + system: the write syscalls count).
Prints microseconds per message per socket, each round and the medians, as JSON.
Loopback only; every loop bounded.
"""

import argparse
import asyncio
import json
import pathlib
import statistics
import sys
import time

import uvicorn
from starlette.websockets import WebSocket

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from harness import free_port, held  # noqa: E402
from support import in_process  # noqa: E402

from fray_table.rules.view import Viewer  # noqa: E402
from fray_table.server.connection import texts_to, wire_of  # noqa: E402
from fray_table.server.hub import Client, Outgoing  # noqa: E402

BATCH = 50


class Sockets:
    """An ASGI app that accepts every websocket, says hello (hold.py waits for one message),
    and keeps its send and its Starlette WebSocket until the client leaves."""

    def __init__(self) -> None:
        self.open: list[tuple[object, WebSocket]] = []

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "websocket":
            return
        ws = WebSocket(scope, receive, send)
        await ws.accept()
        await ws.send_text("hello")
        self.open.append((send, ws))
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass


async def path_cost(sockets: Sockets, path: str, text: str, messages: int) -> float:
    """Microseconds of this process's CPU per message per socket."""
    wires = [wire_of(send) for send, _ in sockets.open]
    assert all(wires), "no wire: is uvicorn's websockets-sansio protocol in use?"
    viewer = Viewer("spectator")
    clients = {
        "wire": [Client(viewer, texts_to(send), ws.close, wire=wire) for (send, ws), wire in zip(sockets.open, wires, strict=True)],
        "asgi": [Client(viewer, texts_to(send), ws.close) for send, ws in sockets.open],
    }.get(path, [])
    started = time.process_time()
    for i in range(messages):
        if clients:  # hub.Client.push, as Room.fan_out: one Outgoing for the audience
            message = Outgoing(text.encode())
            for client in clients:
                client.push(message)
        elif path == "asgi-awaited":
            for send, _ in sockets.open:
                await send({"type": "websocket.send", "text": text})
        elif path == "asgi-driven":  # the sketch in docs/decisions.md: the ASGI send run to its end without a task
            for send, _ in sockets.open:
                step = send({"type": "websocket.send", "text": text})
                try:
                    step.send(None)
                except StopIteration:
                    continue
                raise AssertionError("the send waited: a real sender would hand it to a task")
        else:
            for _, ws in sockets.open:
                await ws.send_text(text)
        if i % BATCH == BATCH - 1:
            for _ in range(10_000):  # the writer tasks of the ASGI path send what waits
                if not any(c.writer for c in clients):
                    break
                await asyncio.sleep(0)
            assert not any(c.dropped for c in clients)
            spent = time.process_time()
            await asyncio.sleep(0.02)  # the reader catches up: no transport pushes back
            started += time.process_time() - spent  # the loop's idle turns are not the path's
    return (time.process_time() - started) / messages / len(sockets.open) * 1e6


async def main(args) -> dict:
    sockets = Sockets()
    port = free_port()
    config = uvicorn.Config(sockets, host="127.0.0.1", port=port, ws="websockets-sansio", ws_per_message_deflate=False, lifespan="off", log_level="warning")
    async with in_process(config), held([f"ws://127.0.0.1:{port}/"] * args.sockets, wait=30):  # the sockets closed before the server stops
        assert len(sockets.open) == args.sockets
        text = json.dumps({"type": "update", "position": "1795958387706-0", "patch": [[["x"], "y" * max(0, args.size - 80)]], "log": []})
        paths = ["wire", "asgi", "asgi-awaited", "asgi-driven", "starlette"]
        rounds: dict[str, list[float]] = {p: [] for p in paths}
        await path_cost(sockets, "asgi", text, 200)  # warm up
        for r in range(args.rounds):
            for path in paths[r % len(paths) :] + paths[: r % len(paths)]:
                rounds[path].append(await path_cost(sockets, path, text, args.messages))
        medians = {p: statistics.median(v) for p, v in rounds.items()}
        return {
            "sockets": args.sockets,
            "message_bytes": len(text),
            "us_per_message_per_socket": {p: [round(x, 2) for x in v] for p, v in rounds.items()},
            "medians": {p: round(m, 2) for p, m in medians.items()},
            "asgi_over_wire": round(medians["asgi"] / medians["wire"], 2),
            "asgi_awaited_over_wire": round(medians["asgi-awaited"] / medians["wire"], 2),
            "asgi_driven_over_wire": round(medians["asgi-driven"] / medians["wire"], 2),
            "starlette_over_wire": round(medians["starlette"] / medians["wire"], 2),
        }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sockets", type=int, default=8)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, default=400)
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
