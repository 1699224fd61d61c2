"""Counter-based dice: a roll is a pure function of (seed, event position, draw index).

Each draw hashes the triple with BLAKE2b keyed by the encounter seed and takes
the first 8 bytes; values that would bias the die are rejected and the draw is
re-hashed with an attempt counter. Python's `random` is never used: its
algorithms are not a stable contract, and replays must last forever.
"""

import functools
import hashlib
import re

from .model import Roll, die_key

_SPAN = 1 << 64
_DICE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


@functools.lru_cache(maxsize=64)
def _keyed(seed: bytes) -> "hashlib.blake2b":
    """A BLAKE2b hasher keyed by `seed` with nothing hashed yet: each draw hashes a copy."""
    return hashlib.blake2b(key=seed, digest_size=8)


def draw(seed: bytes, position: int, index: int, sides: int) -> int:
    """The unbiased result in 1..sides of draw `index` of the event at `position`."""
    assert sides >= 1
    limit = _SPAN - _SPAN % sides
    keyed = _keyed(seed)
    attempt = 0
    while True:
        hashed = keyed.copy()  # BLAKE2b keyed by the seed, the key already taken in: half the cost of keying anew
        hashed.update(b"%d:%d:%d" % (position, index, attempt))  # the ASCII "{position}:{index}:{attempt}" (docs/dice.md)
        value = int.from_bytes(hashed.digest(), "big")
        if value < limit:
            return value % sides + 1
        attempt += 1


@functools.lru_cache(maxsize=256)
def parse(expression: str) -> tuple[int, int, int]:
    """'2d6+1' -> (2, 6, 1). Raises ValueError naming the expression."""
    match = _DICE.match(expression.replace(" ", "").lower())
    if not match:
        raise ValueError(f"{expression!r} is not dice like '1d6' or '2d4+1'")
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    bonus = int(match.group(3) or 0)
    if not (1 <= count <= 100 and 1 <= sides <= 1000):
        raise ValueError(f"{expression!r}: 1-100 dice of 1-1000 sides")
    return count, sides, bonus


class NeedDie(Exception):
    """A die the table rolls for real and nobody has entered yet (rules.resolve waits for it)."""

    def __init__(self, sides: int, purpose: str) -> None:
        super().__init__(f"d{sides}: {purpose}")
        self.sides = sides
        self.purpose = purpose


class Dice:
    """The dice of one event. Dice entered from the table come first, then the GM's
    forced results (those for this kind of die, then those for any), then the seeded
    draw, or, while `physical`, a NeedDie. Each roll is kept for the event's next log line
    (`take`), unless `kept` is False: a fold without words writes no line to keep them for."""

    __slots__ = ("by_die", "entered", "forced", "index", "kept", "physical", "position", "rolls", "seed")

    def __init__(
        self,
        seed: bytes,
        position: int,
        forced: list[int],
        entered: list[int] | None = None,
        by_die: dict[str, list[int]] | None = None,
        kept: bool = True,
    ) -> None:
        self.seed = seed
        self.position = position
        self.forced = forced  # the encounter's queue, consumed in place
        self.by_die = {} if by_die is None else by_die  # the queues for one kind of die (sides -> values), consumed in place
        self.entered = [] if entered is None else entered  # real dice entered for the step being resolved
        self.physical = False  # the step being resolved is rolled at the table
        self.index = 0
        self.kept = kept
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str) -> int:
        if self.entered:
            value = self.entered.pop(0)
            if self.kept:
                self.rolls.append(Roll(sides=sides, value=value, purpose=purpose, entered=True))
            return value
        if self.by_die:
            queued = self.by_die.get(key := die_key(sides))
            if queued:  # a result forced for this kind of die: used by it alone
                value = queued.pop(0)
                if not queued:
                    del self.by_die[key]
                if self.kept:
                    self.rolls.append(Roll(sides=sides, value=value, purpose=purpose, forced=True))
                return value
        if self.forced:
            value = self.forced.pop(0)
            if 1 <= value <= sides:  # one that does not fit this die is spent, and the die drawn
                if self.kept:
                    self.rolls.append(Roll(sides=sides, value=value, purpose=purpose, forced=True))
                return value
        if self.physical:
            raise NeedDie(sides, purpose)
        index = self.index
        value = draw(self.seed, self.position, index, sides)
        if self.kept:
            self.rolls.append(Roll(sides, value, purpose, False, False, index))  # (sides, value, purpose, forced, entered, draw)
        self.index = index + 1
        return value

    def roll_dice(self, expression: str, purpose: str) -> int:
        count, sides, bonus = parse(expression)
        if count == 1:  # most damage is one die
            return self.roll(sides, purpose) + bonus
        return sum(self.roll(sides, purpose) for _ in range(count)) + bonus

    def take(self) -> list[Roll]:
        """The rolls made since the last take, for a log entry."""
        rolls, self.rolls = self.rolls, []
        return rolls
