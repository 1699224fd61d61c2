"""Between fights: time and rest, healing, armor repaired or replaced, a shield replaced,
levels and 000's improved combat options."""

import msgspec

from ..charts.ll_house import BEYOND_REPAIR, IMPROVEMENTS
from ..errors import Rejected
from ..events import Actor
from ..setup import declared
from .commands import ChooseImprovement, Heal, LevelUp, PassTime, RepairArmor, ReplaceArmor, ReplaceShield
from .lasting import LASTING
from .roster import checked, own, replace
from .saves import saves_improve
from .sheet import Character, Gear, Scar, with_shield
from .state import Campaign

MAX_DAYS = 3650  # one command passes at most ten years
EXPERTISE = "weapon_expertise"  # 000's WEAPON EXPERTISE, chosen for one weapon (Combatant.expertise)
REPAIR_SHARE = 2  # 000: 'repaired for 1/2 the original cost' (whole gp, rounded down: a ruling)


def pass_time(state: Campaign, cmd: PassTime, say) -> None:
    """Every living character's lasting conditions run down by `days`; those whose days
    count only in rest (000's concussion) only when `rest`; at none left, they are gone."""
    if not 1 <= cmd.days <= MAX_DAYS:
        raise Rejected("campaign/bad-days", f"days {cmd.days} is outside 1..{MAX_DAYS}")
    state.day += cmd.days
    say(f"{cmd.days} day(s) {'of rest ' if cmd.rest else ''}pass: day {state.day}.")
    for c in state.characters:
        if c.dead or not c.lasting:
            continue
        kept, healed = [], []
        for x in c.lasting:
            waits = x.days == 0 or (not cmd.rest and x.name in LASTING and LASTING[x.name].rest)
            if waits:
                kept.append(x)
            elif x.days > cmd.days:
                kept.append(msgspec.structs.replace(x, days=x.days - cmd.days))
            else:
                healed.append(x.name)
        if healed:
            story = [*c.story, Scar(state.day, f"Healed: {', '.join(healed)}.")]
            replace(state, msgspec.structs.replace(c, lasting=kept, story=story))
            say(f"{c.sheet.name} heals: {', '.join(healed)}.", c.id)
        elif kept != c.lasting:
            replace(state, msgspec.structs.replace(c, lasting=kept))


def heal(state: Campaign, cmd: Heal, say) -> None:
    """'medical attention/magical healing' (000, 15 and 10-11) ends what it heals; HP are set."""
    c = own(state, Actor("gm"), cmd.id)
    if not cmd.condition and cmd.hp is None:
        raise Rejected("campaign/nothing-to-heal", "name a condition or HP")
    new = c
    if cmd.condition:
        held = next((x for x in c.lasting if x.name == cmd.condition), None)
        if held is None:
            raise Rejected("campaign/no-such-condition", f"{c.sheet.name} has no lasting {cmd.condition!r}")
        if cmd.condition in LASTING and LASTING[cmd.condition].permanent:
            raise Rejected("campaign/permanent", f"{cmd.condition} is permanent: {LASTING[cmd.condition].text}")
        new = msgspec.structs.replace(new, lasting=[x for x in c.lasting if x is not held], story=[*c.story, Scar(state.day, f"Healed: {cmd.condition}.")])
    if cmd.hp is not None:
        if not 0 <= cmd.hp <= c.sheet.hp_max:
            raise Rejected("campaign/bad-hp", f"HP {cmd.hp} is outside 0..{c.sheet.hp_max}")
        new = msgspec.structs.replace(new, sheet=msgspec.structs.replace(new.sheet, hp=cmd.hp))
    replace(state, new)
    said = [f"{cmd.condition} healed" if cmd.condition else "", f"HP {cmd.hp}/{c.sheet.hp_max}" if cmd.hp is not None else ""]
    say(f"{c.sheet.name}: {'; '.join(s for s in said if s)}.", c.id)


def _pay(c: Character, cost: int, what: str) -> Gear:
    if c.gear.coin < cost:
        raise Rejected("campaign/not-enough-coin", f"{what} costs {cost} gp; {c.sheet.name} has {c.gear.coin}")
    return msgspec.structs.replace(c.gear, coin=c.gear.coin - cost)


def _armor(state: Campaign, by: Actor, id: str) -> Character:
    c = own(state, by, id)
    if not c.sheet.armor or c.sheet.armor not in BEYOND_REPAIR:
        raise Rejected("campaign/no-armor", f"{c.sheet.name} wears no armor that takes damage")
    if c.sheet.armor_damage == 0:
        raise Rejected("campaign/armor-whole", f"{c.sheet.name}'s {c.sheet.armor} is undamaged")
    return c


