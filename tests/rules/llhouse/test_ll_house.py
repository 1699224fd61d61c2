"""Profile ll-house (000): the armor chart, the Attack Value table, the attack roll against
ascending AC, the critical hit chart (and limb table), the fumble table and the master
body table. Every die is forced; the numbers are 000's."""

import pytest
from ll_house_scenes import AXE, SWORD, act, alda, fight, orc
from scenes import rejected, texts, who

from fray_table.rules.charts import ll_house as chart
from fray_table.rules.llhouse.figures import attack_value
from fray_table.rules.profiles import PROFILES, validate_options

ATTACK = act("alda", type="attack", target="orc")


# --- ARMOR CLASS ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("armor", "ac", "bonus"),
    [
        ("unarmored", 10, 0),
        ("padded", 11, 1),
        ("leather", 12, 2),
        ("studded leather", 13, 3),
        ("scale", 14, 4),
        ("chain mail", 15, 5),
        ("horse barding", 15, 5),
        ("banded mail", 16, 6),
        ("splint mail", 16, 6),
        ("plate mail", 17, 7),
    ],
)
def test_armor_chart_gives_the_documents_armor_class(armor, ac, bonus):
    assert chart.ARMOR[armor] == (ac, bonus) and chart.SHIELD == 1


def test_armor_class_comes_from_the_armor_worn_when_no_ac_is_given():
    # 000, ARMOR CLASS: 'Padded 11 ... Shield +1': a combatant added by the API or a scenario with
    # armor and a shield but no `ac` has AC 12, and is hit on 12 (d20 11 + 1 attack value = 12).
    padded = {k: v for k, v in orc(armor="padded", shield=True).items() if k != "ac"}
    played = fight(ATTACK, dice=[11, 3], combatants=[alda(), padded])
    assert who(played, "orc").ac == 12
    assert "Alda attacks Orc: d20 11 + 1 attack value = 12 ≥ AC 12: hit." in texts(played)
    # 000, ARMOR DAMAGE: each point 'lowers AC by 1': chain mail with 2 points of damage is AC 13.
    worn = fight(rounds=0, combatants=[alda(), {**padded, "armor": "chain mail", "shield": False, "armor_damage": 2}])
    assert who(worn, "orc").ac == 13


def test_armor_edit_moves_armor_class_by_the_chart():
    # edit_combatant {armor: 'plate mail', shield: true} of the orc in chain mail (AC 15): 'Plate Mail 17',
    # 'Shield +1': AC 18, and the GM's line says so. Taking the shield off again: 17.
    plate = {"type": "edit_combatant", "id": "orc", "armor": "plate mail", "shield": True}
    played = fight(plate, rounds=0)
    assert who(played, "orc").ac == 18
    assert "GM edits Orc: shield yes, armor plate mail, ac 18." in texts(played, "gm")
    bare = fight(plate, {"type": "edit_combatant", "id": "orc", "shield": False}, rounds=0)
    assert who(bare, "orc").ac == 17
    # An AC given by hand with the armor (a +1 chain mail: 16) keeps its +1 when the armor changes.
    magic = fight({"type": "edit_combatant", "id": "orc", "armor": "plate mail"}, rounds=0, combatants=[alda(), orc(ac=16)])
    assert who(magic, "orc").ac == 18


def test_armor_class_given_by_hand_stands():
    # The rulings (docs/rulings.md): an `ac` given with the armor is the GM's and stands; with no armor
    # tracked (''), `ac` is all there is, as in 003, and an edit of it is taken as given.
    played = fight(rounds=0, combatants=[alda(), orc(ac=16), orc("ogre", armor="", ac=14)])
    assert (who(played, "orc").ac, who(played, "ogre").ac) == (16, 14)
    edited = fight({"type": "edit_combatant", "id": "ogre", "ac": 11, "shield": True}, rounds=0, combatants=[alda(), orc("ogre", armor="", ac=14)])
    assert who(edited, "ogre").ac == 11
    # Under 003 nobody reads the armor chart: armor and shield leave `ac` alone.
    holmes = fight(rounds=0, profile="holmes-phases", combatants=[alda(), {k: v for k, v in orc(shield=True).items() if k != "ac"}])
    assert who(holmes, "orc").ac == 10


