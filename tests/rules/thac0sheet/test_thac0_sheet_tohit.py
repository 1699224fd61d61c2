"""002's to-hit (thac0-sheet): H = THAC0 - AC from the hit table, its adjustment
steps, the negative-H damage bonus, range and cover, and 003's rules that stand.
Every die is forced; the numbers are 002's."""

import pytest
from scenes import ADVANCE, declare, fighter, started, texts, who

from fray_table.rules.profiles import validate_options
from fray_table.rules.scenario import play
from fray_table.rules.thac0sheet.tohit import adjust

PROFILE = "thac0-sheet"


def fight(*commands, dice=(), options=None, alda=None, gob=None, profile=PROFILE):
    alda = fighter("alda", "party", **{"attack_bonus": None, "klass": "fighter", "level": 4, "dex": 14, "x": 10, "y": 10, **(alda or {})})
    gob = fighter("gob", "gobs", **{"attack_bonus": None, "klass": "monster", "hd": 1, "ac": 13, "dex": 9, "x": 15, "y": 10, **(gob or {})})
    return started([alda, gob], *commands, dice=dice, options=options, profile=profile)


def attack(target="gob", **extra):
    return declare("alda", {"type": "attack", "target": target, **extra})


# --- the steps -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("basic", "h"),
    [
        (13, 13),  # between 2 and 20: as it is
        (1, 2),
        (-2, 2),  # 'If H < 2, add up to 4.'
        (-3, 1),
        (-6, -2),
        (21, 20),
        (24, 20),  # 'If H > 20, subtract up to 4.'
        (25, 21),
        (33, 29),
        (35, 30),
        (38, 30),  # 'If H > 30 still, subtract up to 4 again'
        (44, 36),
        (49, 40),
        (50, 40),  # 'etc.': the line at 40 (44 -> 40 -> 36)
        (-14, -10),
        (-16, -10),  # 'Conversely, if H < -10, add up to 4'
        (-30, -20),  # 'etc.': -30 -> -26 (under 2) -> -22 (under -10) -> -20 (under -20)
    ],
)
def test_thac0_steps_adjust_h_as_the_sheet_says(basic, h):
    assert adjust(basic)[0] == h


def test_thac0_steps_are_named_in_words():
    assert adjust(25) == (21, ["-4 (over 20)"])
    assert adjust(-3) == (1, ["+4 (under 2)"])


# --- to-hit in play ------------------------------------------------------------


def test_thac0_fighter_four_needs_h_eleven_against_ac_six():
    # Hit table: F 4-6 is THAC0 17; the goblin's descending AC is 6 (ascending 13): H = 11.
    missed = fight(attack(), ADVANCE, dice=[10])
    assert "Alda attacks Gob: THAC0 17 - AC 6 = H 11; d20 10 < 11: miss." in texts(missed)
    hit = fight(attack(), ADVANCE, dice=[11, 4])
    assert "Alda attacks Gob: THAC0 17 - AC 6 = H 11; d20 11 ≥ 11: hit." in texts(hit)
    assert who(hit, "gob").hp == 6


def test_thac0_monster_reads_the_hit_dice_column():
    # Monster '4+ to 5' is THAC0 15; Alda's AC 5 descending (ascending 14): H 10.
    played = fight(declare("gob", {"type": "attack", "target": "alda"}), ADVANCE, dice=[10, 2], gob={"hd": 4, "hd_plus": 1}, alda={"ac": 14})
    assert "Gob attacks Alda: THAC0 15 - AC 5 = H 10; d20 10 ≥ 10: hit." in texts(played)
    assert who(played, "alda").hp == 8


def test_thac0_over_twenty_subtracts_up_to_four():
    # A normal man (THAC0 20) against descending AC -3 (ascending 22): H 23, over 20: 20.
    alda = {"klass": "normal", "level": 0}
    hit = fight(attack(), ADVANCE, dice=[20, 1, 20], alda=alda, gob={"ac": 22})
    assert "Alda attacks Gob: THAC0 20 - AC -3 = H 23 -3 (over 20) = 20; d20 20 ≥ 20: hit." in texts(hit)
    missed = fight(attack(), ADVANCE, dice=[19], alda=alda, gob={"ac": 22})
    assert "Alda attacks Gob: THAC0 20 - AC -3 = H 23 -3 (over 20) = 20; d20 19 < 20: miss." in texts(missed)


