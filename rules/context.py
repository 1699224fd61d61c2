"""What a handler works with while one event is applied: the state, its dice, its log."""

from typing import Any, NotRequired, TypedDict

from .dice import Dice
from .events import Actor
from .model import Combatant, Encounter, Entry, Mod
from .ruleset import rules_of
from .unseen import unnamed


class Said(TypedDict):
    """A log line's text and public text, spread into ctx.log(kind, **said(...))."""

    text: str
    public: str | None
    # The text for viewers who may see the actor's figures but not the target's: the
    # roller's own terms kept, the hidden target's left out (own_terms). None: `public`.
    own: NotRequired[str | None]


class LineFields(TypedDict, total=False):
    """The combatants a log line names, as a rule gathers them once for several lines:
    who: LineFields = {"actor": a.id, "target": t.id}; ctx.log(kind, text, **who) (Context.log).
    (A literal, not the class called: calling a TypedDict's class makes a dict subclass, slowly.)"""

    actor: str | None
    target: str | None


class Context:
    __slots__ = ("_dice", "by", "checked", "command_id", "narrated", "owed", "rules", "state")

    def __init__(self, state: Encounter, by: Actor, command_id: str, checked: Any = None, narrated: bool = True) -> None:
        self.state = state
        self.by = by
        self.command_id = command_id
        self.checked = checked  # what the command's check worked out for its rule, if anything (rules.reducer)
        # Are the event's lines written? Not in a fold for outcomes alone (rules.reducer.folding's
        # `narrated`): a rule may then leave out working out a line's words, never anything else.
        self.narrated = narrated
        self.rules = rules_of(state)  # the encounter's rules, fixed at its creation (rules.ruleset): read by every step
        self._dice: Dice | None = None  # made when first rolled (property `dice`): most events roll none
        self.owed: dict[str, int] = {}  # damage a hit adds to its target's next harm this event (002: '-H bonus')

    def log(
        self,
        kind: str,
        text: str,
        public: str | None = None,
        own: str | None = None,
        *,
        actor: str | None = None,
        target: str | None = None,
        total: int | None = None,
        need: int | None = None,
        audience: str = "all",
        mods: list[tuple[str, int]] | None = None,
        veiled: bool = False,
    ) -> None:
        """Log a line (rules.model.Entry: its actor, target, total, need and audience);
        `public` is its text for viewers who may not see its figures
        (None when the text holds none: see `said`). Whether they may is decided here,
        once: a line whose actor or target is hidden now keeps its public text (or, with
        none, its text) for everyone but the GM, who alone reads its terms and total.
        When only the target is hidden, `own` (if given) is that text: the roller's own
        terms are theirs to read, the target's figures left out (own_terms).
        A line that names an unseen combatant (rules.unseen) reads, for them, with
        'someone unseen' in place of its name; one about unseen combatants alone is the GM's.
        `veiled=True`: the line has a public text whatever it names (a side all unseen, rules.surprise).
        Not `narrated`: no line (its dice kept no rolls for it: `dice`)."""
        if not self.narrated:
            return
        rolls = self._dice.take() if self._dice is not None else []
        unseen: list[Combatant] = []
        for c in self.state.combatants:  # does the line name one hidden or unseen now? (most name neither)
            if c.unseen:
                if c.id == actor or c.id == target or c.name in text or any(c.name in r.purpose for r in rolls):
                    unseen.append(c)
                    veiled = True
            elif c.hidden and (c.id == actor or c.id == target):
                veiled = True
        if veiled and own is not None and not self._hides(actor):
            public = own
        public = (text if public is None else public) if veiled else None
        ids: list[str] = []
        if unseen:
            public = unnamed(public or text, [u.name for u in unseen])
            ids = [u.id for u in unseen]  # their ids and the dice's purposes are the GM's (rules.view.line_for)
            named = [cid for cid in (actor, target) if cid is not None]
            if named and all(cid in ids for cid in named):
                audience = "gm"  # about the unseen alone: the table does not know it is there
        # Entry's fields in their order (seq, kind, text, public, actor, target, rolls, mods,
        # total, need, code, command_id, audience, unseen): made positionally, a third cheaper.
        mods_ = [Mod(name, value) for name, value in mods] if mods else []
        entry = Entry(self.state.seq, kind, text, public, actor, target, rolls, mods_, total, need, None, self.command_id, audience, ids)
        self.state.recent.append(entry)

    @property
    def dice(self) -> Dice:
        """The event's dice (rules.dice), made at the first roll or line: the state's seed, the
        event's position and the queues of forced and entered dice as they are then, which no
        rule replaces before a roll (undo's restore, a fork and the GM's clearing roll nothing;
        a removal logs first). Not `narrated`, they keep no rolls: no line will show them."""
        if self._dice is None:
            state = self.state
            self._dice = Dice(state.seed, state.seq, state.forced, state.entered, state.forced_by_die, kept=self.narrated)
        return self._dice

    def _hides(self, cid: str | None) -> bool:
        """Are combatant `cid`'s figures hidden from the table now (hidden or unseen)?"""
        c = lookup(self.state, cid) if cid is not None else None
        return c is not None and (c.hidden or c.unseen)

    def option(self, name: str):
        """The encounter's option (every one is there: rules.profiles.validate_options filled the defaults in)."""
        return self.state.options[name]

    def combatant(self, cid: str) -> Combatant:
        return find(self.state, cid)


# A part of a log line that names a combatant's figures: (as the text has it, as the
# public text has it), '' leaving it out.
Figures = tuple[str, str]


def said(*parts: str | Figures) -> Said:
    """A log line's `text` and `public` text, made from the same parts, for ctx.log(kind, **said(...)):
    said(f"{gob.name} takes 3 damage", hp_left(gob), ".") is 'Goblin takes 3 damage, 4 HP left.' and,
    for those who may not see Goblin's figures, 'Goblin takes 3 damage.'"""
    text = "".join([p if isinstance(p, str) else p[0] for p in parts])
    public = "".join([p if isinstance(p, str) else p[1] for p in parts])
    return {"text": text, "public": public if public != text else None}


def reckoned(head: str, sums: str, dice: str, outcome: str, own: str | None = None) -> Said:
    """A roll reckoned with combatants' figures, publicly its dice and outcome alone:
    'Alda attacks Gob: d20 12 + 1 combat bonus + AC 6 = 19 ≥ 19: hit.', 'Alda attacks Gob: d20 12: hit.';
    with `own` (own_terms), the roller's own terms when the target alone is hidden:
    'Alda attacks Gob: d20 12 + 1 combat bonus vs the target's AC: hit.'"""
    text, public = f"{head}: {sums}: {outcome}.", f"{head}: {dice}: {outcome}."  # said(head, (sums, dice), outcome), made at once
    made: Said = {"text": text, "public": public if public != text else None}
    if own is not None:
        made["own"] = f"{head}: {own}: {outcome}."
    return made


def own_terms(d20: int, mods: list[tuple[str, int]], against: str = "the target's AC") -> str:
    """A roll's die and the roller's own terms, against a hidden target's figure unnamed:
    'd20 13 + 2 size M + 1 short range vs the target's AC' (issue 13: your own numbers are yours)."""
    return f"d20 {d20}" + "".join([f" {'-' if v < 0 else '+'} {abs(v)} {n}" for n, v in mods]) + f" vs {against}"


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
