"""A server's memory with many idle encounters (issues 15 and 24): `fray serve` on a
private embedded Redis, N demo fights, each played at 1 command a second for S seconds
by 8 clients (bench/rooms.py, as `bench/run.py --rooms` does), then 8 idle clients each
(bench/hold.py): the server's RSS before any client and with them all, per encounter.

    .venv/bin/python bench/memory.py [--encounters 300] [--seconds 20] [--trace FILE] [--root DIR]

`--trace FILE`: the server traces its allocations (FRAY_TRACEMALLOC, server/memtrace.py)
and writes the largest, by file and by line, to FILE while every client is held; tracing
costs memory of its own, so the RSS of such a run is not the figure. `--root DIR`: a
folder whose `fray_table` is another revision's (bench/ab_rooms.py `checkout`), to
measure it instead of this tree. Loopback only; every wait bounded. Prints one JSON object.
"""

import argparse
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import harness as bench  # noqa: E402
import many  # noqa: E402

from fray_table.server.embedded import EmbeddedRedis  # noqa: E402


def serve(redis_url: str, root: pathlib.Path | None, trace: pathlib.Path | None) -> tuple[subprocess.Popen, str]:
    port = bench.free_port()
    env = {**os.environ, "FRAY_SECRET": "bench-secret-0123456789abcdef", "FRAY_RATE": "100000", "FRAY_BURST": "100000", "FRAY_LOG_LEVEL": "warning"}
    if root is not None:
        env["PYTHONPATH"] = str(root)
    if trace is not None:
        env["FRAY_TRACEMALLOC"] = str(trace)
    proc = subprocess.Popen(
        [bench.PYTHON, "-m", "fray_table.server.cli", "serve", "--port", str(port), "--redis-url", redis_url, "--no-demo"], cwd=root or ROOT, env=env
    )
    bench.wait_port(port, proc)
    return proc, f"127.0.0.1:{port}"


def peak_kb(pid: int) -> int:
    """The process's highest RSS so far (VmHWM): freed memory the allocator keeps counts in RSS after."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def measure(redis_url: str, encounters: int, seconds: float, idle: float, root: pathlib.Path | None, trace: pathlib.Path | None) -> dict:
    proc, host = serve(redis_url, root, trace)
    fresh = bench.rss_kb(proc.pid)
    try:
        specs = many.fray_rooms(host, encounters)
        if seconds:
            many.generate("paced", specs, 2, rate=1.0, seconds=seconds)
        time.sleep(1)
        base, paced_peak = bench.rss_kb(proc.pid), peak_kb(proc.pid)
        with bench.holding([u for s in specs for u in s["urls"]]):
            time.sleep(2)
            joined = bench.rss_kb(proc.pid)
            time.sleep(idle)
            held = bench.rss_kb(proc.pid)
            if trace is not None:
                trace.unlink(missing_ok=True)
                proc.send_signal(signal.SIGUSR1)
                for _ in range(600):  # a snapshot of a few million blocks takes seconds
                    if trace.exists():
                        break
                    time.sleep(0.1)
        time.sleep(1)
        after = bench.rss_kb(proc.pid)
    finally:
        many.stop(proc)
    clients = encounters * many.CLIENTS
    return {
        "encounters": encounters,
        "clients": clients,
        "paced_s": seconds,
        "rss_fresh_mb": round(fresh / 1024, 1),
        "rss_before_clients_mb": round(base / 1024, 1),
        "rss_peak_before_clients_mb": round(paced_peak / 1024, 1),
        "rss_joined_mb": round(joined / 1024, 1),
        "idle_s": idle,
        "rss_held_mb": round(held / 1024, 1),
        "rss_after_clients_left_mb": round(after / 1024, 1),
        "per_encounter_kb": round((held - fresh) / encounters, 1),  # the paced run's leftovers included
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--encounters", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=20.0, help="of the paced run before the idle clients (0: none)")
    parser.add_argument("--idle", type=float, default=0.0, help="seconds every client is held before the figure is read (after 2 s)")
    parser.add_argument("--trace", type=pathlib.Path, help="write the server's largest allocations here (tracemalloc)")
    parser.add_argument("--root", type=pathlib.Path, help="a folder whose fray_table is the revision to measure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(pathlib.Path(tmp) / "redis") as redis:
        trace = args.trace.resolve() if args.trace else None
        print(json.dumps(measure(redis.url, args.encounters, args.seconds, args.idle, args.root, trace)))


if __name__ == "__main__":
    main()
