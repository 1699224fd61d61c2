"""A slow consumer must not slow the table: command -> last of the 8 reading
clients, p50 and p99, with and without a ninth client that stopped reading
(a raw socket with a small receive buffer), and whether the server dropped it.

    .venv/bin/python bench/slow.py            prints one JSON object
"""

import json
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import harness as bench  # noqa: E402
from support import FrayServer, raw_websocket, read_until_closed  # noqa: E402

from fray_table.server.embedded import EmbeddedRedis  # noqa: E402

# Big GM notes make every update large, so the stalled client's buffers fill in seconds.
NOTE = "n" * 50_000
COMMANDS = [c for i, attack in enumerate(bench.FIGHT_COMMANDS) for c in ({"type": "edit_combatant", "id": "gob1", "notes": f"{i} {NOTE}"}, attack)]


def main(count: int = 600) -> dict:
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(pathlib.Path(tmp)) as redis:
        server = FrayServer(redis.url, pathlib.Path(tmp), env={"FRAY_RATE": "100000", "FRAY_BURST": "100000"})
        try:
            host = server.url.removeprefix("http://")
            _, urls = bench.demo_fight(host)
            before = bench.load("latency", urls, COMMANDS, count=count, seconds=60)
            made_link = urls[0].replace("ws://", "http://").replace("/ws/encounters/", "/e/")
            stalled = raw_websocket(server, made_link)
            during = bench.load("latency", urls, COMMANDS, count=count, seconds=60)
            stalled.settimeout(5)
            try:
                tail = read_until_closed(stalled, b"too slow", limit=5)
            except TimeoutError:
                tail = b""
            stalled.close()
        finally:
            server.stop()
    result = {
        "commands": count,
        "p50_ms": [bench.percentile(before["latencies_ms"], 50), bench.percentile(during["latencies_ms"], 50)],
        "p99_ms": [bench.percentile(before["latencies_ms"], 99), bench.percentile(during["latencies_ms"], 99)],
        "stalled_client_dropped": b"too slow" in tail,
        "errors": before["errors"] + during["errors"],
    }
    return result


if __name__ == "__main__":
    print(json.dumps(main()))
