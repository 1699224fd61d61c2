"""What a fight did to the campaign's characters, read off its stream: the findings the
server reports for the GM's review (rules.campaign.review), each naming the fight and
the event of it that did it. Pure: the fight's events in, findings out; the fight's
stream is only read, and a fight never reads the campaign.

A finding is what the fight's last state holds that its start did not (an undone blow
leaves nothing), attributed to the last event that changed it; what was spent is
counted over the events that were not undone."""

from collections.abc import Iterable

from ..actions import Shoot, ThrowOil, ThrowTorch
from ..charts.ll_house import HEAL_WEEKS
from ..conditions import DEAD
from ..dice import parse
from ..events import Event
from ..model import Combatant, Encounter, copied_combatant
from ..reducer import folding
from .lasting import LASTING, days_of
from .state import ARMOR, CONDITION, DIED, HP, SHIELD, SPENT, WEAPON, Finding

BOW = "bow"  # Weapon.missile of a bow: its shots spend arrows


def _rolled(state: Encounter, actor: str) -> int:
    """The d20s `actor` rolled to hit in the event just folded (each a flask, torch or arrow away)."""
    return sum(1 for e in state.recent if e.kind == "attack" and e.actor == actor for r in e.rolls if r.sides == 20)


def _weeks(state: Encounter, c: Combatant) -> int:
    """000, 15's 'Takes 1d4+6 weeks to heal', as the fight rolled it (its wound line's dice)."""
    line = next((e for e in state.recent if e.kind == "wound" and e.target == c.id and e.rolls), None)
    return sum(r.value for r in line.rolls) + parse(HEAL_WEEKS)[2] if line else 0


def _spent(action, c: Combatant, n: int) -> list[tuple[str, int]]:
    if n == 0:
        return []
    if isinstance(action, ThrowOil):
        return [("oil", 1)] + ([("torches", 1)] if action.torch else [])
    if isinstance(action, ThrowTorch):
        return [("torches", 1)]
    if isinstance(action, Shoot) and action.weapon < len(c.weapons) and c.weapons[action.weapon].missile == BOW:
        return [("arrows", n)]
    return []


def findings(fight: str, events: Iterable[Event], characters: Iterable[str]) -> list[Finding]:
    ids = set(characters)
    start: dict[str, Combatant] = {}
    before: dict[str, Combatant] = {}
    last: dict[tuple, int] = {}  # (character, what) -> the event that last changed it
    weeks: dict[str, int] = {}
    spent: list[tuple[int, str, str, int]] = []  # (event, character, gear, count)
    declared: dict[str, object] = {}
    state = None
    for state in folding(events):
        at = state.seq - 1
        for c in state.combatants:
            if c.id not in ids:
                continue
            was = before.get(c.id)
            if was is None:
                start[c.id] = before[c.id] = copied_combatant(c)
                continue
            for x in c.conditions:
                if x not in was.conditions:
                    last[c.id, x] = at
                    if LASTING.get(x) and LASTING[x].rolled:
                        weeks[c.id] = _weeks(state, c)
            for what in ("hp", "armor_damage", "shield"):
                if getattr(c, what) != getattr(was, what):
                    last[c.id, what] = at
            for w, old in zip(c.weapons, was.weapons, strict=False):
                if w.broken and not old.broken:
                    last[c.id, "weapon", w.name] = at
            for item, n in _spent(declared.get(c.id), c, _rolled(state, c.id)):
                spent.append((at, c.id, item, n))
            before[c.id] = copied_combatant(c)
        declared = {d.actor: d.action for d in state.declarations}
    if state is None:
        return []
    out: list[Finding] = []
    for c in state.combatants:
        if c.id in start:
            out += _found(fight, start[c.id], c, last, weeks.get(c.id, 0))
    undone = set(state.undone)
    for at, cid, item, n in spent:
        if at not in undone:
            out.append(Finding(fight, at, cid, SPENT, value=n, name=item))
    return out


def _found(fight: str, was: Combatant, c: Combatant, last: dict[tuple, int], weeks: int) -> list[Finding]:
    out = []
    for x in c.conditions:
        if x in LASTING and x not in was.conditions:
            out.append(Finding(fight, last[c.id, x], c.id, CONDITION, name=x, days=days_of(x, weeks)))
    if DEAD in c.conditions and DEAD not in was.conditions:
        out.append(Finding(fight, last[c.id, DEAD], c.id, DIED))
    if c.armor_damage != was.armor_damage:
        out.append(Finding(fight, last[c.id, "armor_damage"], c.id, ARMOR, value=c.armor_damage))
    if was.shield and not c.shield:
        out.append(Finding(fight, last[c.id, "shield"], c.id, SHIELD))
    for w, old in zip(c.weapons, was.weapons, strict=False):
        if w.broken and not old.broken:
            out.append(Finding(fight, last[c.id, "weapon", w.name], c.id, WEAPON, name=w.name))
    if c.hp != was.hp:
        out.append(Finding(fight, last[c.id, "hp"], c.id, HP, value=c.hp))
    return out
