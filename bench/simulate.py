"""The simulator's speed (issue 14: 1,000 fights a second per core on the demo fight),
beside the bare pure fold of the same fights, measured in the same run.

    .venv/bin/python bench/simulate.py [--runs N] [--rounds R] [--jobs J] [--seconds S] [--against REV]

Each round, in a fresh process, the simulator plays N demo fights (seed sha256("bench"),
the CLI's default tactics), and the events those fights were made of (recorded
beforehand) are folded again by the bare reducer (rules.reducer.folding, no tactics; without the
log's words, `narrated=False`, as the simulator folds, in a tree that has it):
on one job, block by block taking turns (the simulator's play_block, then the fold of
the same 100 fights), then on J processes (default: every core; `simulate`, then the
fold in as many forked workers). The ratio simulator/fold is the fold's share of the
simulator's time: the rest is the simulator's own (its tactics, its bookkeeping, its
processes). Prints every round's figures and their medians, in fights/s
per core, as one JSON object. With --against REV, REV's tree (fray_table packages, from
the packaging change on) runs its own rounds too, taking turns with this tree: the
before/after of a change, side by side, and `same_fights` says whether both played
the same events (a digest of them; a change that only makes the simulator faster
keeps it true). Bounded: R rounds (default 3), and no new round
starts after S seconds (default 300).

    .venv/bin/python bench/simulate.py --instructions [--runs 200] [--against REV]

counts instead the CPU instructions one simulated demo fight executes (valgrind's
callgrind: a process playing N fights less one playing none, over N), which the
machine's load does not move; with --against REV, REV's too.
"""

import argparse
import hashlib
import inspect
import json
import multiprocessing
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = hashlib.sha256(b"bench").digest()
NOT_FIGURES = ("events_per_fight", "fights")
RECORDED: list = []  # (seed, events) of each fight, for the fold's workers (inherited by fork)


def demo_start():
    from fray_table.rules.scenario import play
    from fray_table.server.demo import combatants

    return play({"combatants": combatants()}).state


def record(start, runs: int) -> list:
    """Each fight's seed and the events the simulator played in it."""
    from fray_table.server import simulate

    fights: list = []
    fold = simulate.folding

    def recording(events, state):
        played: list = []
        fights.append((state.seed, played))
        for event in events:
            played.append(event)
            yield event

    simulate.folding = lambda events, state, **how: fold(recording(events, state), state, **how)  # (how: narrated, in a tree that has it)
    try:
        for i in range(runs):
            simulate.fight(start, simulate.run_seed(SEED, i), {}, 30)
    finally:
        simulate.folding = fold
    return fights


def fold_block(job: tuple) -> int:
    """Fold fights first..first+count of RECORDED from the demo's start; the last seq (a check)."""
    import msgspec

    from fray_table.rules.reducer import folding

    start, first, count = job
    quiet = {"narrated": False} if "narrated" in inspect.signature(folding).parameters else {}  # as the simulator folds, where the tree can
    seq = 0
    for seed, events in RECORDED[first : first + count]:
        for state in folding(events, msgspec.structs.replace(start, seed=seed, forced=[], entered=[]), **quiet):
            seq = state.seq
    return seq


def measure(runs: int, jobs: int) -> dict:
    """One round in this process: fights/s per core of the simulator and of the bare fold."""
    from fray_table.rules.events import encode_event
    from fray_table.server.simulate import BLOCK, Tally, play_block, simulate

    start = demo_start()
    RECORDED[:] = record(start, runs)
    figures = {}
    # One job: the simulator's blocks and the fold of the same fights taking turns, block
    # by block, so that the machine's changes of speed fall on both alike.
    one, played, folded = Tally(), 0.0, 0.0
    for first in range(0, runs, BLOCK):
        count = min(BLOCK, runs - first)
        began = time.perf_counter()
        one.add(play_block(start, SEED, {}, 30, first, count))
        played += time.perf_counter() - began
        began = time.perf_counter()
        fold_block((start, first, count))
        folded += time.perf_counter() - began
    figures["simulator_1_job"] = runs / played
    figures["fold_1_job"] = runs / folded
    if jobs > 1:
        began = time.perf_counter()
        every = simulate(start, runs, SEED, jobs=jobs)
        figures[f"simulator_{jobs}_jobs"] = runs / (time.perf_counter() - began) / jobs
        began = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(jobs) as pool:  # the workers inherit RECORDED
            list(pool.imap_unordered(fold_block, [(start, first, min(100, runs - first)) for first in range(0, runs, 100)]))
        figures[f"fold_{jobs}_jobs"] = runs / (time.perf_counter() - began) / jobs
        assert every == one, "the simulator played other fights on more jobs"
    assert one.runs == runs
    events = sum(len(played) for _, played in RECORDED)
    digest = hashlib.sha256()
    for _, played in RECORDED:
        digest.update(b"".join(encode_event(e) for e in played))
    return figures | {"events_per_fight": round(events / runs, 2), "fights": digest.hexdigest()[:16]}