def test_thac0_negative_h_uses_two_and_adds_to_damage():
    # F 25-27 is THAC0 3; AC 9 (ascending 10): H = -6, under 2: +4 -> -2. 'use 2 and add -H bonus to damage'.
    alda = {"level": 25}
    hit = fight(attack(), ADVANCE, dice=[2, 3], alda=alda, gob={"ac": 10})
    assert "Alda attacks Gob: THAC0 3 - AC 9 = H -6 +4 (under 2) = -2, negative: use 2, +2 damage; d20 2 ≥ 2: hit." in texts(hit)
    assert "Gob takes 5 damage (1d6+2), 5 HP left." in texts(hit)
    missed = fight(attack(), ADVANCE, dice=[1], alda=alda, gob={"ac": 10})
    assert texts(missed, "attack")[-1].endswith("d20 1 < 2: miss.")


@pytest.mark.parametrize(("h_floor", "outcome"), [(False, "d20 1 ≥ 1: hit."), (True, "d20 1 < 2: miss.")])
def test_thac0_option_h_floor_makes_h_one_need_two(h_floor, outcome):
    # F 22-24 is THAC0 5; AC 8 (ascending 11): H -3 -> 1, not negative.
    played = fight(attack(), ADVANCE, dice=[1, 3], alda={"level": 22}, gob={"ac": 11}, options={"h_floor": h_floor})
    assert texts(played, "attack")[-1].endswith(outcome)


def test_thac0_modifiers_adjust_the_roll_or_h_by_option():
    # THAC0 19 (F 1) against AC -1 (ascending 20): H 20; behind half hard cover (-4) an arrow
    # needs 24 on the roll, or, with mods_before_steps, H 24 -> 20 on the die.
    bow = {"name": "bow", "range": 150, "missile": "bow"}
    alda = {"level": 1, "weapons": [bow], "x": 10}
    shot = declare("alda", {"type": "shoot", "target": "gob", "range_band": "medium", "cover": "half", "cover_kind": "hard"})
    roll = fight(shot, ADVANCE, dice=[20], alda=alda, gob={"ac": 20, "x": 60})
    assert "Alda shoots at Gob (bow): THAC0 19 - AC -1 = H 20; d20 20 + 0 medium range - 4 half hard cover = 16 < 20: miss." in texts(roll)
    before = fight(shot, ADVANCE, dice=[20, 5], alda=alda, gob={"ac": 20, "x": 60}, options={"mods_before_steps": True})
    assert "Alda shoots at Gob (bow): THAC0 19 - AC -1 - 0 medium range + 4 half hard cover = H 24 -4 (over 20) = 20; d20 20 ≥ 20: hit." in texts(before)
    assert who(before, "gob").hp == 5


@pytest.mark.parametrize(
    ("band", "cover", "kind", "d20", "result"),
    [
        ("short", "none", "soft", 9, "d20 9 + 1 short range = 10 ≥ 10: hit."),  # Range: Short +1
        ("long", "none", "soft", 10, "d20 10 - 1 long range = 9 < 10: miss."),  # Long -1
        ("medium", "quarter", "soft", 10, "d20 10 + 0 medium range - 1 quarter soft cover = 9 < 10: miss."),  # Quarter soft -1
        ("medium", "three-quarters", "hard", 16, "d20 16 + 0 medium range - 6 three-quarters hard cover = 10 ≥ 10: hit."),  # Three-quarters hard -6
        ("medium", "full", "soft", 14, "d20 14 + 0 medium range - 4 full soft cover = 10 ≥ 10: hit."),  # Full soft -4
    ],
)
def test_thac0_range_and_cover_adjust_a_missile(band, cover, kind, d20, result):
    # F 1 is THAC0 19; AC 9 (ascending 10): H 10.
    bow = {"name": "bow", "range": 150, "missile": "bow"}
    shot = declare("alda", {"type": "shoot", "target": "gob", "range_band": band, "cover": cover, "cover_kind": kind})
    played = fight(shot, ADVANCE, dice=[d20, 3], alda={"level": 1, "weapons": [bow]}, gob={"ac": 10, "x": 60})
    assert texts(played, "attack")[-1] == f"Alda shoots at Gob (bow): THAC0 19 - AC 9 = H 10; {result}"


def test_thac0_full_hard_cover_cannot_be_shot_through():
    bow = {"name": "bow", "range": 150, "missile": "bow"}
    shot = declare("alda", {"type": "shoot", "target": "gob", "cover": "full", "cover_kind": "hard"})
    played = fight(shot, alda={"weapons": [bow]}, gob={"x": 60})
    assert [e.code for e in played.log if e.kind == "rejected"] == ["shoot/full-cover"]


