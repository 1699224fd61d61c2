"""Burning oil (003): the flask with size modifiers, the torch against AC 9, the burn
in the magic phase round by round, stop-drop-and-roll, and burning spellcasters."""

from scenes import ADVANCE, declare, fighter, started, texts

ALDA = fighter("alda", "party", dex=14, x=0, y=0)
ORC = fighter("orc", "orcs", ac=10, x=20, y=0)  # AC 9 descending; 20 ft: a flask's medium range


def run(*commands, dice=(), combatants=(ALDA, ORC), options=None, version=None):
    return started(combatants, *commands, dice=dice, options=options, version=version)


OIL = declare("alda", {"type": "throw_oil", "target": "orc"})


def orc(played) -> dict:
    c = next(c for c in played.state.combatants if c.id == "orc")
    return {"hp": c.hp, "conditions": c.conditions, "burning": c.burning}


def test_flask_size_large_is_plus_four():
    # 003: 'L | +4': d20 6 + 4 + AC 9 = 19
    played = run(declare("alda", {"type": "throw_oil", "target": "orc", "torch": False}), ADVANCE, dice=[6], combatants=(ALDA, {**ORC, "size": "L"}))
    assert texts(played, "attack") == ["Alda throws a flask of oil at Orc: d20 6 + 0 combat bonus + 4 size L + 0 medium range + AC 9 = 19 ≥ 19: hit."]
    assert orc(played)["conditions"] == ["oiled"]


def test_flask_size_medium_is_plus_two():
    # 003: 'M | +2': d20 7 + 2 + AC 9 = 18, a miss
    played = run(declare("alda", {"type": "throw_oil", "target": "orc", "torch": False}), ADVANCE, dice=[7])
    assert texts(played, "attack") == ["Alda throws a flask of oil at Orc: d20 7 + 0 combat bonus + 2 size M + 0 medium range + AC 9 = 18 < 19: miss."]
    assert orc(played)["conditions"] == []


def test_flask_size_small_is_no_modifier():
    # 003: 'S | 0': d20 9 + 0 + AC 9 = 18, a miss where a man-sized target is hit
    played = run(declare("alda", {"type": "throw_oil", "target": "orc", "torch": False}), ADVANCE, dice=[9], combatants=(ALDA, {**ORC, "size": "S"}))
    assert texts(played, "attack")[0].endswith("+ 0 size S + 0 medium range + AC 9 = 18 < 19: miss.")


def test_torch_is_thrown_against_ac_9_not_the_target():
    # 003: 'The torch attack is always made as if against Armour Class 9': the orc's
    # plate (AC 0 descending) counts for the flask but not for the torch.
    plated = {**ORC, "ac": 19}
    played = run(OIL, ADVANCE, dice=[17, 10], combatants=(ALDA, plated))
    assert texts(played, "attack") == [
        "Alda throws a flask of oil at Orc: d20 17 + 0 combat bonus + 2 size M + 0 medium range + AC 0 = 19 ≥ 19: hit.",
        "Alda throws a lit torch at the oil on Orc: d20 10 + 0 combat bonus + 0 medium range + AC 9 = 19 ≥ 19: hit.",
    ]
    assert "The oil on Orc catches fire." in texts(played, "oil")


def test_torch_takes_the_range_modifier():
    # 003: the torch is 'modified by range etc. as normal': long range -1 (002), 10 - 1 + 9 = 18
    played = run(declare("alda", {"type": "throw_oil", "target": "orc", "range_band": "long"}), ADVANCE, dice=[10, 10])
    assert texts(played, "attack")[1] == ("Alda throws a lit torch at the oil on Orc: d20 10 + 0 combat bonus - 1 long range + AC 9 = 18 < 19: miss.")
    assert orc(played) == {"hp": 10, "conditions": ["oiled"], "burning": 0}


def test_oil_needs_both_hits_a_missed_flask_throws_no_torch():
    played = run(OIL, ADVANCE, dice=[2])
    assert len(texts(played, "attack")) == 1
    assert orc(played)["conditions"] == []