def repair_armor(state: Campaign, cmd: RepairArmor, by: Actor, say) -> None:
    """000: 'Damaged Armor can be repaired for 1/2 the original cost', unless 'beyond repair'."""
    c = _armor(state, by, cmd.id)
    armor, damage = c.sheet.armor, c.sheet.armor_damage
    if damage >= BEYOND_REPAIR[armor]:
        raise Rejected(
            "campaign/beyond-repair", f"{c.sheet.name}'s {armor} took {damage} point(s): beyond repair at {BEYOND_REPAIR[armor]}, it MUST be replaced"
        )
    cost = c.gear.armor_cost // REPAIR_SHARE
    new = msgspec.structs.replace(c, gear=_pay(c, cost, "the repair"), sheet=msgspec.structs.replace(c.sheet, armor_damage=0))
    replace(state, new)
    say(f"{c.sheet.name}'s {armor} is repaired for {cost} gp (1/2 of {c.gear.armor_cost}).", c.id)


def replace_armor(state: Campaign, cmd: ReplaceArmor, by: Actor, say) -> None:
    c = _armor(state, by, cmd.id)
    cost = c.gear.armor_cost
    replace(state, msgspec.structs.replace(c, gear=_pay(c, cost, "new armor"), sheet=msgspec.structs.replace(c.sheet, armor_damage=0)))
    say(f"{c.sheet.name}'s {c.sheet.armor} is replaced for {cost} gp.", c.id)


def replace_shield(state: Campaign, cmd: ReplaceShield, by: Actor, say) -> None:
    c = own(state, by, cmd.id)
    if c.sheet.shield:
        raise Rejected("campaign/shield-whole", f"{c.sheet.name} already has a shield")
    cost = c.gear.shield_cost
    replace(state, msgspec.structs.replace(c, gear=_pay(c, cost, "a shield"), sheet=with_shield(c.sheet, True, state.profile, state.rules_version)))
    say(f"{c.sheet.name} buys a new shield for {cost} gp.", c.id)


def level_up(state: Campaign, cmd: LevelUp, say) -> None:
    c = own(state, Actor("gm"), cmd.id)
    level, last = c.sheet.level + 1, declared(state.profile)["level"].high  # the level as the campaign's profile bounds it
    if last is not None and level > last:
        raise Rejected("campaign/top-level", f"{c.sheet.name} is at level {last}, the last")
    offer = saves_improve(c.sheet.klass, level) if cmd.offer is None else cmd.offer
    new = msgspec.structs.replace(c, sheet=msgspec.structs.replace(c.sheet, level=level), offers=c.offers + offer)
    replace(state, checked(state, new))
    choice = " Saving throws improve: choose 1 improved combat option (000)." if offer else ""
    say(f"{c.sheet.name} reaches level {level}.{choice}", c.id)


def choose(state: Campaign, cmd: ChooseImprovement, by: Actor, say) -> None:
    """000: 'you may choose 1 of these Improvements. You can get the same Option more than once.'"""
    c = own(state, by, cmd.id)
    if c.offers == 0:
        raise Rejected("campaign/no-choice", f"{c.sheet.name} has no improved combat option to choose (chosen when saving throws improve)")
    sheet = c.sheet
    if cmd.option == EXPERTISE:
        if not any(w.name == cmd.weapon for w in sheet.weapons):
            raise Rejected("campaign/no-such-weapon", f"{sheet.name} has no weapon {cmd.weapon!r}")
        sheet = msgspec.structs.replace(sheet, expertise={**sheet.expertise, cmd.weapon: sheet.expertise.get(cmd.weapon, 0) + 1})
        what = f"weapon expertise ({cmd.weapon})"
    elif cmd.option in IMPROVEMENTS:
        ranks = sheet.improvements.get(cmd.option, 0) + 1
        if ranks > IMPROVEMENTS[cmd.option]:
            raise Rejected("campaign/most-ranks", f"{cmd.option} is only available {IMPROVEMENTS[cmd.option]} times")
        sheet = msgspec.structs.replace(sheet, improvements={**sheet.improvements, cmd.option: ranks})
        what = f"{cmd.option.replace('_', ' ')} (rank {ranks})"
    else:
        raise Rejected("campaign/no-such-option", f"{cmd.option!r} is not one of {', '.join([*IMPROVEMENTS, EXPERTISE])}")
    new = msgspec.structs.replace(c, sheet=sheet, offers=c.offers - 1, story=[*c.story, Scar(state.day, f"Chose {what}.")])
    replace(state, checked(state, new))
    say(f"{c.sheet.name} chooses {what}.", c.id)
