"""What a handler works with while one event is applied: the state, its dice, its log."""

from typing import TypedDict

from fray_table.rules.dice import Dice
from fray_table.rules.events import Actor
from fray_table.rules.model import Combatant, Encounter, Entry, Mod


class Said(TypedDict):
    """A log line's text and public text, spread into ctx.log(kind, **said(...))."""

    text: str
    public: str | None


class Context:
    def __init__(self, state: Encounter, by: Actor, command_id: str) -> None:
        self.state = state
        self.by = by
        self.command_id = command_id
        self.dice = Dice(state.seed, state.seq, state.forced, state.entered)
        self.owed: dict[str, int] = {}  # damage a hit adds to its target's next harm this event (002: '-H bonus')

    def log(self, kind: str, text: str, public: str | None = None, **fields) -> Entry:
        """Log a line; `public` is its text for viewers who may not see its figures
        (None when the text holds none: see `said`). Whether they may is decided here,
        once: a line whose actor or target is hidden now keeps its public text (or, with
        none, its text) for everyone but the GM, who alone reads its terms and total."""
        mods = fields.pop("mods", [])
        public = (text if public is None else public) if self._veiled(fields) else None
        entry = Entry(
            seq=self.state.seq,
            kind=kind,
            text=text,
            public=public,
            rolls=self.dice.take(),
            mods=[Mod(name, value) for name, value in mods],
            command_id=self.command_id,
            **fields,
        )
        self.state.recent.append(entry)
        return entry

    def _veiled(self, fields: dict) -> bool:
        """Does the line name (as actor or target) a combatant hidden now?"""
        actor, target = fields.get("actor"), fields.get("target")
        if actor is None and target is None:
            return False
        for c in self.state.combatants:
            if c.hidden and (c.id == actor or c.id == target):
                return True
        return False

    def option(self, name: str):
        from fray_table.rules.profiles import option

        return option(self.state, name)

    def combatant(self, cid: str) -> Combatant:
        return find(self.state, cid)


# A part of a log line that names a combatant's figures: (as the text has it, as the
# public text has it), '' leaving it out.
Figures = tuple[str, str]


def said(*parts: str | Figures) -> Said:
    """A log line's `text` and `public` text, made from the same parts, for ctx.log(kind, **said(...)):
    said(f"{gob.name} takes 3 damage", hp_left(gob), ".") is 'Goblin takes 3 damage, 4 HP left.' and,
    for those who may not see Goblin's figures, 'Goblin takes 3 damage.'"""
    text = "".join(p if isinstance(p, str) else p[0] for p in parts)
    public = "".join(p if isinstance(p, str) else p[1] for p in parts)
    return {"text": text, "public": public if public != text else None}


def reckoned(head: str, sums: str, dice: str, outcome: str) -> Said:
    """A roll reckoned with combatants' figures, publicly its dice and outcome alone:
    'Alda attacks Gob: d20 12 + 1 combat bonus + AC 6 = 19 ≥ 19: hit.', 'Alda attacks Gob: d20 12: hit.'"""
    return said(f"{head}: ", (sums, dice), f": {outcome}.")


def hp_left(c: Combatant) -> Figures:
    return f", {c.hp} HP left", ""


def find(state: Encounter, cid: str) -> Combatant:
    for c in state.combatants:
        if c.id == cid:
            return c
    raise KeyError(cid)


def lookup(state: Encounter, cid: str) -> Combatant | None:
    for c in state.combatants:
        if c.id == cid:
            return c
    return None


def standing(ctx: Context, actor: Combatant, cid: str, kind: str, missing: str) -> Combatant | None:
    """The target `cid` of `actor`'s action if it is there and not down; else None, and
    `actor`'s `missing` is logged ('has no one to strike')."""
    target = lookup(ctx.state, cid)
    if target is None or target.down:
        ctx.log(kind, f"{actor.name} {missing}.", actor=actor.id)
        return None
    return target


def sides(ctx: Context) -> list[str]:
    """The sides in the fight, in the order their first combatant was added."""
    seen: list[str] = []
    for c in ctx.state.combatants:
        if c.side not in seen:
            seen.append(c.side)
    return seen
