"""The hub's hot path in one process, no sockets, no Redis: Room.fold and Room.fan_out
(views, log lines, encoding, pushing) for the demo fight's attack declarations
(bench/harness.py FIGHT_COMMANDS), to its eight clients (the GM, three players, four
spectators: five audiences), as the server folds one command in flight per encounter
(issue 24). What is measured is CPU in the interpreter, which the machine's other
load moves less than a run over sockets does; each client's socket is a wire that
takes the frame and drops it.

    .venv/bin/python bench/hub.py [--commands N] [--rooms R] [--profile | --instructions | --memory]

Prints microseconds a command, fold and fan-out apart; `--profile`: cProfile's top
functions; `--instructions`: the instructions a command executes (valgrind's callgrind:
a run of N commands less one of none, over N), which the machine's load does not move,
for comparing two trees (run it in each); `--memory`: what a room holds (tracemalloc),
made, after the commands, and rested, and the lines that allocated most of it. R rooms
take turns, as a server of R quiet tables does (a cold working set).
"""

import argparse
import cProfile
import gc
import pathlib
import pstats
import re
import secrets
import subprocess
import sys
import time
import tracemalloc

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import json  # noqa: E402

from harness import FIGHT_COMMANDS  # noqa: E402

from fray_table.rules import RULES_VERSION  # noqa: E402
from fray_table.rules.commands import AddCombatant, CreateEncounter, ForceRolls, Start  # noqa: E402
from fray_table.rules.events import Actor, Event, encode_event  # noqa: E402
from fray_table.rules.view import Viewer  # noqa: E402
from fray_table.server import demo  # noqa: E402
from fray_table.server.hub import Client, Room  # noqa: E402
from fray_table.server.protocol import client_decoder  # noqa: E402


class Dropped:
    """A socket's transport that takes every frame and keeps none."""

    frames = 0

    def ready(self) -> bool:
        return True

    def write(self, frame: bytes) -> None:
        Dropped.frames += 1


FIRST = 7  # the demo fight's combatants: each declares once before the run, whose commands then change a declaration, as most at a table do


def room(name: str, declares: list) -> tuple[Room, int]:
    r = Room(name)
    gm = Actor("gm", "GM")
    events = [
        Event("create", Actor("system", "server"), CreateEncounter(id=name, profile="holmes-phases", seed=secrets.token_bytes(32), rules_version=RULES_VERSION))
    ]
    events += [Event(f"add-{i}", Actor("gm", "setup"), AddCombatant(c)) for i, c in enumerate(demo.combatants())]
    events += [Event("force", gm, ForceRolls(values=[5, 5])), Event("start", gm, Start())]
    events += [Event(f"first-{i}", gm, declares[i]) for i in range(FIRST)]
    r.fold((f"{i + 1}-0", encode_event(e)) for i, e in enumerate(events))
    viewers = [Viewer("gm"), *(Viewer("player", (c,)) for c in ("alda", "bran", "cora")), *[Viewer("spectator")] * 4]
    for v in viewers:
        client = Client(v, None, None, wire=Dropped())
        r.welcome(v)
        r.join(client)
    return r, len(events)


def instructions(rooms: int, commands: int) -> int:
    """callgrind's total for this script's run of `commands` commands over `rooms` rooms."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__, "--rooms", str(rooms), "--commands", str(commands)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=900)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no total:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def memory(rooms: list, run, commands: int, empty: tracemalloc.Snapshot) -> None:
    """What a room holds (against `empty`, taken before the rooms were made), made, after
    `commands` over the rooms, then rested; and the lines that allocated it."""

    def held() -> tuple[float, tracemalloc.Snapshot]:
        gc.collect()
        now = tracemalloc.take_snapshot()
        return sum(d.size_diff for d in now.compare_to(empty, "filename")) / len(rooms) / 1024, now

    made, _ = held()
    run(commands)
    busy, snapshot = held()
    print(f"{len(rooms)} rooms: {made:.1f} KB a room made, {busy:.1f} KB after {commands // len(rooms)} commands each")
    for d in snapshot.compare_to(empty, "lineno")[:20]:
        where = d.traceback[0]
        print(f"  {d.size_diff / len(rooms):8.0f} B {d.count_diff / len(rooms):6.1f} blocks  {where.filename.replace(str(ROOT) + '/', '')}:{where.lineno}")
    for r, _ in rooms:
        r.rest()
    rested, _ = held()
    print(f"rested: {rested:.1f} KB a room")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=6000)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--memory", action="store_true")
    args = parser.parse_args()
    if args.instructions:
        n = min(args.commands, 600)  # callgrind runs some 50 times slower
        counted = [instructions(args.rooms, k) for k in (n, 0)]
        print(f"{args.rooms} rooms: {(counted[0] - counted[1]) / n / 1000:.1f} thousand instructions a command (fold and fan-out, {n} commands)")
        return
    declares = [client_decoder.decode(json.dumps({"type": "command", "id": "x", "command": c})).command for c in FIGHT_COMMANDS]
    empty = None
    if args.memory:
        warm, _ = room("warm", declares)  # the modules a room imports lazily, loaded before the count
        warm.fan_out(warm.fold([("99-0", encode_event(Event("w", Actor("gm", "GM"), declares[FIRST])))]))
        tracemalloc.start()
        gc.collect()
        empty = tracemalloc.take_snapshot()
    rooms = [room(f"bench{i}", declares) for i in range(args.rooms)]
    gm = Actor("gm", "GM")
    payloads = [[encode_event(Event(f"c{i}", gm, declares[(FIRST + i) % len(declares)])) for i in range(args.commands // args.rooms + 1)]]
    position = [n for _, n in rooms]

    def run(commands: int) -> tuple[float, float]:
        folding = fanning = 0.0
        for i in range(commands):
            r, _ = rooms[i % len(rooms)]
            k = i // len(rooms)
            position[i % len(rooms)] += 1
            started = time.perf_counter()
            new = r.fold([(f"{position[i % len(rooms)]}-0", payloads[0][k])])
            folded = time.perf_counter()
            r.fan_out(new)
            fanning += time.perf_counter() - folded
            folding += folded - started
        return folding, fanning

    if empty is not None:
        memory(rooms, run, args.commands, empty)
        return
    if args.profile:
        cProfile.runctx("run(args.commands)", globals(), {"run": run, "args": args}, "/tmp/hub.prof")
        pstats.Stats("/tmp/hub.prof").sort_stats("tottime").print_stats(30)
        return
    folding, fanning = run(args.commands)
    n = max(1, args.commands)
    print(f"{args.rooms} rooms, {n} commands: fold {folding / n * 1e6:.1f} us, fan-out {fanning / n * 1e6:.1f} us, {Dropped.frames / n:.1f} frames a command")


if __name__ == "__main__":
    main()
