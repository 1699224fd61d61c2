"""Profile `challenges` (001): every row of the Attack Chart, the natural 1 and 20, the
wounds, and what a miss costs afterwards. Every die is forced; each test quotes 001.

A fight is Alda (party) against a Gob (AC 15, 30 HP) with a 1d6 sword; the d20 is 10
and Alda's Attack Bonus is set so that 10 + bonus - 15 is the Attack Result wanted."""

import pytest
from scenes import ADVANCE, NO_SURPRISE, declare, fighter, texts, who

from fray_table.rules.charts.attack_result import ATTACK_CHART, WOUNDS, grade
from fray_table.rules.scenario import play

AC = 15
D20 = 10


def fight(*commands, dice=(), options=None, result=None, alda=None, gob=None, others=()):
    bonus = {} if result is None else {"attack_bonus": result + AC - D20}
    return play(
        {
            "profile": "challenges",
            "seed": "challenges",
            "options": options or {},
            "dice": [*NO_SURPRISE, *dice],
            "combatants": [
                fighter("alda", "party", **{"dex": 14, "x": 10, "y": 10, **bonus, **(alda or {})}),
                fighter("gob", "goblins", **{"ac": AC, "hp": 30, "hp_max": 30, "dex": 9, "x": 15, "y": 10, **(gob or {})}),
                *others,
            ],
            "commands": [{"type": "start"}, *commands],
        }
    )


def alda_attacks(**action):
    return declare("alda", {"type": "attack", "target": "gob", **action})


def rejected(played):
    return [(e.code, e.text) for e in played.log if e.kind == "rejected"]


# --- the chart as data ------------------------------------------------------------


def test_chart_holds_every_row_of_001_from_minus_10_to_plus_10():
    assert sorted(ATTACK_CHART) == list(range(-10, 11))
    assert grade(-25) is ATTACK_CHART[-10] and grade(31) is ATTACK_CHART[10]  # '-10 or lower', '+10 or higher'
    assert WOUNDS == {"light": 1, "serious": 3, "critical": 5}  # '-1 ... -3 ... -5 to attack rolls, etc.'


# (Attack Result, the d6 rolled for damage, Gob's HP after, the wound it takes): 001's rows.
HITS = [
    (-3, None, 29, None),  # 'Glancing blow does exactly 1 point of damage' (no die)
    (-2, 5, 28, None),  # 'A weak Hit for half normal damage (round down ...)': 5 // 2 = 2
    (-2, 1, 29, None),  # '... minimum 1 point': 1 // 2 = 0 -> 1
    (-1, 4, 28, None),  # 'A weak Hit for normal damage -2 points': 4 - 2 = 2
    (-1, 2, 29, None),  # '(minimum 1 point)': 2 - 2 = 0 -> 1
    (0, 4, 26, None),  # 'A normal Hit, no other effect'
    (1, 4, 25, None),  # 'A strong Hit for +1 point of damage'
    (2, 4, 24, None),  # '+2 points'
    (3, 4, 24, "light"),  # '+2 points of damage that also inflicts a Light wound'
    (4, 4, 23, "light"),  # '+3 ... Light'
    (5, 4, 22, "light"),  # '+4 ... Light'
    (6, 4, 22, "serious"),  # '+4 ... Serious'
    (7, 4, 21, "serious"),  # '+5 ... Serious'
    (8, 4, 22, "serious"),  # 'A mighty Hit for double rolled damage that also inflicts a Serious wound'
    (9, 4, 22, "critical"),  # 'double rolled damage ... Critical wound'
]


@pytest.mark.parametrize(("result", "d6", "hp", "wound"), HITS)
def test_each_hit_row_does_its_damage_and_wound(result, d6, hp, wound):
    played = fight(alda_attacks(), ADVANCE, dice=[D20] + ([d6] if d6 else []), result=result)
    attack = texts(played, "attack")[0]
    assert f"= Attack Result {result:+d}: {ATTACK_CHART[result].effect}.".replace("+0", "0") in attack
    assert who(played, "gob").hp == hp
    assert who(played, "gob").conditions == ([f"{wound} wound"] if wound else [])
    assert [r.value for e in played.log for r in e.rolls if r.sides == 6][2:] == ([d6] if d6 else [])


