"""The simulator: how deadly is this fight? A fight played many times with fresh
seeds, every side by a simple tactic (server/tactics.py), through the same pure
reducer as the table, and the odds counted.

Run `i` of a simulation seeded `seed` rolls with the seed blake2b(seed, i): the
same seed and number of runs give the same numbers, on any number of cores (the
runs are split into blocks, and the blocks' counts only ever added). A fight
ends when at most one side is still in it (the winner), or after `rounds`
rounds (no winner).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import msgspec

from ..rules.commands import Advance, Answer, Declare, Start
from ..rules.declare import awaited
from ..rules.events import Event
from ..rules.model import Encounter, copied
from ..rules.reducer import folding
from .tactics import GM, TACTICS, Field, Plan, candidates, in_fight, standing_sides

MAX_EVENTS = 5_000  # a fight's events at most (every round is bounded by its combatants' declarations)
BLOCK = 100  # runs a worker plays before it reports
MIN_BLOCK = 10  # and at least, when the runs are few for the processes
PLAY = Plan()  # a side with no plan of its own
EVENT_IDS = tuple(f"s{n}" for n in range(MAX_EVENTS))  # event n's id, made once, not once a fight


@dataclass
class Tally:
    """The counts of some runs; tallies of disjoint runs add up."""

    runs: int = 0
    wins: Counter = field(default_factory=Counter)  # side -> fights it won
    rounds: Counter = field(default_factory=Counter)  # rounds a fight lasted -> fights
    falls: Counter = field(default_factory=Counter)  # combatant id -> fights it ended out of

    def add(self, other: Tally) -> None:
        self.runs += other.runs
        self.wins.update(other.wins)
        self.rounds.update(other.rounds)
        self.falls.update(other.falls)


def run_seed(seed: bytes, i: int) -> bytes:
    return hashlib.blake2b(i.to_bytes(8, "big"), key=seed[:64], digest_size=32).digest()


def fight(
    start: Encounter, seed: bytes, plans: dict[str, Plan], rounds: int, played: list[Event] | None = None, sides: dict[str, int] | None = None
) -> Encounter:
    """One fight from `start` (never changed) under `seed`, to its end or `rounds` rounds;
    its events are appended to `played`, if given (for a test to fold them again).
    `sides`: starting_sides(start), if at hand (play_block works it out once for its fights).

    It is folded without the log's words (rules.reducer.folding's `narrated`): the
    tally reads none, and they were most of a fight's cost."""
    state = msgspec.structs.replace(start, seed=seed, forced=[], entered=[], recent=[])  # the fold copies it: one copy a fight
    now = [state]
    events = decisions(now, plans, starting_sides(start) if sides is None else sides, rounds)
    for s in folding(events if played is None else _kept(events, played), state, narrated=False):  # one copy of the state a fight
        now[0] = s
    return now[0] if now[0] is not state else copied(state)  # (no event: a copy, sharing nothing with `start`)


def starting_sides(start: Encounter) -> Counter:
    """side -> its fighters in the fight at the start (what a plan's `flee_at` is a share of)."""
    return Counter(c.side for c in start.combatants if in_fight(c) and not c.vessel)


def _kept(events: Iterator[Event], played: list[Event]) -> Iterator[Event]:
    for event in events:
        played.append(event)
        yield event


def decisions(now: list[Encounter], plans: dict[str, Plan], sides: dict[str, int], rounds: int) -> Iterator[Event]:
    """The simulator's events, each made once the fold has reached the state before it
    (`now[0]`): start the fight, answer each prompt with its first option (the rules list
    the usual one first), have each fighter declare (server/tactics.py), advance.

    Every candidate is declared, even one the rules will refuse: a refused event still
    takes its position, and the dice are drawn by position, so leaving one out would
    change every roll after it. A refusal falls through to the fighter's next candidate
    (`refused` counts them this round, by fighter), and one with none left waits for the
    advance. A declaration changes no combatant, so who is still fighting (a Field) and
    who is to declare are worked out once a round, not once a declaration."""
    refused: dict[str, int] = {}  # fighter -> its declarations refused in round `refused_in`
    refused_in = 0
    n = 0  # events so far
    while n < MAX_EVENTS:
        s = now[0]
        if s.round > rounds:
            return
        if s.status == "setup":
            yield Event(EVENT_IDS[n], GM, Start())
            n += 1
            continue
        if s.status != "running":
            return
        field = Field(s)
        if len(field.sides) <= 1:
            return
        if s.awaiting is not None:
            yield Event(EVENT_IDS[n], GM, Answer(awaiting=s.awaiting.id, choice=s.awaiting.options[0]))
            n += 1
            continue
        if s.phase == "declaration":
            if s.round != refused_in:  # a new round: nobody refused yet
                refused, refused_in = {}, s.round
            formal = s.options.get("formal_declarations")
            order, i = awaited(s), 0  # the fighters still to declare, in the order they are asked
            while i < len(order):
                c = order[i]
                tried = refused.get(c.id, 0)
                options = candidates(s, c, plans.get(c.side, PLAY), sides, field)
                action = next(options, None) if not tried else next(itertools.islice(options, tried, None), None)
                if action is None:  # every candidate refused: it waits
                    i += 1
                    continue
                if n >= MAX_EVENTS:
                    return
                yield Event(EVENT_IDS[n], GM, Declare(actor=c.id, action=action))
                n += 1
                if now[0] is not s:  # a rule raised and the fold rebuilt its state: start again from it
                    refused[c.id] = tried + 1
                    break
                if s.recent and s.recent[0].kind == "rejected":  # the one line of a refusal (rules.reducer)
                    refused[c.id] = tried + 1
                elif formal:  # the order is a hook's (003: by INT): ask it again
                    order, i = awaited(s), 0
                else:
                    i += 1  # the others keep their order
            else:
                if n < MAX_EVENTS:
                    yield Event(EVENT_IDS[n], GM, Advance())
                    n += 1
            continue
        yield Event(EVENT_IDS[n], GM, Advance())
        n += 1


