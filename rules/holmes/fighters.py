"""Who fights with what: the combat bonus (002's hit table), the weapon in hand,
and whether a combatant can still strike or be struck down without a roll (003)."""

from ..actions import Attack, Charge, Parry, SetSpear
from ..charts import thac0
from ..conditions import FLED, OUT
from ..declare import declaration
from ..errors import Rejected
from ..model import Combatant, Encounter, Weapon
from ..ruleset import rules_of

HELPLESS = ("bound", "asleep", "paralysed", "paralyzed", "pinned", "helpless", "knocked out")  # 003: 'truly helpless'
HELPLESS_SET = frozenset(HELPLESS)


def hit_table_bonus(state: Encounter, c: Combatant) -> int:
    """003's: an explicit `attack_bonus` wins; else 19 - THAC0 from 002's hit table."""
    if c.attack_bonus is not None:
        return c.attack_bonus
    demihuman = state.options.get("demihuman_thac0", "fighter")
    return thac0.combat_bonus(c.klass, c.level, c.hd, c.hd_plus, c.rank, str(demihuman))


def combat_bonus(state: Encounter, c: Combatant) -> int:
    """The figure a combatant adds to its attack rolls, by its encounter's rules (hook `combat_bonus`)."""
    return rules_of(state).combat_bonus(state, c)


def multi_attack_bonus(c: Combatant) -> int:
    """003: 'Fighters must attack as though they are first level and monsters and
    other character types must attack with a combat bonus of 0.'"""
    return thac0.combat_bonus("fighter", 1, 0) if c.klass == "fighter" else 0


def parry_weapon(action: Parry) -> int:
    """The weapon a parry declares; not given, the only one carried (rules.holmes.melee refuses it with more).
    Every parry stored before `weapon` could be None carries its index: it folds as it did."""
    return 0 if action.weapon is None else action.weapon


def usable(w: Weapon) -> bool:
    return not (w.broken or w.dropped)


def declared(state: Encounter, c: Combatant):
    """The action `c` declared this round, or None."""
    d = declaration(state, c.id)
    return None if d is None else d.action


def wielded(state: Encounter, c: Combatant) -> Weapon | None:
    """The weapon a combatant fights with this round: its declared one, else its first usable."""
    index = in_hand(state, c)
    return None if index is None else c.weapons[index]


def in_hand(state: Encounter, c: Combatant) -> int | None:
    """The index of the weapon `wielded` returns."""
    action = declared(state, c)
    index = parry_weapon(action) if isinstance(action, Parry) else getattr(action, "weapon", None)
    if isinstance(action, Attack | Charge | Parry | SetSpear) and index is not None and usable(c.weapons[index]):
        return index
    return next((i for i, w in enumerate(c.weapons) if usable(w)), None)


def helpless(c: Combatant) -> bool:
    return bool(c.conditions) and not HELPLESS_SET.isdisjoint(c.conditions)


FLED_CODE = "declare/target-fled"


def gone(state: Encounter, c: Combatant) -> bool:
    """Fled off the field: none may attack it any more. 003: the morale result 'determines the
    affected creature's actions for the next round', so one put to flight by morale runs in the
    round its result governs: still there in that round's attack phase, gone once its movement
    phase begins. A declared flight (or the GM's `fled`) is gone at once."""
    if FLED not in c.conditions:
        return False
    if c.morale != "flee":
        return True
    return state.round > c.morale_round or state.round == c.morale_round and state.phase not in ("declaration", "attack")


def check_not_gone(state: Encounter, target: Combatant) -> None:
    if gone(state, target):
        raise Rejected(FLED_CODE, f"{target.name} has fled the field")


def able(c: Combatant) -> bool:
    """May still strike a blow: not down, not helpless, not out of the fight (003 morale)."""
    return not c.down and (not c.conditions or HELPLESS_SET.isdisjoint(c.conditions) and OUT.isdisjoint(c.conditions))