def test_glancing_blow_rolls_no_damage_die():
    played = fight(alda_attacks(), ADVANCE, dice=[D20], result=-3)
    assert "Gob takes 1 damage (a glancing blow: exactly 1 point), 29 HP left." in texts(played, "damage")


@pytest.mark.parametrize("result", [-5, -4])
def test_miss_no_other_effect(result):
    played = fight(alda_attacks(), ADVANCE, dice=[D20], result=result)
    assert texts(played, "attack")[0].endswith(f"Attack Result {result}: Miss, no other effect.")
    assert who(played, "gob").hp == 30 and who(played, "alda").conditions == [] and not texts(played, "damage")


def test_plus_10_is_mighty_critical_and_an_immediate_extra_attack():
    # '+10 or higher: A mighty Hit for double rolled damage ... Critical wound ..., plus gain an immediate
    # extra attack'. d6 4 doubled = 8; the extra attack: d20 2 + 15 - 15 = +2, d6 3 + 2 = 5.
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 4, 2, 3], result=10)
    assert texts(played, "damage") == [
        "Gob takes 8 damage (1d6 rolled 4 doubled), 22 HP left.",
        "Gob takes 5 damage (1d6 rolled 3, +2 strong Hit), 17 HP left.",
    ]
    assert "Alda gains an immediate extra attack on Gob." in texts(played, "attack")
    assert texts(played, "attack")[-1].startswith("Alda makes an extra attack on Gob: d20 2 + 15 attack bonus - AC 15 = Attack Result +2")
    assert who(played, "gob").conditions == ["critical wound"]


def test_extra_attack_with_two_foes_in_reach_is_the_attackers_choice():
    other = fighter("orc", "goblins", ac=10, hp=5, hp_max=5, x=15, y=15)
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 4], result=10, others=[other])
    waiting = played.state.awaiting
    assert waiting.kind == "extra_attack" and waiting.who == "alda" and waiting.options == ["gob", "orc", "decline"]
    on_orc = fight(
        alda_attacks(),
        ADVANCE,
        {"type": "answer", "awaiting": waiting.id, "choice": "orc", "as": "player:alda"},
        dice=[D20, 4, 15, 5],
        result=10,
        others=[other],
    )
    # the orc: d20 15 + 15 - AC 10 = +20, '+10 or higher': d6 5 doubled = 10; it falls
    assert "Orc takes 10 damage (1d6 rolled 5 doubled), -5 HP left." in texts(on_orc, "damage")
    assert who(on_orc, "orc").down and on_orc.state.awaiting is None


def test_extra_attack_choice_rejects_another_player_and_a_bad_choice():
    other = fighter("orc", "goblins", ac=10, hp=5, hp_max=5, x=15, y=15)
    first = fight(alda_attacks(), ADVANCE, dice=[D20, 4], result=10, others=[other])
    wid = first.state.awaiting.id
    played = fight(
        alda_attacks(),
        ADVANCE,
        {"type": "answer", "awaiting": wid, "choice": "gob", "as": "player:gob"},
        {"type": "answer", "awaiting": wid, "choice": "alda", "as": "player:alda"},
        dice=[D20, 4],
        result=10,
        others=[other],
    )
    assert [code for code, _ in rejected(played)] == ["answer/not-yours", "answer/bad-choice"]
    assert played.state.awaiting.id == wid and who(played, "gob").hp == 22


# --- natural 1 and natural 20 --------------------------------------------------------


def test_natural_1_misses_clumsily_whatever_the_result_and_forfeits_the_next_attack():
    # 'Any roll of "1" on the die: Miss clumsily, forfeit your next attack'; 1 + 30 - 15 = +16.
    played = fight(alda_attacks(), ADVANCE, alda_attacks(), ADVANCE, dice=[1], alda={"attack_bonus": 30})
    assert texts(played, "attack")[0].endswith("= Attack Result +16, but a natural 1: Miss clumsily, forfeit your next attack.")
    assert "Alda forfeits this attack on Gob (a clumsy miss before)." in texts(played, "attack")
    assert who(played, "gob").hp == 30 and "forfeits next attack" not in who(played, "alda").conditions
    assert len([r for e in played.log for r in e.rolls if r.sides == 20]) == 1  # round 2 rolls no d20