def fought(end: Encounter) -> int:
    """The rounds a fight lasted: a round is over once the next one's declarations open."""
    return end.round - 1 if end.phase == "declaration" else end.round


def play_block(start: Encounter, seed: bytes, plans: dict[str, Plan], rounds: int, first: int, count: int, deadline: float | None = None) -> Tally:
    """Fights `first` to `first + count - 1`; with `deadline` (time.monotonic()), none is begun
    past it: the runs counted are still the first ones, in order, so the numbers are the seed's."""
    tally, sides = Tally(), starting_sides(start)
    for i in range(first, first + count):
        if deadline is not None and i > first and time.monotonic() > deadline:
            break
        end = fight(start, run_seed(seed, i), plans, rounds, sides=sides)
        standing = standing_sides(end)
        if len(standing) == 1:
            tally.wins[next(iter(standing))] += 1
        tally.rounds[fought(end)] += 1
        tally.falls.update(c.id for c in end.combatants if not in_fight(c))
        tally.runs += 1
    return tally


def _play(job: tuple) -> Tally:
    return play_block(*job)


def simulate(
    start: Encounter,
    runs: int,
    seed: bytes,
    plans: dict[str, Plan] | None = None,
    rounds: int = 30,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    deadline: float | None = None,
) -> Tally:
    """`runs` fights from `start`; with `deadline` (time.monotonic()), it begins no fight
    past it (one process), and the tally says how many were played."""
    plans = plans or {}

    def blocks(size: int) -> list[tuple]:
        return [(start, seed, plans, rounds, first, min(size, runs - first)) for first in range(0, runs, size)]

    total = Tally()
    if jobs <= 1 or runs <= BLOCK:
        for first in range(0, runs, BLOCK):
            total.add(play_block(start, seed, plans, rounds, first, min(BLOCK, runs - first), deadline))
            if progress is not None:
                progress(total.runs, runs)
            if deadline is not None and time.monotonic() > deadline:
                break
        return total
    # At least four blocks a process, so that none waits long at the end for the last
    # one's; no more processes than blocks. How the runs are cut up changes no number.
    shared = blocks(min(BLOCK, max(MIN_BLOCK, -(-runs // (4 * jobs)))))
    with multiprocessing.get_context("fork" if os.name == "posix" else "spawn").Pool(min(jobs, len(shared))) as pool:
        for tally in pool.imap_unordered(_play, shared):
            total.add(tally)
            if progress is not None:
                progress(total.runs, runs)
    return total


def simulate_within(start: Encounter, runs: int, seed: bytes, plans: dict[str, Plan], rounds: int, deadline: float) -> Tally:
    """As many of `runs` fights as there is time for, on this process, beginning none past
    `deadline` (time.monotonic(): the clock is the machine's, the same in the server that set it)."""
    return simulate(start, runs, seed, plans, rounds, jobs=1, deadline=deadline)


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(start: Encounter, tally: Tally) -> dict:
    """The numbers, as `fray simulate --json` prints them and the API answers them."""
    n = tally.runs
    sides = sorted({c.side for c in start.combatants if not c.vessel})
    # rounds -> fights, read as it is (never spread into a list of every fight), in order of rounds
    # so that the sums are the same however the runs were shared out between processes
    hist = sorted(tally.rounds.items())
    mean = sum(r * k for r, k in hist) / n if n else 0.0
    spread = math.sqrt(sum(k * (r - mean) ** 2 for r, k in hist) / n) if n else 0.0
    won = sum(tally.wins.values())
    return {
        "runs": n,
        "sides": {
            side: {"wins": tally.wins[side], "odds": tally.wins[side] / n if n else 0.0, "interval": list(wilson(tally.wins[side], n))} for side in sides
        },
        "no_winner": {"fights": n - won, "odds": (n - won) / n if n else 0.0, "interval": list(wilson(n - won, n))},
        "rounds": {"mean": mean, "sd": spread, "min": hist[0][0] if hist else 0, "max": hist[-1][0] if hist else 0},
        "falls": {c.id: {"name": c.name, "side": c.side, "odds": tally.falls[c.id] / n if n else 0.0} for c in start.combatants},
    }


def plans_from(spec: dict[str, dict]) -> dict[str, Plan]:
    """{'goblins': {'tactic': 'weakest', 'flee_at': 0.5, 'options': True}} -> plans; ValueError naming a fault."""
    plans = {}
    for side, raw in spec.items():
        unknown = set(raw) - {"tactic", "flee_at", "options"}
        if unknown:
            raise ValueError(f"side {side!r}: unknown keys {sorted(unknown)} (a side takes 'tactic', 'flee_at' and 'options')")
        tactic = raw.get("tactic", "nearest")
        if tactic not in TACTICS:
            raise ValueError(f"side {side!r}: tactic {tactic!r} is not one of {', '.join(TACTICS)}")
        flee_at = raw.get("flee_at", 0.0)
        if isinstance(flee_at, bool) or not isinstance(flee_at, int | float) or not 0 <= flee_at < 1:
            raise ValueError(f"side {side!r}: flee_at is a share of the side from 0 to below 1 (0.5: flee at half strength), not {flee_at!r}")
        options = raw.get("options", False)
        if not isinstance(options, bool):
            raise ValueError(f"side {side!r}: options is true or false (use the attack options the rules offer), not {options!r}")
        plans[side] = Plan(tactic=tactic, flee_at=float(flee_at), options=options)
    return plans