PLAY = """
import sys
sys.path.insert(0, sys.argv[1])
from simulate import SEED, demo_start
from fray_table.server.simulate import play_block
fights = int(sys.argv[2])
start = demo_start()
if fights:
    play_block(start, SEED, {}, 30, 0, fights)
"""


def instructions(package_root: pathlib.Path | None, fights: int) -> int:
    """The instructions one simulated demo fight executes (callgrind: N fights less none, over N)."""
    from ab_reducer import callgrind  # (bench/, this script's folder, is on the path)

    bench = str(ROOT / "bench")
    return round((callgrind(PLAY, [bench, str(fights)], package_root) - callgrind(PLAY, [bench, "0"], package_root)) / fights)


def child(package_root: pathlib.Path | None, runs: int, jobs: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(package_root)} if package_root else dict(os.environ)
    command = [sys.executable, __file__, "--child", "--runs", str(runs), "--jobs", str(jobs)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600, env=env)
    return json.loads(out.stdout)


def summary(rounds: list[dict]) -> dict:
    keys = [k for k in rounds[0] if k not in NOT_FIGURES]
    medians = {k: round(statistics.median(r[k] for r in rounds)) for k in keys}
    simulated = [k for k in keys if k.startswith("simulator_")]
    ratios = {k.removeprefix("simulator_"): round(statistics.median(r[k] / r[k.replace("simulator", "fold")] for r in rounds), 3) for k in simulated}
    return {
        "fights_per_s_per_core": medians,
        "simulator_over_fold": ratios,
        "events_per_fight": rounds[0]["events_per_fight"],
        "fights": sorted({r["fights"] for r in rounds}),  # a digest of every event played: one, the same each round
        "rounds": [{k: round(v) for k, v in r.items() if k not in NOT_FIGURES} for r in rounds],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--against", metavar="REV")
    parser.add_argument("--instructions", action="store_true", help="count instructions a fight (callgrind) instead of timing")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 1 <= args.runs <= 100_000 or not 1 <= args.rounds <= 50 or not 1 <= args.jobs <= 64:
        parser.error("--runs is 1 to 100,000, --rounds 1 to 50, --jobs 1 to 64")
    if args.child:
        print(json.dumps(measure(args.runs, args.jobs)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        package = None
        if args.against:
            tree = pathlib.Path(tmp) / "tree"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), args.against], check=True, timeout=60)
            package = pathlib.Path(tmp) / "root" / "fray_table"
            package.mkdir(parents=True)
            for name in ("rules", "server", "client_web"):
                (package / name).symlink_to(tree / name)
        try:
            if args.instructions:
                if shutil.which("valgrind") is None:
                    raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
                counts = {"fights": args.runs, "this_tree_instructions_per_fight": instructions(None, args.runs)}
                if package:
                    counts[f"{args.against}_instructions_per_fight"] = theirs_count = instructions(package.parent, args.runs)
                    counts["ratio"] = round(counts["this_tree_instructions_per_fight"] / theirs_count, 3)
                print(json.dumps(counts, indent=1))
                return
            ours: list[dict] = []
            theirs: list[dict] = []
            deadline = time.monotonic() + args.seconds
            for i in range(args.rounds):
                if time.monotonic() > deadline:
                    break
                sides = [(ours, None), (theirs, package.parent)] if package else [(ours, None)]
                for into, root in sides if i % 2 == 0 else sides[::-1]:  # taking turns going first
                    into.append(child(root, args.runs, args.jobs))
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True, timeout=60)
    result = {"runs": args.runs, "jobs": args.jobs, "this_tree": summary(ours)}
    if theirs:
        rev = result[args.against] = summary(theirs)
        result["same_fights"] = result["this_tree"]["fights"] == rev["fights"]  # event for event
        paired = list(zip(ours, theirs, strict=False))  # a round of each, one after the other
        result["this_tree_over_rev"] = {k: round(statistics.median(o[k] / t[k] for o, t in paired), 3) for k in rev["fights_per_s_per_core"]}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
