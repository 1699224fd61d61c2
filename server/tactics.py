"""Simple default tactics for the simulator (server/simulate.py): what each side
declares when nobody plays it. Pure, like the rules: a tactic reads the state
and names actions (server/simulate.py declares them); the reducer judges them.

A side's tactic picks a target among the foes still in the fight:
- `nearest` (the default): each fighter the foe nearest to it;
- `weakest`: the foe with the fewest hit points;
- `focus`: the whole side on one foe (the nearest to its first fighter) until it falls.
With `flee_at` set (a fraction, 0.5 = "flee at half strength"), a side with no
more than that share of its fighters still standing runs from the field. With
`options`, a side uses the attack options its rules offer (003's, which every
profile keeps): a monster its attack routine (each weapon once: claw, claw, bite),
a fighter with a shorter, lighter weapon its double attack on the wielder of a
longer one; where they do not fit, the plain attack.

Each fighter attacks its target with the first usable weapon that reaches; out
of reach it charges, else approaches, else moves straight at it. A prone one
stands first, a disarmed one picks its weapon up. Each is declared as it is: the
rules refuse what cannot be done (a rejected line), and the next is declared. A declaration
the rules refuse falls through to the next; `hold` when none is taken.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from ..rules.actions import Action, Approach, Attack, Charge, Flee, Hold, Move, Recover, Stand
from ..rules.conditions import PRONE, out_of_fight
from ..rules.events import Actor
from ..rules.grid import distance
from ..rules.holmes.combat import double_refused, routine_refused
from ..rules.holmes.fighters import usable
from ..rules.model import Combatant, Encounter

TACTICS = ("nearest", "weakest", "focus")
GM = Actor("gm", "simulator")  # who sends the simulator's commands (server/simulate.py)
FLIGHT = 120  # feet a fleeing fighter aims for, away from its foes (its move rate limits it)


@dataclass(frozen=True)
class Plan:
    """How one side is played."""

    tactic: str = "nearest"
    flee_at: float = 0.0  # flee once the side's standing share is at or below this; 0: never
    options: bool = False  # use the attack options the rules offer: an attack routine, a double attack


def in_fight(c: Combatant) -> bool:
    """Still fighting: not down, fled or surrendered (rules.conditions.out_of_fight)."""
    return not out_of_fight(c)


def standing_sides(state: Encounter) -> set[str]:
    return Field(state).sides


class Field:
    """Who is still in the fight in `state`, by side: what the candidates of every
    fighter read. A declaration changes no combatant (only the declarations, the log and
    the position), so the simulator works one out for a round's declarations, not one
    for each declaration."""

    __slots__ = ("fighting", "sides", "_foes")

    def __init__(self, state: Encounter) -> None:
        self.fighting: list[Combatant] = []  # in_fight, in the state's order
        self.sides: set[str] = set()  # the sides still standing (a ship is none)
        for c in state.combatants:  # one plain loop for both, no comprehension's frame
            if not out_of_fight(c):
                self.fighting.append(c)
                if not c.vessel:
                    self.sides.add(c.side)
        self._foes: dict[str, list[Combatant]] = {}

    def foes(self, side: str) -> list[Combatant]:
        """The foes of `side` still in the fight (no vessel: a ship is not a target)."""
        found = self._foes.get(side)
        if found is None:
            found = self._foes[side] = [f for f in self.fighting if f.side != side and not f.vessel]
        return found

    def standing(self, side: str) -> int:
        return sum(1 for m in self.fighting if m.side == side)

    def first(self, side: str) -> Combatant:
        return next(m for m in self.fighting if m.side == side)


def target_of(c: Combatant, plan: Plan, foes: list[Combatant], field: Field) -> tuple[Combatant, int]:
    """The foe `c` goes for, the least by (hit points,) distance, then id (ids are unique,
    so no two keys tie and the Combatant itself is never compared); and its distance from `c`."""
    if plan.tactic == "weakest":
        target = min(foes, key=lambda f: (f.hp, distance(c, f), f.id))
    elif plan.tactic == "focus":  # the foe nearest to the side's first fighter
        target, _ = nearest(field.first(c.side), foes)
    else:  # nearest, the default: its distance is worked out on the way
        return nearest(c, foes)
    return target, distance(c, target)


def nearest(c: Combatant, foes: list[Combatant]) -> tuple[Combatant, int]:
    """The foe nearest to `c`, of those as near the least id (min by distance, then id),
    and its distance; written out as a loop, no key tuple a foe: it is worked out for
    every declaration."""
    best: Combatant | None = None
    near = 0
    for f in foes:
        d = distance(c, f)
        if best is None or d < near or (d == near and f.id < best.id):
            best, near = f, d
    assert best is not None, "the nearest of no foes"  # (a fighter with no foe holds: candidates)
    return best, near


def step_towards(c: Combatant, x: int, y: int) -> tuple[int, int]:
    """A point at most `c.move` feet towards (x, y), on the 5-ft grid."""
    dx, dy = x - c.x, y - c.y
    reach = max(abs(dx), abs(dy))
    if reach <= c.move:
        return x, y
    scale = c.move / reach
    return c.x + 5 * round(dx * scale / 5), c.y + 5 * round(dy * scale / 5)


def candidates(state: Encounter, c: Combatant, plan: Plan, start: dict[str, int], field: Field | None = None) -> Iterator[Action]:
    """What `c` would declare, best first; `field`: Field(state), if one is at hand."""
    if field is None:
        field = Field(state)
    foes = field.foes(c.side)
    if not foes:
        yield Hold()
        return
    if plan.flee_at and (mine := field.standing(c.side)) <= plan.flee_at * start.get(c.side, mine):
        near = min(foes, key=lambda f: distance(c, f))
        away_x = c.x + (FLIGHT if c.x >= near.x else -FLIGHT)
        away_y = c.y + (FLIGHT if c.y >= near.y else -FLIGHT)
        yield Flee(x=max(0, away_x), y=max(0, away_y))
    if PRONE in c.conditions:
        yield Stand()
    target, far = target_of(c, plan, foes, field)
    routine = plan.options and not routine_refused(c)
    armed = False  # a usable weapon in hand (no list of them made: most often the first is used)
    for i, w in enumerate(c.weapons):
        if not usable(w):
            continue
        armed = True
        if w.range >= far if w.range else w.reach >= far:
            if routine:  # 003: a monster 'must attack with a combat bonus of 0' when attacking multiple times
                yield Attack(target=target.id, weapon=i, routine=True)
                routine = False
            if plan.options and not w.range and not double_refused(state, c, target, i):
                yield Attack(target=target.id, weapon=i, double=True)  # 003: 'may attack the wielder of the longer weapon twice'
            yield Attack(target=target.id, weapon=i)
    if not armed:  # none usable, so no attack above: pick one up before closing in
        yield from (Recover(weapon=i) for i, w in enumerate(c.weapons) if w.dropped)
    yield Charge(target=target.id)
    yield Approach(target=target.id)
    x, y = step_towards(c, target.x, target.y)
    yield Move(x=x, y=y)
    yield Hold()
