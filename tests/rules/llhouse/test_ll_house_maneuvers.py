"""Profile ll-house (000): the maneuvers available to all (parry, shield bash, shield
sacrifice, two-weapon fighting) and the improved combat options (cleave, extra attack,
improved parry, improved shield bash, weapon expertise). Every die is forced."""

import pytest
from ll_house_scenes import AXE, DAGGER, SWORD, act, alda, fight, orc
from scenes import rejected, texts, who

from fray_table.rules.view import legal_actions

ATTACK = act("alda", type="attack", target="orc")
ORC_ATTACKS = act("orc", type="attack", target="alda")


# --- PARRY -----------------------------------------------------------------------------


def test_parry_adds_two_to_ac_for_the_round():
    # 000: 'Instead of attacking, act purely on defense ... Add 2 to your AC for this round.'
    played = fight(act("alda", type="parry"), ORC_ATTACKS, dice=[16])
    assert "Orc attacks Alda: d20 16 + 0 attack value = 16 < AC 17 (15 + 2 parry): miss." in texts(played)
    hit = fight(act("alda", type="parry"), ORC_ATTACKS, dice=[17, 2])
    assert "Orc attacks Alda: d20 17 + 0 attack value = 17 ≥ AC 17 (15 + 2 parry): hit." in texts(hit)
    assert who(hit, "alda").hp == 7


def test_parry_has_no_003_disarm_or_counter_attack():
    # 003's parry (-4, disarm, +3 counter) is replaced by 000's: a miss is just a miss.
    played = fight(act("alda", type="parry"), ORC_ATTACKS, dice=[3], combatants=[alda(weapons=[DAGGER]), orc(weapons=[AXE])])
    assert not texts(played, "parry") and played.state.awaiting is None and not who(played, "alda").weapons[0].dropped


def test_improved_parry_and_weapon_expertise_add_two_a_rank():
    # IMPROVED PARRY: 'Every time you get this your Parry improves by +2'; WEAPON EXPERTISE: '+2 to Dam and to Parry'
    parrier = alda(improvements={"improved_parry": 2}, expertise={"sword": 1})
    played = fight(act("alda", type="parry"), ORC_ATTACKS, dice=[20, 1, 1], combatants=[parrier, orc(attack_bonus=2)], options={"special_rolls": "pcs"})
    assert "Orc attacks Alda: d20 20 + 2 attack value = 22 < AC 23 (15 + 2 parry + 4 improved parry + 2 sword expertise): miss." in texts(played)


# --- SHIELD BASH -----------------------------------------------------------------------


def test_shield_bash_does_1d3():
    # 000: 'Make a normal attack roll, success means the victim takes 1d3 damage.'
    played = fight(act("alda", type="shield_bash", target="orc"), dice=[14, 3], combatants=[alda(shield=True, ac=16), orc()])
    assert "Alda shield-bashes Orc: d20 14 + 1 attack value = 15 ≥ AC 15: hit." in texts(played)
    assert "Alda rolls 3 damage against Orc (1d3 3)." in texts(played) and who(played, "orc").hp == 5
    assert "knocked down" not in who(played, "orc").conditions


def test_shield_bash_natural_20_knocks_down():
    # 000: 'A roll of 20 means the victim is also knocked down and loses 1 round climbing back to their feet.'
    played = fight(act("alda", type="shield_bash", target="orc"), ORC_ATTACKS, dice=[20, 2], combatants=[alda(shield=True, ac=16), orc()])
    assert "Alda rolls 2 damage against Orc (1d3 2); d20 20 knocks it down." in texts(played)
    assert "Orc is knocked down (shield bash) and loses the rest of this round to stand." in texts(played)
    assert "Orc cannot act (knocked down)." in texts(played)
    assert not texts(played, "critical")  # the bash's 20 is its own rule, not the crit chart


