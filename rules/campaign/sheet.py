"""A campaign's character: the sheet a fight copies (every figure a profile declares: it
is a `Combatant`, checked by the campaign's profile's own checks, rules.setup), its gear,
its lasting conditions and its story (each scar with the fight it came from)."""

import msgspec
from msgspec import Struct

from ..charts.ll_house import SHIELD
from ..errors import Rejected
from ..model import Combatant, Encounter
from ..ruleset import rules_of
from ..setup import check_figures

ABILITIES = ("str", "wis", "cha")  # the scores no fight reads (DEX, INT and CON are on the sheet: dex, int, con)
MAX_GEAR = 10_000


class Gear(Struct, gc=False, frozen=True, omit_defaults=True):
    """What is carried and spent: 003's flasks of oil and torches, arrows, and coin for repairs."""

    oil: int = 0  # flasks of oil
    torches: int = 0
    arrows: int = 0
    coin: int = 0  # gp
    armor_cost: int = 0  # gp the armor cost (000: 'Damaged Armor can be repaired for 1/2 the original cost')
    shield_cost: int = 0  # gp a new shield costs


class Lasting(Struct, gc=False, frozen=True, omit_defaults=True):
    """A lasting condition (rules.campaign.lasting.LASTING says what it does) and the days left."""

    name: str
    days: int = 0  # in-game days left; 0: until healed, or for good
    fight: str = ""  # the fight it came from, and the event of that fight
    event: int = -1


class Scar(Struct, gc=False, frozen=True, omit_defaults=True):
    """One line of a character's story."""

    day: int  # the campaign's day
    text: str
    fight: str = ""
    event: int = -1


class Character(Struct, gc=False, kw_only=True, omit_defaults=True):
    id: str = ""  # empty when added: the reducer gives one ('pc1', 'pc2', ...)
    owner: str = ""  # the player's name, for their link
    sheet: Combatant  # as it enters a fight: its id is the character's
    abilities: dict[str, int] = {}  # 'str', 'wis', 'cha': 3..18
    gear: Gear = Gear()
    lasting: list[Lasting] = []
    story: list[Scar] = []
    offers: int = 0  # 000's improved combat options offered and not yet chosen
    dead: bool = False
    notes: str = ""  # the player's own


def blank_fight(profile: str, rules_version: int) -> Encounter:
    """An empty fight of the campaign's rules: what a sheet is checked against, as a fight would check it."""
    return Encounter(id="campaign", profile=profile, options={}, seed=b"", seed_hash="", rules_version=rules_version)


def check_sheet(sheet: Combatant, profile: str, rules_version: int, code: str) -> None:
    """A sheet's figures, as a fight of the campaign's rules checks a combatant's."""
    check_figures(blank_fight(profile, rules_version), sheet, code)


def check_character(c: Character, profile: str, rules_version: int, code: str) -> None:
    check_sheet(c.sheet, profile, rules_version, code)
    for name, score in c.abilities.items():
        if name not in ABILITIES:
            raise Rejected(code, f"ability {name!r} is not one of {', '.join(ABILITIES)} (DEX, INT and CON are the sheet's)")
        if not 1 <= score <= 25:
            raise Rejected(code, f"{name.upper()} {score} is outside 1..25")
    for name, n in msgspec.structs.asdict(c.gear).items():
        if not 0 <= n <= MAX_GEAR * 100:
            raise Rejected(code, f"{name} {n} is outside 0..{MAX_GEAR * 100}")
    if len(c.owner) > 60 or len(c.notes) > 2000:
        raise Rejected(code, "an owner is at most 60 characters, notes at most 2000")


def with_shield(sheet: Combatant, shield: bool, profile: str, rules_version: int) -> Combatant:
    """The sheet with its shield gained or lost. Where the rules derive AC from the armor
    worn (000's chart: hook `armor_class`) the fight works it out; else the sheet's own AC
    moves by the shield's point (000: 'Shield +1', 'lowering his AC by 1')."""
    if shield == sheet.shield:
        return sheet
    derived = rules_of(blank_fight(profile, rules_version)).armor_class(sheet, None) is not None
    ac = sheet.ac if derived else sheet.ac + (SHIELD if shield else -SHIELD)
    return msgspec.structs.replace(sheet, shield=shield, ac=ac)


def sheet_of(c: Character) -> Combatant:
    """The sheet as a fight takes it: its id the character's, a player character."""
    return msgspec.structs.replace(c.sheet, id=c.id, pc=True)
