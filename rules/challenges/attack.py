"""001's one roll: 'Attack Result = d20 Roll + your (modified) Attack Bonus - foe's
Armor Class', read on the Attack Chart. A melee strike comes here from
rules.holmes.combat.strike (hook `melee_roll`), a missile from rules.holmes.ranged.shoot (hook `shot`).

003's situational terms (surprise, charge, from behind, prone, called shots, parry,
the counter after a parry) still apply: 001 is silent on them. 003's sum hits when
d20 + bonus + (19 - AC) >= 19, that is when the Attack Result is 0 or more, so its
terms and caps carry over unchanged (a normal Hit is 003's hit)."""

from msgspec import Struct

from ..charts.attack_result import NATURAL_1, NATURAL_20, Grade
from ..context import Context, LineFields, lookup, own_terms, reckoned, said
from ..holmes import subdual
from ..holmes.combat import in_melee, parried
from ..holmes.damage import damage_dice, extra_dice, gawper_struck, lose_hp
from ..holmes.kinds import STRIKE
from ..holmes.terms import call_shots, called_in, declaration, modifiers, parry_term, parrying
from ..model import Combatant, Step, Weapon
from . import chart, initiative, natural, wounds

HIT_FROM = -3  # 001: from '-3 Glancing blow' up, the attack does damage
VERB = {
    "double": "attacks (twice)",
    "routine": "attacks (routine)",
    "charge": "charges",
    "counter": "counter-attacks",
    "set": "meets the charge of",
    "riposte": "counter-attacks after parrying",
    "extra": "makes an extra attack on",
}