def test_natural_20_asks_the_attacker_result_or_normal_hit_and_extra_attack():
    played = fight(alda_attacks(), ADVANCE, dice=[20], result=-10)  # 20 + bonus - 15 = 0
    waiting = played.state.awaiting
    assert waiting.kind == "natural_20" and waiting.who == "alda" and waiting.options == ["result", "extra"]
    assert "a natural 20: A normal Hit, no other effect, or a normal Hit plus an immediate extra attack" in texts(played, "attack")[0]
    assert played.state.phase == "attack" and who(played, "gob").hp == 30


def test_natural_20_taking_the_result_above():
    # 20 + 3 - 15 = +8: 'A mighty Hit for double rolled damage ... Serious wound'; d6 3 doubled = 6
    played = fight(alda_attacks(), ADVANCE, dice=[20, 3], alda={"attack_bonus": 3})
    answer = {"type": "answer", "awaiting": played.state.awaiting.id, "choice": "result", "as": "player:alda"}
    played = fight(alda_attacks(), ADVANCE, answer, dice=[20, 3], alda={"attack_bonus": 3})
    assert who(played, "gob").hp == 24 and who(played, "gob").conditions == ["serious wound"]
    assert played.state.awaiting is None and played.state.round == 2


def test_natural_20_taking_a_normal_hit_and_an_extra_attack():
    # against AC 40: 20 + 0 - 40 = -20 would be a clumsy miss; 'a normal Hit plus gain an immediate
    # extra attack' instead: d6 4; then the extra attack, d20 12 - 40 = -28: a clumsy miss, forfeit.
    gob = {"ac": 40}
    first = fight(alda_attacks(), ADVANCE, dice=[20, 4, 12], alda={"attack_bonus": 0}, gob=gob)
    answer = {"type": "answer", "awaiting": first.state.awaiting.id, "choice": "extra", "as": "player:alda"}
    played = fight(alda_attacks(), ADVANCE, answer, dice=[20, 4, 12], alda={"attack_bonus": 0}, gob=gob)
    assert "Alda takes a normal Hit and an extra attack: A normal Hit plus gain an immediate extra attack." in texts(played, "attack")
    assert who(played, "gob").hp == 26
    assert texts(played, "attack")[-1].endswith("Attack Result -28: Miss clumsily, forfeit your next attack.")
    assert "forfeits next attack" in who(played, "alda").conditions


# --- what a miss costs afterwards ------------------------------------------------------


def test_minus_9_save_vs_paralyzation_failed_drops_the_weapon():
    # '-9: Miss clumsily, roll save vs. Paralyzation or drop weapon'; save 13 < 14 (option default)
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 13], result=-9)
    assert "Alda saves vs. Paralyzation: d20 13 = 13 < 14: failed." in texts(played, "save")
    alda = who(played, "alda")
    assert alda.weapons[0].dropped and alda.conditions == ["disarmed", "forfeits next attack unless it picks up its weapon"]


TWO_WEAPONS = {"weapons": [{"name": "sword"}, {"name": "dagger", "damage": "1d4", "length": 1, "weight": 1}]}


