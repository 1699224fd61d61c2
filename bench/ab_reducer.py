"""The pure reducer of this tree against a git revision's, measured side by side.

    .venv/bin/python bench/ab_reducer.py REV [ROUNDS]
    .venv/bin/python bench/ab_reducer.py REV --instructions

Folds bench/rebuild.py's long demo fight (10,000 events, no I/O) with each tree in
turn, in fresh processes, ROUNDS times (default 6), best of five folds each; prints
each side's events/s and the ratio of medians. Taking turns keeps a loaded
machine's noise off the ratio; the absolute figures are only this machine's now.
With --instructions it counts instead the CPU instructions one fold executes on each
side (valgrind's callgrind: a process folding twice, less one folding none, halved),
which do not move with the machine's load: slower (about two minutes a side), but
the same figure from one run to the next. REV must already have the fray_table
packages (from the packaging change on).
"""

import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

FOLD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from rebuild import long_fight
from fray_table.rules.events import decode_event, encode_event
from fray_table.rules.reducer import fold
payloads = [encode_event(e) for e in long_fight(10_000)]
if len(sys.argv) > 2:  # --instructions: fold this many times, untimed
    for _ in range(int(sys.argv[2])):
        fold(decode_event(p) for p in payloads)
    sys.exit()
best = float("inf")
for _ in range(5):
    t = time.perf_counter()
    fold(decode_event(p) for p in payloads)
    best = min(best, time.perf_counter() - t)
print(json.dumps(10_000 / best))
"""


def run(package_root: pathlib.Path | None) -> float:
    env = {"PYTHONPATH": str(package_root)} if package_root else {}
    out = subprocess.run([sys.executable, "-c", FOLD, str(ROOT / "bench")], capture_output=True, text=True, check=True, timeout=300, env={**os.environ, **env})
    return json.loads(out.stdout)


def callgrind(script: str, args: list[str], package_root: pathlib.Path | None) -> int:
    """The instructions a Python process running `script` with `args` executes (valgrind's
    callgrind total); with `package_root`, that tree's fray_table packages first on the path."""
    env = {**os.environ, **({"PYTHONPATH": str(package_root)} if package_root else {})}
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", script, *args]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=900, env=env)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no total:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def instructions(package_root: pathlib.Path | None) -> int:
    """The instructions one fold executes (callgrind's total, two folds less none, halved)."""
    bench = str(ROOT / "bench")
    return (callgrind(FOLD, [bench, "2"], package_root) - callgrind(FOLD, [bench, "0"], package_root)) // 2


def main(rev: str, rounds: int, count: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tree = pathlib.Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), rev], check=True, timeout=60)
        try:
            package = pathlib.Path(tmp) / "root" / "fray_table"
            package.mkdir(parents=True)
            for name in ("rules", "server", "client_web"):
                (package / name).symlink_to(tree / name)
            if count:
                theirs_i, ours_i = instructions(package.parent), instructions(None)
                print(
                    json.dumps(
                        {"rev": rev, "rev_instructions_per_fold": theirs_i, "this_tree_instructions_per_fold": ours_i, "ratio": round(ours_i / theirs_i, 3)}
                    )
                )
                return
            theirs, ours = [], []
            for _ in range(rounds):
                theirs.append(run(package.parent))
                ours.append(run(None))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True, timeout=60)
    print(
        json.dumps(
            {
                "rev": rev,
                "rev_events_per_s": [round(x) for x in theirs],
                "this_tree_events_per_s": [round(x) for x in ours],
                "ratio_of_medians": round(statistics.median(ours) / statistics.median(theirs), 3),
            }
        )
    )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    if "--instructions" in sys.argv[2:]:
        if shutil.which("valgrind") is None:
            raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
        main(sys.argv[1], 0, count=True)
    else:
        main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 6)
