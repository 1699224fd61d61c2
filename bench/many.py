"""Many tables (issue 15), for `bench/run.py --rooms`: the figures of one process
serving many encounters, beside the raw pipeline serving as many rooms in the
same run, and two processes on one Redis and on a three-master Redis Cluster.

Every load generator is bench/rooms.py in processes of its own; each reports its
own CPU, so a saturated generator is seen. Every loop is bounded.
"""

import concurrent.futures
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import httpx
from websockets.sync.client import connect

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "topology"))  # redis_cluster.LocalCluster

from harness import FIGHT_COMMANDS, PYTHON, cpu_seconds, free_port, holding, rss_kb, start_fray, wait_port  # noqa: E402

CLIENTS = 8  # a GM, three players, four spectators: as bench/run.py's one fight


def generate(mode: str, specs: list[dict], procs: int = 1, servers: tuple[int, ...] = (), **opts) -> list[dict]:
    """bench/rooms.py on `procs` processes, the encounters dealt out between them; each one's JSON.
    `servers`: the process ids whose CPU each reports over its run (rooms.py --servers; the
    generators then start and close together)."""
    args = [PYTHON, str(ROOT / "bench" / "rooms.py"), "--mode", mode]
    for name, value in opts.items():
        args += [f"--{name}", str(value)]
    shares = [specs[i::procs] for i in range(procs)]
    if servers:
        barrier = tempfile.mkdtemp(prefix="fray-rooms-")
        args += ["--servers", ",".join(map(str, servers)), "--barrier", barrier, "--parties", str(len([s for s in shares if s]))]
    running = [(subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True), share) for share in shares if share]
    # Each process reads its whole share before it starts (rooms.py): every one is handed its
    # share at once, else each would wait for the one before it to exit, and run after it.
    with concurrent.futures.ThreadPoolExecutor(len(running)) as pool:
        answers = list(pool.map(lambda ran: ran[0].communicate(json.dumps(ran[1]), timeout=600), running))
    if servers:
        shutil.rmtree(barrier, ignore_errors=True)
    outs = []
    for (proc, _), (out, err) in zip(running, answers, strict=True):
        if proc.returncode:
            raise RuntimeError(err)
        outs.append(json.loads(out))
    return outs


def commands_cpu(outs: list[dict]) -> float:
    """The servers' CPU seconds from the first generator's first command to the last one's
    last update (generate's `servers`): every client connected, no join or leave counted."""
    return max(o["server_cpu_end"] for o in outs) - min(o["server_cpu_start"] for o in outs)


def summed(outs: list[dict]) -> dict:
    """Several generators' figures as one: counts added, the worst p99, the busiest generator."""
    return {
        "commands": sum(o.get("commands", 0) for o in outs),
        "per_s": sum(o.get("per_s", 0.0) for o in outs),
        "p99_ms": max(o.get("p99_ms", 0.0) for o in outs),
        "generator_busy": max(o["cpu_s"] / o["elapsed_s"] for o in outs if o["elapsed_s"]),
        "errors": sum(o.get("errors", 0) for o in outs),
    }


def ws(link: str) -> str:
    return link.replace("http://", "ws://").replace("/e/", "/ws/encounters/")


def fray_rooms(host: str, count: int) -> list[dict]:
    """`count` demo fights, started (nobody surprised), each as a rooms.py spec."""
    specs = []
    for _ in range(count):
        made = httpx.post(f"http://{host}/api/encounters", json={}, timeout=30).json()
        links = [made["links"]["gm"], *made["links"]["players"].values()] + [made["links"]["spectator"]] * 4
        with connect(ws(links[0]), open_timeout=30) as gm:
            json.loads(gm.recv(timeout=30))  # the welcome
            for i, command in enumerate(({"type": "force_rolls", "values": [5, 5]}, {"type": "start"})):
                gm.send(json.dumps({"type": "command", "id": f"setup-{i}", "command": command}))
                for _ in range(50):
                    if json.loads(gm.recv(timeout=30)).get("id") == f"setup-{i}":
                        break
        specs.append({"urls": [ws(link) for link in links[:CLIENTS]], "commands": FIGHT_COMMANDS})
    return specs


