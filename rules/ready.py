"""The table's ready data, defined once for every page and the campaign: weapons and a
small bestiary. The GM console offers them (GET /api/profiles, each profile's `ready`),
and a new campaign's bestiary starts with these monsters (server/campaigns.py).

Weapons as rules.model.Weapon. Damage: Labyrinth Lord's variable weapon damage (000 and
001 play by it; 003 hits for 1-6 unless the `weapon_damage` option is on). length (ft)
and weight are this table's rulings for 003's weapon-length, parry and disarm rules; range
(ft) for thrown and missile weapons.

Monsters after Labyrinth Lord's monster entries (AC ascending: 000's armor chart), and
the monsters of the docs' scenarios (docs/scenarios/*.toml) by kind; `hp` a typical roll.
`morale` is Labyrinth Lord's morale score (2-12): a figure of the bestiary's record, shown
to the GM; no fight reads it (003's morale reads the fight's own figures)."""

import msgspec

from .charts.ll_house import ARMOR, SHIELD
from .model import Combatant, Weapon

WEAPONS = {  # a key -> the weapon (the key names a monster's natural weapon apart)
    key or w.name: w
    for key, w in (
        (None, Weapon(name="dagger", damage="1d4", length=1, weight=1, range=30, missile="dagger")),
        (None, Weapon(name="short sword", damage="1d6", length=2, weight=2)),
        (None, Weapon(name="sword", damage="1d8", length=3, weight=3)),
        (None, Weapon(name="two-handed sword", damage="1d10", length=5, weight=5)),
        (None, Weapon(name="axe", damage="1d6", length=3, weight=4)),
        (None, Weapon(name="battle axe", damage="1d8", length=4, weight=5)),
        (None, Weapon(name="mace", damage="1d6", length=2, weight=3)),
        (None, Weapon(name="club", damage="1d4", length=3, weight=4, material="wood")),
        (None, Weapon(name="war hammer", damage="1d6", length=2, weight=3)),
        (None, Weapon(name="spear", damage="1d6", length=6, weight=4, reach=10, range=30, polearm=True, missile="thrown")),
        (None, Weapon(name="pole arm", damage="1d10", length=10, weight=6, reach=10, polearm=True)),
        (None, Weapon(name="short bow", damage="1d6", length=1, weight=1, range=150, missile="bow")),
        (None, Weapon(name="long bow", damage="1d6", length=1, weight=1, range=210, missile="bow")),
        (None, Weapon(name="light crossbow", damage="1d6", length=1, weight=2, range=180)),
        (None, Weapon(name="sling", damage="1d4", length=1, weight=1, range=120)),
        ("bite (wolf)", Weapon(name="bite", damage="1d6", length=1, weight=1, material="bone")),
        ("coils (sea serpent)", Weapon(name="coils", damage="4d6", length=10, weight=10, material="bone")),
    )
}


class ReadyMonster(msgspec.Struct, gc=False, frozen=True, kw_only=True):
    """A bestiary entry as the GM console keeps it: armor by name, weapons by key."""

    name: str
    hd: int
    hp: int
    weapons: tuple[str, ...]
    morale: int  # Labyrinth Lord's morale score, 2-12
    armor: str = "unarmored"
    shield: bool = False
    ac: int = 0  # a natural AC (hide, scales); 0: the armor's
    hd_plus: int = 0
    dex: int = 10
    move: int = 120
    size: str = "M"
    human: bool = False
    mindless: bool = False
    man_type: bool = True
    klass: str = "monster"


READY = (
    # the GM console's, after Labyrinth Lord; the demo's and the scenarios' goblins and orcs are these
    ReadyMonster(name="Goblin", armor="leather", shield=True, hd=1, hp=4, weapons=("short sword",), dex=10, move=60, size="S", morale=7),
    ReadyMonster(name="Kobold", armor="leather", hd=1, hp=3, weapons=("club",), dex=10, move=60, size="S", morale=6),
    ReadyMonster(name="Orc", armor="leather", shield=True, hd=1, hp=5, weapons=("axe",), dex=9, move=120, morale=8),
    ReadyMonster(name="Hobgoblin", armor="leather", shield=True, hd=1, hd_plus=1, hp=6, weapons=("sword",), dex=10, move=90, morale=8),
    ReadyMonster(name="Gnoll", armor="scale", hd=2, hp=10, weapons=("battle axe",), dex=9, move=90, size="L", morale=8),
    ReadyMonster(name="Skeleton", armor="padded", hd=1, hp=4, weapons=("sword",), dex=10, move=60, mindless=True, morale=12),
    ReadyMonster(name="Zombie", armor="leather", hd=2, hp=9, weapons=("club",), dex=6, move=90, mindless=True, morale=12),
    ReadyMonster(name="Wolf", armor="padded", hd=2, hd_plus=2, hp=11, weapons=("bite (wolf)",), dex=14, move=180, man_type=False, morale=8),
    ReadyMonster(name="Bandit", armor="leather", shield=True, hd=1, hp=5, weapons=("sword", "short bow"), dex=11, move=120, human=True, morale=8),
    ReadyMonster(name="Bugbear", armor="studded leather", hd=3, hd_plus=1, hp=14, weapons=("battle axe",), dex=10, move=90, size="L", morale=9),
    # the scenarios' own (docs/scenarios/thac0-sheet.toml): 002's ogre and sea serpent
    ReadyMonster(name="Ogre", ac=14, hd=4, hp=20, weapons=("club",), dex=8, move=90, size="L", morale=10),
    ReadyMonster(name="Sea serpent", ac=14, hd=8, hp=36, weapons=("coils (sea serpent)",), dex=16, move=150, size="L", man_type=False, morale=8),
)


def armor_class(armor: str, shield: bool) -> int:
    """000's ARMOR CLASS chart: the armor's AC, +1 for a shield."""
    return ARMOR.get(armor, ARMOR["unarmored"])[0] + (SHIELD if shield else 0)


def combatant(m: ReadyMonster, side: str = "monsters") -> Combatant:
    """The fight's shape of a ready monster (its attack bonus left to 002's hit table by HD)."""
    return Combatant(
        name=m.name,
        side=side,
        ac=m.ac or armor_class(m.armor, m.shield),
        armor="" if m.armor == "unarmored" else m.armor,
        shield=m.shield,
        hp=m.hp,
        hp_max=m.hp,
        hd=m.hd,
        hd_plus=m.hd_plus,
        klass=m.klass,
        weapons=[WEAPONS[w] for w in m.weapons],
        dex=m.dex,
        move=m.move,
        size=m.size,
        human=m.human,
        mindless=m.mindless,
        man_type=m.man_type,
    )


def catalogue() -> dict:
    """The ready data as the pages read it (GET /api/profiles, `ready`)."""
    return {
        "armor": [[name, ac] for name, (ac, _) in ARMOR.items()],
        "shield": SHIELD,
        "weapons": msgspec.to_builtins(WEAPONS),
        "bestiary": [{"key": m.name.lower(), **msgspec.to_builtins(m)} for m in READY],
    }


assert all(w in WEAPONS for m in READY for w in m.weapons), "every ready monster's weapon is a ready weapon"
