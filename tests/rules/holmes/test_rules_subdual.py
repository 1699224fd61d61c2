"""Subdual (003): declared before the attack, tracked apart from killing damage, and at
the end of a round in which it was sustained, the percentage of maximum HP taken is
the chance (d100 below it) that the creature surrenders."""

from scenes import ADVANCE, declare, fighter, started, texts

ALDA = fighter("alda", "party", dex=14, x=0, y=0)
ORC = fighter("orc", "orcs", ac=10, x=5, y=0)  # AC 9 descending: d20 10 hits


def run(*commands, dice=(), combatants=(ALDA, ORC)):
    return started(combatants, *commands, dice=dice)


SUBDUE = declare("alda", {"type": "attack", "target": "orc", "subdue": True})


def orc(played):
    return next(c for c in played.state.combatants if c.id == "orc")


def test_subdual_damage_is_tracked_apart_from_hp():
    # d20 15 hits; d6 4 subdual damage: HP untouched, subdual 4 of 10.
    played = run(SUBDUE, ADVANCE, dice=[15, 4, 50])
    assert texts(played, "damage") == ["Orc takes 4 subdual damage (1d6), 4 of 10 max HP."]
    assert (orc(played).hp, orc(played).subdual, orc(played).down) == (10, 4, False)


def test_subdual_surrender_roll_below_the_percentage():
    # 4 of 10 max HP is 40%: 'a roll below that number on percentile dice' - 39 surrenders.
    played = run(SUBDUE, ADVANCE, dice=[15, 4, 39])
    assert texts(played, "subdual") == ["Orc surrenders: d100 39 < 40% (subdual 4 of 10)."]
    assert orc(played).conditions == ["surrendered"]


def test_subdual_roll_equal_to_the_percentage_fights_on():
    played = run(SUBDUE, ADVANCE, dice=[15, 4, 40])
    assert texts(played, "subdual") == ["Orc fights on: d100 40 ≥ 40% (subdual 4 of 10)."]
    assert orc(played).conditions == []


def test_subdual_percentage_rounds_down():
    # 3 of 8 max HP is 37.5%: 37 (whole percent, rounded down); 37 is not below it.
    played = run(SUBDUE, ADVANCE, dice=[15, 3, 37], combatants=(ALDA, {**ORC, "hp": 8, "hp_max": 8}))
    assert texts(played, "subdual") == ["Orc fights on: d100 37 ≥ 37% (subdual 3 of 8)."]


def test_subdual_checked_only_in_rounds_with_subdual_damage():
    # Round 2: Alda misses (d20 2); no subdual sustained, no d100 rolled.
    played = run(SUBDUE, ADVANCE, SUBDUE, ADVANCE, dice=[15, 4, 50, 2])
    assert len(texts(played, "subdual")) == 1
    assert orc(played).subdual == 4


def test_subdual_adds_up_over_rounds():
    # Round 1: 4 (40%, d100 50 fights on); round 2: 3 more, 7 of 10 = 70%, d100 69 surrenders.
    played = run(SUBDUE, ADVANCE, SUBDUE, ADVANCE, dice=[15, 4, 50, 15, 3, 69])
    assert texts(played, "subdual")[-1] == "Orc surrenders: d100 69 < 70% (subdual 7 of 10)."


def test_subdual_at_full_hp_surrenders_without_a_roll():
    played = run(SUBDUE, ADVANCE, dice=[15, 4], combatants=(ALDA, {**ORC, "hp": 4, "hp_max": 4}))
    assert texts(played, "subdual") == ["Orc surrenders: subdual 4 of 4 max HP is 100%."]
    assert [r.sides for e in played.log for r in e.rolls if r.sides == 100] == []


def test_subdual_surrendered_creature_cannot_declare():
    played = run(SUBDUE, ADVANCE, declare("orc", {"type": "attack", "target": "alda"}), dice=[15, 4, 1])
    rejected = [e for e in played.log if e.kind == "rejected"]
    assert [(e.code, e.text) for e in rejected] == [("declare/cannot-act", "Rejected: Orc is surrendered.")]


def test_subdual_not_declared_does_killing_damage():
    played = run(declare("alda", {"type": "attack", "target": "orc"}), ADVANCE, dice=[15, 4])
    assert (orc(played).hp, orc(played).subdual) == (6, 0)
    assert texts(played, "subdual") == []
