"""The raw limit: the bare pipeline Fray's figures are compared with.

A websocket command to a minimal Starlette endpoint, XADD to a Redis stream,
read back by one XREAD tail, a trivial reducer, a ~2 KB state sent to every
client. It speaks the shapes of Fray's protocol (welcome, ack, update with a
position) so one load generator drives both.

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


def make_app(redis_url: str) -> Starlette:
    clients: set[WebSocket] = set()
    state = {"count": 0, "last": "", "pad": "x" * 2000}

    async def tail(r) -> None:
        last = "$"
        while True:
            reply = await r.xread({STREAM: last}, block=1000, count=500)
            for _, entries in reply or []:
                for position, fields in entries:
                    last = position.decode()
                    state["count"] += 1  # the trivial reducer
                    state["last"] = fields[b"e"][:40].decode()
                text = json.dumps({"type": "update", "position": last, "state": state})
                for ws in list(clients):
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
        await ws.accept()
        await ws.send_text(json.dumps({"type": "welcome", "position": "0-0", "view": state}))
        clients.add(ws)
        try:
            while True:
                message = json.loads(await ws.receive_text())
                position = await ws.app.state.redis.xadd(STREAM, {"e": json.dumps(message["command"])})
                await ws.send_text(json.dumps({"type": "ack", "id": message["id"], "position": position.decode()}))
        except WebSocketDisconnect:
            pass
        finally:
            clients.discard(ws)

    return Starlette(routes=[WebSocketRoute("/ws", endpoint)], lifespan=lifespan)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis-url", required=True)
    args = parser.parse_args()
    uvicorn.run(make_app(args.redis_url), host="127.0.0.1", port=args.port, log_level="warning")
