"""Server CPU per command against the number of encounters (issue 15), one command in
flight per encounter, 8 clients each: a git revision's server and this tree's (or
REV2's), side by side at each point. Writes a PNG (needs the bench extra).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/rooms_curve.py REV [--this REV2] [--rooms 1,10,50,100,200] [--count C] [--plot docs/rooms.png]
    .venv/bin/python bench/rooms_curve.py --replot OUT.json --plot docs/rooms.png   # draw a run's printed JSON again

At each number of encounters both servers are measured in turn (which goes first
alternates), each in a fresh process on one embedded Redis, as bench/ab_rooms.py does.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import ab_rooms  # noqa: E402

from fray_table.server.embedded import EmbeddedRedis  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rev", nargs="?")
    parser.add_argument("--replot", type=pathlib.Path, help="the JSON a run printed: drawn again, nothing measured")
    parser.add_argument("--this", help="a revision to measure instead of this tree")
    parser.add_argument("--rooms", default="1,10,50,100,200")
    parser.add_argument("--count", type=int, default=3000, help="commands per point")
    parser.add_argument("--plot", type=pathlib.Path)
    args = parser.parse_args()
    if args.replot:
        done = json.loads(args.replot.read_text())
        plot(done["points"], done["rev"], done["this"], args.plot)
        return
    if not args.rev:
        parser.error("a revision to measure against (or --replot)")
    sizes = [int(x) for x in args.rooms.split(",")]
    points: dict[str, list[dict]] = {"rev": [], "this": []}
    with tempfile.TemporaryDirectory() as tmp:
        trees = [ab_rooms.checkout(pathlib.Path(tmp) / "rev", args.rev)] + ([ab_rooms.checkout(pathlib.Path(tmp) / "this", args.this)] if args.this else [])
        try:
            with EmbeddedRedis(pathlib.Path(tmp) / "redis") as redis:
                for i, rooms in enumerate(sizes):
                    sides = [("rev", trees[0][1]), ("this", trees[1][1] if args.this else None)]
                    for name, root in sides if i % 2 == 0 else sides[::-1]:
                        out = ab_rooms.one(redis.url, root, rooms, max(args.count, 20 * rooms), None)
                        points[name].append({"rooms": rooms} | out)
                        print(name, rooms, json.dumps(out), file=sys.stderr, flush=True)
        finally:
            for tree, _ in trees:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True, timeout=60)
    print(json.dumps({"rev": args.rev, "this": args.this or "this tree", "points": points}))
    if args.plot:
        plot(points, args.rev, args.this or "this tree", args.plot)


def plot(points: dict[str, list[dict]], rev: str, this: str, out: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    for (name, label), colour in zip((("rev", f"before ({rev})"), ("this", f"after ({this})")), ("#888888", "#c0392b"), strict=True):
        xs = [p["rooms"] for p in points[name]]
        ax.plot(xs, [p["cpu_us"] for p in points[name]], "o-", color=colour, label=label)
        if all("cpu_us_with_joins" in p for p in points[name]):  # runs since session 10 have both
            joined = [p["cpu_us_with_joins"] for p in points[name]]
            ax.plot(xs, joined, "o--", color=colour, alpha=0.5, label=f"{label}, its 8 joins and leaves an encounter counted")
    ax.plot([50, 200], [250, 300], "s", color="#2c7a2c", label="goals (issue 24): 250 µs at 50, 300 µs at 200")
    ax.set_xscale("log")
    ax.set_xlabel("encounters, 8 clients each, one command in flight each")
    ax.set_ylabel("server CPU per command (µs)")
    ax.set_ylim(bottom=0)
    ax.set_title("Fray, one process: CPU per command against encounters")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    main()
