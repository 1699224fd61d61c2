"""002 'Striking' (thac0-sheet): the size limit, 1 + δS damage or none if pulled,
the stun roll t = 1d20 - C', the save vs death ray at +4 - δS against a knock-out
for t rounds, and the haymaker. Every die is forced; the numbers are 002's."""

from scenes import ADVANCE, declare, fighter, rejected, started, texts, who

from fray_table.rules.view import legal_actions

PROFILE = "thac0-sheet"


def fight(*commands, dice=(), alda=None, gob=None):
    alda = fighter("alda", "party", **{"attack_bonus": None, "klass": "fighter", "level": 1, "str_adj": 2, "dex": 14, "x": 10, "y": 10, **(alda or {})})
    gob = fighter(
        "gob", "gobs", **{"attack_bonus": None, "klass": "normal", "level": 0, "con": 10, "save_death": 14, "dex": 9, "x": 15, "y": 10, **(gob or {})}
    )
    return started([alda, gob], *commands, dice=dice, profile=PROFILE)


def strike(**extra):
    return declare("alda", {"type": "strike", "target": "gob", **extra})


def test_striking_blow_does_one_plus_strength_and_may_stun():
    # THAC0 19 against AC 9 (ascending 10): H 10. Damage 1 + δS 2 = 3. t = d20 15 - C' 10 = 5 > 0:
    # stunned; SvDR d20 12 + 4 - δS 2 = 14 ≥ 14: awake, stunned for the next round.
    played = fight(strike(), ADVANCE, dice=[10, 15, 12])
    assert "Alda strikes Gob: THAC0 19 - AC 9 = H 10; d20 10 ≥ 10: hit." in texts(played)
    assert "Gob takes 3 damage (1 + 2 δS), 7 HP left." in texts(played)
    assert "Gob is stunned (t = d20 15 - C' 10 = 5): SvDR d20 12 + 2 = 14 ≥ 14, stays awake; loses its next round." in texts(played)
    gob = who(played, "gob")
    assert gob.hp == 7 and gob.conditions == ["stunned"] and gob.out_until == 2


def test_striking_stunned_loses_the_next_round_then_comes_round():
    played = fight(strike(), ADVANCE, declare("gob", {"type": "attack", "target": "alda"}), ADVANCE, ADVANCE, dice=[10, 15, 12])
    assert rejected(played) == ["declare/cannot-act"]
    assert "Gob comes round (stunned no longer)." in texts(played)
    assert who(played, "gob").conditions == [] and played.state.round == 4
    assert texts(played).index("Gob comes round (stunned no longer).") < texts(played).index("Round 3: declarations are open.")


def test_striking_failed_save_knocks_out_for_t_rounds():
    # t = d20 17 - C' 10 = 7; SvDR d20 7 + 2 = 9 < 14: knocked out for 7 rounds, helpless meanwhile.
    played = fight(strike(), ADVANCE, dice=[10, 17, 7])
    assert "Gob is knocked out for 7 rounds (t = d20 17 - C' 10 = 7): SvDR d20 7 + 2 = 9 < 14." in texts(played)
    gob = who(played, "gob")
    assert gob.conditions == ["knocked out"] and gob.out_until == 8
    kill = fight(strike(), ADVANCE, declare("alda", {"type": "kill", "target": "gob"}), ADVANCE, dice=[10, 17, 7])
    assert "Alda kills the helpless Gob." in texts(kill) and who(kill, "gob").down


def test_striking_knocked_out_comes_round_after_t_rounds():
    # t = d20 12 - C' 10 = 2: out through round 3 (rounds 2 and 3), awake for round 4's declarations.
    played = fight(strike(), ADVANCE, ADVANCE, ADVANCE, dice=[10, 12, 1])
    assert who(played, "gob").conditions == []
    lines = texts(played)
    assert lines.index("Gob comes round (knocked out no longer).") > lines.index("Round 3: declarations close.")


def test_striking_pulled_blow_does_no_damage_but_may_stun():
    played = fight(strike(pulled=True), ADVANCE, dice=[10, 15, 12])
    assert "Gob takes 0 damage (pulled), 10 HP left." in texts(played)
    assert who(played, "gob").conditions == ["stunned"]


