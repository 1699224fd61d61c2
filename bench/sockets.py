"""What one idle encounter socket costs the server (issue 24), by who allocated it: the
app under a real uvicorn in this process (configured as `fray serve` configures it), on a
private embedded Redis; N sockets opened by bench/hold.py in another process, each
waiting for its welcome; the allocations made while they joined and still held once
they are all idle (tracemalloc, the innermost frame), a socket's share by package
(Fray's own, uvicorn's, websockets', asyncio's, Starlette's) and by line.

    .venv/bin/python bench/sockets.py [--sockets 400] [--top 25]

Loopback only; every wait bounded. Tracing costs memory of its own: the figures are
what the traced objects take, not an RSS.
"""

import argparse
import asyncio
import contextlib
import gc
import pathlib
import sys
import tempfile
import tracemalloc
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import harness as bench  # noqa: E402
import httpx  # noqa: E402
from support import in_process  # noqa: E402

from fray_table.server.app import create_app  # noqa: E402
from fray_table.server.embedded import EmbeddedRedis  # noqa: E402
from fray_table.server.limits import Limits  # noqa: E402
from fray_table.server.serve import uvicorn_config  # noqa: E402

PACKAGES = ("fray_table", "uvicorn", "websockets", "starlette", "asyncio", "redis")


def owner(filename: str) -> str:
    """Who allocated it, by the file of its innermost frame: this tree's files are Fray's."""
    if "site-packages/" in filename:
        package = filename.split("site-packages/")[1].split("/")[0]
        return package if package in PACKAGES else "other"
    if filename.startswith(str(ROOT)):
        return "fray_table"
    return "asyncio" if "/asyncio/" in filename else "other"


@contextlib.asynccontextmanager
async def serving(redis_url: str, sockets: int):
    limits = Limits(sockets_per_token=sockets + 50)  # one link for every socket
    app = create_app(redis_url, limits=limits)
    port = bench.free_port()
    async with in_process(uvicorn_config(app, limits, host="127.0.0.1", port=port, log_level="warning")):
        yield f"127.0.0.1:{port}"


async def measure(redis_url: str, sockets: int, top: int) -> None:
    async with serving(redis_url, sockets) as host:
        async with httpx.AsyncClient() as http:
            made = (await http.post(f"http://{host}/api/encounters", json={}, timeout=10)).json()
        parts = urllib.parse.urlparse(made["links"]["spectator"])
        url = f"ws://{host}/ws/encounters/{made['id']}?{parts.query}"
        async with bench.held([url] * 20):  # what a process pays once (code run a first time, caches) is not a socket's
            gc.collect()
            tracemalloc.start(1)
            before = tracemalloc.take_snapshot()
            async with bench.held([url] * sockets):
                await asyncio.sleep(0.5)
                gc.collect()
                stats = tracemalloc.take_snapshot().compare_to(before, "lineno")
                tracemalloc.stop()
        by_owner: dict[str, int] = {}
        for stat in stats:
            name = owner(stat.traceback[0].filename)
            by_owner[name] = by_owner.get(name, 0) + stat.size_diff
        print(f"{sockets} sockets: {sum(by_owner.values()) / sockets:.0f} B a socket")
        for name, size in sorted(by_owner.items(), key=lambda kv: -kv[1]):
            print(f"  {name:12} {size / sockets:7.0f} B")
        for stat in stats[:top]:
            frame = stat.traceback[0]
            where = frame.filename.replace(str(ROOT) + "/", "").split("site-packages/")[-1]
            print(f"  {stat.size_diff / sockets:7.0f} B {stat.count_diff / sockets:5.1f} blocks  {where}:{frame.lineno}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(pathlib.Path(tmp) / "redis") as redis:
        asyncio.run(measure(redis.url, args.sockets, args.top))


if __name__ == "__main__":
    main()
