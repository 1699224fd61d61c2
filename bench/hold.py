"""Hold websockets open (idle) until stdin closes: for measuring a server's
memory per idle encounter. Prints 'ready' once every socket has its welcome.

    python bench/hold.py URL [URL ...]
"""

import asyncio
import sys

import websockets


async def main(urls: list[str]) -> None:
    sockets = []
    for url in urls:
        ws = await websockets.connect(url, max_size=None, open_timeout=10)
        await asyncio.wait_for(ws.recv(), 10)
        sockets.append(ws)
    drains = [asyncio.create_task(drain(ws)) for ws in sockets]  # idle, but never backed up
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in drains:
        task.cancel()
    await asyncio.wait_for(asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True), 10)


async def drain(ws) -> None:
    async for _ in ws:
        pass


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