def test_minus_9_drop_forfeits_the_next_attack_made_with_another_weapon():
    # 001, -9: 'roll save vs. Paralyzation or drop weapon, thereby forfeiting next attack'; the ruling
    # (docs/rulings.md): 'picking it up, or drawing another weapon, is what the next attack is lost to'.
    # Round 1: d20 10, result -9, save d20 2 < 14: the sword drops. Round 2: the dagger's attack is the one
    # lost (no die). Round 3: the dagger attacks, d20 12.
    dagger = alda_attacks(weapon=1)
    played = fight(alda_attacks(), ADVANCE, dagger, ADVANCE, dagger, ADVANCE, dice=[D20, 2, 12], result=-9, alda=TWO_WEAPONS)
    assert "Alda drops the sword, forfeiting the next attack to pick it up or draw another weapon." in texts(played, "weapon")
    attacks = texts(played, "attack")
    assert attacks[1] == "Alda forfeits this attack on Gob (drawing another weapon after dropping one)."
    assert attacks[2].startswith("Alda attacks Gob: d20 12 - 4 attack bonus - AC 15 = Attack Result -7")
    assert who(played, "alda").conditions == ["disarmed", "initiative -2 in round 4"]  # the -7 row; the forfeit is spent


def test_minus_9_drop_then_picking_it_up_is_the_forfeit():
    # The round spent picking the sword up is the lost attack: in round 3 the sword attacks at once (d20 12).
    recover = declare("alda", {"type": "recover", "weapon": 0})
    played = fight(alda_attacks(), ADVANCE, recover, ADVANCE, alda_attacks(), ADVANCE, dice=[D20, 2, 12], result=-9, alda=TWO_WEAPONS)
    assert "Alda picks up the sword." in texts(played, "move")
    attacks = texts(played, "attack")
    assert len(attacks) == 2 and attacks[1].startswith("Alda attacks Gob: d20 12 - 4 attack bonus - AC 15 = Attack Result -7")
    assert who(played, "alda").conditions == ["initiative -2 in round 4"]  # the -7 row; nothing forfeit


def test_minus_9_save_made_keeps_the_weapon_and_wounds_count_against_it():
    made = fight(alda_attacks(), ADVANCE, dice=[D20, 14], result=-9)
    assert not who(made, "alda").weapons[0].dropped
    # a Light wound: '-1 on to-hit rolls, saves, etc.': 14 - 1 = 13 < 14
    hurt = fight(alda_attacks(), ADVANCE, dice=[D20, 14], result=-8, alda={"conditions": ["light wound"]})
    assert "Alda saves vs. Paralyzation: d20 14 - 1 light wound = 13 < 14: failed." in texts(hurt, "save")


def test_minus_9_with_option_drop_forfeits_also_forfeits_the_next_attack():
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 2], result=-9, options={"drop_forfeits": True})
    assert who(played, "alda").weapons[0].dropped and "forfeits next attack" in who(played, "alda").conditions
    assert "Alda drops the sword, and forfeits the next attack made." in texts(played, "weapon")


def test_save_number_is_an_option():
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 9], result=-9, options={"save_vs_paralyzation": 9})
    assert "Alda saves vs. Paralyzation: d20 9 = 9 ≥ 9: made." in texts(played, "save")


def test_minus_10_forfeits_the_next_attack():
    played = fight(alda_attacks(), ADVANCE, dice=[D20], result=-10)
    assert who(played, "alda").conditions == ["forfeits next attack"]
    assert texts(played, "attack")[0].endswith("Attack Result -10: Miss clumsily, forfeit your next attack.")


def order(played, round_):
    """Who struck, in order, in round `round_`."""
    log = texts(played)
    body = log[log.index(f"Round {round_}: declarations close.") : log.index(f"Round {round_ + 1}: declarations are open.")]
    return [t.split(" attacks ")[0] for t in body if " attacks " in t and ": d20" in t]


def test_minus_8_loses_initiative_next_round():
    # '-8: Miss and automatically lose initiative next round': Alda DEX 18 goes after the Gob's DEX 3.
    gob_attacks = declare("gob", {"type": "attack", "target": "alda"})
    played = fight(
        alda_attacks(), gob_attacks, ADVANCE, alda_attacks(), gob_attacks, ADVANCE, dice=[D20, 5, 5, 5, 5], result=-8, alda={"dex": 18}, gob={"dex": 3}
    )
    assert order(played, 1) == ["Alda", "Gob"] and order(played, 2) == ["Gob", "Alda"]
    assert "Alda automatically loses initiative in round 2: last in each phase." in texts(played, "initiative")
    assert not [x for x in who(played, "alda").conditions if "initiative" in x]  # spent at the end of round 2