def test_shield_bash_is_a_normal_attack_roll_its_20_no_automatic_hit():
    """Rules version 8: 'Make a normal attack roll': the fight's own (000's d20 + Attack Value
    against AC); the shield is no weapon, so its 20 is no critical and must reach the AC: 20 + 1 =
    21 < AC 22 misses. Version 7 hit on any natural 20 (option natural_20_hits)."""
    plated = orc(armor="", ac=22)
    bash = act("alda", type="shield_bash", target="orc")
    played = fight(bash, dice=[20], combatants=[alda(shield=True, ac=16), plated])
    assert texts(played, "attack") == ["Alda shield-bashes Orc: d20 20 + 1 attack value = 21 < AC 22: miss."]
    assert who(played, "orc").hp == 8
    was = fight(bash, dice=[20, 2], combatants=[alda(shield=True, ac=16), plated], version=7)
    assert texts(was, "attack") == ["Alda shield-bashes Orc: d20 20 + 1 attack value = 21 < AC 22: hit."]
    assert who(was, "orc").hp == 6 and "knocked down" in who(was, "orc").conditions


def test_shield_bash_against_a_parrier_takes_the_parry_off_the_roll():
    """Rules version 8: 000's PARRY 'Add 2 to your AC' reaches the bash through the fight's parry:
    shown as a term of the roll (d20 15 + 1 - 2 parry = 14 < AC 15); version 7 showed it on the AC."""
    bash, parry = act("alda", type="shield_bash", target="orc"), act("orc", type="parry")
    played = fight(bash, parry, dice=[15], combatants=[alda(shield=True, ac=16), orc()])
    assert texts(played, "attack") == ["Alda shield-bashes Orc: d20 15 + 1 attack value - 2 parry = 14 < AC 15: miss."]
    was = fight(bash, parry, dice=[15], combatants=[alda(shield=True, ac=16), orc()], version=7)
    assert texts(was, "attack") == ["Alda shield-bashes Orc: d20 15 + 1 attack value = 16 < AC 17 (15 + 2 parry): miss."]


@pytest.mark.parametrize(("ranks", "d20", "times", "knocks"), [(1, 19, 2, True), (1, 18, 2, False), (2, 18, 3, True), (3, 17, 4, True)])
def test_improved_shield_bash(ranks, d20, times, knocks):
    # 'One Rank= Dam 1d3x2, KO if you roll a 19-20. Two Ranks= Dam 1d3x3, KO if you roll a 18-20.
    #  Third Ranks= Dam 1d3x4, KO if you roll a 17-20.'
    basher = alda(shield=True, ac=16, improvements={"improved_shield_bash": ranks})
    played = fight(act("alda", type="shield_bash", target="orc"), dice=[d20, 2], combatants=[basher, orc(hp=20, hp_max=20)])
    assert who(played, "orc").hp == 20 - 2 * times
    assert any(f"(1d3 2 x {times})" in t for t in texts(played))
    assert ("knocked down" in who(played, "orc").conditions) == knocks


def test_shield_bash_needs_a_shield_and_the_shield_arm():
    played = fight(act("alda", type="shield_bash", target="orc"), rounds=0)
    assert rejected(played) == ["ll-house/no-shield"]
    hurt = fight(act("alda", type="shield_bash", target="orc"), combatants=[alda(shield=True, conditions=["left shoulder"]), orc()], rounds=0)
    assert rejected(hurt) == ["ll-house/no-shield"]


def test_maneuvers_for_pcs_only_when_the_option_says_so():
    played = fight(act("alda", type="shield_bash", target="orc"), combatants=[alda(shield=True), orc()], options={"maneuvers": "pcs"}, rounds=0)
    assert rejected(played) == ["ll-house/pcs-only"]


# --- SHIELD SACRIFICE --------------------------------------------------------------------


