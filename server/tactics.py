"""Simple default tactics for the simulator (server/simulate.py): what each side
declares when nobody plays it. Pure, like the rules: a tactic reads the state
and names commands; the reducer judges them.

A side's tactic picks a target among the foes still in the fight:
- `nearest` (the default): each fighter the foe nearest to it;
- `weakest`: the foe with the fewest hit points;
- `focus`: the whole side on one foe (the nearest to its first fighter) until it falls.
With `flee_at` set (a fraction, 0.5 = "flee at half strength"), a side with no
more than that share of its fighters still standing runs from the field.

Each fighter attacks its target with the first usable weapon that reaches; out
of reach it charges, else approaches, else moves straight at it. A prone one
stands first, a disarmed one picks its weapon up. Each is declared as it is: the
rules refuse what cannot be done (a rejected line), and the next is declared. A declaration
the rules refuse falls through to the next; `hold` when none is taken.
"""

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from fray_table.rules.actions import Action, Approach, Attack, Charge, Flee, Hold, Move, Recover, Stand
from fray_table.rules.commands import Advance, Answer, Declare, Start
from fray_table.rules.conditions import PRONE, out_of_fight
from fray_table.rules.events import Actor, Event
from fray_table.rules.grid import distance
from fray_table.rules.holmes.fighters import usable
from fray_table.rules.model import Combatant, Encounter
from fray_table.rules.view import awaited_ids

TACTICS = ("nearest", "weakest", "focus")
GM = Actor("gm", "simulator")
FLIGHT = 120  # feet a fleeing fighter aims for, away from its foes (its move rate limits it)


@dataclass(frozen=True)
class Plan:
    """How one side is played."""

    tactic: str = "nearest"
    flee_at: float = 0.0  # flee once the side's standing share is at or below this; 0: never


def in_fight(c: Combatant) -> bool:
    """Still fighting: not down, fled or surrendered (rules.conditions.out_of_fight)."""
    return not out_of_fight(c)


def standing_sides(state: Encounter) -> set[str]:
    return {c.side for c in state.combatants if in_fight(c) and not c.vessel}


def target_of(state: Encounter, c: Combatant, plan: Plan, foes: list[Combatant]) -> Combatant:
    if plan.tactic == "weakest":
        return min(foes, key=lambda f: (f.hp, distance(c, f), f.id))
    if plan.tactic == "focus":
        first = next(m for m in state.combatants if m.side == c.side and in_fight(m))
        return min(foes, key=lambda f: (distance(first, f), f.id))
    return min(foes, key=lambda f: (distance(c, f), f.id))


def step_towards(c: Combatant, x: int, y: int) -> tuple[int, int]:
    """A point at most `c.move` feet towards (x, y), on the 5-ft grid."""
    dx, dy = x - c.x, y - c.y
    reach = max(abs(dx), abs(dy))
    if reach <= c.move:
        return x, y
    scale = c.move / reach
    return c.x + 5 * round(dx * scale / 5), c.y + 5 * round(dy * scale / 5)


def candidates(state: Encounter, c: Combatant, plan: Plan, start: dict[str, int]) -> Iterator[Action]:
    """What `c` would declare, best first."""
    foes = [f for f in state.combatants if f.side != c.side and in_fight(f) and not f.vessel]
    if not foes:
        yield Hold()
        return
    mine = sum(1 for m in state.combatants if m.side == c.side and in_fight(m))
    if plan.flee_at and mine <= plan.flee_at * start.get(c.side, mine):
        near = min(foes, key=lambda f: distance(c, f))
        away_x = c.x + (FLIGHT if c.x >= near.x else -FLIGHT)
        away_y = c.y + (FLIGHT if c.y >= near.y else -FLIGHT)
        yield Flee(x=max(0, away_x), y=max(0, away_y))
    if PRONE in c.conditions:
        yield Stand()
    if not any(usable(w) for w in c.weapons):
        yield from (Recover(weapon=i) for i, w in enumerate(c.weapons) if w.dropped)
    target = target_of(state, c, plan, foes)
    far = distance(c, target)
    for i, w in enumerate(c.weapons):
        if usable(w) and (w.range >= far if w.range else w.reach >= far):
            yield Attack(target=target.id, weapon=i)
    yield Charge(target=target.id)
    yield Approach(target=target.id)
    x, y = step_towards(c, target.x, target.y)
    yield Move(x=x, y=y)
    yield Hold()


def next_command(state: Encounter, plans: dict[str, Plan], start: dict[str, int], n: int, refused: dict[tuple[int, str], int]) -> Event | None:
    """The simulator's next event for the fight, or None when nothing more can be done.
    `refused`: (round, combatant) -> how many of its candidates the rules refused so far
    (the caller counts them from the fold's rejected lines): the next one is tried, and
    a combatant with none left waits for the advance."""
    if state.status == "setup":
        return Event(f"s{n}", GM, Start())
    if state.status != "running":
        return None
    if state.awaiting is not None:  # a prompt: its first answer (the rules list the usual one first)
        return Event(f"s{n}", GM, Answer(awaiting=state.awaiting.id, choice=state.awaiting.options[0]))
    if state.phase == "declaration":
        for cid in awaited_ids(state):
            c = next(x for x in state.combatants if x.id == cid)
            tried = refused.get((state.round, cid), 0)
            action = next(itertools.islice(candidates(state, c, plans.get(c.side, Plan()), start), tried, None), None)
            if action is not None:
                return Event(f"s{n}", GM, Declare(actor=cid, action=action))
    return Event(f"s{n}", GM, Advance())
