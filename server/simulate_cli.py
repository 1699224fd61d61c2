"""`fray simulate`: the simulator (server/simulate.py) on the command line. A
refusal is one line and exit code 2."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import time
from typing import IO

from ..rules.model import Encounter
from .fight_data import Progress
from .simulate import plans_from, report, simulate

NAME = "fray simulate"


class Refused(Exception):
    pass


def start_of(args) -> tuple[Encounter, str]:
    """The fight to simulate from, and its name."""
    from ..rules.scenario import play

    if args.demo == (args.scenario is not None):
        raise Refused("give a scenario file or --demo (one of them)")
    if args.demo:
        from .demo import combatants

        data: dict = {"combatants": combatants()}
        name = "the demo fight"
    else:
        from .cli import scenario_data

        try:
            data = scenario_data(args.scenario)
        except FileNotFoundError:
            raise Refused(f"no such file: {args.scenario}") from None
        except ValueError as e:
            raise Refused(f"{args.scenario}: {e}") from None
        name = str(args.scenario)
    try:
        state = play(data).state
    except ValueError as e:
        raise Refused(f"{name}: {e}") from None
    if state.status == "ended":
        raise Refused(f"{name}: its commands end the fight; leave out its 'end' to simulate it")
    return state, name


def sides_of(pairs: list[str]) -> dict[str, dict]:
    """['goblins=weakest,flee_at=0.5,options'] -> {'goblins': {'tactic': 'weakest', 'flee_at': 0.5, 'options': True}}."""
    spec: dict[str, dict] = {}
    for pair in pairs:
        side, sep, rest = pair.partition("=")
        if not sep or not side or not rest:
            raise Refused(f"--side {pair[:60]!r}: write it SIDE=TACTIC, SIDE=TACTIC,flee_at=0.5 or SIDE=TACTIC,options")
        tactic, *more = rest.split(",")
        entry: dict = {"tactic": tactic}
        for item in more:
            if item == "options":
                entry["options"] = True
                continue
            key, sep, value = item.partition("=")
            if key != "flee_at" or not sep:
                raise Refused(f"--side {pair[:60]!r}: after the tactic only flee_at=F and options may follow")
            try:
                entry["flee_at"] = float(value)
            except ValueError:
                raise Refused(f"--side {pair[:60]!r}: flee_at is a number like 0.5") from None
        spec[side] = entry
    return spec


def run(args, out: IO[str] = sys.stdout, err: IO[str] = sys.stderr) -> int:
    try:
        if not 1 <= args.runs <= 10_000_000:
            raise Refused("--runs is 1 to 10,000,000")
        if not 1 <= args.rounds <= 1000:
            raise Refused("--rounds is 1 to 1000")
        if args.jobs < 0:
            raise Refused("--jobs is 0 (every core) or more")
        start, name = start_of(args)
        sides = {c.side for c in start.combatants}
        spec = sides_of(args.side)
        if unknown := sorted(set(spec) - sides):
            raise Refused(f"--side names no side of this fight: {', '.join(unknown)} (its sides: {', '.join(sorted(sides))})")
        plans = plans_from(spec)
    except (Refused, ValueError) as e:
        print(f"{NAME}: {e}", file=err)
        return 2
    seed_text = args.seed if args.seed is not None else secrets.token_hex(8)
    seed = hashlib.sha256(seed_text.encode()).digest()
    jobs = args.jobs or os.cpu_count() or 1
    progress = Progress(err, f"simulating {name}")
    began = time.perf_counter()
    try:
        tally = simulate(start, args.runs, seed, plans, args.rounds, jobs, progress)
    finally:
        progress.end()
    took = time.perf_counter() - began
    numbers = report(start, tally)
    numbers |= {"seed": seed_text, "jobs": jobs, "seconds": round(took, 3)}
    if args.json:
        print(json.dumps(numbers), file=out)
        return 0
    print(
        f"{NAME}: {name}, {tally.runs} fights (seed {seed_text!r}), {jobs} job{'s' if jobs != 1 else ''}, {took:.1f} s ({tally.runs / took:,.0f} fights/s)",
        file=out,
    )
    percent = lambda p: f"{100 * p:5.1f}%"  # noqa: E731
    for side, s in numbers["sides"].items():
        low, high = s["interval"]
        print(f"  {side:<14} wins {percent(s['odds'])}  (95% interval {percent(low).strip()} to {percent(high).strip()})", file=out)
    none = numbers["no_winner"]
    print(f"  {'no winner':<14}      {percent(none['odds'])}  (still fighting after {args.rounds} rounds, or nobody left)", file=out)
    r = numbers["rounds"]
    print(f"  rounds: {r['mean']:.1f} on average (sd {r['sd']:.1f}), {r['min']} to {r['max']}", file=out)
    print("  out of the fight at the end (down, fled or surrendered):", file=out)
    for f in numbers["falls"].values():
        print(f"    {f['name']:<20} ({f['side']}) {percent(f['odds'])}", file=out)
    return 0
