"""Many encounters, one in flight each: this tree's server against a git revision's,
side by side (issue 15).

    .venv/bin/python bench/ab_rooms.py REV [--this REV2] [--rounds N] [--rooms R] [--count C] [--profile DIR]

Each round starts `fray serve` from REV's tree and from this one (or REV2's) in turn (which
goes first alternates), on one embedded Redis, creates R demo fights x 8 clients
on it, warms up, then drives them with bench/rooms.py (one command in flight per
encounter) and reads the server's CPU from /proc. Prints each side's CPU per
command and commands/s per round and the ratio of medians: on a shared machine
only figures measured side by side compare. `--profile DIR` also samples each
server with py-spy (if installed) into DIR/{rev,this}-N.txt (py-spy's --format raw, for
flame graphs or `sort | uniq`). REV must have the fray_table packages.
"""

import argparse
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import harness as bench  # noqa: E402
import many  # noqa: E402

from fray_table.server.embedded import EmbeddedRedis  # noqa: E402


def serve(redis_url: str, package_root: pathlib.Path | None) -> tuple[subprocess.Popen, str]:
    port = bench.free_port()
    env = {**os.environ, "FRAY_SECRET": "bench-secret-0123456789abcdef", "FRAY_RATE": "100000", "FRAY_BURST": "100000"}
    if package_root is not None:
        env["PYTHONPATH"] = str(package_root)
    proc = subprocess.Popen(
        [bench.PYTHON, "-m", "fray_table.server.cli", "serve", "--port", str(port), "--redis-url", redis_url, "--no-demo"],
        cwd=package_root or ROOT,
        env=env,
    )
    bench.wait_port(port, proc)
    return proc, f"127.0.0.1:{port}"


def times(pid: int) -> tuple[float, float]:
    """The process's user and system CPU seconds."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / bench.TICKS, int(fields[12]) / bench.TICKS


def folded(host: str) -> int:
    """How many times the server has folded a batch of new events (one tail delivery each), from /metrics."""
    for line in httpx.get(f"http://{host}/metrics", timeout=10).text.splitlines():
        if line.startswith("fray_fold_fanout_seconds_count"):
            return int(float(line.split()[-1]))
    return 0


def spied(pid: int, profile: pathlib.Path | None) -> subprocess.Popen | None:
    """py-spy sampling the process into `profile` (if asked for and installed); stop with `unspied`."""
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=pathlib.Path(sys.executable).parent)  # on PATH, or beside this Python
    if profile is None or spy is None:
        return None
    return subprocess.Popen(
        [spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "250", "--output", str(profile), "--nonblocking"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def unspied(spy: subprocess.Popen | None) -> None:
    if spy is not None:
        spy.send_signal(2)  # SIGINT: py-spy writes what it has
        spy.wait(30)


def one(redis_url: str, package_root: pathlib.Path | None, rooms: int, count: int, profile: pathlib.Path | None) -> dict:
    proc, host = serve(redis_url, package_root)
    try:
        specs = many.fray_rooms(host, rooms)
        specs = many.warmed(specs, count // 10)
        spy = spied(proc.pid, profile)
        before, folds = times(proc.pid), folded(host)
        outs = many.generate("inflight", specs, 1, (proc.pid,), count=count, seconds=60)
        user, system = (b - a for a, b in zip(before, times(proc.pid), strict=True))
        folds = folded(host) - folds
        unspied(spy)
        out = many.summed(outs)
        n = out["commands"] or float("nan")
        return {
            "cpu_us": many.commands_cpu(outs) / n * 1e6,  # the commands alone (many.inflight)
            "cpu_us_with_joins": (user + system) / n * 1e6,
            "user_us": user / n * 1e6,  # these two with the joins
            "sys_us": system / n * 1e6,
            "commands_per_fold": n / folds if folds else float("nan"),
            "per_s": out["per_s"],
            "generator_busy": out["generator_busy"],
        }
    finally:
        many.stop(proc)


def checkout(where: pathlib.Path, rev: str) -> tuple[pathlib.Path, pathlib.Path]:
    """A detached worktree of `rev`, and a folder whose fray_table is it (for PYTHONPATH)."""
    tree = where / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), rev], check=True, timeout=60)
    package = where / "root" / "fray_table"
    package.mkdir(parents=True)
    for name in ("rules", "server", "client_web"):
        (package / name).symlink_to(tree / name)
    return tree, package.parent


def retarget(specs: list[dict], host: str) -> list[dict]:
    """The same encounters' links on another server of the same Redis (and secret)."""
    return [{**spec, "urls": [re.sub(r"//[^/]+/", f"//{host}/", u, count=1) for u in spec["urls"]]} for spec in specs]