def test_throw_torch_lights_oil_left_by_an_earlier_flask():
    bran = fighter("bran", "party", dex=12, x=0, y=5)
    played = run(
        declare("alda", {"type": "throw_oil", "target": "orc", "torch": False}),
        ADVANCE,
        declare("bran", {"type": "throw_torch", "target": "orc"}),
        ADVANCE,
        dice=[8, 10, 4],
        combatants=(ALDA, bran, ORC),
    )
    assert texts(played, "attack")[1] == ("Bran throws a lit torch at the oil on Orc: d20 10 + 0 combat bonus + 0 medium range + AC 9 = 19 ≥ 19: hit.")
    assert orc(played) == {"hp": 6, "conditions": ["burning"], "burning": 1}


def test_oil_burns_three_rounds_round_by_round():
    # Round 1: flask 8 + 2 + 9 = 19, torch 10 + 9 = 19; the fire: d6 5 (1-6 damage, burns on 4-6).
    # Round 2: d6 3, 'A roll of 1-4 means damage should be applied and rolled again next round'.
    # Round 3: d6 6, '5-6 indicates the oil has burned itself out, and ... no damage'.
    dice = [8, 10, 5, 3, 6]
    one = run(OIL, ADVANCE, dice=dice)
    assert orc(one) == {"hp": 5, "conditions": ["burning"], "burning": 1}
    assert texts(one, "oil")[-1] == "The oil on Orc burns (round 1): d6 5, keeps burning (4-6)."
    assert texts(one, "damage") == ["Orc takes 5 damage (burning oil), 5 HP left."]
    two = run(OIL, ADVANCE, ADVANCE, dice=dice)
    assert orc(two) == {"hp": 2, "conditions": ["burning"], "burning": 2}
    assert texts(two, "oil")[-1] == "The oil on Orc burns (round 2): d6 3, burns on (1-4)."
    three = run(OIL, ADVANCE, ADVANCE, ADVANCE, dice=dice)
    assert orc(three) == {"hp": 2, "conditions": [], "burning": 0}
    assert texts(three, "oil")[-1] == "The oil on Orc burns (round 3): d6 6, it has burned itself out (5-6), no damage."
    assert len(texts(three, "damage")) == 2


def test_oil_first_round_low_roll_does_damage_and_goes_out():
    # 003: 'continues to burn if 4-6 is rolled' (a lower roll still does its 1-6 damage)
    played = run(OIL, ADVANCE, dice=[8, 10, 3])
    assert texts(played, "oil")[-1] == "The oil on Orc burns (round 1): d6 3, gutters out (1-3)."
    assert orc(played) == {"hp": 7, "conditions": [], "burning": 0}


def test_oil_burns_in_the_magic_phase_before_anything_else_there():
    # 003: 'applied during the Magic Phase, prior to any spells being cast (effectively at
    # the highest DEX rating of any combatant acting in that round, +1)': before a DEX 18
    # fighter's attack delayed to the magic phase, and before the orc shaman's spell.
    quick = fighter("quick", "party", dex=18, x=15, y=0)
    shaman = {**ORC, "caster": True}
    played = run(
        OIL,
        declare("quick", {"type": "attack", "target": "orc", "delay": "magic"}),
        declare("orc", {"type": "cast", "spell": "sleep", "target": "alda"}),
        ADVANCE,
        dice=[1, 8, 10, 1, 2],
        combatants=(ALDA, quick, shaman),  # Quick stands by the orc: a d2 picks the orc for the flask (the torch goes at the oil)
    )
    magic = [e for e in played.log if e.kind in ("phase", "oil", "attack", "spell", "damage")]
    at = next(i for i, e in enumerate(magic) if e.text == "Magic phase.")
    assert [e.text for e in magic[at + 1 : at + 4]] == [
        "The oil on Orc burns (round 1): d6 1, gutters out (1-3).",
        "Orc takes 1 damage (burning oil), 9 HP left.",
        "Orc loses the spell (sleep) to the flames.",
    ]
    assert magic[at + 4].text.startswith("Quick attacks Orc: d20 2")
    assert texts(played, "spell") == ["Orc loses the spell (sleep) to the flames."]


def test_oil_spell_kept_when_the_fire_goes_out_without_damage():
    # 'Burning spellcasters will lose their spells as usual': by default only damage spoils it.
    shaman = {**ORC, "caster": True}
    cast = declare("orc", {"type": "cast", "spell": "sleep"})
    played = run(OIL, ADVANCE, cast, ADVANCE, dice=[8, 10, 5, 6], combatants=(ALDA, shaman))
    assert texts(played, "spell") == ["Orc casts sleep; its effects are the GM's."]