def test_shield_sacrifice_the_documents_example():
    # 000: 'The orc hits the fighter, rolls 6 Damage. The fighter wants to sacrifice his shield and
    # rolls a 3. The orc's damage of 6-3=3 damage. The fighter suffers only 3HP damage and loses his
    # shield (lowering his AC by 1).'
    fighter = alda(klass="fighter", level=1, ac=16, shield=True, hp=10, hp_max=10)
    played = fight(ORC_ATTACKS, dice=[16, 6, 3], combatants=[fighter, orc(weapons=[AXE])])
    waiting = played.state.awaiting
    assert waiting.kind == "shield_sacrifice" and waiting.who == "alda" and waiting.options == ["sacrifice", "keep"]
    assert "Orc rolls 6 damage against Alda (1d10 6)." in texts(played) and who(played, "alda").hp == 10
    done = fight(ORC_ATTACKS, dice=[16, 6, 3], combatants=[fighter, orc(weapons=[AXE])], answers=["sacrifice"])
    assert "Alda sacrifices the shield: 1d4 3; 6 - 3 = 3 damage." in texts(done)
    alda_ = who(done, "alda")
    assert alda_.hp == 7 and not alda_.shield and alda_.ac == 15 and done.state.awaiting is None


def test_shield_kept_takes_the_whole_blow():
    fighter = alda(ac=16, shield=True)
    played = fight(ORC_ATTACKS, dice=[16, 6], combatants=[fighter, orc()], answers=["keep"])
    assert who(played, "alda").hp == 3 and who(played, "alda").shield and "Alda keeps the shield." in texts(played)


def test_shield_sacrifice_is_the_defenders_choice():
    from scenes import NO_SURPRISE

    from fray_table.rules.scenario import play

    fighter = alda(ac=16, shield=True)
    waiting = fight(ORC_ATTACKS, dice=[16, 6], combatants=[fighter, orc()]).state.awaiting
    wrong = {"type": "answer", "awaiting": waiting.id, "choice": "sacrifice", "as": "player:orc"}
    right = {"type": "answer", "awaiting": waiting.id, "choice": "sacrifice", "as": "player:alda"}
    asked = play(
        {
            "profile": "ll-house",
            "dice": [*NO_SURPRISE, 16, 6, 4],
            "combatants": [fighter, orc()],
            "commands": [{"type": "start"}, ORC_ATTACKS, {"type": "advance"}, wrong, right],
        }
    )
    assert [e.code for e in asked.log if e.kind == "rejected"] == ["answer/not-yours"]
    assert who(asked, "alda").hp == 7 and not who(asked, "alda").shield  # 9 HP - (6 - 4)


# --- TWO-WEAPON FIGHTING ------------------------------------------------------------------


TWO = act("alda", type="two_weapons", target="orc", weapon=0, off_hand=1)
PAIR = [SWORD, DAGGER]


@pytest.mark.parametrize(("die", "damage", "weapon"), [(4, 7, "sword"), (3, 3, "dagger")])
def test_two_weapons_plus_two_and_a_die_picks_the_weapon(die, damage, weapon):
    # 000: '+2 to your Hit roll ... If you roll an Even number then you hit with your Main Hand Weapon;
    # Odd numbers indicate your Off Hand Weapon. Then you roll normal damage for that weapon.'
    played = fight(TWO, dice=[12, die, damage], combatants=[alda(weapons=PAIR), orc()])
    assert "Alda attacks with two weapons Orc: d20 12 + 1 attack value + 2 two weapons = 15 ≥ AC 15: hit." in texts(played)
    assert any(t.startswith(f"Which weapon: d6 {die}") and f"({weapon})" in t for t in texts(played))
    assert who(played, "orc").hp == 8 - damage


def test_two_weapons_both_attack_at_minus_two_and_minus_four():
    # 000: 'Your Main Hand Weapon gets a -2 to Attack ... Your Off Hand Weapon gets a -4'; the second
    # attack comes of EXTRA ATTACK ('Without this Option, you can still only make 1 Attack per round').
    duelist = alda(weapons=PAIR, improvements={"extra_attack": 1})
    played = fight(TWO, dice=[16, 5, 18, 2], combatants=[duelist, orc()], options={"two_weapon_fighting": "both"})
    assert "Alda attacks with the main hand Orc: d20 16 + 1 attack value - 2 main hand = 15 ≥ AC 15: hit." in texts(played)
    assert "Alda attacks with the off hand Orc: d20 18 + 1 attack value - 4 off hand = 15 ≥ AC 15: hit." in texts(played)
    assert who(played, "orc").hp == 1
    single = fight(TWO, dice=[16, 5], combatants=[alda(weapons=PAIR), orc()], options={"two_weapon_fighting": "both"})
    assert len(texts(single, "attack")) == 1


