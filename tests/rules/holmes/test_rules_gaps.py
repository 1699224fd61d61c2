"""003 rules the first pass left open: the thief's surprise bonus already holds the +2
from behind, only man-types grapple, and fled or surrendered creatures are not
'left standing'. Every die forced; numbers are 003's."""

from scenes import ADVANCE, NO_SURPRISE, declare, started

from fray_table.rules.view import Viewer, view


def fighter(cid: str, side: str, **figures) -> dict:
    return {"id": cid, "name": cid.capitalize(), "side": side, "hp": 10, "hp_max": 10, **figures}


BRAN = fighter("bran", "party", klass="thief", dex=14, x=10, y=10)  # thief level 1: combat bonus 0
ALDA = fighter("alda", "party", klass="fighter", dex=13, x=20, y=10)  # fighter level 1: combat bonus 0
ORC = fighter("orc", "orcs", ac=13, shield=True, dex=9, x=15, y=10)  # AC 6 descending, 7 without the shield


def run(*commands, dice=(), combatants=(BRAN, ORC), options=None):
    return started(combatants, *commands, dice=dice, options=options, surprise=())


ORCS_SURPRISED = [5, 2]  # surprise d6: party 5 (not surprised), orcs 2 (surprised)


def attacks(played) -> list:
    return [e for e in played.log if e.kind == "attack"]


# --- 003: 'This is already factored into the Thief "attack from surprise" bonus!'


def test_thief_from_behind_in_the_free_round_gets_plus_two_once():
    # d20 10 + 0 + 2 (surprise, from behind included) + AC 7 (shield ignored) = 19: a hit;
    # with a second +2 it would be 21.
    played = run(declare("bran", {"type": "attack", "target": "orc", "from_behind": True}), ADVANCE, dice=ORCS_SURPRISED + [10, 1, 6])
    (attack,) = attacks(played)
    assert attack.text == "Bran attacks Orc: d20 10 + 0 combat bonus + 2 surprise, from behind included + AC 7 (shield ignored) = 19 ≥ 19: hit."
    assert attack.total == 19 and [m.value for m in attack.mods] == [0, 2, 7]


def test_fighter_from_behind_in_the_free_round_adds_both():
    # Not a thief: surprise +2 and from behind +2 both count. d20 10 + 0 + 2 + 2 + AC 7 = 21.
    played = run(
        declare("alda", {"type": "attack", "target": "orc", "from_behind": True}),
        ADVANCE,
        dice=ORCS_SURPRISED + [10, 1, 6],
        combatants=({**ALDA, "x": 10}, ORC),
    )
    (attack,) = attacks(played)
    assert attack.total == 21 and [(m.name, m.value) for m in attack.mods][1:3] == [("surprise", 2), ("from behind", 2)]


def test_thief_from_behind_without_surprise_keeps_the_plus_two():
    # No free round: from behind is +2 for a thief as for anyone. d20 10 + 0 + 2 + AC 7 = 19.
    played = run(declare("bran", {"type": "attack", "target": "orc", "from_behind": True}), ADVANCE, dice=NO_SURPRISE + [10, 1])
    (attack,) = attacks(played)
    assert attack.total == 19 and ("from behind", 2) in [(m.name, m.value) for m in attack.mods]


# --- 003: 'If a man-type wishes to grapple and pin an opponent'

WOLF = fighter("wolf", "wolves", man_type=False, dex=12, x=10, y=10)
MAN = fighter("man", "men", dex=8, x=15, y=10)


def test_grapple_by_a_creature_that_is_not_a_man_type_is_rejected():
    played = run(declare("wolf", {"type": "grapple", "target": "man"}), dice=NO_SURPRISE, combatants=(WOLF, MAN))
    assert played.log[-1].code == "grapple/not-a-man-type"


def test_grapple_by_anyone_when_the_man_type_option_is_off():
    # option grapple_man_types = false: the other reading; the wolf closes (d20 15 + 0 + AC 9 = 24)
    # and wrestles: 1d6 5 against 1d6 2, the man is pinned.
    played = run(
        declare("wolf", {"type": "grapple", "target": "man"}),
        ADVANCE,
        dice=NO_SURPRISE + [15, 5, 2],
        combatants=(WOLF, MAN),
        options={"grapple_man_types": False},
    )
    man = next(c for c in played.state.combatants if c.id == "man")
    assert "pinned" in man.conditions


def test_grapple_is_offered_only_to_man_types():
    played = run(dice=NO_SURPRISE, combatants=(WOLF, MAN))
    actions = view(played.state, Viewer("gm")).actions
    assert "grapple" not in [c.type for c in actions["wolf"]]
    assert "grapple" in [c.type for c in actions["man"]]


def test_man_type_may_be_edited_by_the_gm():
    played = run(
        {"type": "edit_combatant", "id": "wolf", "man_type": True},
        declare("wolf", {"type": "grapple", "target": "man"}),
        dice=NO_SURPRISE,
        combatants=(WOLF, MAN),
    )
    assert played.log[-1].text == "Wolf declares: grapple Man."


# --- 'Only X is left standing': fled and surrendered creatures are not standing


def test_a_side_that_fled_is_not_left_standing():
    # 003 morale: 2d6 1+2 = 3, '3-5 Flee'; the orc is out of the fight, the party stands alone.
    played = run({"type": "call_morale", "side": "orcs"}, ADVANCE, dice=NO_SURPRISE + [1, 2])
    assert "Only party is left standing." in [e.text for e in played.log if e.kind == "round"]


def test_a_surrendered_creature_is_not_left_standing():
    played = run(ADVANCE, dice=NO_SURPRISE, combatants=(BRAN, {**ORC, "conditions": ["surrendered"]}))
    assert "Only party is left standing." in [e.text for e in played.log if e.kind == "round"]


def test_two_sides_still_up_are_both_standing():
    played = run(ADVANCE, dice=NO_SURPRISE)
    assert not [e for e in played.log if e.text.startswith("Only ")]
