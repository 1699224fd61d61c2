"""The raw limit: the bare pipeline Fray's figures are compared with.

A websocket command to a minimal Starlette endpoint, XADD to a Redis stream,
read back by one XREAD tail, a trivial reducer, a ~2 KB state sent to every
client. It speaks the shapes of Fray's protocol (welcome, ack, update with a
position) so one load generator drives both.

`/ws` is one room; `/ws/{room}` a room of its own, with its own stream (bench/rooms.py:
many rooms, all read by the one tail, woken by a private stream when a room opens,
as Fray's tail is).

    python bench/raw_server.py --port 9001 --redis-url unix:///path/redis.sock
"""

import argparse
import asyncio
import contextlib
import json

import redis.asyncio as aioredis
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

STREAM = "bench:raw:events"
WAKE = "bench:raw:wake"


class Room:
    def __init__(self) -> None:
        self.clients: set[WebSocket] = set()
        self.state = {"count": 0, "last": "", "pad": "x" * 2000}
        self.last = "$"


def make_app(redis_url: str) -> Starlette:
    rooms: dict[str, Room] = {}

    def stream(room: str) -> str:
        return STREAM if not room else f"{STREAM}:{room}"

    async def tail(r) -> None:
        wake = "$"
        while True:
            names = {stream(name): name for name in rooms}
            streams = {key: rooms[name].last for key, name in names.items()} | {WAKE: wake}
            reply = await r.xread(streams, block=1000, count=500)
            for key, entries in reply or []:
                key = key.decode()
                if key == WAKE:
                    wake = entries[-1][0].decode()
                    continue
                room = rooms[names[key]]
                for position, fields in entries:
                    room.last = position.decode()
                    room.state["count"] += 1  # the trivial reducer
                    room.state["last"] = fields[b"e"][:40].decode()
                text = json.dumps({"type": "update", "position": room.last, "state": room.state})
                for ws in list(room.clients):
                    with contextlib.suppress(Exception):
                        await ws.send_text(text)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        app.state.redis = aioredis.from_url(redis_url)
        app.state.tail_redis = aioredis.from_url(redis_url)
        await app.state.redis.delete(STREAM)
        task = asyncio.create_task(tail(app.state.tail_redis))
        yield
        task.cancel()
        await app.state.redis.aclose()
        await app.state.tail_redis.aclose()

    async def endpoint(ws: WebSocket) -> None:
        name = ws.path_params.get("room", "")
        redis = ws.app.state.redis
        await ws.accept()
        if name not in rooms:
            rooms[name] = Room()
            last = await redis.xrevrange(stream(name), count=1)
            rooms[name].last = last[0][0].decode() if last else "0-0"
            await redis.xadd(WAKE, {"w": b""}, maxlen=10, approximate=True)
        room = rooms[name]
        await ws.send_text(json.dumps({"type": "welcome", "position": "0-0", "view": room.state}))
        room.clients.add(ws)
        try:
            while True:
                message = json.loads(await ws.receive_text())
                position = await redis.xadd(stream(name), {"e": json.dumps(message["command"])})
                await ws.send_text(json.dumps({"type": "ack", "id": message["id"], "position": position.decode()}))
        except WebSocketDisconnect:
            pass
        finally:
            room.clients.discard(ws)

    return Starlette(routes=[WebSocketRoute("/ws", endpoint), WebSocketRoute("/ws/{room}", endpoint)], lifespan=lifespan)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis-url", required=True)
    args = parser.parse_args()
    uvicorn.run(make_app(args.redis_url), host="127.0.0.1", port=args.port, log_level="warning")
