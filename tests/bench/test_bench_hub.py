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


def test_the_sockets_bench_weighs_a_held_socket_by_who_allocated_it():
    """bench/sockets.py: every socket is held with its welcome (a refused one would weigh
    next to nothing), and a socket's memory is shared out by package: Fray's own and the
    websocket server's under it, each some, uvicorn's the larger."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "sockets.py"), "--sockets", "30", "--top", "5"], capture_output=True, text=True, timeout=180, check=True
    ).stdout
    found = re.match(r"30 sockets: (\d+) B a socket\n", out)
    assert found is not None, out
    shares = {name: int(size) for name, size in re.findall(r"^  (\w+) +(-?\d+) B$", out, re.MULTILINE)}
    assert int(found[1]) > 5000 and abs(sum(shares.values()) - int(found[1])) <= len(shares), out
    assert 500 < shares["fray_table"] < shares["uvicorn"], out
    assert len(re.findall(r"^ +-?\d+ B +[\d.]+ blocks  \S+:\d+$", out, re.MULTILINE)) == 5, out
