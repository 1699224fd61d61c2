"""What a fold changed: the combatants, the declarations and the encounter's other
fields that differ between the state before some events and the state after them.

Views follow the change (server/views.py): a declaration changed is one line of
every view redrawn, not every line of every view. The change is found by comparing
the two states, not told by each rule as it writes: the rules change the state in
hundreds of places, and a change each of them had to report would be a second
account a rule could forget to keep. Comparing is exact and cheap: the fold works
on a copy of its own (rules.reducer.folding), so the state before is intact, and
its structs compare field by field in C, sharing what the copy shares (weapons,
actions, steps), which compares by identity.
"""

from msgspec import Struct
from msgspec.structs import astuple

from .model import Encounter

# The encounter's fields compared one by one (the lists of combatants and of
# declarations are compared entry by entry; `recent` is the log, new with every event).
FIELDS = tuple(f for f in Encounter.__struct_fields__ if f not in ("combatants", "declarations", "recent"))
_COMPARED = tuple((i, f) for i, f in enumerate(Encounter.__struct_fields__) if f in FIELDS)


class Change(Struct, gc=False):
    """`combatants`: the ids of those whose record changed; None: the list itself changed
    (one added, removed or moved), so every one counts as changed. `declarations`: the
    indexes of the declarations changed or added, the list otherwise as it was; None: it
    shrank or was reordered (a new round clears it). `fields`: the encounter's other
    fields that changed."""

    combatants: frozenset[str] | None
    declarations: frozenset[int] | None
    fields: frozenset[str]

    def touches(self, *fields: str) -> bool:
        return not self.fields.isdisjoint(fields)


EVERYTHING = Change(combatants=None, declarations=None, fields=frozenset(FIELDS))


def changes(before: Encounter | None, after: Encounter) -> Change:
    """What differs from `before` to `after`: EVERYTHING when there was no state before, or
    when it is the same object (changed in place: what it was is gone)."""
    if before is None or before is after:
        return EVERYTHING
    combatants: frozenset[str] | None = None
    old, new = before.combatants, after.combatants
    if len(old) == len(new):  # plain loops: this runs at every change of every encounter served
        ids = []
        for a, b in zip(old, new, strict=True):
            if a.id != b.id:
                break
            if a != b:
                ids.append(b.id)
        else:
            combatants = frozenset(ids)
    declarations: frozenset[int] | None = None
    was, now = before.declarations, after.declarations
    if len(was) <= len(now):
        indexes = []
        for i, d in enumerate(now):
            if i >= len(was):
                indexes.append(i)
            elif was[i].actor != d.actor:
                break
            elif was[i] != d:
                indexes.append(i)
        else:
            declarations = frozenset(indexes)
    was_fields, now_fields = astuple(before), astuple(after)
    fields = frozenset([f for i, f in _COMPARED if was_fields[i] != now_fields[i]])
    return Change(combatants=combatants, declarations=declarations, fields=fields)
