"""Profile ll-house (000): the DEATH AND DYING CHART at 0 HP, waking up, bleeding out and
staunching the wound (DC11). Every die is forced; the numbers are 000's."""

import pytest
from ll_house_scenes import act, alda, fight, orc
from scenes import rejected, texts, who

from fray_table.rules.charts import ll_house as chart

ORC_ATTACKS = act("orc", type="attack", target="alda")
ADVANCE = {"type": "advance"}


def felled(*dice, rounds=1, more=(), options=None, **figures):
    """The orc hits Alda (a PC on 3 HP) for 5: she is at -2 HP and rolls `dice` on the chart."""
    return fight(ORC_ATTACKS, *more, dice=[15, 5, *dice], combatants=[alda(pc=True, hp=3, **figures), orc()], rounds=rounds, options=options)


def test_death_chart_covers_1_to_20_once():
    covered = sorted(n for lo, hi, *_ in chart.DEATH_AND_DYING for n in range(lo, hi + 1))
    assert covered == list(range(1, 21))


def test_ko_wakes_in_1d4_rounds_with_1d4_hp():
    # 000: 'A roll of 18-20 means the character wakes up in 1d4 rounds with 1d4HP.' '20=KO. Lucky you.'
    played = felled(20, 2)
    assert "Alda falls: death and dying d20 20: KO. Lucky you. Wakes up at the end of round 3 (1d4 2) with 1d4 HP." in texts(played)
    alda_ = who(played, "alda")
    assert alda_.down and alda_.hp == -2 and alda_.conditions == ["unconscious"] and alda_.until == {"unconscious": 3}
    awake = fight(ORC_ATTACKS, ADVANCE, ADVANCE, dice=[15, 5, 20, 2, 3], combatants=[alda(pc=True, hp=3), orc()])
    assert "Alda wakes up with 3 HP." in texts(awake)
    alda_ = who(awake, "alda")
    assert not alda_.down and alda_.hp == 3 and alda_.conditions == [] and alda_.until == {}
    assert texts(awake).index("Alda wakes up with 3 HP.") > texts(awake).index("Round 3: declarations close.")


def test_scar_and_teeth():
    assert "scar" in who(felled(19, 1), "alda").conditions
    teeth = felled(18, 1, 3)
    assert "Alda loses 3 teeth." in texts(teeth) and "teeth" in who(teeth, "alda").conditions


def test_12_to_17_wake_in_2d4_rounds():
    # 000: 'A roll of 12-17 means the character wakes up in 2d4 rounds with 1d4HP.'
    played = felled(17, 3, 4)
    assert (
        "Alda falls: death and dying d20 17: Lose a fingertip, thumb, or earlobe. Could be worse. Wakes up at the end of round 8 (2d4 7) with 1d4 HP."
        in texts(played)
    )
    assert "fingertip" in who(played, "alda").conditions


def test_concussion_is_minus_one_on_attacks():
    assert "concussion" in who(felled(16, 1, 1), "alda").conditions
    played = fight(act("alda", type="attack", target="orc"), dice=[15, 2], combatants=[alda(conditions=["concussion"]), orc()])
    assert "Alda attacks Orc: d20 15 + 1 attack value - 1 concussion = 15 ≥ AC 15: hit." in texts(played)


def test_broken_collarbone_heals_in_1d4_plus_6_weeks():
    played = felled(15, 1, 1, 3)
    assert "Alda's break takes 9 weeks to heal." in texts(played) and "broken collarbone" in who(played, "alda").conditions


@pytest.mark.parametrize(("d20", "field", "before", "after"), [(14, "int_", 12, 10), (13, "dex", 14, 12)])
def test_permanent_losses(d20, field, before, after):
    # 14: 'INT permanently reduced by 2'; 13: 'DEX permanently reduced by 2'
    played = felled(d20, 1, 1, int=12)
    assert getattr(who(played, "alda"), field) == after
    assert f"Alda's {field.rstrip('_').upper()} is permanently reduced by 2: {before} → {after}." in texts(played, "wound")