def test_striking_no_stun_when_t_is_not_above_zero():
    # 'Stunned if t = 1d20 - C' > 0': d20 10 - C' 10 = 0.
    played = fight(strike(), ADVANCE, dice=[10, 10])
    assert "Gob is not stunned: t = d20 10 - C' 10 = 0, not above 0." in texts(played)
    assert who(played, "gob").conditions == []


def test_striking_monster_c_is_twice_its_hit_dice():
    # '(Monster C = 2 x HD.)': HD 3 is C 6; d20 6 - 6 = 0 is no stun, d20 7 - 6 = 1 is.
    gob = {"klass": "monster", "hd": 3}
    calm = fight(strike(), ADVANCE, dice=[10, 6], gob=gob, alda={"level": 4})
    assert "Gob is not stunned: t = d20 6 - C' 6 = 0, not above 0." in texts(calm)
    dazed = fight(strike(), ADVANCE, dice=[10, 7, 20], gob=gob, alda={"level": 4})
    assert "Gob is stunned (t = d20 7 - C' 6 = 1): SvDR d20 20 + 2 = 22 ≥ 14, stays awake; loses its next round." in texts(dazed)


def test_striking_attacker_must_be_half_the_defender_size():
    # A small attacker (S) against a large defender (L) is less than half its size.
    played = fight(strike(), alda={"size": "S"}, gob={"size": "L"})
    assert rejected(played) == ["strike/too-small"]
    assert played.state.declarations == []
    # M against L is half: allowed.
    assert rejected(fight(strike(), gob={"size": "L"})) == []


def test_striking_haymaker_has_no_size_limit_minus_five_and_minus_four_on_the_save():
    # H 10; -5 haymaker: d20 15 - 5 = 10 hits. t = d20 15 - 10 = 5; SvDR d20 16 + 4 - 2 - 4 = 14 ≥ 14.
    played = fight(strike(haymaker=True), ADVANCE, dice=[15, 15, 16], alda={"size": "S"}, gob={"size": "L"})
    assert rejected(played) == []
    assert "Alda throws a haymaker at Gob: THAC0 19 - AC 9 = H 10; d20 15 - 5 haymaker = 10 ≥ 10: hit." in texts(played)
    assert "Gob is stunned (t = d20 15 - C' 10 = 5): SvDR d20 16 - 2 = 14 ≥ 14, stays awake; loses its next round." in texts(played)


def test_striking_haymaker_loses_initiative():
    # Alda (DEX 14) would strike before the goblin (DEX 9); a haymaker waits for the phase's end.
    played = fight(strike(haymaker=True), declare("gob", {"type": "attack", "target": "alda"}), ADVANCE, dice=[3, 3])
    attacks = texts(played, "attack")
    assert attacks[0].startswith("Gob attacks Alda:") and attacks[1].startswith("Alda throws a haymaker at Gob:")


def test_striking_needs_the_foe_beside_one():
    played = fight(strike(), ADVANCE, gob={"x": 30})
    assert "Alda cannot reach Gob with a blow (20 ft away)." in texts(played)


def test_striking_is_offered_with_its_options():
    played = fight()
    listed = {c.type: c for c in legal_actions(played.state)["alda"]}
    assert listed["strike"].targets == ["gob"]
    assert listed["strike"].options == {"pulled": [False, True], "haymaker": [False, True]}
    assert "grapple" not in listed and "wrestle" in listed


def test_striking_stunned_loses_the_rest_of_this_round_too():
    # The goblin (DEX 16) stuns Alda before her turn: THAC0 20 - AC 9 = H 11, d20 11; t = d20 15 - 10; SvDR d20 20 + 4.
    played = fight(declare("gob", {"type": "strike", "target": "alda"}), strike(), ADVANCE, dice=[11, 15, 20], gob={"dex": 16})
    assert "Alda is stunned (t = d20 15 - C' 10 = 5): SvDR d20 20 + 4 = 24 ≥ 14, stays awake; loses its next round." in texts(played)
    assert "Alda cannot act (stunned)." in texts(played)


def test_striking_gm_may_wake_the_stunned():
    played = fight(
        strike(),
        ADVANCE,
        {"type": "edit_combatant", "id": "gob", "conditions": [], "out_until": 0},
        declare("gob", {"type": "attack", "target": "alda"}),
        dice=[10, 15, 12],
    )
    assert rejected(played) == [] and who(played, "gob").out_until == 0