def test_oil_spell_loss_option_burning_spoils_it_anyway():
    shaman = {**ORC, "caster": True}
    cast = declare("orc", {"type": "cast", "spell": "sleep"})
    played = run(OIL, ADVANCE, cast, ADVANCE, dice=[8, 10, 5, 6], combatants=(ALDA, shaman), options={"oil_spell_loss": "burning"})
    assert texts(played, "spell") == ["Orc loses the spell (sleep) to the flames."]


def test_stop_drop_roll_is_refused_in_the_first_round():
    # 003: 'may "stop, drop and roll" after the first round'
    played = run(declare("orc", {"type": "stop_drop_roll"}))
    assert [e.code for e in played.log if e.kind == "rejected"] == ["oil/not-burning"]
    lit = {**ORC, "conditions": ["burning"]}
    played = run(declare("orc", {"type": "stop_drop_roll"}), combatants=(ALDA, lit))
    assert [e.code for e in played.log if e.kind == "rejected"] == ["oil/too-soon"]


def test_stop_drop_roll_puts_the_fire_out_on_three_and_leaves_the_victim_prone():
    # 003: 'the oil burns out on a damage roll of 3 or higher'; 'involves dropping prone'
    played = run(OIL, ADVANCE, declare("orc", {"type": "stop_drop_roll"}), ADVANCE, dice=[8, 10, 4, 3])
    assert texts(played, "oil")[-2:] == [
        "Orc stops, drops and rolls (prone).",
        "The oil on Orc burns (round 2): d6 3, the rolling puts it out (3-6), no damage.",
    ]
    assert orc(played) == {"hp": 6, "conditions": ["prone"], "burning": 0}


def test_stop_drop_roll_burns_on_one_or_two():
    # 003: 'and continues to burn on a roll of 1 or 2'
    played = run(OIL, ADVANCE, declare("orc", {"type": "stop_drop_roll"}), ADVANCE, dice=[8, 10, 4, 2])
    assert texts(played, "oil")[-1] == "The oil on Orc burns (round 2): d6 2, burns on despite the rolling (1-2)."
    assert orc(played) == {"hp": 4, "conditions": ["burning", "prone"], "burning": 2}


def test_stop_drop_roll_is_offered_only_after_the_first_round():
    from fray_table.rules.view import Viewer, view

    one = run(OIL, ADVANCE, dice=[8, 10, 4])
    types = [ch.type for ch in view(one.state, Viewer("gm")).actions["orc"]]
    assert "stop_drop_roll" in types
    lit = run(combatants=(ALDA, {**ORC, "conditions": ["burning"]}))
    assert "stop_drop_roll" not in [ch.type for ch in view(lit.state, Viewer("gm")).actions["orc"]]


def test_oil_lit_in_the_magic_phase_first_burns_next_round():
    played = run(declare("alda", {"type": "throw_oil", "target": "orc", "delay": "magic"}), ADVANCE, dice=[8, 10])
    assert orc(played) == {"hp": 10, "conditions": ["burning"], "burning": 0}
    played = run(declare("alda", {"type": "throw_oil", "target": "orc", "delay": "magic"}), ADVANCE, ADVANCE, dice=[8, 10, 6])
    assert texts(played, "oil")[-1] == "The oil on Orc burns (round 1): d6 6, keeps burning (4-6)."


def test_oil_fight_folds_to_the_same_bytes_twice():
    from fray_table.rules.reducer import canonical, fold

    played = run(OIL, ADVANCE, declare("orc", {"type": "stop_drop_roll"}), ADVANCE, dice=[8, 10, 4, 2])
    assert canonical(fold(played.events)) == canonical(played.state)


BRAN = fighter("bran", "party", ac=10, x=25, y=0)  # beside the orc: an ongoing melee


