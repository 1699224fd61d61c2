"""Building blocks of the ll-house (000) rules tests: a fight played headless with forced dice."""

from scenes import NO_SURPRISE

from fray_table.rules.scenario import play

SWORD = {"name": "sword", "damage": "1d8", "length": 3, "weight": 3}
DAGGER = {"name": "dagger", "damage": "1d4", "length": 1, "weight": 1}
AXE = {"name": "great axe", "damage": "1d10", "length": 4, "weight": 5, "hands": 2}


def alda(**figures) -> dict:
    """A 4th-level cleric (000: Attack Value +1) with a sword, 9 HP, in chain mail (AC 15)."""
    return {
        "id": "alda",
        "name": "Alda",
        "side": "party",
        "klass": "cleric",
        "level": 4,
        "ac": 15,
        "armor": "chain mail",
        "hp": 9,
        "hp_max": 9,
        "dex": 14,
        "x": 10,
        "y": 10,
        "weapons": [SWORD],
        **figures,
    }


def orc(cid: str = "orc", **figures) -> dict:
    """000's example: 'an Orc in Chain Mail Armor': AC 15. A 1 HD monster, 8 HP."""
    return {
        "id": cid,
        "name": cid.capitalize(),
        "side": "orcs",
        "ac": 15,
        "armor": "chain mail",
        "hp": 8,
        "hp_max": 8,
        "dex": 9,
        "x": 15,
        "y": 10,
        "weapons": [SWORD],
        **figures,
    }


def fight(*commands, dice=(), options=None, combatants=None, rounds=1, profile="ll-house", answers=(), version=None):
    """Start (nobody surprised), the commands, then `rounds` advances (0: none), then
    each of `answers` given (by the GM) to whatever is awaited at that point; under rules
    `version` if given (else today's)."""
    scenario = {
        **({"rules_version": version} if version is not None else {}),
        "profile": profile,
        "seed": "ll-house",
        "options": options or {},
        "dice": [*NO_SURPRISE, *dice],
        "combatants": combatants or [alda(), orc()],
        "commands": [{"type": "start"}, *commands, *[{"type": "advance"}] * rounds],
    }
    played = play(scenario)
    for choice in answers:
        scenario["commands"].append(answer(played, choice))
        played = play(scenario)
    return played


def act(actor: str, who: str = "gm", **action) -> dict:
    return {"type": "declare", "actor": actor, "action": action, "as": who}


def answer(played, choice: str, who: str = "gm") -> dict:
    return {"type": "answer", "awaiting": played.state.awaiting.id, "choice": choice, "as": who}


def dice_used(played) -> list[int]:
    return [r.value for e in played.log for r in e.rolls]
