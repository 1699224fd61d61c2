"""A campaign's state: nouns, encoded to canonical bytes like a fight's."""

import msgspec
from msgspec import Struct

from ..model import Combatant, Entry
from .sheet import Character

# The kinds of finding: what a fight can leave on a character (rules.campaign.findings).
HP = "hp"  # `value`: its HP at the fight's end
CONDITION = "condition"  # `name`: a lasting condition (rules.campaign.lasting), `days` it lasts
ARMOR = "armor_damage"  # `value`: the points of damage its armor has now
SHIELD = "shield_lost"  # 000's shield sacrifice, or a critical that shatters it
WEAPON = "weapon_broken"  # `name`: the weapon (003's crushing-blow save, 000's shatter)
SPENT = "spent"  # `name`: a Gear count ('oil', 'arrows', 'torches'), `value` spent
DIED = "died"
KINDS = (HP, CONDITION, ARMOR, SHIELD, WEAPON, SPENT, DIED)


class Finding(Struct, gc=False, frozen=True, omit_defaults=True):
    """One thing a fight did to a character, waiting on the GM's review."""

    fight: str
    event: int  # the position in that fight of the event that did it (a moment of its replay)
    character: str
    kind: str
    value: int = 0
    name: str = ""
    days: int = 0
    text: str = ""  # the fight's own words for it
    id: str = ""  # given by the reducer: 'r1', 'r2', ...


class Monster(Struct, gc=False, frozen=True, kw_only=True):
    """A bestiary's record: the monster in the fight's shape, and the figures of the record
    alone, which no fight reads (a fight's Combatant keeps its own)."""

    sheet: Combatant
    morale: int = 0  # Labyrinth Lord's morale score, 2-12 (rules.ready); 0: not given


class FightRecord(Struct, gc=False, frozen=True, omit_defaults=True):
    fight: str
    characters: tuple[str, ...]
    day: int
    reported: bool = False


class Campaign(Struct, gc=False):
    id: str
    name: str
    profile: str  # the rules its sheets are checked by, and its fights' default
    rules_version: int
    seq: int = 0  # events applied so far
    day: int = 0  # in-game days since it began
    characters: list[Character] = []
    findings: list[Finding] = []  # waiting on the GM's review, oldest first
    bestiary: list[Monster] = []  # monster records by name (rules.campaign.bestiary)
    fights: list[FightRecord] = []
    next_id: int = 1
    recent: list[Entry] = []  # the lines the last event wrote


_canonical = msgspec.msgpack.Encoder(order="deterministic")
_state = msgspec.msgpack.Decoder(Campaign)


def canonical(state: Campaign) -> bytes:
    return _canonical.encode(state)


def copied(state: Campaign) -> Campaign:
    """A copy sharing nothing mutable (a campaign is small: encoded and decoded)."""
    new = _state.decode(_canonical.encode(state))
    new.recent = []
    return new