def test_disfigurement():
    assert "disfigured" in who(felled(12, 1, 1), "alda").conditions


def test_bleeding_out_lingers_1d6_plus_con_bonus_rounds_then_dies():
    # 000: '10-11=Bleeding out. Roll 1d6+Con Bonus, you linger for this number of round and then you die.'
    played = felled(10, 1, con_bonus=1)
    assert (
        "Alda falls: death and dying d20 10: Bleeding out. Lingers 2 round(s) (1d6+1 Con bonus) and dies at the end of round 3, unless the wound is staunched (DC11)."
        in texts(played)
    )
    dead = fight(ORC_ATTACKS, ADVANCE, ADVANCE, dice=[15, 5, 11, 1], combatants=[alda(pc=True, hp=3, con_bonus=1), orc()])
    assert "Alda bleeds out and dies." in texts(dead)
    assert who(dead, "alda").conditions == ["dead"]
    assert texts(dead).index("Alda bleeds out and dies.") > texts(dead).index("Round 3: declarations close.")


def test_staunching_the_wound_dc11():
    # 000: 'Another character may attempt to stabilize you by staunching the wound (DC11)'
    bran = {"id": "bran", "name": "Bran", "side": "party", "hp": 6, "hp_max": 6, "x": 10, "y": 15}

    def staunched(d20):
        return fight(
            ORC_ATTACKS,
            ADVANCE,
            act("bran", type="staunch", target="alda"),
            ADVANCE,
            ADVANCE,
            dice=[15, 5, 10, 2, d20],
            combatants=[alda(pc=True, hp=3), orc(), bran],
            rounds=0,
        )

    saved = staunched(11)
    assert "Bran staunches Alda's wound: d20 11 ≥ DC11; Alda is stabilized but needs medical attention or magical healing." in texts(saved)
    assert who(saved, "alda").conditions == ["stabilized"] and who(saved, "alda").until == {}
    lost = staunched(10)
    assert "Bran fails to staunch Alda's wound: d20 10 < DC11." in texts(lost)
    assert "Alda bleeds out and dies." in texts(lost)


def test_staunch_needs_a_bleeding_target():
    played = fight(act("alda", type="staunch", target="orc"), rounds=0)
    assert rejected(played) == ["ll-house/not-bleeding"]


@pytest.mark.parametrize(
    ("d20", "words"), [(9, "You succumb to your injuries."), (8, "dramatic death speech"), (7, "Death is instantaneous!"), (1, "beheaded")]
)
def test_death(d20, words):
    played = felled(d20)
    assert words in texts(played, "down")[-1]
    assert who(played, "alda").conditions == ["dead"] and who(played, "alda").down


def test_who_rolls_on_the_chart():
    # Option death_chart: 'pcs' (default), 'all', 'off'. A monster with no roll dies.
    monster = fight(act("alda", type="attack", target="orc"), dice=[15, 8])
    assert "Orc falls, dead." in texts(monster) and who(monster, "orc").conditions == ["dead"]
    everyone = fight(act("alda", type="attack", target="orc"), dice=[15, 8, 20, 1], options={"death_chart": "all"})
    assert "Orc falls: death and dying d20 20: KO. Lucky you." in texts(everyone, "down")[0]
    nobody = felled(options={"death_chart": "off"})
    assert "Alda falls, dead." in texts(nobody)


def test_other_harm_at_zero_hp_rolls_the_chart_too():
    # A fumble that takes its maker to 0 HP goes through the same chart (rules.holmes.damage.fall).
    played = fight(act("alda", type="attack", target="orc"), dice=[1, 4, 2, 20, 1], combatants=[alda(pc=True, hp=2), orc()])
    assert "Alda takes 2 damage (fumble), 0 HP left." in texts(played)
    assert "Alda falls: death and dying d20 20: KO. Lucky you." in texts(played, "down")[0]