@pytest.mark.parametrize(("result", "points", "after"), [(-7, -2, ["Gob", "Alda"]), (-6, -1, ["Alda", "Gob"])])
def test_minus_7_and_minus_6_take_an_initiative_penalty_next_round(result, points, after):
    # '-7: ... -2 penalty to initiative next round', '-6: ... -1': Alda DEX 14 counts as 12 or 13 against the Gob's 13.
    gob_attacks = declare("gob", {"type": "attack", "target": "alda"})
    played = fight(alda_attacks(), gob_attacks, ADVANCE, alda_attacks(), gob_attacks, ADVANCE, dice=[D20, 5, 5, 5, 5], result=result, gob={"dex": 13})
    assert order(played, 1) == ["Alda", "Gob"] and order(played, 2) == after
    assert f"Alda takes {points} to initiative in round 2: DEX 14 counts as {14 + points} for the order." in texts(played, "initiative")
    assert not [x for x in who(played, "alda").conditions if "initiative" in x]


# --- wounds -------------------------------------------------------------------------


def test_wounds_stack_on_the_attack_bonus():
    # 'fighting while suffering from one or more Wounds': Light -1 and Serious -3.
    played = fight(alda_attacks(), ADVANCE, dice=[15, 4], alda={"attack_bonus": 4, "conditions": ["light wound", "serious wound"]})
    assert texts(played, "attack")[0].startswith("Alda attacks Gob: d20 15 + 4 attack bonus - 1 light wound - 3 serious wound - AC 15 = Attack Result 0:")


def test_option_worst_wound_counts_only_the_worst():
    played = fight(
        alda_attacks(), ADVANCE, dice=[15, 4], options={"wound_penalties": "worst"}, alda={"attack_bonus": 4, "conditions": ["light wound", "serious wound"]}
    )
    assert "d20 15 + 4 attack bonus - 3 serious wound - AC 15 = Attack Result +1" in texts(played, "attack")[0]


def test_a_foe_killed_takes_no_wound():
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 6], result=7, gob={"hp": 5})
    assert who(played, "gob").down and who(played, "gob").conditions == [] and not texts(played, "wound")


def test_wounds_lower_the_attack_bonus_shown_and_used_by_003_rolls():
    from fray_table.rules.view import Viewer, view

    played = fight(ADVANCE, alda={"attack_bonus": 2, "conditions": ["critical wound"]})
    cards = {c.id: c for c in view(played.state, Viewer("gm")).combatants}
    assert cards["alda"].attack_bonus == -3 and cards["alda"].ac_shown == 10  # ascending AC, 001's own


# --- the Attack Bonus, damage and the options --------------------------------------------


def test_attack_bonus_starts_at_plus_1_for_all_characters():
    # 'It starts at +1 for all characters.' A fighter 4 with no figure attacks at +1, not 002's +2.
    played = fight(alda_attacks(), ADVANCE, dice=[14, 4], alda={"attack_bonus": None, "klass": "fighter", "level": 4})
    assert "d20 14 + 1 attack bonus - AC 15 = Attack Result 0" in texts(played, "attack")[0]
    table = fight(alda_attacks(), ADVANCE, dice=[14, 4], options={"attack_bonus": "hit-table"}, alda={"attack_bonus": None, "klass": "fighter", "level": 4})
    assert "d20 14 + 2 attack bonus - AC 15 = Attack Result +1" in texts(table, "attack")[0]


def test_weapon_damage_and_its_modifier_and_magic_bonus():
    # 'd8 (sword) +1 (high strength)'; 'wielding a Magic Sword, increase Attack Bonus'.
    sword = {"name": "sword", "damage": "1d8+1", "bonus": 1}
    played = fight(alda_attacks(), ADVANCE, dice=[14, 6], alda={"attack_bonus": 0, "weapons": [sword]})
    assert "d20 14 + 0 attack bonus + 1 sword bonus - AC 15 = Attack Result 0" in texts(played, "attack")[0]
    assert "Gob takes 7 damage (1d8+1 rolled 6 + 1 = 7), 23 HP left." in texts(played, "damage")