def test_armor_beyond_repair_at_half_its_points_rounded_up():
    # 000: 'upon taking 1/2 of these points, it is beyond repair': Padded/Leather 1, Studded/Scale 2,
    # Chain/Horse Barding/Banded/Splint 3, Plate 4 -- half the AC points, rounded up, every time.
    assert chart.BEYOND_REPAIR == {
        "padded": 1,
        "leather": 1,
        "studded leather": 2,
        "scale": 2,
        "chain mail": 3,
        "horse barding": 3,
        "banded mail": 3,
        "splint mail": 3,
        "plate mail": 4,
    }
    assert all(chart.BEYOND_REPAIR[a] == -(-chart.ARMOR[a][1] // 2) for a in chart.BEYOND_REPAIR)


def test_orc_in_chain_mail_is_hit_on_15_or_higher():
    # 000: 'if you want to attack an Orc in Chain Mail Armor, then you must roll a 15 or higher'
    hit = fight(ATTACK, dice=[15, 4], combatants=[alda(level=1), orc()])
    assert "Alda attacks Orc: d20 15 + 0 attack value = 15 ≥ AC 15: hit." in texts(hit)
    assert who(hit, "orc").hp == 4
    miss = fight(ATTACK, dice=[14], combatants=[alda(level=1), orc()])
    assert "Alda attacks Orc: d20 14 + 0 attack value = 14 < AC 15: miss." in texts(miss)
    assert who(miss, "orc").hp == 8


def test_fourth_level_cleric_adds_one_against_the_orc():
    # 000: 'if you were a 4th Level Cleric ... add 1 to your roll. If that total equals 15 or more, you hit'
    played = fight(ATTACK, dice=[14, 6])
    assert "Alda attacks Orc: d20 14 + 1 attack value = 15 ≥ AC 15: hit." in texts(played)
    assert "Orc takes 6 damage, 2 HP left." in texts(played)


def test_shield_is_one_more_point_and_ignored_from_behind():
    # 000: 'Shield +1'; 003 (standing where 000 is silent): shields do not help from behind.
    front = fight(ATTACK, dice=[15], combatants=[alda(), orc(ac=16, shield=True)])
    assert "Alda attacks Orc: d20 15 + 1 attack value = 16 ≥ AC 16: hit." in texts(front)
    behind = fight(act("alda", type="attack", target="orc", from_behind=True), dice=[13, 1], combatants=[alda(), orc(ac=16, shield=True)])
    assert "Alda attacks Orc: d20 13 + 1 attack value + 2 from behind = 16 ≥ AC 15: hit." in texts(behind)


# --- ATTACK VALUE ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("klass", "level", "value"),
    [
        ("cleric", 3, 0),
        ("cleric", 4, 1),
        ("thief", 8, 2),
        ("thief", 11, 4),
        ("cleric", 14, 6),
        ("thief", 20, 9),
        ("cleric", 30, 10),
        ("fighter", 2, 0),
        ("fighter", 3, 1),
        ("dwarf", 6, 4),
        ("elf", 8, 5),
        ("halfling", 11, 7),
        ("fighter", 18, 14),
        ("fighter", 25, 15),
        ("magic-user", 3, 0),
        ("magic-user", 7, 1),
        ("magic-user", 13, 4),
        ("magic-user", 18, 6),
        ("magic-user", 23, 8),
        ("magic-user", 36, 9),
    ],
)
def test_attack_value_table(klass, level, value):
    assert attack_value(klass, level) == value


def test_attack_value_columns_cover_every_level_once():
    for column in (1, 2, 3):
        for level in range(1, 60):
            rows = [r[0] for r in chart.ATTACK_VALUE if r[column] and r[column][0] <= level and (r[column][1] is None or level <= r[column][1])]
            assert len(rows) == 1, (column, level, rows)


def test_attack_value_levels_are_open_ended_past_36():
    # 000, ATTACK VALUE: the last rows are open-ended, '21+' (cleric/thief), '19+' (fighter...), '24+'
    # (magic-user): a 40th-level fighter reads +15 (d20 2 + 15 = 17 ≥ AC 15, a hit); the profile's cap is 100.
    played = fight(ATTACK, dice=[2, 4], combatants=[alda(klass="fighter", level=40), orc()])
    assert rejected(played) == []
    assert "Alda attacks Orc: d20 2 + 15 attack value = 17 ≥ AC 15: hit." in texts(played)
    assert who(played, "alda").level == 40
    cap = fight(rounds=0, combatants=[alda(level=100), orc(), alda(id="bran", name="Bran", level=101)])
    assert [(e.code, e.text) for e in cap.log if e.kind == "rejected"] == [("combatant/invalid", "Rejected: level 101 is outside 0..100.")]
    edited = fight({"type": "edit_combatant", "id": "alda", "level": 64}, rounds=0)
    assert rejected(edited) == [] and who(edited, "alda").level == 64


def test_level_bound_is_the_profiles_own_002s_table_ends_at_36():
    # 002's hit table (read by 003 and 002's profile) stops at level 36 in every column: 37 is refused there.
    for profile in ("holmes-phases", "thac0-sheet", "challenges"):
        played = fight(rounds=0, profile=profile, combatants=[alda(level=36), orc(), alda(id="bran", name="Bran", level=37)])
        assert [(e.code, e.text) for e in played.log if e.kind == "rejected"] == [("combatant/invalid", "Rejected: level 37 is outside 0..36.")], profile
    assert {f.name: f.high for f in PROFILES["ll-house"].common_figures}["level"] == 100
    assert {f.name: f.high for f in PROFILES["holmes-phases"].common_figures}["level"] == 36


def test_monsters_have_no_attack_value_column_and_read_002s_hit_table():
    # 000 has no monster column; 003's combat bonus (002's hit table) stands: HD 4+1 -> THAC0 15, +4.
    assert attack_value("monster", 1) is None
    played = fight(act("orc", type="attack", target="alda"), dice=[11, 3], combatants=[alda(), orc(hd=4, hd_plus=1)])
    assert "Orc attacks Alda: d20 11 + 4 attack value = 15 ≥ AC 15: hit." in texts(played)


def test_explicit_attack_bonus_overrides_the_table():
    played = fight(ATTACK, dice=[10, 2], combatants=[alda(attack_bonus=5), orc()])
    assert "Alda attacks Orc: d20 10 + 5 attack value = 15 ≥ AC 15: hit." in texts(played)


# --- CRITICAL HIT (ROLLED NAT 20) --------------------------------------------------------


def crit(row: int, *dice, target=None, attacker=None, options=None):
    """Alda's natural 20, then `row` on the crit chart, then `dice`."""
    return fight(ATTACK, dice=[20, row, *dice], combatants=[attacker or alda(), target or orc(hp=40, hp_max=40)], options=options)


def test_crit_chart_has_all_twenty_rows_in_the_documents_bands():
    assert sorted(chart.CRITICAL_HIT) == list(range(1, 21))
    assert [chart.CRITICAL_HIT[r][0] for r in range(20, 0, -1)] == ["kill"] + [3] * 5 + [2] * 5 + ["max"] * 5 + [1] * 4
    assert [chart.CRITICAL_HIT[r][1] for r in (19, 14, 9, 4)] == ["armor"] * 4
    assert [chart.CRITICAL_HIT[r][1] for r in (18, 13, 8, 3)] == ["limb"] * 4
    assert [chart.CRITICAL_HIT[r][1] for r in (17, 12, 6, 1)] == ["disarm"] * 4
    assert [chart.CRITICAL_HIT[r][1] for r in (16, 11)] == ["knockdown"] * 2
    assert [chart.CRITICAL_HIT[r][1] for r in (7, 2)] == ["shatter"] * 2


def test_natural_20_hits_any_ac_and_rolls_the_crit_chart():
    played = crit(15, 5, target=orc(ac=30, hp=40, hp_max=40), attacker=alda(weapons=[{**SWORD, "bonus": 1}]))
    assert "Alda attacks Orc: d20 20 + 1 attack value + 1 sword bonus = 22 < AC 30: natural 20: a critical hit." in texts(played)
    assert "Critical hit chart d20 15: Triple Damage (Dam + Bonus, then X3)." in texts(played)
    # 'Dam +Bonus, then X3': (5 + 1) x 3 = 18
    assert "Alda rolls 18 damage against Orc ((1d8 5 + 1 sword bonus) x 3)." in texts(played)
    assert who(played, "orc").hp == 22


def test_natural_20_must_reach_the_ac_when_the_option_is_off():
    played = crit(15, options={"natural_20_hits": False}, target=orc(ac=30))
    assert "Alda attacks Orc: d20 20 + 1 attack value = 21 < AC 30: miss." in texts(played)
    assert not texts(played, "critical") and who(played, "orc").hp == 8


def test_crit_double_damage():
    played = crit(10, 7)
    assert "Alda rolls 14 damage against Orc ((1d8 7) x 2)." in texts(played) and who(played, "orc").hp == 26


def test_crit_maximum_damage_plus_all_bonuses():
    played = crit(5, attacker=alda(weapons=[{**SWORD, "bonus": 2}], expertise={"sword": 1}))
    # 1d8 at 8, + 2 bonus, + 2 weapon expertise = 12; no damage die is rolled
    assert "Alda rolls 12 damage against Orc (1d8 at its maximum 8 + 2 sword bonus + 2 sword expertise)." in texts(played)


def test_crit_20_is_an_automatic_kill():
    played = crit(20, target=orc(hp=40, hp_max=40, pc=True))
    assert "Critical hit chart d20 20: Automatic Kill." in texts(played)
    orc_ = who(played, "orc")
    assert orc_.down and "dead" in orc_.conditions and orc_.hp == 0
    assert not [t for t in texts(played) if "death and dying" in t]


def test_crit_armor_damage_lowers_ac_by_one_until_beyond_repair_and_gone():
    # 000: chain mail takes 5 points (it raises AC by 5), is beyond repair at 3.
    played = crit(19, 1)
    orc_ = who(played, "orc")
    assert (orc_.ac, orc_.armor_damage) == (14, 1) and "armor beyond repair" not in orc_.conditions
    assert "Orc's chain mail is damaged (1 of 5 points): its AC 15 → 14." in texts(played)
    worn = crit(4, 1, target=orc(hp=40, hp_max=40, ac=13, armor_damage=2))
    assert "Orc's chain mail is damaged (3 of 5 points): its AC 13 → 12; it is beyond repair and must be replaced." in texts(worn)
    assert "armor beyond repair" in who(worn, "orc").conditions
    gone = crit(9, target=orc(hp=40, hp_max=40, ac=11, armor_damage=4))
    assert "Orc's chain mail is damaged (5 of 5 points): its AC 11 → 10; it is reduced to 0 and gives no protection." in texts(gone)
    spent = crit(14, 1, target=orc(hp=40, hp_max=40, ac=10, armor_damage=5))
    assert who(spent, "orc").ac == 10 and "Orc has no armor left to damage." in texts(spent)
    bare = crit(4, 1, target=orc(hp=40, hp_max=40, ac=10, armor="unarmored"))
    assert who(bare, "orc").ac == 10 and "Orc has no armor left to damage." in texts(bare)


def test_crit_limb_rolls_the_limb_table():
    # crit 18, damage (3) x3 = 9, limb table d6 4: 'Left elbow-cannot use shield or weapon': the shield goes
    played = crit(18, 3, 4, target=orc(hp=40, hp_max=40, ac=16, shield=True), options={"maneuvers": "pcs"})
    assert "Limb table d6 4: Orc's left elbow - cannot use shield or weapon." in texts(played)
    orc_ = who(played, "orc")
    assert "left elbow" in orc_.conditions and not orc_.shield and orc_.ac == 15 and orc_.hp == 31


@pytest.mark.parametrize(
    ("d6", "limb", "cost"),
    [
        (6, "left hand", "cannot wield weapon"),
        (5, "right hand", "cannot wield weapon"),
        (4, "left elbow", "cannot use shield or weapon"),
        (3, "right elbow", "cannot use shield or weapon"),
        (2, "left shoulder", "arm completely lost/ruined"),
        (1, "right shoulder", "arm completely lost/ruined"),
    ],
)
def test_limb_table(d6, limb, cost):
    assert chart.LIMB[d6] == (limb, cost)


def test_a_ruined_weapon_arm_cannot_wield_a_two_handed_weapon_and_a_lost_pair_none():
    one_arm = fight(act("alda", type="attack", target="orc"), combatants=[alda(conditions=["right shoulder"], weapons=[AXE]), orc()], rounds=0)
    assert rejected(one_arm) == ["ll-house/limb"]
    assert "cannot wield the great axe (right shoulder" in texts(one_arm)[-1]
    left_handed = fight(ATTACK, dice=[15, 2], combatants=[alda(conditions=["right hand"]), orc()])
    assert who(left_handed, "orc").hp == 6  # the other hand still wields a one-handed sword (a ruling)
    none = fight(ATTACK, combatants=[alda(conditions=["right hand", "left elbow"]), orc()], rounds=0)
    assert rejected(none) == ["ll-house/limb"]


def test_crit_knocks_weapon_from_hand():
    played = crit(17, 1)
    assert "Alda knocks the sword from Orc's hand." in texts(played)
    orc_ = who(played, "orc")
    assert orc_.weapons[0].dropped and "disarmed" in orc_.conditions


def test_crit_knockdown_costs_the_victim_its_next_action():
    # The orc (DEX 9) has yet to act when Alda (DEX 14) knocks it down: it loses its attack,
    # and is on its feet at the end of the round.
    played = fight(ATTACK, act("orc", type="attack", target="alda"), dice=[20, 16, 1])
    assert "Orc is knocked down (critical hit) and loses the rest of this round to stand." in texts(played)
    assert "Orc cannot act (knocked down)." in texts(played)
    assert "Orc regains its feet." in texts(played)
    assert who(played, "orc").conditions == [] and who(played, "alda").hp == 9


def test_crit_knockdown_after_acting_costs_the_next_round():
    # Alda strikes last (DEX 5): the orc has acted; it cannot declare in round 2.
    played = fight(act("orc", type="attack", target="alda"), ATTACK, dice=[2, 20, 11, 1], combatants=[alda(dex=5), orc(hp=40, hp_max=40)])
    assert "Orc is knocked down (critical hit) and loses the next round to stand." in texts(played)
    orc_ = who(played, "orc")
    assert orc_.until == {"knocked down": 2} and "prone" in orc_.conditions
    again = fight(
        act("orc", type="attack", target="alda"),
        ATTACK,
        {"type": "advance"},
        act("orc", type="attack", target="alda"),
        dice=[2, 20, 11, 1],
        combatants=[alda(dex=5), orc(hp=40, hp_max=40)],
        rounds=0,
    )
    assert rejected(again) == ["declare/cannot-act"]


def test_crit_shatters_the_shield_else_the_weapon():
    shield = crit(7, target=orc(hp=40, hp_max=40, ac=16, shield=True), options={"maneuvers": "pcs"})
    assert not who(shield, "orc").shield and who(shield, "orc").ac == 15
    weapon = crit(2, 1)
    assert who(weapon, "orc").weapons[0].broken and "Orc's sword is shattered." in texts(weapon)


def test_crit_untracked_armor_still_lowers_ac():
    played = crit(14, 1, target=orc(hp=40, hp_max=40, armor=""))
    assert who(played, "orc").ac == 14 and "Orc's armor is damaged: its AC 15 → 14." in texts(played)


def test_monsters_use_the_list_unless_it_is_for_pcs_only():
    # 000: 'The list below pertains to PCs. Monsters and NPCs may ... also use the list'
    played = fight(act("orc", type="attack", target="alda"), dice=[20, 3], options={"special_rolls": "pcs"})
    assert "Orc attacks Alda: d20 20 + 0 attack value = 20 ≥ AC 15: hit." in texts(played)
    assert not texts(played, "critical") and who(played, "alda").hp == 6


# --- IMPROVED CRIT RANGE ----------------------------------------------------------------


def test_improved_crit_range_one_rank_crits_on_19_and_fumbles_on_2():
    played = fight(ATTACK, dice=[19, 10, 4], combatants=[alda(improvements={"improved_crit_range": 1}), orc(hp=40, hp_max=40)])
    assert "Alda attacks Orc: d20 19 + 1 attack value = 20 ≥ AC 15: natural 19: a critical hit." in texts(played)
    assert who(played, "orc").hp == 32
    fumbled = fight(ATTACK, dice=[2, 4, 1], combatants=[alda(improvements={"improved_crit_range": 1}), orc()])
    assert "Alda attacks Orc: d20 2 + 1 attack value = 3 < AC 15: natural 2: a fumble." in texts(fumbled)


@pytest.mark.parametrize(
    ("option", "ranks", "lowest"),
    [
        ("one-per-rank", 2, 18),
        ("as-written", 1, 19),
        ("as-written", 2, 19),
        ("as-written", 3, 18),
    ],
)
def test_improved_crit_range_readings(option, ranks, lowest):
    # 000: 'a Natural 19 or 20 ... The third time you select this option makes your Crit Range 18-20'
    def natural(n):
        return fight(
            ATTACK, dice=[n, 15, 1], options={"crit_range_ranks": option}, combatants=[alda(improvements={"improved_crit_range": ranks}), orc(hp=40, hp_max=40)]
        )

    assert texts(natural(lowest), "critical")
    assert not texts(natural(lowest - 1), "critical")


# --- FUMBLE TABLE (ROLLED A NAT 1) -------------------------------------------------------


def fumble(d6, *dice, combatants=None, more=()):
    return fight(ATTACK, *more, dice=[1, d6, *dice], combatants=combatants or [alda(), orc()])


def test_natural_1_misses_and_rolls_the_fumble_table():
    played = fumble(4, 2, combatants=[alda(attack_bonus=20), orc()])
    assert "Alda attacks Orc: d20 1 + 20 attack value = 21 ≥ AC 15: natural 1: a fumble." in texts(played)
    assert "Fumble table d6 4: Alda accidentally harms self for 1-2 HP." in texts(played)
    assert who(played, "alda").hp == 7 and who(played, "orc").hp == 8


def test_fumble_weapon_stuck_for_1d4_rounds():
    played = fumble(6, 2)
    alda_ = who(played, "alda")
    assert "The sword is stuck for 2 round(s): free at the end of round 3." in texts(played)
    assert alda_.weapons[0].dropped and "weapon stuck" in alda_.conditions and alda_.until == {"weapon stuck:0": 3}
    refused = fumble(6, 2, more=[{"type": "advance"}, act("alda", type="recover", weapon=0)])
    assert "ll-house/weapon-stuck" in rejected(refused)
    freed = fight(ATTACK, {"type": "advance"}, {"type": "advance"}, dice=[1, 6, 2])
    assert "Alda frees the sword." in texts(freed)
    assert not who(freed, "alda").weapons[0].dropped and who(freed, "alda").conditions == []


def test_fumble_dropped_weapon_is_picked_up_or_another_drawn():
    played = fumble(5, more=[{"type": "advance"}, act("alda", type="recover", weapon=0)])
    assert "Alda picks up the sword." in texts(played)
    assert not who(played, "alda").weapons[0].dropped and "disarmed" not in who(played, "alda").conditions


def test_fumble_harms_nearest_ally():
    near = {"id": "bran", "name": "Bran", "side": "party", "hp": 6, "hp_max": 6, "x": 10, "y": 15}
    far = {"id": "cora", "name": "Cora", "side": "party", "hp": 6, "hp_max": 6, "x": 40, "y": 40}
    played = fumble(3, 2, combatants=[alda(), orc(), far, near])
    assert "Bran takes 2 damage (Alda's fumble), 4 HP left." in texts(played) and who(played, "cora").hp == 6
    alone = fumble(3)
    assert "No ally stands near Alda: nobody is hurt." in texts(alone)


def test_fumble_harm_self_and_fall():
    played = fumble(2, 3)
    alda_ = who(played, "alda")
    assert alda_.hp == 6 and "knocked down" in alda_.conditions and "prone" in alda_.conditions
    assert "Alda is knocked down (fumble) and loses the next round to stand." in texts(played)


def test_fumble_run_into_ally_both_lose_1_4_and_fall():
    bran = {"id": "bran", "name": "Bran", "side": "party", "hp": 6, "hp_max": 6, "x": 10, "y": 15, "dex": 3}
    played = fumble(1, 4, 2, combatants=[alda(), orc(), bran])
    assert (who(played, "alda").hp, who(played, "bran").hp) == (5, 4)
    assert all("knocked down" in who(played, c).conditions for c in ("alda", "bran"))


def test_fumble_table_rows():
    assert [chart.FUMBLE[r][0] for r in range(6, 0, -1)] == ["stuck", "dropped", "harm self", "harm ally", "harm self and fall", "run into ally"]
    assert chart.FUMBLE_DICE == {"harm self": "1d2", "harm ally": "1d2", "harm self and fall": "1d4", "run into ally": "1d4"}


# --- MASTER BODY TABLE -----------------------------------------------------------------


def test_master_body_table_covers_1_to_20_once():
    covered = sorted(n for lo, hi, _ in chart.MASTER_BODY for n in range(lo, hi + 1))
    assert covered == list(range(1, 21))


@pytest.mark.parametrize(("d20", "place"), [(20, "Head"), (18, "Upper torso/Chest"), (15, "Ribs/Stomach"), (8, "Midsection/Waist"), (1, "Right Foot")])
def test_hit_location_option_rolls_the_master_body_table(d20, place):
    played = fight(ATTACK, dice=[15, d20, 3], options={"hit_location": True})
    assert f"Master body table d20 {d20}: the blow lands on the {place}." in texts(played)
    assert who(played, "orc").hp == 5


# --- the profile ---------------------------------------------------------------------------


def test_profile_is_listed_with_its_options():
    profile = PROFILES["ll-house"]
    assert profile.ac_style == "ascending" and profile.document.startswith("000_")
    options = validate_options("ll-house", {"two_weapon_fighting": "both"})
    assert options["weapon_damage"] is True and options["two_weapon_fighting"] == "both"
    with pytest.raises(ValueError, match="two_weapon_fighting"):
        validate_options("ll-house", {"two_weapon_fighting": "twice"})
    with pytest.raises(ValueError, match="no option 'natural_20_hits'"):
        validate_options("holmes-phases", {"natural_20_hits": True})


def test_000_maneuvers_are_refused_under_another_profile():
    played = fight(act("alda", type="shield_bash", target="orc"), combatants=[alda(shield=True), orc()], rounds=0, profile="holmes-phases")
    assert rejected(played) == ["declare/not-in-profile"]


def test_bad_000_figures_are_refused():
    from fray_table.rules.scenario import play

    for figures, words in [
        ({"armor": "mithril"}, "armor 'mithril'"),
        ({"improvements": {"extra_attack": 4}}, "extra_attack ranks 4"),
        ({"improvements": {"backstab": 1}}, "improvements: 'backstab'"),
        ({"con_bonus": 5}, "con_bonus 5 (Con bonus)"),
    ]:
        played = play({"profile": "ll-house", "combatants": [alda(**figures)]})
        assert [e.code for e in played.log if e.kind == "rejected"] == ["combatant/invalid"]
        assert words in played.log[-1].text and not played.state.combatants


# --- missiles, flasks and torches -----------------------------------------------------------

BOW = {"name": "bow", "damage": "1d6", "range": 150, "missile": "bow"}
SHOOT = act("alda", type="shoot", target="orc", weapon=1)


def archer(**figures):
    return alda(x=0, y=0, weapons=[SWORD, BOW], **figures)


def test_a_missile_is_rolled_against_ascending_ac():
    # 60 ft of a 150-ft bow is medium range (002: +0 here); 'roll the Armor Class or higher'
    played = fight(SHOOT, dice=[14, 3], combatants=[archer(), orc(x=60, y=0)])
    assert "Alda shoots the bow at Orc: d20 14 + 1 attack value + 0 medium range = 15 ≥ AC 15: hit." in texts(played)
    assert who(played, "orc").hp == 5


def test_a_missile_natural_20_rolls_the_crit_chart_and_natural_1_the_fumble_table():
    # 000: 'Any roll of Natural 20 yields special effects, and so does any roll of Natural 1'
    crit_ = fight(SHOOT, dice=[20, 10, 4], combatants=[archer(), orc(x=60, y=0, hp=20, hp_max=20)])
    assert "Critical hit chart d20 10: Double Damage (Dam + Bonus, then X2)." in texts(crit_)
    assert who(crit_, "orc").hp == 12
    fumbled = fight(SHOOT, dice=[1, 5], combatants=[archer(), orc(x=60, y=0)])
    assert "Fumble table d6 5: Alda dropped weapon; draw new weapon or lose 1 round to retrieve." in texts(fumbled)
    assert who(fumbled, "alda").weapons[1].dropped


def test_an_oil_flask_reads_000s_arithmetic_without_special_rolls():
    # 003's flask (+2 for a medium target) against 000's ascending AC; a natural 20 is just a hit (a ruling)
    played = fight(act("alda", type="throw_oil", target="orc", torch=False), dice=[20, 4], combatants=[alda(), orc(x=20, y=10)])
    attack = [t for t in texts(played, "attack") if "flask" in t][0]
    assert attack.startswith("Alda throws a flask of oil at Orc: d20 20 + 1 attack value") and attack.endswith("≥ AC 15: hit.")
    assert not texts(played, "critical")


# --- views, edits, the weapon dice -------------------------------------------------------------


def test_view_shows_ascending_ac_and_the_attack_value():
    from fray_table.rules.view import Viewer, view

    played = fight(rounds=0)
    cards = {c.id: c for c in view(played.state, Viewer("player", ("alda",))).combatants}
    assert (cards["alda"].ac_shown, cards["alda"].attack_bonus) == (15, 1)  # 000 speaks ascending AC
    assert (cards["orc"].ac_shown, cards["orc"].attack_bonus) == (15, 0)


def test_gm_sets_improved_combat_options_by_editing_and_bad_ones_change_nothing():
    edit = {"type": "edit_combatant", "id": "alda", "improvements": {"extra_attack": 2}, "expertise": {"sword": 1}}
    played = fight(edit, rounds=0)
    assert who(played, "alda").improvements == {"extra_attack": 2} and who(played, "alda").expertise == {"sword": 1}
    bad = fight({"type": "edit_combatant", "id": "alda", "improvements": {"extra_attack": 9}, "armor": "plate mail"}, rounds=0)
    assert rejected(bad) == ["combatant/invalid"] and who(bad, "alda").improvements == {} and who(bad, "alda").armor == "chain mail"


def test_weapon_damage_off_rolls_003s_1_to_6():
    played = fight(ATTACK, dice=[15, 6], combatants=[alda(weapons=[{**SWORD, "damage": "1d12"}]), orc()], options={"weapon_damage": False})
    assert "Alda rolls 6 damage against Orc (1d6 6)." in texts(played)


def test_a_hidden_combatants_ac_stays_hidden_in_the_lines_a_player_reads():
    from fray_table.rules.view import Viewer, log_for

    played = crit(19, 1, target=orc(hp=40, hp_max=40, hidden=True))
    line = next(e for e in log_for(played.log, played.state, Viewer("player", ("alda",))) if e.kind == "armor")
    assert line.text == "Orc's chain mail is damaged."  # its armor points are its figures too
    assert "its AC 15 → 14" in next(e.text for e in played.log if e.kind == "armor")


# --- 003's terms that stand where 000 is silent ---------------------------------------------------


def test_003_called_shot_and_charge_stand_in_000s_arithmetic():
    called = fight(act("alda", type="attack", target="orc", called_shots=1), dice=[19, 3, 4])
    assert "Alda attacks Orc: d20 19 + 1 attack value - 5 called shot = 15 ≥ AC 15: hit." in texts(called)
    assert "Alda rolls 7 damage against Orc (1d8 + 1d6 7)." in texts(called)
    charge = fight(act("alda", type="charge", target="orc"), dice=[12, 3, 2], combatants=[alda(x=10, y=30), orc()])
    assert "Alda charges Orc: d20 12 + 1 attack value + 2 charge = 15 ≥ AC 15: hit." in texts(charge)
    assert "Orc counter-attacks Alda: d20 2 + 0 attack value = 2 < AC 15: miss." in texts(charge)
