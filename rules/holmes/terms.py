"""The terms of 003's attack roll that every profile's strike shares.

'Hits are made when the sum of the 20 sided die + the attacking character's
combat bonus + any applicable weapon bonuses + the target's Armour Class is
equal to 19 or higher.' (003, descending AC.) Fray holds AC ascending, so the
log shows the document's own arithmetic with descending = 19 - ascending.

Here are the situational terms of that sum (surprise, charge, from behind, prone,
the counter after a parry), the called shots and the parry with their caps, and
the sum as the log shows it. The other profiles reckon their own rolls from these
terms where their documents are silent.
"""

from ..actions import Action, Parry
from ..conditions import PRONE as PRONE_CONDITION
from ..context import Context, Said, said
from ..model import (
    Combatant,
    Encounter,
    Weapon,
    descending,  # noqa: F401  (named here for the rules that take it with terms')
)
from .fighters import able, combat_bonus, declared, multi_attack_bonus, parry_weapon, usable

TO_HIT = 19  # 003: the sum must be 19 or higher
SURPRISE_BONUS = 2  # 003: the active side 'attacks at +2 to-hit' in its free round
CALLED_SHOT = -5  # 003: 'a -5 penalty to their attack roll'
CALLED_SHOT_BAREHEADED = -3  # 003: 'or -3 if the target is a human who is not wearing a helmet'
FROM_BEHIND = 2  # 003: 'Adds an additional +2 to hit'; 'Shields obviously do not help the victim'
SHIELD = 1  # 000: a shield is worth 1 point of AC
PRONE = 4  # 003: 'prone but awake and lively, the offender gets a +4'
CHARGE = 2  # 003: a charger 'may attack at +2 to hit'
PARRY = 4  # 003: 'their opponent thusly suffers a -4 penalty to hit'
PARRY_CAP = 20  # 003: 'may not increase the total required to hit beyond 20'
RIPOSTE = 3  # 003: the parrier 'may counterattack once immediately, with an additional bonus of +3'
CALLED_SHOTS_MAX = 3  # 003: 'This option can be taken up to three times'
CALLED_SHOT_CEILING = 20  # 003: not 'when the penalty would increase the number required to hit to 20 or above'
ROUTINE = "routine"  # the strike mode of a monster's attack routine (rules.holmes.combat.routine)
DECLARED = ("attack", "double", "charge", ROUTINE)  # strike modes that carry the declaration's options
MULTIPLE_MODES = ("double", ROUTINE)  # strikes that are one of several in the round (003's multiple attacks)
MULTIPLE = "combat bonus (multiple attacks)"  # 003: 'unable to utilise their full combat bonus' (rules.holmes.fighters)


def called_shot_penalty(target: Combatant) -> int:
    return CALLED_SHOT_BAREHEADED if target.human and not target.helmet else CALLED_SHOT


def allowed_called_shots(need: int, target: Combatant, wanted: int) -> int:
    """The most called shots, up to `wanted`, that keep the number needed below 20."""
    n = wanted
    while n and need - n * called_shot_penalty(target) >= CALLED_SHOT_CEILING:
        n -= 1
    return n


def modifiers(state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon, mode: str, behind: bool) -> list[tuple[str, int]]:
    """Every term of the sum but the die, called shots and parry, AC last."""
    if mode in MULTIPLE_MODES:
        mods = [(MULTIPLE, multi_attack_bonus(attacker))]
    else:
        mods = [("combat bonus", combat_bonus(state, attacker))]
    if weapon.bonus:
        mods.append((f"{weapon.name} bonus", weapon.bonus))
    if mode == "riposte":
        mods.append(("counter after a parry", RIPOSTE))
    if mode in DECLARED:
        surprise = bool(state.surprised) and attacker.side not in state.surprised
        # 003: the +2 from behind 'is already factored into the Thief "attack from
        # surprise" bonus!': a thief striking from behind in the free round gets one +2.
        thief_from_surprise = surprise and behind and attacker.klass == "thief"
        if surprise:
            mods.append(("surprise, from behind included" if thief_from_surprise else "surprise", SURPRISE_BONUS))
        if mode == "charge":
            mods.append(("charge", CHARGE))
        if behind and not thief_from_surprise:
            mods.append(("from behind", FROM_BEHIND))
        if PRONE_CONDITION in target.conditions:
            mods.append(("prone target", PRONE))
    ac = target.ac - (SHIELD if behind and target.shield else 0)
    mods.append(("target AC" if ac == target.ac else "target AC without shield", descending(ac)))
    return mods


