"""The ready demo fight that an empty POST /api/encounters makes: three
adventurers against four goblins, close enough to cross blades in round 1."""

from ..rules.model import Combatant, Weapon

SWORD = Weapon(name="sword", damage="1d8", length=3, weight=3)
MACE = Weapon(name="mace", damage="1d6", length=2, weight=3)
DAGGER = Weapon(name="dagger", damage="1d4", length=1, weight=1, range=30)
# A spear is a polearm: it may be set against a charge (003), so the demo offers "Set spear".
SPEAR = Weapon(name="spear", damage="1d6", length=8, weight=3, polearm=True)
SHORT_SWORD = Weapon(name="short sword", damage="1d6", length=2, weight=2)


def combatants() -> list[Combatant]:
    party = [
        Combatant(id="alda", name="Alda", side="party", ac=16, hp=12, hp_max=12, attack_bonus=1, weapons=[SWORD, DAGGER], dex=13, int_=11, x=20, y=20),
        Combatant(id="bran", name="Brother Bran", side="party", ac=15, hp=8, hp_max=8, attack_bonus=0, weapons=[MACE], dex=9, int_=12, x=20, y=30),
        Combatant(id="cora", name="Cora", side="party", ac=13, hp=6, hp_max=6, attack_bonus=0, weapons=[SHORT_SWORD, DAGGER], dex=16, int_=14, x=15, y=25),
    ]
    goblins = [
        Combatant(
            id=f"gob{i}",
            name=f"Goblin {i}",
            side="goblins",
            ac=13,
            hp=4,
            hp_max=4,
            attack_bonus=0,
            weapons=[SPEAR if i % 2 else SHORT_SWORD],
            dex=10 + i,
            int_=8,
            x=25 + 5 * (i // 3),
            y=15 + 5 * i,
            hidden=True,
        )
        for i in range(1, 5)
    ]
    return party + goblins