@pytest.mark.parametrize(("mode", "hp"), [("dice", 20), ("total", 18)])
def test_mighty_hit_doubles_rolled_damage_or_the_total(mode, hp):
    # 'double rolled damage': d6 4 doubled + 2 = 10; option 'total': (4 + 2) x 2 = 12.
    club = {"name": "club", "damage": "1d6+2"}
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 4], result=8, options={"double_damage": mode}, alda={"weapons": [club]})
    assert who(played, "gob").hp == hp


def test_003_terms_still_apply_parry_and_called_shots():
    # 001 is silent on them, so 003's stand: the parry's -4, a called shot's -5 and +1d6.
    played = fight(alda_attacks(called_shots=1), declare("gob", {"type": "parry"}), ADVANCE, dice=[19, 3, 2], alda={"attack_bonus": 10})
    assert "d20 19 + 10 attack bonus - 5 called shot - 4 parry - AC 15 = Attack Result +5" in texts(played, "attack")[0]
    assert "Gob takes 9 damage (1d6 rolled 3 + 1d6 called shots 2 = 5, +4 strong Hit), 21 HP left." in texts(played, "damage")


def test_subduing_blow_goes_to_subdual_and_wounds_no_one():
    played = fight(alda_attacks(subdue=True), ADVANCE, dice=[D20, 4, 90], result=4)
    gob = who(played, "gob")
    assert gob.subdual == 7 and gob.hp == 30 and gob.conditions == []


def test_missile_reads_the_chart_too():
    # Lucas's dagger: '1+14-15 equals zero. That's a normal hit'; 'Lucas rolls 2 ... docked to 1'.
    dagger = {"name": "dagger", "damage": "1d4-1", "range": 30, "missile": "dagger"}
    shoot = declare("alda", {"type": "shoot", "target": "gob", "range_band": "medium"})
    played = fight(shoot, ADVANCE, dice=[14, 2], alda={"attack_bonus": 1, "weapons": [dagger], "x": 0})
    assert (
        texts(played, "attack")[0]
        == "Alda shoots at Gob (dagger): d20 14 + 1 attack bonus + 0 medium range - AC 15 = Attack Result 0: A normal Hit, no other effect."
    )
    assert who(played, "gob").hp == 29


def test_profile_options_are_checked():
    from fray_table.rules.profiles import validate_options

    with pytest.raises(ValueError, match="wound_penalties"):
        validate_options("challenges", {"wound_penalties": "all"})
    with pytest.raises(ValueError, match="save_vs_paralyzation"):
        validate_options("challenges", {"save_vs_paralyzation": 25})
    assert validate_options("challenges", {})["weapon_damage"] is True
    assert validate_options("holmes-phases", {})["weapon_damage"] is False


# --- the prompts with dice rolled at the table (option physical_dice) ----------------------


def test_natural_20_at_the_table_asks_for_the_d20_then_the_choice_then_the_damage_die():
    # entered d20 20 + 3 - 15 = +8; 'the result above': d6 entered 5, doubled = 10, a Serious wound.
    options = {"physical_dice": "players"}
    say = lambda wid, choice: {"type": "answer", "awaiting": wid, "choice": choice, "as": "player:alda"}
    steps = [alda_attacks(), ADVANCE]
    asked = []
    for choice in ("20", "result", "5"):
        played = fight(*steps, options=options, alda={"attack_bonus": 3, "pc": True})
        asked.append(played.state.awaiting.kind)
        steps.append(say(played.state.awaiting.id, choice))
    played = fight(*steps, options=options, alda={"attack_bonus": 3, "pc": True})
    assert asked == ["die", "natural_20", "die"]
    assert "Gob takes 10 damage (1d6 rolled 5 doubled), 20 HP left." in texts(played, "damage")
    assert who(played, "gob").conditions == ["serious wound"] and played.state.awaiting is None
    assert [(r.value, r.entered) for e in played.log for r in e.rolls if r.sides != 6 or r.entered] == [(20, True), (5, True)]


