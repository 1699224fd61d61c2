"""Weapon saving throws against 'crushing blow', by the weapon's material.

003: 'The attacker must ... immediately make a saving throw for their weapon
against "crushing blow", as per Appendix B in 7VoZ's Supplement I: Book of
Spells. Failure means the weapon has broken.' 003 cites the values but does not
give them. These defaults follow the crushing-blow column of the AD&D 1st
edition item saving-throw matrix, which that appendix descends from; an
encounter may override any of them with the `weapon_saves` option
("steel=8,bronze=12"). A save succeeds on a d20 roll equal to or above the value.
"""

# Defaults standing in for 7VoZ Supplement I, Appendix B ('crushing blow'), by material.
CRUSHING_BLOW = {
    "steel": 6,  # metal, hard
    "iron": 6,  # metal, hard
    "bronze": 14,  # metal, soft
    "copper": 14,  # metal, soft
    "silver": 14,  # metal, soft
    "gold": 14,  # metal, soft
    "wood": 10,  # wood, thick
    "bone": 16,  # bone or ivory
    "stone": 17,  # stone
    "crystal": 19,  # crystal
    "glass": 20,  # glass
}
UNKNOWN = 10  # a material the table does not name saves as thick wood (a ruling)


def parse(text: str) -> dict[str, int]:
    """'steel=8, bronze=12' -> {'steel': 8, 'bronze': 12}. Raises ValueError naming the fault."""
    table: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip().lower()
        if not sep or not name or not value.strip().lstrip("-").isdigit():
            raise ValueError(f"weapon_saves: {part.strip()!r} is not 'material=number'")
        number = int(value)
        if not 1 <= number <= 21:
            raise ValueError(f"weapon_saves: {name} needs 1..21 (21 = always breaks)")
        table[name] = number
    return table


def save_value(material: str, overrides: str = "") -> int:
    table = {**CRUSHING_BLOW, **parse(overrides)}
    return table.get(material.lower(), UNKNOWN)
