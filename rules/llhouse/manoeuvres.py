"""000's COMBAT MANEUVERS AVAILABLE TO ALL PLAYER CHARACTERS as declarations: shield
bash (and IMPROVED SHIELD BASH), two-weapon fighting, and staunching a bleeding wound;
with the checks 000's limbs and shields put on every declaration, and the choices the
browser builds its panels from. Parry is 003's declaration with 000's bonus (rules.llhouse.improved)."""

from ..actions import (
    Attack,
    Charge,
    Parry,
    SetSpear,
    ShieldBash,
    Staunch,
    TwoWeapons,
    tag,
)
from ..charts.ll_house import SHIELD_BASH
from ..context import Context, LineFields, lookup, said
from ..errors import Rejected
from ..grid import distance
from ..holmes.actions import delay_choices
from ..holmes.fighters import able, usable
from ..holmes.terms import modifiers
from ..model import Combatant, Encounter, Step, Weapon
from .attack import log_roll, terms_of
from .criticals import KNOCKED_DOWN
from .damage import land
from .dying import BLEEDING
from .figures import hands, maneuvers_open, may_wield, natural_20_hits, rank, shield_ready
from .improved import parry_bonus

BASH_REACH = 5  # a shield strikes at arm's length (a ruling)
EXTRAS_FIRST = ("shoot", "throw_oil")  # where 003's missile and oil actions begin in a combatant's list
SHIELD = Weapon(name="shield", damage=SHIELD_BASH)


def bash(ctx: Context, actor: Combatant, action: ShieldBash, step: Step) -> None:
    """000: 'Make a normal attack roll, success means the victim takes 1d3 damage. A roll of
    20 means the victim is also knocked down'; IMPROVED SHIELD BASH: 'One Rank= Dam 1d3x2, KO
    if you roll a 19-20. Two Ranks= Dam 1d3x3, KO if you roll a 18-20 ... Etc.'"""
    state = ctx.state
    target = bashed(ctx, actor, action)
    if target is None:
        return
    mods, ac = terms_of(state, actor, target, SHIELD, "attack", False)
    parry, parry_text = parry_bonus(state, target)
    d20 = ctx.dice.roll(20, f"{actor.name} shield-bashes {target.name}")
    total = d20 + sum(v for _, v in mods)
    hit = total >= ac + parry or (d20 == 20 and natural_20_hits(state))
    log_roll(ctx, actor, target, "shield-bashes", d20, mods, ac, parry_text, parry, hit, False, False)
    if hit:
        bash_lands(ctx, actor, target, d20)


def bash_on_own_roll(ctx: Context, actor: Combatant, action: ShieldBash, step: Step) -> None:
    """Rules version 8: 000's 'normal attack roll' is the fight's own (hook `bare_roll`: 003's
    'd20 + combat bonus + AC' against 19, or 000's d20 + Attack Value against AC), with the terms
    of a blow (surprise, prone...) and the fight's parry (hook `parry`). The shield is no
    weapon: its 20 is no critical and hits only if the roll reaches the AC (docs/rulings.md)."""
    state = ctx.state
    target = bashed(ctx, actor, action)
    if target is None:
        return
    mods = modifiers(state, actor, target, SHIELD, "attack", False)
    ctx.rules.parry(state, target, mods, True)
    _, ac = mods.pop()  # 003's last term: the target's AC, descending
    hit, d20 = ctx.rules.bare_roll(ctx, actor, f"shield-bashes {target.name}", ac, mods, target.id)
    if hit:
        bash_lands(ctx, actor, target, d20)


def bashed(ctx: Context, actor: Combatant, action: ShieldBash) -> Combatant | None:
    """The shield bash's target, if the basher can bash it now (else None, logged)."""
    target = lookup(ctx.state, action.target)
    who = LineFields(actor=actor.id, target=action.target)
    if target is None or target.down:
        ctx.log("attack", f"{actor.name}'s shield bash has no target.", **who)
        return None
    if KNOCKED_DOWN in actor.conditions or not able(actor) or not shield_ready(actor):
        ctx.log("attack", f"{actor.name} cannot shield-bash ({'no shield to bash with' if not shield_ready(actor) else 'not on its feet'}).", **who)
        return None
    if distance(actor, target) > BASH_REACH:
        ctx.log("attack", **said(f"{actor.name} cannot reach {target.name} with the shield", (f" ({distance(actor, target)} ft away)", ""), "."), **who)
        return None
    return target


def bash_lands(ctx: Context, actor: Combatant, target: Combatant, d20: int) -> None:
    """'success means the victim takes 1d3 damage. A roll of 20 means the victim is also knocked down'."""
    who = LineFields(actor=actor.id, target=target.id)
    ranks = rank(actor, "improved_shield_bash")
    rolled = ctx.dice.roll_dice(SHIELD_BASH, f"shield bash damage to {target.name}")
    points = rolled * (1 + ranks)
    knocks = d20 >= 20 - ranks
    shown = f"{SHIELD_BASH} {rolled}" + (f" x {1 + ranks}" if ranks else "")
    ctx.log(
        "hit",
        f"{actor.name} rolls {points} damage against {target.name} ({shown}){'; d20 ' + str(d20) + ' knocks it down' if knocks else ''}.",
        total=points,
        **who,
    )
    land(ctx, actor, target, points, "bash" if knocks else "")


# --- declaration checks (check_declaration of 000's to_hit) ---------------------------


