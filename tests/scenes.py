"""Building blocks of the rules tests' scenarios (rules.scenario.play dicts)."""

NO_SURPRISE = [5, 6]  # the party's and the foes' surprise d6: nobody surprised (003: 1 or 2 is)
ADVANCE = {"type": "advance"}


def fighter(cid: str, side: str, **figures) -> dict:
    """A 10-HP combatant with no attack bonus; `figures` override anything."""
    return {"id": cid, "name": cid.capitalize(), "side": side, "hp": 10, "hp_max": 10, "attack_bonus": 0, **figures}


def declare(actor: str, action: dict, who: str = "gm") -> dict:
    """A declaration command, sent as `who` ('gm', or 'player:<id>')."""
    return {"type": "declare", "actor": actor, "action": action, "as": who}
