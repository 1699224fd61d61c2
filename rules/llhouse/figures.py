"""The figures 000's rules read off a combatant: its Attack Value, its armor, its
improved combat options, and the limbs it can still use; and their checks."""

from ..charts.ll_house import ARMOR, ATTACK_VALUE, CLASS_GROUP, IMPROVEMENTS, SHIELD
from ..errors import Rejected
from ..holmes.fighters import hit_table_bonus
from ..model import Combatant, Encounter, Weapon

PROFILE = "ll-house"
SIDES = ("right", "left")  # the main hand is the right, the shield and off hand the left (a ruling)


def attack_value(klass: str, level: int) -> int | None:
    """000's ATTACK VALUE chart; None for a class it has no column for (monsters, normal men)."""
    column = CLASS_GROUP.get(klass)
    if column is None:
        return None
    level = max(level, 1)
    for row in ATTACK_VALUE:
        span = row[column]
        if isinstance(span, tuple) and span[0] <= level and (span[1] is None or level <= span[1]):
            return row[0]
    raise AssertionError(f"000's attack value chart has no row for {klass} level {level}")


def combat_bonus(state: Encounter, c: Combatant) -> int:
    """Hook `combat_bonus` of 000's to_hit: an explicit `attack_bonus`, else 000's Attack Value,
    else (a class 000 has no column for) 003's, by 002's hit table."""
    own = attack_value(c.klass, c.level) if c.attack_bonus is None else None
    return own if own is not None else hit_table_bonus(state, c)


def chart_ac(c: Combatant) -> int:
    """000, ARMOR CLASS: the armor's AC, 'Shield +1', and 1 less a point of ARMOR DAMAGE
    ('Armor DOES still offer protection until it is reduced to 0')."""
    return ARMOR[c.armor][0] + (SHIELD if c.shield else 0) - c.armor_damage


def armor_class(c: Combatant, before: Combatant | None) -> int | None:
    """Hook `armor_class` of 000's to_hit: the AC 000's armor chart gives a combatant wearing
    armor, added (`before` None) or edited from `before`; None for one whose armor is not tracked
    (''), whose `ac` is the GM's. Edited from armor to armor, AC moves by the chart's difference,
    so an AC given by hand with the armor (magic, a ruling of the table) keeps its adjustment."""
    if not c.armor:
        return None
    if before is not None and before.armor:
        return c.ac + chart_ac(c) - chart_ac(before)
    return chart_ac(c)


def rank(c: Combatant, improvement: str) -> int:
    return c.improvements.get(improvement, 0)


def expertise_key(name: str) -> str:
    """000: 'a Silver Dagger is just a regular Dagger with a Silver coating, so one rank
    in this Ability applies to both'."""
    name = name.strip().lower()
    return name[len("silver ") :] if name.startswith("silver ") else name


def expertise(c: Combatant, weapon: Weapon) -> int:
    """Ranks of weapon expertise with this weapon (by its name)."""
    key = expertise_key(weapon.name)
    return sum(n for name, n in sorted(c.expertise.items()) if expertise_key(name) == key)


def arm_lost(c: Combatant, side: str) -> bool:
    """'cannot use shield or weapon' (elbow) or 'arm completely lost/ruined' (shoulder)."""
    return f"{side} elbow" in c.conditions or f"{side} shoulder" in c.conditions


def hand_free(c: Combatant, side: str) -> bool:
    """May this side's hand wield a weapon? ('cannot wield weapon' for a hand)"""
    return f"{side} hand" not in c.conditions and not arm_lost(c, side)


def hands(c: Combatant) -> int:
    return sum(hand_free(c, side) for side in SIDES)


def may_wield(c: Combatant, weapon: Weapon) -> bool:
    return hands(c) >= max(1, weapon.hands)


def shield_ready(c: Combatant) -> bool:
    return c.shield and not arm_lost(c, "left")


def maneuvers_open(state: Encounter, c: Combatant) -> bool:
    """Option `maneuvers`: 000's maneuvers are 'available to ALL Player Characters'."""
    return state.options.get("maneuvers", "all") == "all" or c.pc


def special_rolls(state: Encounter, c: Combatant) -> bool:
    """Option `special_rolls`: 'The list below pertains to PCs. Monsters and NPCs ... may also use the list'."""
    return state.options.get("special_rolls", "all") == "all" or c.pc


def natural_20_hits(state: Encounter) -> bool:
    """Option `natural_20_hits`: 'Any roll of Natural 20 yields special effects' (000) hits whatever
    the AC. Read by 000's roll itself under rules version 7; from version 8 it is 000's criticals
    module's (hook `natural_20_hits`), which every to_hit asks."""
    return bool(state.options.get("natural_20_hits", True))


def widening(state: Encounter, c: Combatant) -> int:
    """How far IMPROVED CRIT RANGE widens the crit (and fumble) range: option `crit_range_ranks`."""
    n = rank(c, "improved_crit_range")
    return n if state.options.get("crit_range_ranks", "one-per-rank") == "one-per-rank" else (n + 1) // 2


def check_figures(c: Combatant, code: str) -> None:
    """000's to_hit check_figures: 000's figures are well formed."""
    most = ARMOR[c.armor][1] if c.armor in ARMOR else 20  # each figure's own bounds are its declaration's
    if not 0 <= c.armor_damage <= most:
        raise Rejected(code, f"armor damage {c.armor_damage} is outside 0..{most}")
    for name, n in c.improvements.items():
        if n > IMPROVEMENTS.get(name, 0):
            raise Rejected(code, f"{name} ranks {n} are outside 0..{IMPROVEMENTS[name]}")
    for name, n in c.expertise.items():
        if not name.strip() or len(name) > 60 or not 0 <= n <= 10:
            raise Rejected(code, f"weapon expertise {name!r}: a weapon name of 1-60 characters and 0..10 ranks")
    if len(c.until) > 20 or any(not k or len(k) > 60 or not 0 <= v <= 100_000 for k, v in c.until.items()):
        raise Rejected(code, "until: at most 20 conditions, each named in 1-60 characters, to a round 0..100000")
    for w in c.weapons:
        if w.hands not in (1, 2):
            raise Rejected(code, f"weapon {w.name!r}: hands is 1 or 2")
