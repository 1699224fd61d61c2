"""Profile `challenges` (document 001): the Challenges System attack chart adapted to
LotFP. One roll, Attack Result = d20 + Attack Bonus - AC, graded on the chart
(rules/charts/attack_result.py); Light, Serious and Critical wounds; the natural 1
and 20. Over holmes-phases, it replaces the attack roll and the initiative order, and adds
the wounds."""

from ..charts import thac0
from ..holmes.options import COMMON_FIGURES
from ..ruleset import Module, Profile
from . import attack, initiative, natural, wounds
from .options import CHALLENGES

PROFILE_NAME = "challenges"
BASE = 1  # 001: 'It starts at +1 for all characters.'


def attack_bonus(state, c) -> int:
    """001's 'net Attack Bonus': the combatant's own figure, else the base +1 (option
    attack_bonus = 'hit-table' reads 002's table as 003 does), less its wounds."""
    if c.attack_bonus is not None:
        base = c.attack_bonus
    elif state.options.get("attack_bonus", "base") == "hit-table":
        base = thac0.combat_bonus(c.klass, c.level, c.hd, c.hd_plus, c.rank, str(state.options.get("demihuman_thac0", "fighter")))
    else:
        base = BASE
    return base + wounds.penalty(state, c)


PROFILE = Profile(
    name=PROFILE_NAME,
    document="001_2000a7d525ea5a8f.txt",
    title="Challenges attack chart for LotFP (001)",
    ac_style="ascending",
    options=CHALLENGES,
    common_figures=COMMON_FIGURES,
    base="holmes-phases",
    modules=(
        Module(
            "to_hit",
            "001: one roll, Attack Result = d20 + Attack Bonus - AC read on the attack chart, from a clumsy miss to a "
            "mighty hit with its wound, and its own natural 1 and 20.",
            hooks={"melee_roll": attack.strike, "shot": attack.shot, "combat_bonus": attack_bonus},
            steps={natural.NATURAL_20_KIND: attack.pending},  # a natural 20 settled as chosen
            prompts={natural.NATURAL_20_KIND: natural.chosen, natural.EXTRA_ATTACK_KIND: natural.aimed},
            answers=natural.ANSWERS,
            former=natural.FORMER,
            round_end=(initiative.end_of_round,),  # what its misses cost lapses under any initiative (a -9 drop picked up)
            options=("attack_bonus", "double_damage", "save_vs_paralyzation", "drop_forfeits"),
            decides=("criticals", "fumbles"),
            why="001's one-roll attack chart decides its own natural 1 ('Miss clumsily') and natural 20",
        ),
        Module(
            wounds.MODULE,
            "001: a strong or mighty Hit 'also inflicts a Light wound (-1 to attack rolls, etc.)', a Serious wound (-3) "
            "or a Critical wound (-5); 'bad factors decrease it [Attack Bonus], like fighting while suffering from one or "
            "more Wounds'. Without it 001's chart deals its Hits' damage and no wound.",
            options=("wound_penalties", "wound_slows"),
            needs=("to_hit",),
            why="001's wounds are what its attack chart's strong and mighty Hits inflict (an Attack Result of +3 or more)",
        ),
        Module(
            "initiative",
            "001: initiative lost and the penalties of the chart's results count against Dexterity order.",
            hooks={"order": initiative.order},
            round_end=(initiative.end_of_round,),
        ),
    ),
)
