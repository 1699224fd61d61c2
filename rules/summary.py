"""The end of a fight in numbers (issue 13, Deliver 8): rounds, who fell and to whom,
damage dealt and taken, and which dice the GM forced or the table rolled.

Made from the lines one viewer may read (rules.view.log_for), each with the round it
was made in, so a summary never tells a viewer more than their log did, nor less: a
damage line's points count for everyone who read it (log_for's `points`: its public
text states them, only the HP left is hidden), a line of an undone event for nobody
(the page strikes it through). Issue 27: the table's summaries had no damage at all
when the foes' figures were hidden.
"""

from collections.abc import Iterable

from msgspec import Struct

from .model import DAMAGE, DOWN, UP, Entry


class Fell(Struct):
    id: str
    name: str
    round: int
    by: str | None = None  # the name of whoever dealt the last damage before the fall, if the viewer saw it


class Tally(Struct):
    id: str
    name: str
    dealt: int = 0
    taken: int = 0


class Die(Struct):
    seq: int
    sides: int
    value: int
    purpose: str


class Summary(Struct):
    rounds: int
    fell: list[Fell]
    damage: list[Tally]  # combatants who dealt or took damage, in the order they first did
    forced: list[Die]  # results the GM forced
    entered: list[Die]  # dice rolled at the table and entered
    seeded: int  # dice the seed rolled


def summarize(lines: Iterable[tuple[int, Entry]], names: dict[str, str], rounds: int, undone: Iterable[int] = ()) -> Summary:
    """`lines`: (round, entry) for each line the viewer read, oldest first (damage lines with
    their points: log_for(..., points=True)); `names`: id -> name of every combatant the
    viewer was shown; `undone`: the events undone, whose lines count for nothing."""
    tallies: dict[str, Tally] = {}
    fell: list[Fell] = []
    last_hit: dict[str, str] = {}  # target -> who damaged it last
    forced: list[Die] = []
    entered: list[Die] = []
    seeded = 0
    struck = set(undone)

    def tally(cid: str) -> Tally:
        if cid not in tallies:
            tallies[cid] = Tally(id=cid, name=names.get(cid, cid))
        return tallies[cid]

    for round_, e in lines:
        if e.seq in struck:
            continue
        for r in e.rolls:
            if r.forced:
                forced.append(Die(seq=e.seq, sides=r.sides, value=r.value, purpose=r.purpose))
            elif r.entered:
                entered.append(Die(seq=e.seq, sides=r.sides, value=r.value, purpose=r.purpose))
            else:
                seeded += 1
        if e.kind == DAMAGE and e.target and e.total is not None:
            tally(e.target).taken += e.total
            if e.actor and e.actor != e.target:
                tally(e.actor).dealt += e.total
                last_hit[e.target] = e.actor
        elif e.kind == DOWN and e.target and all(f.id != e.target for f in fell):
            by = e.actor if e.actor and e.actor != e.target else last_hit.get(e.target)
            fell.append(Fell(id=e.target, name=names.get(e.target, e.target), round=round_, by=names.get(by, by) if by else None))
        elif e.kind == UP and e.target:  # an undo stood it up again: it has not fallen (yet)
            fell = [f for f in fell if f.id != e.target]
    return Summary(rounds=rounds, fell=fell, damage=list(tallies.values()), forced=forced, entered=entered, seeded=seeded)