def test_hidden_foes_figures_are_redacted_from_the_players_log():
    from fray_table.rules.view import Viewer, log_for

    played = fight(alda_attacks(), ADVANCE, dice=[D20, 4], result=4, gob={"hidden": True})
    seen = [e.text for e in log_for(played.log, played.state, Viewer("player", ("alda",)))]
    # Alda's own terms are her player's (issue 13); Gob's AC and the Attack Result are not
    assert "Alda attacks Gob: d20 10 + 9 attack bonus vs the target's AC: A strong Hit for +3 points of damage that also inflicts a Light wound." in seen
    assert not [t for t in seen if "AC 15" in t or "HP left" in t]


def test_parried_miss_that_would_have_struck_disarms_a_lighter_parrier():
    # 003: 'If the attacker would have struck the defender if not for the penalty, and their weapon is
    # heavier, the defender is disarmed.' d20 9 + 3 - 4 parry - 15 = -7 (a miss); without the parry -3, a glancing blow.
    club = {"name": "club", "weight": 5}
    dagger = {"name": "dagger", "weight": 1, "length": 1}
    played = fight(alda_attacks(), declare("gob", {"type": "parry"}), ADVANCE, dice=[9], alda={"attack_bonus": 3, "weapons": [club]}, gob={"weapons": [dagger]})
    assert "Attack Result -7: Miss and take -2 penalty to initiative next round." in texts(played, "attack")[0]
    assert "Gob's parry holds, but the heavier club knocks the dagger away: Gob is disarmed." in texts(played, "parry")
    assert who(played, "gob").weapons[0].dropped


def test_parried_miss_by_a_lighter_attacker_offers_the_counter_attack():
    # 003: a miss regardless, the parrier's weapon lighter: 'may counterattack once immediately, with +3'.
    club = {"name": "club", "weight": 5}
    dagger = {"name": "dagger", "weight": 1, "length": 1}
    played = fight(alda_attacks(), declare("gob", {"type": "parry"}), ADVANCE, dice=[2], alda={"attack_bonus": 3, "weapons": [dagger]}, gob={"weapons": [club]})
    assert played.state.awaiting is None  # the club is heavier than the dagger: no counter
    played = fight(alda_attacks(), declare("gob", {"type": "parry"}), ADVANCE, dice=[2], alda={"attack_bonus": 3, "weapons": [club]}, gob={"weapons": [dagger]})
    assert played.state.awaiting.kind == "riposte" and played.state.awaiting.who == "gob"


def test_natural_20_prompt_names_the_result_it_would_give_up():
    played = fight(alda_attacks(), ADVANCE, dice=[20], alda={"attack_bonus": 2})  # 20 + 2 - 15 = +7
    assert played.state.awaiting.prompt == (
        "Natural 20 against Gob: take the Attack Result +7 ('A strong Hit for +5 points of damage "
        "that also inflicts a Serious wound'), or a normal Hit plus an immediate extra attack?"
    )
    # A hidden Gob's AC would follow from the +7 (20 + 2 - AC): the effect is named without it.
    hidden = fight(alda_attacks(), ADVANCE, dice=[20], alda={"attack_bonus": 2}, gob={"hidden": True})
    assert hidden.state.awaiting.prompt == (
        "Natural 20 against Gob: take the Attack Result ('A strong Hit for +5 points of damage "
        "that also inflicts a Serious wound'), or a normal Hit plus an immediate extra attack?"
    )


@pytest.mark.parametrize(("feet", "move"), [(0, 120), (10, 90)])
def test_option_wound_slows_takes_feet_per_point_of_wound(feet, move):
    # the example's referee: 'Since he has a Serious wound, that grants a -3 penalty to stuff, the DM rules
    # that he is moving 3 points slower'. +6: a Serious wound; 10 ft a point: 30 ft slower.
    played = fight(alda_attacks(), ADVANCE, dice=[D20, 4], result=6, options={"wound_slows": feet})
    assert who(played, "gob").move == move
    if feet:
        assert "Gob moves 30 ft slower: 120 -> 90 ft a round." in texts(played, "wound")
