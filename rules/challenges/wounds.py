"""001's Wounds: 'a Light wound (-1 to attack rolls, etc.)', Serious (-3), Critical (-5).

A wound is a condition on the combatant ('light wound'), listed once per wound so
the table sees it on the card and the GM heals it by editing the conditions. Its
penalty lowers the Attack Bonus ('bad factors decrease it, like fighting while
suffering from one or more Wounds') and, as the example has it ('-1 on to-hit
rolls, saves, etc.'), saving throws. Option `wound_penalties`: every wound counts
(`stack`), or only the worst (`worst`). Option `wound_slows`: feet of movement each
point of wound penalty costs ('the DM rules that he is moving 3 points slower');
0, the default, leaves movement to the GM.

The wounds are a module of their own (`wounds`): an encounter that takes 001's
`to_hit` without it plays the chart's strong and mighty Hits for their damage
alone, the wound each row names left off (and off the log's words), and a wound
written on a card costs nothing. The module needs 001's `to_hit`: only its chart
inflicts wounds."""

import re

import msgspec

from ..charts.attack_result import WOUND, WOUNDS, Grade, grade
from ..context import Context
from ..model import Combatant, Encounter
from ..ruleset import rules_of

MODULE = "wounds"
PROFILE = "challenges"
SUFFIX = WOUND
INFLICTS = re.compile(r" that also inflicts an? \w+ wound( \([^)]*\))?")  # the wound clause of a chart row's words


def taken(state: Encounter) -> bool:
    """Whether the encounter's rules take 001's wounds."""
    return rules_of(state).modules.get(MODULE, ("",))[0] == PROFILE


def graded(state: Encounter, result: int) -> Grade:
    """The chart's row for an Attack Result, its wound left off where the encounter takes no wounds."""
    g = grade(result)
    if not g.wound or taken(state):
        return g
    return msgspec.structs.replace(g, wound="", effect=INFLICTS.sub("", g.effect))


def condition(wound: str) -> str:
    return wound + SUFFIX  # 'light wound'


def wounds_of(c: Combatant) -> list[str]:
    """The wounds `c` suffers, in the order taken: ['light', 'serious']."""
    return [x[: -len(SUFFIX)] for x in c.conditions if x.endswith(SUFFIX) and x[: -len(SUFFIX)] in WOUNDS]


def penalties(state: Encounter, c: Combatant) -> list[tuple[str, int]]:
    """Each wound that counts, as a term of a sum: [('light wound', -1)]."""
    suffered = wounds_of(c)
    if not suffered or not taken(state):
        return []
    if state.options.get("wound_penalties", "stack") == "worst":
        suffered = [max(suffered, key=lambda w: WOUNDS[w])]
    return [(condition(w), -WOUNDS[w]) for w in suffered]


def penalty(state: Encounter, c: Combatant) -> int:
    return sum(v for _, v in penalties(state, c))


def inflict(ctx: Context, attacker: Combatant, target: Combatant, wound: str) -> None:
    """A wound the chart inflicts; a foe already down takes none (001: 'not quite enough
    to kill this tough 15 hit point Gnoll, so he also suffer a Light Wound')."""
    if target.down:
        return
    before = penalty(ctx.state, target)
    target.conditions.append(condition(wound))
    ctx.log(
        "wound",
        f"{target.name} suffers a {wound.capitalize()} wound (-{WOUNDS[wound]} to attack rolls and saves); "
        f"now {', '.join(f'{n} {v}' for n, v in penalties(ctx.state, target))}.",
        actor=attacker.id,
        target=target.id,
        total=-WOUNDS[wound],
    )
    slows = int(ctx.state.options.get("wound_slows", 0)) * (before - penalty(ctx.state, target))
    if slows:
        was, target.move = target.move, max(0, target.move - slows)
        ctx.log("wound", f"{target.name} moves {was - target.move} ft slower: {was} -> {target.move} ft a round.", target=target.id)


def save(ctx: Context, c: Combatant, against: str, need: int) -> bool:
    """A saving throw: d20, less the wounds' penalty, at least `need`."""
    d20 = ctx.dice.roll(20, f"{c.name} saves vs. {against}")
    terms = penalties(ctx.state, c)
    total = d20 + sum(v for _, v in terms)
    made = total >= need
    shown = "".join(f" - {-v} {n}" for n, v in terms)
    ctx.log(
        "save",
        f"{c.name} saves vs. {against}: d20 {d20}{shown} = {total} {'≥' if made else '<'} {need}: {'made' if made else 'failed'}.",
        actor=c.id,
        mods=terms,
        total=total,
        need=need,
    )
    return made
