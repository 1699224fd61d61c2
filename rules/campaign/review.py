"""What a fight did, back in the campaign: the server reports a fight's findings (each
naming the fight and its event), and each lands on its character only when the GM accepts it."""

import msgspec

from ..charts.ll_house import BEYOND_REPAIR
from ..errors import Rejected
from .commands import ReportFight, Review
from .lasting import LASTING
from .roster import character, checked, replace
from .sheet import Character, Lasting, Scar, with_shield
from .state import ARMOR, CONDITION, DIED, HP, KINDS, SHIELD, SPENT, WEAPON, Campaign, Finding

SPENDABLE = ("oil", "arrows", "torches")  # the Gear counts a fight spends
MAX_FINDINGS = 500


def report(state: Campaign, cmd: ReportFight, say) -> None:
    record = next((f for f in state.fights if f.fight == cmd.fight), None)
    if record is None:
        raise Rejected("campaign/unknown-fight", f"fight {cmd.fight!r} was not started from this campaign")
    if record.reported:
        raise Rejected("campaign/already-reported", f"fight {cmd.fight!r} is already reported")
    if len(cmd.findings) > MAX_FINDINGS:
        raise Rejected("campaign/bad-finding", f"a fight reports at most {MAX_FINDINGS} findings")
    found = []
    for f in cmd.findings:
        if f.fight != cmd.fight or f.character not in record.characters or f.kind not in KINDS:
            raise Rejected("campaign/bad-finding", f"finding {f.kind!r} for {f.character!r} is not this fight's")
        if f.kind == CONDITION and f.name not in LASTING:
            raise Rejected("campaign/bad-finding", f"{f.name!r} is no lasting condition")
        if f.kind == SPENT and f.name not in SPENDABLE:
            raise Rejected("campaign/bad-finding", f"{f.name!r} is not spent in a fight (one of {', '.join(SPENDABLE)})")
        found.append(msgspec.structs.replace(f, id=f"r{state.next_id}"))
        state.next_id += 1
    state.fights = [msgspec.structs.replace(r, reported=True) if r is record else r for r in state.fights]
    state.findings = [*state.findings, *found]
    say(f"Fight {cmd.fight} reported: {len(found)} finding(s) for the GM's review.", audience="gm")


def review(state: Campaign, cmd: Review, say) -> None:
    f = next((f for f in state.findings if f.id == cmd.finding), None)
    if f is None:
        raise Rejected("campaign/no-such-finding", f"there is no finding {cmd.finding!r} waiting on review")
    state.findings = [x for x in state.findings if x is not f]
    c = character(state, f.character)
    if not cmd.accept:
        say(f"The GM sets aside {describe(f, c)} (fight {f.fight}, event {f.event}).", audience="gm")
        return
    replace(state, checked(state, landed(state, c, f)))
    say(f"{c.sheet.name}: {describe(f, c)} (fight {f.fight}, event {f.event}).", c.id)


def describe(f: Finding, c: Character) -> str:
    match f.kind:
        case "hp":
            return f"HP {f.value}/{c.sheet.hp_max} after the fight"
        case "condition":
            return f"{f.name}{f' for {f.days} days' if f.days else ''}: {LASTING[f.name].text}"
        case "armor_damage":
            return f"{c.sheet.armor} damaged ({f.value} point(s))"
        case "shield_lost":
            return "shield shattered"
        case "weapon_broken":
            return f"{f.name} broken"
        case "spent":
            return f"{f.value} {f.name} spent"
        case _:
            return "dead"


def landed(state: Campaign, c: Character, f: Finding) -> Character:
    """The character once the finding lands on it."""
    sheet, gear, lasting, story = c.sheet, c.gear, c.lasting, c.story
    scar = Scar(state.day, describe(f, c), f.fight, f.event)
    if f.kind == HP:
        sheet = msgspec.structs.replace(sheet, hp=max(0, min(f.value, sheet.hp_max)))
    elif f.kind == CONDITION:
        effect = LASTING[f.name]
        lasting = [*lasting, Lasting(f.name, f.days, f.fight, f.event)]
        story = [*story, scar]
        if effect.figure == "cha":
            c = msgspec.structs.replace(c, abilities={**c.abilities, "cha": max(1, c.abilities.get("cha", 10) - effect.by)})
        elif effect.figure:  # 000: 'permanently reduced by 2' (as the fight lowers it: never below 1)
            sheet = msgspec.structs.replace(sheet, **{effect.figure: max(1, getattr(sheet, effect.figure) - effect.by)})
    elif f.kind == ARMOR:
        sheet = msgspec.structs.replace(sheet, armor_damage=f.value)
        beyond = sheet.armor in BEYOND_REPAIR and f.value >= BEYOND_REPAIR[sheet.armor]
        story = [*story, msgspec.structs.replace(scar, text=scar.text + (": beyond repair, it MUST be replaced" if beyond else ""))]
    elif f.kind == SHIELD:
        sheet, story = with_shield(sheet, False, state.profile, state.rules_version), [*story, scar]
    elif f.kind == WEAPON:
        at = next((i for i, w in enumerate(sheet.weapons) if w.name == f.name and not w.broken), None)
        if at is not None:
            weapons = [*sheet.weapons]
            weapons[at] = msgspec.structs.replace(weapons[at], broken=True)
            sheet = msgspec.structs.replace(sheet, weapons=weapons)
        story = [*story, scar]
    elif f.kind == SPENT:
        gear = msgspec.structs.replace(gear, **{f.name: max(0, getattr(gear, f.name) - f.value)})
    elif f.kind == DIED:
        return msgspec.structs.replace(c, dead=True, story=[*story, scar])
    return msgspec.structs.replace(c, sheet=sheet, gear=gear, lasting=lasting, story=story)