def raw_rooms(port: int, count: int) -> list[dict]:
    return [{"urls": [f"ws://127.0.0.1:{port}/ws/r{i}"] * CLIENTS, "commands": [{"type": "attack", "target": "gob1"}]} for i in range(count)]


def start_raw(redis_url: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen([PYTHON, str(ROOT / "bench" / "raw_server.py"), "--port", str(port), "--redis-url", redis_url])
    wait_port(port, proc)
    return proc, port


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def driven(specs: list[dict], count: int, generators: int = 1, seconds: float = 20, servers: tuple[int, ...] = ()) -> list[dict]:
    """`count` commands over the encounters, one in flight each (generate's `inflight`), each
    spec then going on from where its encounter stopped (rooms.py `start`, changed in place):
    a run beginning its list again would repeat each combatant's standing declaration, which
    the server refuses (declare/unchanged). The generators' outputs."""
    outs = generate("inflight", specs, generators, servers, count=count, seconds=seconds)
    shares = [len(specs[i::generators]) for i in range(generators)]  # each generator sends `count` over its share (generate)
    for i, spec in enumerate(specs):
        spec["start"] = spec.get("start", 0) + max(1, count // shares[i % generators])
    return outs


def warmed(specs: list[dict], count: int, generators: int = 1, seconds: float = 20) -> list[dict]:
    """Warm up with `count` commands (at least one an encounter): `driven`."""
    driven(specs, max(len(specs), count), generators, seconds)
    return specs


def inflight(procs: list[subprocess.Popen], specs: list[dict], count: int, generators: int = 1) -> dict:
    """One command in flight per encounter: commands/s and the servers' CPU per command, over
    the commands alone (`cpu_us`), and with the generators' joins and leaves around them
    (`cpu_us_with_joins`, as measured before session 10: 8 joins an encounter in every run)."""
    specs = warmed(specs, count // 10, generators)
    before = sum(cpu_seconds(p.pid) for p in procs)
    outs = driven(specs, count, generators, seconds=60, servers=tuple(p.pid for p in procs))
    cpu = sum(cpu_seconds(p.pid) for p in procs) - before
    out = summed(outs)
    n = out["commands"] or float("nan")
    return out | {"cpu_us": commands_cpu(outs) / n * 1e6, "cpu_us_with_joins": cpu / n * 1e6}


WIDE = 200  # encounters of the second one-in-flight run


def run_rooms(redis_url: str, quick: bool) -> dict:
    rooms = 10 if quick else 50
    count = rooms * (20 if quick else 60)
    many = 100 if quick else 1000
    figures: dict = {"rooms": rooms}

    raw, port = start_raw(redis_url)
    try:
        figures["raw"] = inflight([raw], raw_rooms(port, rooms), count)
    finally:
        stop(raw)

    fray, host = start_fray(redis_url)
    try:
        specs = fray_rooms(host, rooms)
        figures["fray"] = inflight([fray], specs, count)
        figures["join"] = generate("join", specs)[0]  # every client of every encounter at once
        # The same with four times the encounters (issue 24: the curve of docs/rooms.png flat),
        # two load generators for their 1,600 sockets.
        wide = fray_rooms(host, WIDE - rooms if not quick else rooms)
        figures["wide"] = inflight([fray], specs + wide, count * (WIDE // rooms if not quick else 2), generators=2) | {"rooms": len(specs + wide)}
        # Many quiet tables: 1 command a second each, 8 clients each; then idle, for the memory.
        more = specs + wide + fray_rooms(host, many - rooms - len(wide))
        base = rss_kb(fray.pid)
        figures["paced"] = summed(generate("paced", more, 2, rate=1.0, seconds=10 if quick else 20))
        with holding([u for s in more for u in s["urls"]]):
            time.sleep(1)
            figures["memory"] = {"encounters": many, "rss_mb": rss_kb(fray.pid) / 1024, "before_clients_mb": base / 1024}
    finally:
        stop(fray)

    figures["two"] = two_processes(redis_url, rooms, count, figures["fray"]["per_s"])
    figures["cluster"] = on_cluster(rooms, count)
    return figures


def two_processes(redis_url: str, rooms: int, count: int, one: float) -> dict:
    """Two `fray serve` on one Redis, each with `rooms` encounters of its own: commands/s over one's."""
    servers = [start_fray(redis_url) for _ in range(2)]
    try:
        specs = [s for _, host in servers for s in fray_rooms(host, rooms)]
        out = inflight([p for p, _ in servers], specs, 2 * count, generators=2)
        return out | {"over_one": out["per_s"] / one if one else float("nan")}
    finally:
        for proc, _ in servers:
            stop(proc)


def on_cluster(rooms: int, count: int) -> dict:
    """The same on a local three-master Redis Cluster: one process, then two."""
    from redis_cluster import LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        cluster = LocalCluster(pathlib.Path(tmp))
        try:
            one_proc, one_host = start_fray(cluster.url)
            try:
                one = inflight([one_proc], fray_rooms(one_host, rooms), count)
            finally:
                stop(one_proc)
            two = two_processes(cluster.url, rooms, count, one["per_s"])
        finally:
            cluster.stop()
    return {"one": one, "two": two}


def rows(figures: dict, row) -> list[str]:
    raw, fray = figures["raw"], figures["fray"]
    paced, memory, join, two, cluster = figures["paced"], figures["memory"], figures["join"], figures["two"], figures["cluster"]
    rooms, wide = figures["rooms"], figures["wide"]
    ratio = fray["cpu_us"] / raw["cpu_us"] if raw["cpu_us"] else float("nan")
    return [  # issue 24's goals (the joins and the two processes: issue 15's)
        row(
            f"{rooms} encounters x 8, one in flight: CPU/command (us)",
            fray["cpu_us"],
            raw["cpu_us"],
            "<= 250 us, <= 0.6 x raw",
            fray["cpu_us"] <= 250 and ratio <= 0.6,
        ),
        row("  the same with the 8 joins and leaves an encounter (us)", fray["cpu_us_with_joins"], raw["cpu_us_with_joins"], "(as before session 10)", None),
        row(f"{rooms} encounters x 8, one in flight: commands/s", fray["per_s"], raw["per_s"], "(for reference)", None),
        row("  the load generator's busiest core (share)", fray["generator_busy"], raw["generator_busy"], "(< 0.9: not the limit)", None),
        row(f"{wide['rooms']} encounters x 8, one in flight: CPU/command (us)", wide["cpu_us"], None, "<= 300 us", wide["cpu_us"] <= 300),
        row("  the same with the 8 joins and leaves an encounter (us)", wide["cpu_us_with_joins"], None, "(as before session 10)", None),
        row(f"{memory['encounters']} encounters at 1/s, 8 clients: p99 (ms)", paced["p99_ms"], None, "<= 30 ms", paced["p99_ms"] <= 30),
        row(f"memory, {memory['encounters']} idle encounters x 8 clients (MB)", memory["rss_mb"], None, "<= 250 MB", memory["rss_mb"] <= 250),
        row(
            f"{join['clients']} clients joining at once: p99 welcome (ms)",
            join["p99_ms"],
            None,
            "<= 1000 ms, all",
            join["p99_ms"] <= 1000 and join["welcomed"] == join["clients"],
        ),
        row("two processes on one Redis (x one)", two["over_one"], None, ">= 1.8 x", two["over_one"] >= 1.8),
        row("two processes on a 3-master Cluster (x one)", cluster["two"]["over_one"], None, ">= 1.8 x", cluster["two"]["over_one"] >= 1.8),
    ]
