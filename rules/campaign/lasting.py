"""The lasting effects of the documents, as data: what each condition a fight leaves on a
character does in the campaign, and how long it lasts in in-game days. The condition's
word is the one the fight's rules write (rules.charts.ll_house, rules.charts.attack_result),
imported, never retyped."""

from msgspec import Struct

from ..charts.attack_result import WOUND as SUFFIX
from ..charts.attack_result import WOUNDS
from ..charts.ll_house import CONCUSSION, DEATH_AND_DYING, HEAL_WEEKS, LIMB, LOSS

WEEK = 7  # days


class Effect(Struct, frozen=True, omit_defaults=True):
    """What a lasting condition does between fights."""

    text: str  # in the document's words
    days: int = 0  # in-game days it lasts; 0: until healed (`healed`) or for good (`permanent`)
    rest: bool = False  # only days of rest count toward `days` (000: 'until you rest for 1 week')
    rolled: str = ""  # its days are rolled in the fight, in weeks (000: 'Takes 1d4+6 weeks to heal')
    permanent: bool = False  # no healing ends it
    healed: bool = False  # 'medical attention/magical healing' ends it (the GM's `heal`)
    figure: str = ""  # a figure it lowers for good, and by how much (000: 'permanently reduced by 2')
    by: int = 0
    penalty: int = 0  # to attacks and checks while it lasts


def _chart(effect: str) -> str:
    return next(row[4] for row in DEATH_AND_DYING if row[3] == effect)


LASTING: dict[str, Effect] = {
    # 000, DEATH AND DYING CHART 19: 'Gain faint but noticeable scar on your eyebrow or cheek.'
    "scar": Effect(_chart("scar"), permanent=True),
    # 000, DEATH AND DYING CHART 18: 'Lose 1d4 teeth.'
    "teeth": Effect(_chart("teeth"), permanent=True),
    # 000, DEATH AND DYING CHART 17: 'Lose a fingertip, thumb, or earlobe.'
    "fingertip": Effect(_chart("fingertip"), permanent=True),
    # 000, DEATH AND DYING CHART 16: 'at -1 penalty until you rest for 1 week'
    "concussion": Effect(_chart("concussion"), days=WEEK, rest=True, penalty=CONCUSSION),
    # 000, DEATH AND DYING CHART 15: '-3 penalty ... until medical attention/magical healing ... Takes 1d4+6 weeks to heal.'
    "broken collarbone": Effect(_chart("broken collarbone"), rolled=HEAL_WEEKS, healed=True, penalty=-3),
    # 000, DEATH AND DYING CHART 14: 'INT permanently reduced by 2.'
    "head wound": Effect(_chart("head wound"), permanent=True, figure=LOSS["head wound"][0], by=LOSS["head wound"][1]),
    # 000, DEATH AND DYING CHART 13: 'Lose an eye or limb. DEX permanently reduced by 2.'
    "lost eye or limb": Effect(_chart("lost eye or limb"), permanent=True, figure=LOSS["lost eye or limb"][0], by=LOSS["lost eye or limb"][1]),
    # 000, DEATH AND DYING CHART 12: 'CHA permanently reduced by 2.' (CHA: a score no fight reads, rules.campaign.sheet)
    "disfigured": Effect(_chart("disfigured"), permanent=True, figure="cha", by=2),
    # 000, DEATH AND DYING CHART 10-11: 'you need immediate medical attention or magical healing' (once stabilized)
    "stabilized": Effect("Stabilized; needs medical attention or magical healing.", healed=True),
    # 000, LIMB TABLE: each limb chopped or shattered, lasting until magic heals it (a ruling: docs/campaign.md)
    **{name: Effect(f"{name}: {cost}", healed=True) for name, cost in LIMB.values()},
    # 001, the Challenges attack chart: 'a Light wound (-1 to attack rolls, etc.)', Serious (-3), Critical (-5);
    # 001 gives no time to heal them: they last until the GM heals them.
    **{
        grade + SUFFIX: Effect(f"A {grade.capitalize()} wound (-{points} to attack rolls, etc.)", healed=True, penalty=-points)
        for grade, points in WOUNDS.items()
    },
}


def days_of(effect: str, weeks: int) -> int:
    """The days a condition lasts: its own, or `weeks` rolled in the fight."""
    e = LASTING[effect]
    return weeks * WEEK if e.rolled else e.days