def quiet(redis_url: str, package_root: pathlib.Path | None, specs: list[dict], seconds: float, profile: pathlib.Path | None) -> dict:
    """`specs` encounters at 1 command/s each (two generator processes), then all their sockets idle: p99 and RSS."""
    proc, host = serve(redis_url, package_root)
    try:
        specs = retarget(specs, host)
        spy = spied(proc.pid, profile)
        before = sum(times(proc.pid))
        out = many.summed(many.generate("paced", specs, 2, rate=1.0, seconds=seconds))
        cpu = sum(times(proc.pid)) - before
        unspied(spy)
        with bench.holding([u for s in specs for u in s["urls"]]):
            time.sleep(1)
            rss = bench.rss_kb(proc.pid) / 1024
        n = out["commands"] or float("nan")
        return {"p99_ms": out["p99_ms"], "per_s": out["per_s"], "cpu_us": cpu / n * 1e6, "rss_mb": rss, "generator_busy": out["generator_busy"]}
    finally:
        many.stop(proc)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rev")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--profile", type=pathlib.Path)
    parser.add_argument("--paced", type=int, help="instead: this many encounters at 1 command/s each, then idle (p99, RSS)")
    parser.add_argument("--seconds", type=float, default=20.0, help="of the paced run")
    parser.add_argument("--this", help="a revision to measure instead of this tree (whose uncommitted changes would count too)")
    args = parser.parse_args()
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    theirs, ours = [], []
    with tempfile.TemporaryDirectory() as tmp:
        trees = [checkout(pathlib.Path(tmp) / "rev", args.rev)] + ([checkout(pathlib.Path(tmp) / "this", args.this)] if args.this else [])
        try:
            with EmbeddedRedis(pathlib.Path(tmp) / "redis") as redis:
                if args.paced:
                    proc, host = serve(redis.url, None)
                    try:
                        specs = many.fray_rooms(host, args.paced)  # made once; every server of the run serves the same
                    finally:
                        many.stop(proc)
                for i in range(args.rounds if not args.paced else 0):
                    sides = [("rev", trees[0][1], theirs), ("this", trees[1][1] if args.this else None, ours)]
                    for name, root, results in sides if i % 2 == 0 else sides[::-1]:
                        prof = args.profile / f"{name}-{i}.txt" if args.profile else None
                        results.append(one(redis.url, root, args.rooms, args.count, prof))
                        print(name, i, json.dumps(results[-1]), file=sys.stderr, flush=True)
                for i in range(args.rounds if args.paced else 0):
                    sides = [("rev", trees[0][1], theirs), ("this", trees[1][1] if args.this else None, ours)]
                    for name, root, results in sides if i % 2 == 0 else sides[::-1]:
                        prof = args.profile / f"{name}-{i}.txt" if args.profile else None
                        results.append(quiet(redis.url, root, specs, args.seconds, prof))
                        print(name, i, json.dumps(results[-1]), file=sys.stderr, flush=True)
        finally:
            for tree, _ in trees:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True, timeout=60)

    def med(results: list[dict], k: str) -> float:
        return statistics.median(r[k] for r in results)

    if args.paced:
        print(json.dumps({"rev": args.rev, "this": args.this or "this tree", "encounters": args.paced, "rev_runs": theirs, "this_runs": ours}))
        return

    print(
        json.dumps(
            {
                "rev": args.rev,
                "this": args.this or "this tree",
                "rooms": args.rooms,
                "rev_cpu_us": [round(r["cpu_us"]) for r in theirs],
                "this_cpu_us": [round(r["cpu_us"]) for r in ours],
                "rev_per_s": [round(r["per_s"]) for r in theirs],
                "this_per_s": [round(r["per_s"]) for r in ours],
                "rev_sys_us": [round(r["sys_us"]) for r in theirs],
                "this_sys_us": [round(r["sys_us"]) for r in ours],
                "rev_cpu_us_with_joins": [round(r["cpu_us_with_joins"]) for r in theirs],
                "this_cpu_us_with_joins": [round(r["cpu_us_with_joins"]) for r in ours],
                "rev_commands_per_fold": [round(r["commands_per_fold"], 2) for r in theirs],
                "this_commands_per_fold": [round(r["commands_per_fold"], 2) for r in ours],
                "generator_busy": round(max(r["generator_busy"] for r in theirs + ours), 2),
                "cpu_ratio_of_medians": round(med(ours, "cpu_us") / med(theirs, "cpu_us"), 3),
                "rate_ratio_of_medians": round(med(ours, "per_s") / med(theirs, "per_s"), 3),
            }
        )
    )


if __name__ == "__main__":
    main()
