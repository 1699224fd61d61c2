"""002's to-hit: 'The basic to-hit is H = THAC0 - AC', then its adjustment steps.

The attacker needs d20 + its roll modifiers (surprise, charge, range, cover, a
haymaker's -5, boarding's -2 ...) to reach H. With option `mods_before_steps` the
modifiers are taken off H first and the steps keep that on the die instead. Where
002 is silent, 003 stands: a natural 20 in melee adds 1-6 and tests the weapon,
a parry takes -4, called shots, attacks from behind, prone targets.
"""

from ..charts.thac0_sheet import (
    HIGH_LINES,
    LINE_EVERY,
    LOW_LINE,
    LOW_LINES,
    NEGATIVE_NEED,
    STEP,
)
from ..context import Context, own_terms, reckoned
from ..holmes.fighters import combat_bonus
from ..holmes.terms import MULTIPLE
from ..model import Combatant, Encounter

CEILING = 20  # 003: a parry or called shots may not make the number needed more than 20 (or reach it)


def thac0_of(state: Encounter, c: Combatant) -> int:
    """002's hit table (or an explicit attack bonus): THAC0 = 19 - combat bonus."""
    return 19 - combat_bonus(state, c)


def adjust(h: int) -> tuple[int, list[str]]:
    """002's steps, in order, on the basic H; returns H and the steps taken, in words."""
    said: list[str] = []
    if h < LOW_LINE:
        h, said = _toward(h, LOW_LINE, +1, said)
    line = HIGH_LINES[0]
    while h > line:
        h, said = _toward(h, line, -1, said)
        line = line + LINE_EVERY if line >= HIGH_LINES[-1] else HIGH_LINES[HIGH_LINES.index(line) + 1]
    line = LOW_LINES[0]
    while h < line:
        h, said = _toward(h, line, +1, said)
        line -= LINE_EVERY
    return h, said


def _toward(h: int, line: int, sign: int, said: list[str]) -> tuple[int, list[str]]:
    moved = min(STEP, abs(line - h))
    word = "under" if sign > 0 else "over"
    return h + sign * moved, said + [f"{'+' if sign > 0 else '-'}{moved} ({word} {line})"]


class Reckoning:
    """How one attack is judged: the target for the total, the die's part, the damage bonus."""

    def __init__(self, state: Encounter, thac0: int, ac: int, mods: list[tuple[str, int]]) -> None:
        self.thac0, self.ac, self.mods = thac0, ac, mods
        self.inside = bool(state.options.get("mods_before_steps", False))
        self.shift = sum(v for _, v in mods)
        self.basic = thac0 - ac - (self.shift if self.inside else 0)
        self.h, self.steps = adjust(self.basic)
        self.bonus = -self.h if self.h < 0 else 0  # 002: 'add -H bonus to damage'
        floor = self.h < 0 or (self.h < LOW_LINE and state.options.get("h_floor", False))
        self.target = NEGATIVE_NEED if floor else self.h

    @property
    def need(self) -> int:
        """The number needed on the d20."""
        return self.target if self.inside else self.target - self.shift

    def total(self, d20: int) -> int:
        return d20 if self.inside else d20 + self.shift

    def text(self, d20: int) -> str:
        """'THAC0 19 - AC 6 = H 13; d20 15 + 2 surprise = 17 ≥ 13'."""
        terms = "".join(f" {'-' if v < 0 else '+'} {abs(v)} {n}" for n, v in self.mods)
        inside = "".join(f" {'+' if v < 0 else '-'} {abs(v)} {n}" for n, v in self.mods) if self.inside else ""
        h = f"THAC0 {self.thac0} - AC {self.ac}{inside} = H {self.basic}"
        if self.steps:
            h += f" {' '.join(self.steps)} = {self.h}"
        if self.h < 0:
            h += f", negative: use {NEGATIVE_NEED}, +{self.bonus} damage"
        elif self.target != self.h:
            h += f", below {LOW_LINE}: use {NEGATIVE_NEED}"
        total = self.total(d20)
        roll = f"d20 {d20}" if self.inside or not self.mods else f"d20 {d20}{terms} = {total}"
        return f"{h}; {roll} {'≥' if total >= self.target else '<'} {self.target}"


def judge(ctx: Context, attacker: Combatant, what: str, reckoning: Reckoning, target: str | None = None) -> tuple[bool, int]:
    """Roll the d20 and log it; returns (hit, d20). `what` reads 'attacks Goblin'."""
    d20 = ctx.dice.roll(20, f"{attacker.name} {what}")
    hit = reckoning.total(d20) >= reckoning.target
    ctx.log(
        "attack",
        **reckoned(
            f"{attacker.name} {what}",
            reckoning.text(d20),
            f"d20 {d20}",
            "hit" if hit else "miss",
            own_terms(d20, reckoning.mods, f"THAC0 {reckoning.thac0} less the target's AC"),
        ),
        actor=attacker.id,
        target=target,
        # The terms added to the d20, so that the sum the pages show adds up to the total (THAC0 less
        # the AC is the number needed, `need`); with mods_before_steps they are in the need instead.
        mods=[] if reckoning.inside else reckoning.mods,
        total=reckoning.total(d20),
        need=reckoning.target,
    )
    return hit, d20


def roll_to_hit(ctx: Context, attacker: Combatant, what: str, ac: int, mods: list[tuple[str, int]], target: str | None = None) -> tuple[bool, int]:
    """rules.holmes.tohit's missiles, oil and torches under 002: THAC0 against AC, range and
    cover on the roll (the 003 'combat bonus' term is the THAC0 now)."""
    # Two shots in a round take 003's multiple-attack bonus: a THAC0 of 19 less that bonus, as a double blow's.
    multiple = next((v for n, v in mods if n == MULTIPLE), None)
    thac0 = thac0_of(ctx.state, attacker) if multiple is None else 19 - multiple
    mods = [(n, v) for n, v in mods if n not in ("combat bonus", MULTIPLE)]
    reckoning = Reckoning(ctx.state, thac0, ac, mods)
    hit, d20 = judge(ctx, attacker, what, reckoning, target)
    if hit and reckoning.bonus and target is not None:
        ctx.owed[target] = reckoning.bonus  # rules.holmes.tohit.hurt adds it to the damage
    return hit, d20