def check(state: Encounter, actor: Combatant, action) -> None:
    """000 on every declaration of the profile; raises Rejected, changes nothing."""
    weapon = getattr(action, "weapon", None)
    if isinstance(action, Attack | Charge | SetSpear | Parry | TwoWeapons) and weapon is not None and 0 <= weapon < len(actor.weapons):
        if not may_wield(actor, actor.weapons[weapon]):
            hurt = [x for x in actor.conditions if x.split(" ")[-1] in ("hand", "elbow", "shoulder")]
            raise Rejected(
                "ll-house/limb", f"{actor.name} cannot wield the {actor.weapons[weapon].name} ({', '.join(hurt) or 'too few hands'}: 000's limb table)"
            )
    check_maneuver(state, actor, action)


def check_maneuver(state: Encounter, actor: Combatant, action) -> None:
    """A shield bash's, two weapons' or staunching's declaration (check_declaration of 000's
    maneuvers from rules version 8, whatever the roll); raises Rejected, changes nothing."""
    match action:
        case ShieldBash() | TwoWeapons() | Staunch():
            target = lookup(state, action.target)
            if target is None:
                raise Rejected("declare/unknown-target", f"there is no combatant {action.target!r}")
            if target.id == actor.id:
                raise Rejected("declare/self-target", f"{actor.name} cannot target itself")
    match action:
        case ShieldBash():
            if not maneuvers_open(state, actor):
                raise Rejected("ll-house/pcs-only", f"{actor.name} is not a player character (option maneuvers = 'pcs')")
            if not shield_ready(actor):
                raise Rejected("ll-house/no-shield", f"{actor.name} has no shield to bash with")
            bashed = lookup(state, action.target)
            assert bashed is not None  # looked up above
            if bashed.down:
                raise Rejected("melee/target-down", f"{bashed.name} is already down")
        case TwoWeapons():
            check_two_weapons(state, actor, action)
        case Staunch():
            staunched = lookup(state, action.target)
            assert staunched is not None  # looked up above
            if BLEEDING not in staunched.conditions:
                raise Rejected("ll-house/not-bleeding", f"{staunched.name} is not bleeding out")


def check_two_weapons(state: Encounter, actor: Combatant, action: TwoWeapons) -> None:
    """000: 'Both must be One-Handed Weapons. Plus, the weapon in you Off Hand must be the same
    size or smaller' (option 'one-roll'); 'must be smaller' (option 'both'). Size is `length`."""
    if not maneuvers_open(state, actor):
        raise Rejected("ll-house/pcs-only", f"{actor.name} is not a player character (option maneuvers = 'pcs')")
    for i in (action.weapon, action.off_hand):
        if not 0 <= i < len(actor.weapons):
            raise Rejected("declare/no-such-weapon", f"{actor.name} has no weapon number {i}")
        if not usable(actor.weapons[i]):
            raise Rejected("melee/weapon-unusable", f"{actor.name}'s {actor.weapons[i].name} is {'broken' if actor.weapons[i].broken else 'dropped'}")
    main, off = actor.weapons[action.weapon], actor.weapons[action.off_hand]
    if action.weapon == action.off_hand:
        raise Rejected("ll-house/one-weapon", "two-weapon fighting takes two different weapons")
    if main.hands != 1 or off.hands != 1:
        raise Rejected("ll-house/two-handed", "both must be one-handed weapons")
    strict = state.options.get("two_weapon_fighting", "one-roll") == "both"
    if off.length > main.length or (strict and off.length == main.length):
        raise Rejected(
            "ll-house/off-hand-too-big", f"the off-hand {off.name} must be {'smaller than' if strict else 'the same size or smaller than'} the {main.name}"
        )
    if hands(actor) < 2:
        raise Rejected("ll-house/limb", f"{actor.name} has not two hands to fight with (000's limb table)")


def describe(state: Encounter, action) -> str:
    target = lookup(state, action.target)
    name = target.name if target else action.target
    return {"shield_bash": f"shield bash {name}", "two_weapons": f"fight {name} with two weapons", "staunch": f"staunch {name}'s wound"}[tag(action)]


def choices(state: Encounter, c: Combatant, listed: list, kinds: tuple[str, ...] = ("shield_bash", "two_weapons", "staunch")) -> list:
    """000's maneuvers' choices: 003's list with the 000 declarations of `kinds` open to `c` now,
    each with its `delay`, after 003's melee and footing ones (before its missiles and oil)."""
    from ..view import (
        Choice,  # rules.view imports the round's modules: import at use
    )

    foes = [t.id for t in state.combatants if t.id != c.id and not t.down and t.side != c.side]
    out: list[dict] = []
    if "shield_bash" in kinds and foes and shield_ready(c) and maneuvers_open(state, c):
        out.append(dict(type="shield_bash", targets=foes))
    one_handed = [i for i, w in enumerate(c.weapons) if usable(w) and w.hands == 1 and w.range == 0]
    if "two_weapons" in kinds and foes and len(one_handed) >= 2 and hands(c) >= 2 and maneuvers_open(state, c):
        out.append(dict(type="two_weapons", targets=foes, options={"weapon": one_handed, "off_hand": one_handed}))
    bleeding = [t.id for t in state.combatants if t.id != c.id and BLEEDING in t.conditions]
    if "staunch" in kinds and bleeding:
        out.append(dict(type="staunch", targets=bleeding))
    for fields in out:
        later = delay_choices(fields["type"])
        if later:
            fields["options"] = {**fields.get("options", {}), "delay": later}
    at = next((i for i, ch in enumerate(listed) if ch.type in EXTRAS_FIRST), len(listed))
    return listed[:at] + [Choice(**fields) for fields in out] + listed[at:]


def shield_choices(state: Encounter, c: Combatant, listed: list) -> list:
    """Rules version 8's maneuvers module: the shield bash (and staunching, as before)."""
    return choices(state, c, listed, ("shield_bash", "staunch"))


def two_weapon_choices(state: Encounter, c: Combatant, listed: list) -> list:
    """Rules version 8's two_weapons module."""
    return choices(state, c, listed, ("two_weapons",))