def test_thac0_missile_with_negative_h_adds_to_damage():
    # An explicit attack bonus of 22 is THAC0 -3; AC 9: H -12 -> -8 (under 2): use 2, +8 damage.
    bow = {"name": "bow", "range": 150, "missile": "bow"}
    shot = declare("alda", {"type": "shoot", "target": "gob", "range_band": "medium"})
    played = fight(shot, ADVANCE, dice=[2, 1], alda={"attack_bonus": 22, "weapons": [bow]}, gob={"ac": 10, "x": 60})
    assert "+8 damage" in texts(played, "attack")[-1]
    assert "Gob takes 9 damage (1d6 + 8 for the negative H), 1 HP left." in texts(played)


# --- 003 stands where 002 is silent --------------------------------------------


def test_thac0_natural_twenty_adds_a_die_and_tests_the_weapon():
    played = fight(attack(), ADVANCE, dice=[20, 2, 3, 15])
    assert "Gob takes 5 damage (1d6 + 1d6 natural 20), 5 HP left." in texts(played)
    assert "Alda's sword (steel) holds: d20 15 ≥ 6." in texts(played)


def test_thac0_parry_takes_four_off_the_roll():
    played = fight(attack(), declare("gob", {"type": "parry"}), ADVANCE, dice=[14])
    assert "Alda attacks Gob: THAC0 17 - AC 6 = H 11; d20 14 - 4 parry = 10 < 11: miss." in texts(played)


def test_thac0_surprise_adds_two():
    played = play(
        {
            "profile": PROFILE,
            "dice": [5, 1, 9, 1, 6],
            "combatants": [
                fighter("alda", "party", attack_bonus=None, klass="fighter", level=4, x=10, y=10),
                fighter("gob", "gobs", attack_bonus=None, klass="monster", hd=1, ac=13, x=15, y=10),
            ],
            "commands": [{"type": "start"}, declare("alda", {"type": "attack", "target": "gob"}), ADVANCE],
        }
    )
    assert "Alda attacks Gob: THAC0 17 - AC 6 = H 11; d20 9 + 2 surprise = 11 ≥ 11: hit." in texts(played)


# --- the profile ---------------------------------------------------------------


def test_thac0_sheet_actions_are_refused_in_another_profile():
    played = fight(declare("alda", {"type": "strike", "target": "gob"}), profile="holmes-phases")
    rejected = [e for e in played.log if e.kind == "rejected"]
    assert [e.code for e in rejected] == ["declare/not-in-profile"]
    assert "'strike' is a rule of the thac0-sheet profile" in rejected[0].text


def test_thac0_sheet_replaces_grappling_with_wrestling():
    played = fight(declare("alda", {"type": "grapple", "target": "gob"}))
    assert [e.code for e in played.log if e.kind == "rejected"] == ["declare/replaced"]
    assert who(played, "alda").conditions == [] and played.state.declarations == []


def test_thac0_sheet_options_are_checked():
    assert validate_options(PROFILE, {"pin_penalty": 4})["pin_penalty"] == 4
    with pytest.raises(ValueError, match="pin_penalty"):
        validate_options(PROFILE, {"pin_penalty": 2})
    with pytest.raises(ValueError, match="wrestle_helpers"):
        validate_options(PROFILE, {"wrestle_helpers": "some"})
    with pytest.raises(ValueError, match="no option 'h_floor'"):
        validate_options("holmes-phases", {"h_floor": True})


@pytest.mark.parametrize(
    ("figures", "thac0"),
    [
        ({"klass": "magic-user", "level": 6}, 17),  # M-U 6-10
        ({"klass": "cleric", "level": 13}, 13),  # C/T 13-16
        ({"klass": "fighter", "level": 31}, -1),  # F 31-33
        ({"klass": "elf", "level": 3, "rank": "C"}, 13),  # D-H letter C
        ({"klass": "monster", "hd": 36}, -3),  # '35+ up'
        ({"attack_bonus": 3}, 16),  # an explicit bonus: THAC0 19 - 3
    ],
)
def test_thac0_read_off_the_hit_table(figures, thac0):
    played = fight(attack(), ADVANCE, dice=[1], alda={"attack_bonus": None, **figures})
    assert texts(played, "attack")[-1].startswith(f"Alda attacks Gob: THAC0 {thac0} - AC 6 = H {thac0 - 6}")
