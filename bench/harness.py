"""What the benchmarks share: starting `fray serve`, the load generator (bench/load.py)
and idle sockets (bench/hold.py), reading a process's CPU time and memory, the demo
fight and its commands. Most benchmarks import it; it imports none of them.
"""

import asyncio
import contextlib
import json
import os
import pathlib
import subprocess
import sys
import time

import httpx

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support import free_port  # noqa: E402

PYTHON = sys.executable
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_kb(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait_port(port: int, proc: subprocess.Popen) -> None:
    import socket

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("server exited during start")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listening on {port}")


HOLD = [PYTHON, str(ROOT / "bench" / "hold.py")]


@contextlib.contextmanager
def holding(urls: list[str], wait: float = 120):
    """`urls` held open and idle by bench/hold.py in a process of its own while the block
    runs, each with its welcome before it begins; closed after (within `wait` seconds)."""
    holder = subprocess.Popen([*HOLD, *urls], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        line = holder.stdout.readline()  # hold.py gives up on a socket after 10 s
        if line.strip() != "ready":
            raise RuntimeError(f"bench/hold.py did not get its welcomes: {line!r}")
        yield holder
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        try:
            holder.wait(wait)
        except subprocess.TimeoutExpired:
            holder.kill()


@contextlib.asynccontextmanager
async def held(urls: list[str], wait: float = 120):
    """`holding` for a benchmark whose server runs in its own event loop, which must go on
    serving while the sockets open and close."""
    holder = await asyncio.create_subprocess_exec(*HOLD, *urls, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None
        line = await asyncio.wait_for(holder.stdout.readline(), 60 + len(urls) / 20)
        if line.strip() != b"ready":
            raise RuntimeError(f"bench/hold.py did not get its welcomes: {line!r}")
        yield holder
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        try:
            await asyncio.wait_for(holder.wait(), wait)
        except TimeoutError:
            holder.kill()


def load(mode: str, urls: list[str], commands: list[dict], **opts) -> dict:
    args = [PYTHON, str(ROOT / "bench" / "load.py"), "--mode", mode]
    for name, value in opts.items():
        args += [f"--{name}", str(value)]
    out = subprocess.run(args + urls, input=json.dumps(commands), capture_output=True, text=True, timeout=180)
    if out.returncode:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def measure(proc: subprocess.Popen, urls: list[str], commands: list[dict], count: int) -> dict:
    load("latency", urls, commands, count=50)  # warm up
    before = cpu_seconds(proc.pid)
    peak = load("throughput", urls, commands, count=count, window=32, seconds=30)
    cpu = cpu_seconds(proc.pid) - before
    # One command in flight: each update carries one command, nothing is batched.
    before = cpu_seconds(proc.pid)
    single = load("throughput", urls, commands, count=count // 3, window=1, seconds=30)
    cpu_single = cpu_seconds(proc.pid) - before
    low = load("latency", urls, commands, count=max(200, count // 10), seconds=30)
    half = load("paced", urls, commands, count=count // 2, rate=peak["per_s"] / 2, seconds=30)
    return {
        "per_s": peak["per_s"],
        "cpu_us": cpu / peak["commands"] * 1e6,
        "single_per_s": single["per_s"],
        "single_cpu_us": cpu_single / single["commands"] * 1e6,
        "p50": percentile(low["latencies_ms"], 50),
        "p99": percentile(low["latencies_ms"], 99),
        "half_p99": percentile(half["latencies_ms"], 99),
        # One attack's update: measured one command at a time (under load, one
        # update may carry several commands' changes).
        "bytes": max(low["bytes_per_update"]),
        "bytes_min": min(low["bytes_per_update"]),
        "errors": peak["errors"] + low["errors"] + half["errors"],
        "updates_per_command": peak["updates_per_command"],
    }


def start_fray(redis_url: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [PYTHON, "-m", "fray_table.server.cli", "serve", "--port", str(port), "--redis-url", redis_url, "--no-demo"],
        cwd=ROOT,
        env={**os.environ, "FRAY_SECRET": "bench-secret-0123456789abcdef", "FRAY_RATE": "100000", "FRAY_BURST": "100000"},
    )
    wait_port(port, proc)
    return proc, f"127.0.0.1:{port}"


def demo_fight(host: str) -> tuple[str, list[str]]:
    """A started demo fight (nobody surprised) and 8 client URLs: GM first, 3 players, 4 spectators."""
    made = httpx.post(f"http://{host}/api/encounters", json={}, timeout=10).json()
    links = [made["links"]["gm"], *made["links"]["players"].values()] + [made["links"]["spectator"]] * 4
    urls = [link.replace("http://", "ws://").replace("/e/", "/ws/encounters/") for link in links]
    setup = [{"type": "force_rolls", "values": [5, 5]}, {"type": "start"}]
    load("latency", urls[:1], setup, count=2)
    return made["id"], urls


# Attack commands of a real holmes-phases fight: each declares an attack anew. A declaration the
# same as the one standing is refused before it is stored (declare/unchanged), and under load the
# standing one may be several commands behind: so each combatant goes through six declarations
# of its own (a target, then from behind, subduing, a called shot for the party, another target)
# before it repeats one, checked against the reducer. 42 commands, as 6 rounds of 7 attackers.
_PAIRS = [
    ("alda", "gob1", "gob4"),
    ("gob1", "alda", "bran"),
    ("bran", "gob2", "gob1"),
    ("gob2", "bran", "cora"),
    ("cora", "gob3", "gob2"),
    ("gob3", "cora", "alda"),
    ("gob4", "alda", "cora"),
]
_WAYS = [(0, {}), (0, {"from_behind": True}), (0, {"subdue": True}), (1, {}), (1, {"from_behind": True}), (0, "called")]
FIGHT_COMMANDS = [
    {
        "type": "declare",
        "actor": actor,
        "action": {"type": "attack", "target": targets[which]}
        | (extra if extra != "called" else {"called_shots": 1} if actor in ("alda", "bran", "cora") else {"subdue": True, "from_behind": True}),
    }
    for which, extra in _WAYS
    for actor, *targets in _PAIRS
]
