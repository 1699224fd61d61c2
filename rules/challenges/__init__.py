"""Profile `challenges` (document 001): the Challenges System attack chart adapted to
LotFP. One roll, Attack Result = d20 + Attack Bonus - AC, graded on the chart
(rules/charts/attack_result.py); Light, Serious and Critical wounds; the natural 1
and 20. Importing this package registers it in the shared seams; rules.resolve
imports it and merges RESUME, STEPS and ROUND_ENDS."""

from fray_table.rules import combat, fighters, ranged
from fray_table.rules import round as round_
from fray_table.rules.challenges import attack, initiative, natural, wounds
from fray_table.rules.charts import thac0

PROFILE = "challenges"
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


combat.ROLLS[PROFILE] = attack.strike
ranged.SHOTS[PROFILE] = attack.shot
fighters.COMBAT_BONUS[PROFILE] = attack_bonus
round_.ORDER[PROFILE] = initiative.order

# Merged into rules.resolve's registries (this package is imported before they exist).
RESUME = {"natural-20": natural.chosen, "extra-attack": natural.aimed}
STEPS = {"natural-20": attack.pending}
ROUND_ENDS = {PROFILE: initiative.end_of_round}