def test_two_weapons_declaration_checks():
    both = {"two_weapon_fighting": "both"}
    assert rejected(fight(TWO, combatants=[alda(weapons=[SWORD, AXE]), orc()], rounds=0)) == ["ll-house/two-handed"]
    assert rejected(fight(TWO, combatants=[alda(weapons=[DAGGER, SWORD]), orc()], rounds=0)) == ["ll-house/off-hand-too-big"]
    # 'the same size or smaller' (one roll) against 'must be smaller' (both attack)
    same = [SWORD, {**SWORD, "name": "short sword"}]
    assert rejected(fight(TWO, combatants=[alda(weapons=same), orc()], rounds=0)) == []
    assert rejected(fight(TWO, combatants=[alda(weapons=same), orc()], rounds=0, options=both)) == ["ll-house/off-hand-too-big"]
    assert rejected(fight(TWO, combatants=[alda(weapons=PAIR, conditions=["left hand"]), orc()], rounds=0)) == ["ll-house/limb"]
    assert rejected(fight(act("alda", type="two_weapons", target="orc", off_hand=0), combatants=[alda(weapons=PAIR), orc()], rounds=0)) == [
        "ll-house/one-weapon"
    ]


def test_legal_actions_list_the_000_maneuvers():
    played = fight(combatants=[alda(weapons=PAIR, shield=True), orc()], rounds=0)
    listed = {c.type: c for c in legal_actions(played.state)["alda"]}
    assert listed["shield_bash"].targets == ["orc"]
    assert listed["two_weapons"].options == {"weapon": [0, 1], "off_hand": [0, 1]}
    assert "parry" in listed and "staunch" not in listed
    plain = fight(rounds=0)
    assert {"shield_bash", "two_weapons"}.isdisjoint(c.type for c in legal_actions(plain.state)["alda"])


# --- EXTRA ATTACK, CLEAVE, WEAPON EXPERTISE ----------------------------------------------


def test_extra_attack_gives_one_more_attack_a_rank():
    # 000: 'one more attack per combat round ... Only available 3 times, for a total of 4 attacks per round.'
    fighter = alda(improvements={"extra_attack": 3})
    played = fight(ATTACK, dice=[15, 1, 15, 1, 15, 1, 15, 1], combatants=[fighter, orc(hp=20, hp_max=20)])
    assert len(texts(played, "attack")) == 4 and who(played, "orc").hp == 16


def test_extra_attack_turns_to_the_nearest_foe_when_the_target_falls():
    fighter = alda(improvements={"extra_attack": 1})
    played = fight(ATTACK, dice=[15, 8, 15, 2], combatants=[fighter, orc(), orc("grul", x=10, y=15)])
    assert who(played, "orc").down and who(played, "grul").hp == 6
    assert "Alda attacks Grul: d20 15 + 1 attack value = 16 ≥ AC 15: hit." in texts(played)


def test_cleave_carries_leftover_damage_within_five_feet():
    # 000: 'If you kill an enemy and have leftover damage, it can be carried over to another enemy that is
    # within 5 feet of the original target.' 8 HP orc takes 8+3 = 11: 3 carries to Grul; Ukk is 15 ft off.
    cleaver = alda(improvements={"cleave": 1}, weapons=[{**SWORD, "damage": "1d12"}])
    foes = [orc(), orc("grul", x=20, y=10), orc("ukk", x=35, y=10)]
    played = fight(ATTACK, dice=[15, 11], combatants=[cleaver, *foes])
    assert "Alda cleaves on into Grul with 3 leftover damage." in texts(played)
    assert (who(played, "grul").hp, who(played, "ukk").hp) == (5, 8)


