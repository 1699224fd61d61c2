"""What a handler works with while one event is applied: the state, its dice, its log."""

from rules.dice import Dice
from rules.events import Actor
from rules.model import Combatant, Encounter, Entry, Mod


class Context:
    def __init__(self, state: Encounter, by: Actor, command_id: str) -> None:
        self.state = state
        self.by = by
        self.command_id = command_id
        self.dice = Dice(state.seed, state.seq, state.forced, state.entered)
        self.owed: dict[str, int] = {}  # damage a hit adds to its target's next harm this event (002: '-H bonus')

    def log(self, kind: str, text: str, **fields) -> Entry:
        mods = fields.pop("mods", [])
        entry = Entry(
            seq=self.state.seq,
            kind=kind,
            text=text,
            rolls=self.dice.take(),
            mods=[Mod(name, value) for name, value in mods],
            command_id=self.command_id,
            **fields,
        )
        self.state.recent.append(entry)
        return entry

    def option(self, name: str):
        from rules.profiles import option

        return option(self.state, name)

    def combatant(self, cid: str) -> Combatant:
        return find(self.state, cid)


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
