"""Load generator for many encounters at once (issue 15): R encounters x C clients
over loopback websockets, the sans-I/O client of bench/load.py, in one process
(run several for more load; bench/run.py --rooms does).

    python bench/rooms.py --mode MODE [options] < rooms.json

stdin: a JSON list, one item an encounter: {"urls": [GM's ws URL first, then the
other clients'], "commands": [commands the GM cycles through], "start": the index in
`commands` to begin at (optional, 0: a run after a warm-up goes on where it stopped,
so no declaration repeats the one standing, which the server refuses unstored)}.

Modes (every loop bounded by --count and --seconds):
- `inflight`: each encounter's GM keeps one command in flight: the next goes
  once every client of its encounter has the update of the last.
- `paced`: each encounter sends --rate commands a second (phases spread evenly).
- `join`: every client connects at once; how long each waited for its welcome.
Prints one JSON object, with this process's own CPU seconds, so a saturated
generator is seen (cpu_s close to elapsed_s). `--servers PID,...`: also the servers'
CPU seconds (utime + stime from /proc) as the first command goes and as the last
update arrives (`server_cpu_start`, `server_cpu_end`): what the commands cost, not
the joins and leaves around them. `--barrier DIR --parties N`: several generators
start together once every one has connected, and close together once every one is
done, so none's joins or leaves fall in another's window.
"""

import argparse
import asyncio
import itertools
import json
import os
import pathlib
import sys
import time

import uvloop

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from harness import cpu_seconds  # noqa: E402
from load import Receiver, key, send  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


class Room:
    def __init__(self, receivers: list[Receiver], commands: list[dict], start: int = 0) -> None:
        self.receivers = receivers
        self.gm = receivers[0]
        self.commands = itertools.islice(itertools.cycle(commands), start % len(commands), None)
        self.sent: list[tuple[float, tuple[int, int]]] = []

    async def one(self, deadline: float) -> None:
        t, reply = await send(self.gm, next(self.commands))
        if reply["type"] != "ack":
            return
        target = key(reply["position"])
        self.sent.append((t, target))
        for r in self.receivers:
            while not r.seen(target):
                r.moved.clear()
                await asyncio.wait_for(r.moved.wait(), max(0.001, deadline - time.perf_counter()))

    def latencies(self) -> list[float]:
        out = []
        for t, target in self.sent:
            reached = [r.reached_at(target) for r in self.receivers]
            if all(x is not None for x in reached):
                out.append((max(reached) - t) * 1000)
        return out


async def connect_all(specs: list[dict]) -> list[Room]:
    rooms = []
    for spec in specs:  # one encounter at a time: joining all at once is the `join` mode's measure
        rooms.append(Room([await Receiver.connect(u) for u in spec["urls"]], spec["commands"], spec.get("start", 0)))
    return rooms


async def run_inflight(rooms: list[Room], count: int, seconds: float) -> None:
    deadline = time.perf_counter() + seconds
    per_room = max(1, count // len(rooms))

    async def drive(room: Room) -> None:
        for _ in range(per_room):
            if time.perf_counter() > deadline:
                return
            await room.one(deadline + 5)

    await asyncio.gather(*(drive(r) for r in rooms))


async def run_paced(rooms: list[Room], rate: float, seconds: float) -> None:
    start = time.perf_counter()
    deadline = start + seconds
    period = 1 / rate

    async def drive(i: int, room: Room) -> None:
        tasks = []
        for n in itertools.count():
            due = start + (i / len(rooms) + n) * period
            if due > deadline:
                break
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            tasks.append(asyncio.create_task(room.one(deadline + 10)))
        await asyncio.gather(*tasks)

    await asyncio.gather(*(drive(i, r) for i, r in enumerate(rooms)))


async def run_join(specs: list[dict]) -> dict:
    urls = [u for spec in specs for u in spec["urls"]]
    start = time.perf_counter()

    async def timed(url: str) -> tuple[Receiver | None, float]:
        try:
            r = await Receiver.connect(url)
        except (OSError, TimeoutError, ConnectionError):
            return None, time.perf_counter() - start
        return r, time.perf_counter() - start

    done = await asyncio.gather(*(timed(u) for u in urls))
    welcomed = [r for r, _ in done if r is not None]
    waits = [t * 1000 for r, t in done if r is not None]
    await asyncio.gather(*(r.close() for r in welcomed))
    return {"clients": len(urls), "welcomed": len(welcomed), "p50_ms": percentile(waits, 50), "p99_ms": percentile(waits, 99), "max_ms": max(waits, default=0)}


async def meet(barrier: pathlib.Path | None, parties: int, name: str) -> None:
    """Wait (at most 120 s) until `parties` generators have reached this point `name`."""
    if barrier is None:
        return
    (barrier / f"{name}-{os.getpid()}").touch()
    deadline = time.monotonic() + 120
    while len(list(barrier.glob(f"{name}-*"))) < parties:
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(list(barrier.glob(f'{name}-*')))} of {parties} generators reached {name!r}")
        await asyncio.sleep(0.01)


async def main(args, specs: list[dict]) -> dict:
    cpu0, wall0 = time.process_time(), time.perf_counter()
    if args.mode == "join":
        out = await run_join(specs)
        return out | {"mode": "join", "cpu_s": time.process_time() - cpu0, "elapsed_s": time.perf_counter() - wall0}
    rooms = await connect_all(specs)
    servers = [int(p) for p in args.servers.split(",")] if args.servers else []
    await meet(args.barrier, args.parties, "connected")
    cpu0, wall0, server0 = time.process_time(), time.perf_counter(), sum(map(cpu_seconds, servers))
    if args.mode == "inflight":
        await run_inflight(rooms, args.count, args.seconds)
    else:
        await run_paced(rooms, args.rate, args.seconds)
    elapsed, cpu, server1 = time.perf_counter() - wall0, time.process_time() - cpu0, sum(map(cpu_seconds, servers))
    latencies = [x for r in rooms for x in r.latencies()]
    commands = sum(len(r.sent) for r in rooms)
    await meet(args.barrier, args.parties, "done")
    await asyncio.gather(*(c.close() for r in rooms for c in r.receivers))
    return {
        "server_cpu_start": server0,
        "server_cpu_end": server1,
        "mode": args.mode,
        "rooms": len(rooms),
        "clients": sum(len(r.receivers) for r in rooms),
        "commands": commands,
        "elapsed_s": elapsed,
        "per_s": commands / elapsed if elapsed else 0.0,
        "cpu_s": cpu,
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
        "errors": sum(r.gm.errors for r in rooms),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["inflight", "paced", "join"], required=True)
    parser.add_argument("--count", type=int, default=5000, help="commands in all (inflight)")
    parser.add_argument("--rate", type=float, default=1.0, help="commands a second per encounter (paced)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--servers", help="the servers' process ids, comma-separated: their CPU over the run")
    parser.add_argument("--barrier", type=pathlib.Path, help="a folder the generators of one run meet in")
    parser.add_argument("--parties", type=int, default=1, help="how many generators meet there")
    args = parser.parse_args()
    print(json.dumps(uvloop.run(main(args, json.load(sys.stdin)))))
