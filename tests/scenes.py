"""Building blocks of the rules tests' scenarios (rules.scenario.play dicts), and what
the tests read back from a played one."""

import pathlib
import tomllib

from fray_table.rules.scenario import play

SCENARIOS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "scenarios"

NO_SURPRISE = [5, 6]  # the party's and the foes' surprise d6: nobody surprised (003: 1 or 2 is)
ADVANCE = {"type": "advance"}


def fighter(cid: str, side: str, **figures) -> dict:
    """A 10-HP combatant with no attack bonus; `figures` override anything."""
    return {"id": cid, "name": cid.capitalize(), "side": side, "hp": 10, "hp_max": 10, "attack_bonus": 0, **figures}


def declare(actor: str, action: dict, who: str = "gm") -> dict:
    """A declaration command, sent as `who` ('gm', or 'player:<id>')."""
    return {"type": "declare", "actor": actor, "action": action, "as": who}


def scenario(name: str) -> dict:
    """docs/scenarios/<name>.toml, as rules.scenario.play takes it."""
    return tomllib.loads((SCENARIOS / f"{name}.toml").read_text())


def started(combatants, *commands: dict, dice=(), options=None, profile: str = "holmes-phases", surprise=NO_SURPRISE, version: int | None = None):
    """A fight started (nobody surprised, unless `surprise` gives other d6s), `dice`
    forced after the surprise d6s; under rules `version` if given (else today's)."""
    return play(
        {
            **({"rules_version": version} if version is not None else {}),
            "profile": profile,
            "options": options or {},
            "dice": [*surprise, *dice],
            "combatants": list(combatants),
            "commands": [{"type": "start"}, *commands],
        }
    )


def texts(played, *kinds: str) -> list[str]:
    """The log's texts of these kinds (every entry's, if none is named)."""
    return [e.text for e in played.log if not kinds or e.kind in kinds]


def who(played, cid: str):
    return next(c for c in played.state.combatants if c.id == cid)


def rejected(played) -> list[str]:
    return [e.code for e in played.log if e.kind == "rejected"]


def all_forced(played, dice: list[int]) -> bool:
    """Every die rolled was forced, in order, and they are all of `dice`: none left over."""
    rolls = [r for e in played.log for r in e.rolls]
    return [r.value for r in rolls] == dice and all(r.forced for r in rolls) and played.state.forced == []
