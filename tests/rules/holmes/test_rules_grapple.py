"""Grappling (003): a hit to close (unless the target will not strike to kill), at most
six on a man-sized creature, d6 per Hit Die each side, pinned or thrown back 1"."""

from scenes import ADVANCE, declare, fighter, started, texts

from fray_table.rules.view import Viewer, view

ALDA = fighter("alda", "party", dex=14, x=10, y=0, hd=2)
BRAN = fighter("bran", "party", dex=12, x=20, y=0, hd=1)
ORC = fighter("orc", "orcs", ac=10, x=15, y=0, hd=1)  # AC 9 descending: d20 10 closes


def run(*commands, dice=(), combatants=(ALDA, ORC)):
    return started(combatants, *commands, dice=dice)


GRAPPLE = declare("alda", {"type": "grapple", "target": "orc"})


def get(played, cid: str):
    return next(c for c in played.state.combatants if c.id == cid)


def test_grapple_needs_a_hit_first():
    # 003: 'he must first make a successful attack roll in order to approach': 9 + 9 = 18 misses.
    played = run(GRAPPLE, ADVANCE, dice=[9])
    assert texts(played, "attack") == ["Alda closes to grapple Orc: d20 9 + 0 combat bonus + AC 9 = 18 < 19: miss."]
    assert texts(played, "grapple") == []


def test_grapple_attackers_win_and_pin():
    # Alda 2 HD: 2d6 4+5 = 9 against the orc's 1d6 6: 'the defender is pinned and helpless'.
    played = run(GRAPPLE, ADVANCE, dice=[10, 4, 5, 6])
    assert texts(played, "grapple") == ["Grapple: Alda 2d6 9 = 9 against Orc 1d6 6: Orc is pinned and helpless."]
    assert get(played, "orc").conditions == ["pinned", "helpless"]


def test_grapple_rolls_hit_dice_not_level():
    # A 5th-level fighter of 1 Hit Die rolls one d6: 'equal to their hit dice (not level)'.
    vet = {**ALDA, "klass": "fighter", "level": 5, "hd": 1}
    played = run(GRAPPLE, ADVANCE, dice=[10, 3, 2], combatants=(vet, ORC))
    assert texts(played, "grapple") == ["Grapple: Alda 1d6 3 = 3 against Orc 1d6 2: Orc is pinned and helpless."]


def test_grapple_defender_wins_throws_back_one_inch():
    # Orc of 3 HD: 3d6 2+2+2 = 6 beats Alda's 2d6 1+1 = 2: 'thrown back 1"', 10 ft away from it.
    played = run(GRAPPLE, ADVANCE, dice=[10, 1, 1, 2, 2, 2], combatants=(ALDA, {**ORC, "hd": 3}))
    assert texts(played, "grapple") == ['Grapple: Alda 2d6 2 = 2 against Orc 3d6 6: Alda thrown back 1" (10 ft) and may not grapple next round.']
    alda = get(played, "alda")
    assert (alda.x, alda.y, alda.no_grapple_until) == (0, 0, 2)  # barred through round 2


def test_grapple_thrown_back_may_not_grapple_the_next_round():
    beaten = run(GRAPPLE, ADVANCE, GRAPPLE, dice=[10, 1, 1, 2, 2, 2], combatants=(ALDA, {**ORC, "hd": 3}))
    assert [e.code for e in beaten.log if e.kind == "rejected"] == ["grapple/thrown-back"]
    assert "grapple" not in [ch.type for ch in view(beaten.state, Viewer("gm")).actions["alda"]]
    later = run(GRAPPLE, ADVANCE, ADVANCE, GRAPPLE, dice=[10, 1, 1, 2, 2, 2], combatants=(ALDA, {**ORC, "hd": 3}))
    assert [e.code for e in later.log if e.kind == "rejected"] == []


def test_grapple_unwilling_target_needs_no_attack_roll():
    # 003: 'unless that creature is wholly unarmed or is otherwise unwilling to use lethal force'
    played = run(declare("alda", {"type": "grapple", "target": "orc", "target_unwilling": True}), ADVANCE, dice=[3, 3, 5])
    assert texts(played, "attack") == []
    assert texts(played, "grapple")[-1] == "Grapple: Alda 2d6 6 = 6 against Orc 1d6 5: Orc is pinned and helpless."


def test_grapple_several_attackers_add_their_totals():
    # Alda 2d6 1+1 and Bran 1d6 2: 4 against the orc's 1d6 3: 'the attacker(s) and defender compare totals'.
    played = run(GRAPPLE, declare("bran", {"type": "grapple", "target": "orc"}), ADVANCE, dice=[10, 10, 1, 1, 2, 3], combatants=(ALDA, BRAN, ORC))
    assert texts(played, "grapple") == ["Grapple: Alda 2d6 2, Bran 1d6 2 = 4 against Orc 1d6 3: Orc is pinned and helpless."]
    assert len(texts(played, "attack")) == 2


def test_grapple_a_tie_pins_nobody():
    played = run(GRAPPLE, ADVANCE, dice=[10, 1, 2, 3])
    assert texts(played, "grapple") == ["Grapple: Alda 2d6 3 = 3 against Orc 1d6 3: a tie, nobody is pinned or thrown back."]
    assert get(played, "orc").conditions == [] and get(played, "alda").x == 10


def test_grapple_at_most_six_on_a_man_sized_creature():
    men = [fighter(f"m{i}", "party", x=10, y=0) for i in range(7)]
    grapples = [declare(f"m{i}", {"type": "grapple", "target": "orc"}) for i in range(7)]
    played = run(*grapples, combatants=(*men, ORC))
    assert [e.code for e in played.log if e.kind == "rejected"] == ["grapple/crowded"]
    giant = run(*grapples, combatants=(*men, {**ORC, "size": "L"}))
    assert [e.code for e in giant.log if e.kind == "rejected"] == []


def test_grapple_pinned_creature_cannot_act():
    played = run(GRAPPLE, ADVANCE, declare("orc", {"type": "attack", "target": "alda"}), dice=[10, 4, 5, 6])
    assert [(e.code, e.text) for e in played.log if e.kind == "rejected"] == [("declare/cannot-act", "Rejected: Orc is pinned.")]


def test_grapple_out_of_reach_does_nothing():
    far = {**ORC, "x": 40}
    played = run(GRAPPLE, ADVANCE, combatants=(ALDA, far))
    assert texts(played, "grapple") == ["Alda cannot reach Orc to grapple (30 ft away)."]
