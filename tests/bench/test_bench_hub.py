"""bench/hub.py, the hub's fold and fan-out in one process (issue 24), runs as its
docstring says and measures what it claims: every command of the demo fight is folded
and reaches each of the eight clients of its room as one frame."""

import re
import subprocess
import sys

from support import ROOT


def test_the_hub_bench_folds_and_fans_out_every_command_to_eight_clients():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "hub.py"), "--rooms", "2", "--commands", "42"], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    found = re.fullmatch(r"2 rooms, 42 commands: fold ([\d.]+) us, fan-out ([\d.]+) us, ([\d.]+) frames a command\n", out)
    assert found is not None, out
    assert float(found[3]) == 8.0  # the GM, three players, four spectators: one frame each, every command
    assert float(found[1]) > 0 and float(found[2]) > 0


def test_the_hub_bench_weighs_a_room_made_busy_and_rested():
    """`--memory`: what a room holds grows with its commands' views and log, and resting
    (server.hub.Room.rest) lets its views go: less than half of it is left."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "hub.py"), "--memory", "--rooms", "4", "--commands", "40"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.match(r"4 rooms: ([\d.]+) KB a room made, ([\d.]+) KB after 10 commands each\n", out)
    assert found is not None, out
    rested = re.search(r"^rested: ([\d.]+) KB a room$", out, re.MULTILINE)
    assert rested is not None, out
    made, busy = float(found[1]), float(found[2])
    assert 20 < made < busy and float(rested[1]) < busy / 2
    assert "server/views.py" in out  # the lines that allocated it, by file
