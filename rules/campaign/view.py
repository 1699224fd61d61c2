"""What each viewer of a campaign sees: the GM everything; a player their own characters
whole (sheet, gear, lasting conditions, story), the others by name alone, and the lines
that are everyone's or their characters'. Findings waiting on review are the GM's."""

import msgspec

from ..model import Entry
from ..setup import armored
from .lasting import LASTING
from .sheet import Character, blank_fight
from .state import Campaign


def sees_line(entry: Entry, role: str, characters: tuple[str, ...]) -> bool:
    if role == "gm":
        return True
    a = entry.audience
    if a == "all":
        return True
    if a.startswith("character:"):
        return a.partition(":")[2] in characters
    return a == "player:" + ",".join(characters)


def character_view(state: Campaign, c: Character) -> dict:
    out = msgspec.to_builtins(c)
    out["ac"] = armored(blank_fight(state.profile, state.rules_version), c.sheet).ac  # the AC its armor and damage give
    out["lasting"] = [{**msgspec.to_builtins(x), "text": LASTING[x.name].text if x.name in LASTING else ""} for x in c.lasting]
    return out


def view(state: Campaign, role: str, characters: tuple[str, ...] = ()) -> dict:
    mine = [c for c in state.characters if role == "gm" or c.id in characters]
    return {
        "id": state.id,
        "name": state.name,
        "profile": state.profile,
        "seq": state.seq,
        "day": state.day,
        "role": role,
        "characters": [character_view(state, c) for c in mine],
        "others": [{"id": c.id, "name": c.sheet.name, "dead": c.dead} for c in state.characters if c not in mine],
        "fights": msgspec.to_builtins(state.fights if role == "gm" else [f for f in state.fights if set(f.characters) & set(characters)]),
        "findings": msgspec.to_builtins(state.findings) if role == "gm" else [],
        # each monster in the fight's shape, with its record's morale score (not a fight's morale result)
        "bestiary": [{**msgspec.to_builtins(m.sheet), "morale": m.morale} for m in state.bestiary] if role == "gm" else [],
    }


def log_for(log: list[Entry], role: str, characters: tuple[str, ...] = ()) -> list[dict]:
    return [{"seq": e.seq, "kind": e.kind, "text": e.text, **({"code": e.code} if e.code else {})} for e in log if sees_line(e, role, characters)]