class Blow(Struct, frozen=True):
    """One rolled attack. While a natural 20 waits for its choice it is the natural_20
    step's fields of the same names (rules.model.Step, which says what each is)."""

    actor: str
    target: str
    weapon: int
    mode: str
    attack_result: int
    called_shots: int = 0
    parry: int = 0


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def attack_terms(ctx: Context, attacker: Combatant, mods: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """003's terms with its 'combat bonus' (rules.holmes.fighters, wounds included) shown as
    001's Attack Bonus and each wound apart."""
    penalties = wounds.penalties(ctx.state, attacker)
    out = []
    for name, value in mods:
        if name == "combat bonus":
            out.append(("attack bonus", value - sum(v for _, v in penalties)))
            out += penalties
        else:
            out.append((name, value))
    if not any(name == "combat bonus" for name, _ in mods):
        out += penalties  # the bonus of multiple attacks (003) is fixed; wounds still count
    return out


def sum_text(d20: int, terms: list[tuple[str, int]], ac: int) -> str:
    return f"d20 {d20}" + "".join(f" {'-' if v < 0 else '+'} {abs(v)} {n}" for n, v in terms) + f" - AC {ac}"


def strike(ctx: Context, step: Step, attacker: Combatant, target: Combatant, weapon: Weapon) -> None:
    """Hook `melee_roll` of 001's to_hit: a melee strike that can be made."""
    if initiative.forfeited(ctx, attacker, target):
        return
    state = ctx.state
    _, behind, wanted = declaration(state, attacker, step.mode)
    mods = modifiers(state, attacker, target, weapon, step.mode, behind)
    called = call_shots(ctx, attacker, target, mods, wanted, " for a normal Hit")
    _, penalty = parry_term(state, target, mods, in_melee(attacker, target, weapon))
    ac_name, descending_ac = mods.pop()
    ac = 19 - descending_ac
    terms = attack_terms(ctx, attacker, mods)
    d20 = ctx.dice.roll(20, f"{attacker.name} attacks {target.name}")
    blow = Blow(attacker.id, target.id, step.weapon, step.mode, d20 + sum(v for _, v in terms) - ac, called, penalty)
    shield = " (shield ignored)" if ac_name != "target AC" else ""
    roll(ctx, blow, d20, f"{attacker.name} {VERB.get(step.mode, 'attacks')} {target.name}", f"{sum_text(d20, terms, ac)}{shield}", terms)


def shot(ctx: Context, attacker: Combatant, target: Combatant, index: int, mods: list[tuple[str, int]]) -> None:
    """Hook `shot` of 001's to_hit: a missile that reaches its target, with 003's and 002's
    terms (surprise, weapon bonus, range, cover) in `mods`."""
    if initiative.forfeited(ctx, attacker, target):
        return
    terms = attack_terms(ctx, attacker, mods)
    weapon = attacker.weapons[index]
    d20 = ctx.dice.roll(20, f"{attacker.name} shoots at {target.name}")
    blow = Blow(attacker.id, target.id, index, "shot", d20 + sum(v for _, v in terms) - target.ac, called_in(mods, target))
    roll(ctx, blow, d20, f"{attacker.name} shoots at {target.name} ({weapon.name})", sum_text(d20, terms, target.ac), terms)


def roll(ctx: Context, blow: Blow, d20: int, head: str, sums: str, terms: list[tuple[str, int]]) -> None:
    """Log the roll (`head`: who attacks whom; `sums`: the d20 and its terms) and read it:
    a natural 1, a natural 20 (a choice), or the chart."""
    who = LineFields(actor=blow.actor, target=blow.target)
    own = own_terms(d20, terms)  # the roller's own terms, for the table when the target's figures are hidden
    sums = f"{sums} = Attack Result {signed(blow.attack_result)}"
    dice = f"d20 {d20}"
    g = wounds.graded(ctx.state, blow.attack_result)
    if d20 == 1:
        ctx.log(
            "attack",
            **reckoned(head, f"{sums}, but a natural 1", dice, NATURAL_1.effect, f"{own}, but a natural 1"),
            **who,
            mods=terms,
            total=blow.attack_result,
        )
        settle(ctx, blow, NATURAL_1)
    elif d20 == 20:
        outcome = f"{g.effect}, or a normal Hit plus an immediate extra attack"
        ctx.log("attack", **reckoned(head, f"{sums} and a natural 20", dice, outcome, f"{own} and a natural 20"), **who, mods=terms, total=blow.attack_result)
        natural.ask(ctx, blow)
    else:
        ctx.log("attack", **reckoned(head, sums, dice, g.effect, own), **who, mods=terms, total=blow.attack_result)
        settle(ctx, blow, g)


def settle(ctx: Context, blow: Blow, g: Grade) -> None:
    """Everything grade `g` does: damage, a wound, and what follows (rules.challenges.initiative, natural)."""
    state = ctx.state
    attacker, target = lookup(state, blow.actor), lookup(state, blow.target)
    if attacker is None or target is None:
        return
    weapon = attacker.weapons[blow.weapon]
    action, _, _ = declaration(state, attacker, blow.mode)
    if g.damage != "none":
        points, how = chart.points(ctx, g, target, damage_dice(ctx, weapon, blow.mode), extra_dice(blow.called_shots, blow.mode))
        if getattr(action, "subdue", False):
            subdual.take(ctx, attacker, target, points, how)  # 003: tracked apart, and wounds no one
        else:
            lose_hp(ctx, target, points, how, attacker.id)
            if g.wound:
                wounds.inflict(ctx, attacker, target, g.wound)
        gawper_struck(ctx, target, blow.mode)
    follow(ctx, attacker, target, blow, g)


def follow(ctx: Context, attacker: Combatant, target: Combatant, blow: Blow, g: Grade) -> None:
    match g.after:
        case "forfeit":
            initiative.forfeit(ctx, attacker)
        case "save-or-drop":
            natural.save_or_drop(ctx, attacker, blow.weapon)
        case "lose-initiative":
            initiative.lose_initiative(ctx, attacker)
        case "initiative":
            initiative.initiative_penalty(ctx, attacker, g.initiative)
        case "extra-attack":
            natural.extra_attack(ctx, attacker, target, blow.weapon)
    weapon = attacker.weapons[blow.weapon]
    index = parrying(ctx.state, target) if blow.mode != "shot" and in_melee(attacker, target, weapon) else None
    if g.damage == "none" and index is not None:  # 003: a parried miss may disarm, or open a counter-attack
        step = Step(phase=ctx.state.phase, actor=attacker.id, kind=STRIKE, target=target.id, weapon=blow.weapon, mode=blow.mode)
        parried(ctx, attacker, target, weapon, index, step, blow.attack_result + blow.parry >= HIT_FROM)


def pending(ctx: Context, step: Step) -> None:
    """Step natural_20: the natural 20 settled as its attacker chose (rules.challenges.natural)."""
    step = natural.unpacked(step)
    blow = Blow(step.actor, step.target, step.weapon, step.mode, step.attack_result, step.called_shots, step.parry)
    chosen = NATURAL_20 if step.choice == natural.EXTRA else wounds.graded(ctx.state, blow.attack_result)
    attacker = lookup(ctx.state, step.actor)
    if attacker is not None:
        taken = "a normal Hit and an extra attack" if chosen is NATURAL_20 else (f"the Attack Result {signed(blow.attack_result)}", "the Attack Result")
        ctx.log("attack", **said(f"{attacker.name} takes ", taken, f": {chosen.effect}."), actor=attacker.id, target=step.target)
    settle(ctx, blow, chosen)