def test_oil_into_a_melee_picks_who_the_flask_and_the_torch_fly_at_under_version_7():
    # 003: 'Burning oil is a subset of ranged combat' and 'Any character attacking into an ongoing
    # melee must randomly determine which combatant will be hit, and then roll to attack that
    # character as normal': the orc and Bran beside it; d2 2 picks Bran, and the flask hits him
    # (d20 15 + 2 size M + AC 9 = 26). Under rules version 7 the torch is a missile too: d2 2 flies
    # at the orc, who has no oil on him: it hits (d20 12 + AC 9 = 21) and lights nothing.
    played = run(OIL, ADVANCE, dice=[2, 15, 2, 12], combatants=(ALDA, ORC, BRAN), version=7)
    assert texts(played, "attack", "oil") == [
        "Alda throws a flask into the melee around Orc (1 Orc, 2 Bran): d2 2, at Bran.",
        "Alda throws a flask of oil at Bran: d20 15 + 0 combat bonus + 2 size M + 0 medium range + AC 9 = 26 ≥ 19: hit.",
        "Oil splashes over Bran.",
        "Alda throws the torch into the melee around Bran (1 Bran, 2 Orc): d2 2, at Orc.",
        "Alda throws a lit torch at Orc: d20 12 + 0 combat bonus + 0 medium range + AC 9 = 21 ≥ 19: hit.",
        "The torch strikes Orc, but there is no unlit oil on Orc to catch.",
    ]
    assert orc(played) == {"hp": 10, "conditions": [], "burning": 0}
    assert next(c for c in played.state.combatants if c.id == "bran").conditions == ["oiled"]
    assert played.state.forced == []


def test_oil_a_torch_thrown_into_a_melee_is_randomised_too_under_version_7():
    # The orc, oiled earlier, fights Cole; Bran's torch (d2 1) flies at the orc and lights it.
    cole = fighter("cole", "party", x=25, y=0)
    played = run(
        declare("bran", {"type": "throw_torch", "target": "orc"}),
        ADVANCE,
        dice=[1, 12, 5],
        combatants=(ALDA, {**ORC, "conditions": ["oiled"]}, {**BRAN, "x": 0, "y": 5}, cole),
        version=7,
    )
    assert texts(played, "attack", "oil")[:3] == [
        "Bran throws the torch into the melee around Orc (1 Orc, 2 Cole): d2 1, at Orc.",
        "Bran throws a lit torch at the oil on Orc: d20 12 + 0 combat bonus + 0 medium range + AC 9 = 21 ≥ 19: hit.",
        "The oil on Orc catches fire.",
    ]


# --- rules version 8: the torch is thrown at the oil (docs/rulings.md, 'Rules version 8') ---


def test_oil_the_torch_after_a_flask_in_a_melee_is_thrown_at_the_oil():
    # 003: 'The torch attack is always made as if against Armour Class 9, modified by range etc. as
    # normal, as you are targeting the splashed oil rather than the monster': the flask flies into
    # the melee (d2 2, at Bran) and hits him (d20 15 + 2 size M + AC 9 = 26); the torch goes where
    # the oil is, with no die for it: d20 12 + AC 9 = 21, and the oil on Bran catches fire.
    played = run(OIL, ADVANCE, dice=[2, 15, 12, 5], combatants=(ALDA, ORC, BRAN))
    assert texts(played, "attack", "oil")[:5] == [
        "Alda throws a flask into the melee around Orc (1 Orc, 2 Bran): d2 2, at Bran.",
        "Alda throws a flask of oil at Bran: d20 15 + 0 combat bonus + 2 size M + 0 medium range + AC 9 = 26 ≥ 19: hit.",
        "Oil splashes over Bran.",
        "Alda throws a lit torch at the oil on Bran: d20 12 + 0 combat bonus + 0 medium range + AC 9 = 21 ≥ 19: hit.",
        "The oil on Bran catches fire.",
    ]
    assert "burning" in next(c for c in played.state.combatants if c.id == "bran").conditions
    assert played.state.forced == []


def test_oil_a_torch_thrown_at_oil_in_a_melee_is_not_randomised():
    # 003: 'you are targeting the splashed oil rather than the monster': the orc, oiled earlier,
    # fights Cole; Bran's torch needs no die to find the oil: d20 12 + AC 9 = 21 lights it.
    cole = fighter("cole", "party", x=25, y=0)
    played = run(
        declare("bran", {"type": "throw_torch", "target": "orc"}),
        ADVANCE,
        dice=[12, 5],
        combatants=(ALDA, {**ORC, "conditions": ["oiled"]}, {**BRAN, "x": 0, "y": 5}, cole),
    )
    assert texts(played, "attack", "oil")[:2] == [
        "Bran throws a lit torch at the oil on Orc: d20 12 + 0 combat bonus + 0 medium range + AC 9 = 21 ≥ 19: hit.",
        "The oil on Orc catches fire.",
    ]
    assert played.state.forced == []
