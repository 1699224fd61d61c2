"""Unseen combatants: an ambush the table cannot see (issue 13).

A combatant `unseen` is in nobody's view but the GM's: not on the map, not in the
cards, the tracker or the target lists, and the log lines about it do not name it
to anyone but the GM. The GM reveals it (an edit, `unseen: false`: one click on its
card), or it reveals itself when it acts against a combatant of another side
(option `reveal_when_acting`, on by default). Unseen is not `hidden`: `hidden` hides
a combatant's figures (HP, AC, weapons...) from the table, and a revealed
combatant may keep them hidden. An unseen combatant's figures are hidden too.
"""

import re

from .model import Combatant, Encounter

SOMEONE = "someone unseen"  # what the table reads in a line in place of an unseen combatant's name


def unseen_of(state: Encounter) -> list[Combatant]:
    return [c for c in state.combatants if c.unseen]


def unseen_ids(state: Encounter) -> frozenset[str]:
    return frozenset(c.id for c in state.combatants if c.unseen)


def unnamed(text: str, names: list[str]) -> str:
    """`text` with each of `names` (whole words) read as 'someone unseen', capitalised
    where a sentence starts: 'Goblin attacks Alda.' -> 'Someone unseen attacks Alda.'"""
    names = sorted({n for n in names if n}, key=len, reverse=True)
    if not names:
        return text
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in names) + r")(?!\w)")
    out, last = [], 0
    for match in pattern.finditer(text):
        before = text[: match.start()].rstrip()
        start = not before or before[-1] in ".:!?—(\"'"
        out.append(text[last : match.start()])
        out.append(SOMEONE.capitalize() if start else SOMEONE)
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def reveal_when_acting(state: Encounter, actor: Combatant, target_id: str) -> bool:
    """Does `actor`, unseen, reveal itself by acting against `target_id` now (the option)?"""
    if not actor.unseen or not target_id or not state.options.get("reveal_when_acting", True):
        return False
    target = next((c for c in state.combatants if c.id == target_id), None)
    return target is not None and target.side != actor.side and not target.unseen


def reveal(ctx, actor: Combatant, action) -> None:
    """Option `reveal_when_acting`: an unseen combatant acting against another side's
    combatant is seen from now on (its figures stay as hidden as they were)."""
    target = getattr(action, "target", "")
    if reveal_when_acting(ctx.state, actor, target if isinstance(target, str) else ""):
        actor.unseen = False
        ctx.log("reveal", f"{actor.name} is revealed.", actor=actor.id)
