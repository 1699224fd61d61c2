"""The pure reducer of this tree against a git revision's, measured side by side.

    .venv/bin/python bench/ab_reducer.py REV [ROUNDS]

Folds bench/rebuild.py's long demo fight (10,000 events, no I/O) with each tree in
turn, in fresh processes, ROUNDS times (default 6), best of five folds each; prints
each side's events/s and the ratio of medians. Taking turns keeps a loaded
machine's noise off the ratio; the absolute figures are only this machine's now.
REV must already have the fray_table packages (from the packaging change on).
"""

import json
import os
import pathlib
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


def main(rev: str, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tree = pathlib.Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), rev], check=True, timeout=60)
        try:
            package = pathlib.Path(tmp) / "root" / "fray_table"
            package.mkdir(parents=True)
            for name in ("rules", "server", "client_web"):
                (package / name).symlink_to(tree / name)
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
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 6)
