"""002 'Wrestling' (thac0-sheet): the rating w for characters and monsters, helpers'
+1/+5, the compared 1d20 + w, grab -> fall -> pin, the pinned save against 1 + δS
damage and the pinned WR -3. Every die is forced; the numbers are 002's."""

from scenes import ADVANCE, declare, fighter, started, texts, who

from fray_table.rules.model import Combatant
from fray_table.rules.thac0sheet.wrestling import rating

PROFILE = "thac0-sheet"


def fight(*commands, dice=(), options=None, extra=(), alda=None, ogre=None):
    # Alda: F 3, δS 1, δD 1, unarmoured (basic AC 9): w = 2 + 1 + 1 + 9 = 13.
    alda = fighter("alda", "party", **{"klass": "fighter", "level": 3, "str_adj": 1, "dex_adj": 1, "dex": 14, "x": 10, "y": 10, **(alda or {})})
    # The ogre: HD 4, hide of basic AC 5 (ascending 14): w = 2 x 4 + 5 = 13.
    ogre = fighter("ogre", "foes", **{"klass": "monster", "hd": 4, "basic_ac": 14, "save_death": 12, "dex": 9, "x": 15, "y": 10, **(ogre or {})})
    return started([alda, ogre, *extra], *commands, dice=dice, options=options, profile=PROFILE)


WRESTLE = declare("alda", {"type": "wrestle", "target": "ogre"})


def test_wrestling_rating_of_a_character_and_a_monster():
    # 'w = ceil(L/2) + δS + δD + basic AC'; 'Monster w = 2 x HD + basic AC'.
    assert rating(Combatant(name="A", side="a", klass="fighter", level=3, str_adj=1, dex_adj=1))[0] == 13
    assert rating(Combatant(name="A", side="a", klass="thief", level=4, dex_adj=2, basic_ac=12))[0] == 2 + 2 + 7
    assert rating(Combatant(name="O", side="o", klass="monster", hd=4, basic_ac=14))[0] == 13


def test_wrestling_each_win_takes_the_hold_further_grab_fall_pin():
    # Round 1: d20 12 + 13 = 25 against d20 8 + 13 = 21: a grab. Round 2: 10 + 13 against 4 + 13: a fall.
    # Round 3: 9 + 13 against 6 + 13 (not yet pinned: no -3): pinned; SvDR d20 5 < 12: 1 + δS 1 = 2 damage.
    played = fight(WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, dice=[12, 8, 10, 4, 9, 6, 5])
    lines = texts(played, "wrestle")
    assert lines[0] == (
        "Alda wrestles Ogre: d20 12 + w 13 (ceil(L 3/2) 2 + δS 1 + δD 1 + basic AC 9) = 25 against "
        "d20 8 + w 13 (2 x HD 4 + basic AC 5) = 21: Alda wins, a grab on Ogre."
    )
    assert lines[1].endswith(": Alda wins, Ogre falls.")
    assert lines[2].endswith(": Alda wins, Ogre is pinned.")
    assert "Ogre fails to save (d20 5 < 12) and takes 2 damage (1 + 1 δS), 8 HP left." in texts(played)
    ogre = who(played, "ogre")
    assert (ogre.hold, ogre.held_by, ogre.conditions) == ("pin", "alda", ["grabbed", "prone", "pinned"])


def test_wrestling_pinned_rates_three_less_and_saves_or_takes_damage_each_round():
    dice = [12, 8, 10, 4, 9, 6, 15, 11, 11, 14]
    played = fight(WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, dice=dice)
    last = texts(played, "wrestle")[-2]
    assert last == (
        "Alda wrestles Ogre: d20 11 + w 13 (ceil(L 3/2) 2 + δS 1 + δD 1 + basic AC 9) = 24 against "
        "d20 11 + w 10 (2 x HD 4 + basic AC 5 - 3 pinned) = 21: Alda wins, Ogre is pinned."
    )
    assert texts(played, "wrestle")[-1] == "Ogre saves vs death ray: d20 14 ≥ 12, no harm."


def test_wrestling_option_pin_penalty_is_more_than_three():
    dice = [12, 8, 10, 4, 9, 6, 15, 11, 11, 14]
    played = fight(WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, dice=dice, options={"pin_penalty": 5})
    assert "w 8 (2 x HD 4 + basic AC 5 - 5 pinned) = 19" in texts(played, "wrestle")[-2]


def test_wrestling_pinned_cannot_act():
    played = fight(WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, declare("ogre", {"type": "attack", "target": "alda"}), dice=[12, 8, 10, 4, 9, 6, 15])
    assert [e.code for e in played.log if e.kind == "rejected"] == ["declare/cannot-act"]