def test_cleave_twice_reaches_a_third_enemy():
    # 'If you take this Ability again, the Damage can carry over to a 3rd enemy, who is within 5 feet of the 2nd'
    cleaver = alda(improvements={"cleave": 2}, weapons=[{**SWORD, "damage": "1d12"}])
    foes = [orc(), orc("grul", x=20, y=10, hp=2, hp_max=2), orc("ukk", x=25, y=10)]
    played = fight(ATTACK, dice=[15, 12], combatants=[cleaver, *foes])
    assert who(played, "grul").down and who(played, "ukk").hp == 6  # 12 - 8 = 4, 4 - 2 = 2
    once = fight(ATTACK, dice=[15, 12], combatants=[alda(improvements={"cleave": 1}, weapons=[{**SWORD, "damage": "1d12"}]), *foes])
    assert who(once, "ukk").hp == 8


def test_no_cleave_without_the_option():
    played = fight(ATTACK, dice=[15, 8], combatants=[alda(weapons=[{**SWORD, "damage": "1d12"}]), orc(hp=3, hp_max=3), orc("grul", x=20, y=10)])
    assert who(played, "grul").hp == 8 and not texts(played, "cleave")


def test_weapon_expertise_adds_two_damage_a_rank_and_silver_is_the_same_dagger():
    # 000: '+2 to Dam'; 'a Silver Dagger is just a regular Dagger with a Silver coating, so one rank ... applies to both'
    expert = alda(weapons=[{**DAGGER, "name": "silver dagger"}], expertise={"dagger": 2})
    played = fight(ATTACK, dice=[15, 1], combatants=[expert, orc()])
    assert "Alda rolls 5 damage against Orc (1d4 1 + 4 silver dagger expertise)." in texts(played)
    other = fight(ATTACK, dice=[15, 1], combatants=[alda(expertise={"short sword": 1}), orc()])
    assert "Alda rolls 1 damage against Orc (1d8 1)." in texts(other)


# --- what a maneuver cannot reach or finish ---------------------------------------------------


def test_an_extra_attack_with_no_foe_in_reach_is_lost():
    played = fight(ATTACK, dice=[15, 8], combatants=[alda(improvements={"extra_attack": 1}), orc(), orc("grul", x=40, y=40)])
    assert "Alda's further attack finds no one in reach." in texts(played) and who(played, "grul").hp == 8


def test_a_fumble_that_fells_the_attacker_costs_its_further_attacks():
    # fumble table 2: 'harm self for 1-4 HP + fall down': the extra attack is not struck
    played = fight(ATTACK, dice=[1, 2, 1], combatants=[alda(improvements={"extra_attack": 1}), orc()])
    assert "Alda cannot strike (knocked down)." in texts(played)
    assert len(texts(played, "attack")) == 2 and who(played, "orc").hp == 8


def test_shield_bash_and_staunch_need_the_target_at_hand():
    far = fight(act("alda", type="shield_bash", target="orc"), combatants=[alda(shield=True), orc(x=30, y=10)])
    assert "Alda cannot reach Orc with the shield (20 ft away)." in texts(far)
    bran = {"id": "bran", "name": "Bran", "side": "party", "hp": 6, "hp_max": 6, "x": 40, "y": 40}
    bleeding = alda(pc=True, hp=-2, down=True, conditions=["bleeding out"], until={"bleeding out": 3})
    played = fight(act("bran", type="staunch", target="alda"), combatants=[bleeding, orc(), bran])
    assert "Bran is 30 ft from Alda, too far to staunch the wound." in texts(played)
    assert who(played, "alda").conditions == ["bleeding out"]


def test_two_weapons_refused_with_the_off_hand_weapon_dropped():
    played = fight(TWO, dice=[14, 3], combatants=[alda(weapons=[SWORD, {**DAGGER, "dropped": True}]), orc()], rounds=0)
    assert rejected(played) == ["melee/weapon-unusable"]