def term_sum(mods: list[tuple[str, int]]) -> int:
    """The terms added up. A plain loop: a strike adds its few terms up more than once, and
    a comprehension or generator is a call of its own, dearer than the adding."""
    total = 0
    for _, value in mods:
        total += value
    return total


def need_of(mods: list[tuple[str, int]]) -> int:
    """The number needed on the d20."""
    return TO_HIT - term_sum(mods)


def check_called_shots(state: Encounter, attacker: Combatant, target: Combatant, weapon: Weapon, mode: str, behind: bool, wanted: int) -> int | None:
    """The number needed without called shots, if `wanted` of them would raise it to 20 or more."""
    need = need_of(modifiers(state, attacker, target, weapon, mode, behind))
    return need if allowed_called_shots(need, target, wanted) < wanted else None


def terms(d20: int, mods: list[tuple[str, int]]) -> str:
    """'d20 15 + 1 combat bonus - 5 called shot + AC 6': the AC is the last term."""
    text = f"d20 {d20}"
    for name, value in mods[:-1]:
        text += f" {'-' if value < 0 else '+'} {abs(value)} {name}"
    name, value = mods[-1]
    return text + f" + AC {value}" + (" (shield ignored)" if name != "target AC" else "")


# A strike's declaration, its called shots and the parry against it: every profile's roll
# takes these as 003 has them, where its own document is silent.


def declaration(state: Encounter, attacker: Combatant, mode: str, modes: tuple[str, ...] = DECLARED) -> tuple[Action | None, bool, int]:
    """The declared action a strike of `mode` carries (none unless `mode` is one of `modes`:
    not for a counter, a riposte or a set spear), whether it is struck from behind, and how
    many called shots it wants."""
    if mode not in modes:
        return None, False, 0
    action = declared(state, attacker)
    return action, bool(getattr(action, "from_behind", False)), getattr(action, "called_shots", 0)


def called_shot_term(called: int, target: Combatant) -> tuple[str, int]:
    return (f"called shot{'s' if called > 1 else ''}", called * called_shot_penalty(target))


def called_in(mods: list[tuple[str, int]], target: Combatant) -> int:
    """How many called shots a missile's terms hold (rules.holmes.ranged put them there)."""
    return sum(v for n, v in mods if n in ("called shot", "called shots")) // called_shot_penalty(target)


REFUSED = "003 refuses a penalty that makes the number needed 20 or more"


def shots_dropped(attacker: Combatant, wanted: int, called: int, need: str = "") -> Said:
    """The log line of called shots dropped; `need` ('12 is needed on the d20 already') names
    the number needed, a figure the public text leaves out."""
    figured = (f"{need}, and 003 refuses a penalty that makes it 20 or more", REFUSED) if need else REFUSED
    return said(f"{attacker.name}'s called shots drop from {wanted} to {called}: ", figured, ".")


def call_shots(ctx: Context, attacker: Combatant, target: Combatant, mods: list[tuple[str, int]], wanted: int, hit: str = "") -> int:
    """The called shots allowed of `wanted`, their term put before the AC in `mods`; a drop
    is logged (`hit` names the result the number needed is for, as ' for a normal Hit')."""
    if not wanted:
        return 0
    called = allowed_called_shots(need_of(mods), target, wanted)
    if called < wanted:
        ctx.log("attack", **shots_dropped(attacker, wanted, called, f"{need_of(mods)} is needed on the d20{hit} already"), actor=attacker.id, target=target.id)
    if called:
        mods.insert(-1, called_shot_term(called, target))
    return called


def parrying(state: Encounter, c: Combatant) -> int | None:
    """The index of the weapon `c` parries with this round, if it parries."""
    action = declared(state, c)
    if type(action) is Parry and able(c) and c.side not in state.surprised and usable(c.weapons[parry_weapon(action)]):
        return parry_weapon(action)
    return None


def parry_penalty(need: int) -> int:
    """003: -4 to hit, but never making the number needed more than 20."""
    return min(PARRY, max(0, PARRY_CAP - need))


def parry_term(state: Encounter, target: Combatant, mods: list[tuple[str, int]], melee: bool) -> tuple[int | None, int]:
    """The weapon `target` parries a melee strike with (or None) and the penalty, its term put before the AC in `mods`."""
    parry = parrying(state, target) if melee else None
    if parry is None:
        return None, 0
    penalty = parry_penalty(need_of(mods))
    mods.insert(-1, ("parry", -penalty))
    return parry, penalty