def test_wrestling_a_loss_breaks_the_hold_and_a_fall_leaves_one_prone():
    played = fight(WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, dice=[12, 8, 10, 4, 3, 15])
    assert texts(played, "wrestle")[-2].endswith("= 16 against d20 15 + w 13 (2 x HD 4 + basic AC 5) = 28: Ogre wins.")
    assert texts(played, "wrestle")[-1] == "Ogre breaks free of Alda."
    ogre = who(played, "ogre")
    assert (ogre.hold, ogre.held_by, ogre.conditions) == ("", "", ["prone"])


def test_wrestling_even_totals_change_nothing():
    played = fight(WRESTLE, ADVANCE, dice=[10, 10])
    assert texts(played, "wrestle")[-1].endswith("= 23: even, the holds stay as they are.")
    assert who(played, "ogre").hold == ""


def test_wrestling_held_one_wrestling_back_breaks_free():
    back = declare("ogre", {"type": "wrestle", "target": "alda"})
    played = fight(WRESTLE, ADVANCE, WRESTLE, back, ADVANCE, dice=[12, 8, 2, 15, 9, 3])
    # Round 2: Alda (DEX 14) loses first (2 + 13 against 15 + 13), the ogre then wrestles at no hold.
    assert "Ogre breaks free of Alda." in texts(played)


def test_wrestling_hold_lapses_when_the_holder_does_something_else():
    played = fight(WRESTLE, ADVANCE, declare("alda", {"type": "hold"}), ADVANCE, dice=[12, 8])
    assert "Ogre breaks free of Alda." in texts(played)
    assert who(played, "ogre").conditions == []


def test_wrestling_helpers_add_five_or_one():
    # Defender HD 4: a helper of level 2 or more has at least half its HD (+5); a level-1 one has less (+1).
    bran = fighter("bran", "party", klass="fighter", level=2, dex=12, x=15, y=15)
    cole = fighter("cole", "party", klass="fighter", level=1, dex=11, x=15, y=5)
    helps = [declare("bran", {"type": "wrestle", "target": "ogre"}), declare("cole", {"type": "wrestle", "target": "ogre"})]
    played = fight(WRESTLE, *helps, ADVANCE, dice=[10, 10], extra=[bran, cole])
    line = texts(played, "wrestle")[0]
    assert "w 19 (ceil(L 3/2) 2 + δS 1 + δD 1 + basic AC 9 + 5 Bran + 1 Cole) = 29" in line
    assert len(texts(played, "wrestle")) == 1  # one bout, the helpers' turns are in it


def test_wrestling_option_half_hd_counts_helpers_against_half_a_hit_die():
    cole = fighter("cole", "party", klass="fighter", level=1, dex=11, x=15, y=5)
    dog = fighter("dog", "party", klass="monster", hd=0, dex=11, x=15, y=15)
    helps = [declare("cole", {"type": "wrestle", "target": "ogre"}), declare("dog", {"type": "wrestle", "target": "ogre"})]
    played = fight(WRESTLE, *helps, ADVANCE, dice=[10, 10], extra=[cole, dog], options={"wrestle_helpers": "half-hd"})
    assert "+ 5 Cole + 1 Dog)" in texts(played, "wrestle")[0]


def test_wrestling_refuses_a_vessel():
    ship = fighter("ship", "foes", vessel=True, hp=20, hp_max=20, x=40, y=40)
    played = fight(declare("alda", {"type": "wrestle", "target": "ship"}), extra=[ship])
    assert [e.code for e in played.log if e.kind == "rejected"] == ["wrestle/vessel"]


def test_wrestling_a_pinned_wrestler_killed_does_not_break_free():
    # 002 'Pinned: SvDR or take 1 + δS hp damage': the pin's save d20 5 < 12 takes the ogre's last 2 HP.
    # A fallen wrestler breaks free of nothing: when its holder turns to something else, the hold just ends.
    played = fight(
        WRESTLE, ADVANCE, WRESTLE, ADVANCE, WRESTLE, ADVANCE, declare("alda", {"type": "hold"}), ADVANCE, dice=[12, 8, 10, 4, 9, 6, 5], ogre={"hp": 2}
    )
    assert "Ogre fails to save (d20 5 < 12) and takes 2 damage (1 + 1 δS), 0 HP left." in texts(played)
    assert texts(played, "wrestle")[-1] == "Alda lets go of Ogre."
    assert not any("breaks free" in line for line in texts(played))
    ogre = who(played, "ogre")
    assert (ogre.down, ogre.hold, ogre.held_by) == (True, "", "")
