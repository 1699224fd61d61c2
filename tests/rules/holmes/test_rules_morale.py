"""Morale (003): 2d6 against the chart, for monsters and NPCs that are not mindless,
called by the GM or by the encounter's automatic triggers; the result governs the
creature's next round."""

import pytest
from scenes import ADVANCE, fighter, started, texts

from fray_table.rules.charts.morale import morale_result
from fray_table.rules.view import Viewer, view

ALDA = fighter("alda", "party", dex=14, x=0, y=0, pc=True)
GOB1 = fighter("gob1", "goblins", ac=10, hp=3, hp_max=3, x=5, y=0)
GOB2 = fighter("gob2", "goblins", ac=10, hp=3, hp_max=3, x=5, y=5)


def run(*commands, dice=(), combatants=(ALDA, GOB1, GOB2), options=None):
    return started(combatants, *commands, dice=dice, options=options)


def call(**fields) -> dict:
    return {"type": "call_morale", **fields}


KILL_GOB1 = {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob1"}}


def get(played, cid: str):
    return next(c for c in played.state.combatants if c.id == cid)


@pytest.mark.parametrize(
    "total, result",
    [
        (1, "surrender"),
        (2, "surrender"),
        (3, "flee"),
        (5, "flee"),
        (6, "hold"),
        (8, "hold"),
        (9, "press"),
        (11, "press"),
        (12, "redouble"),
        (14, "redouble"),
    ],
)
def test_morale_chart_bands(total, result):
    # 003: '2 (or lower) Surrender, 3-5 Flee, 6-8 Stand off or hold ground, 9-11 Press for advantage, 12 (or higher) Redouble attack!'
    assert morale_result(total) == result


def test_morale_flee_takes_the_creature_out_of_the_fight():
    played = run(call(combatant="gob1"), {"type": "declare", "actor": "gob1", "action": {"type": "hold"}}, dice=[1, 3])
    assert texts(played, "morale") == ["Gob1 checks morale (called by the GM): 2d6 1+3 = 4: flees."]
    gob = get(played, "gob1")
    assert (gob.morale, gob.morale_round, gob.conditions) == ("flee", 1, ["fled"])
    assert [(e.code, e.text) for e in played.log if e.kind == "rejected"] == [("declare/cannot-act", "Rejected: Gob1 is fled.")]


def test_morale_modifier_and_loyalty_add_to_the_roll():
    # 003: 'Morale is adjusted, in the case of retainers ..., by their loyalty score': 3+4 - 1 + 2 = 8, hold.
    played = run(call(combatant="gob1", modifier=-1), dice=[3, 4], combatants=(ALDA, {**GOB1, "loyalty": 2}, GOB2))
    assert texts(played, "morale") == ["Gob1 checks morale (called by the GM): 2d6 3+4 - 1 modifier + 2 loyalty = 8: stands off or holds ground."]


def test_morale_surrender_on_two_or_lower():
    played = run(call(combatant="gob1", modifier=-2), dice=[1, 3])
    assert texts(played, "morale")[0].endswith("= 2: surrenders.")
    assert get(played, "gob1").conditions == ["surrendered"]


def test_morale_mindless_and_player_characters_do_not_roll():
    # 003: 'not entirely mindless like undead, slimes and oozes'; 'monsters and NPCs'
    skeleton = fighter("skel", "undead", mindless=True, x=5)
    played = run(call(combatant="skel"), call(combatant="alda"), call(side="undead"), combatants=(ALDA, skeleton))
    assert [e.code for e in played.log if e.kind == "rejected"] == ["morale/not-eligible"] * 3


def test_morale_side_rolls_once_for_the_party():
    # 003: 'The affected party throws two six-sided dice': one 6+6 serves both goblins.
    played = run(call(side="goblins"), dice=[6, 6, 1, 1])
    assert texts(played, "morale") == [
        "Gob1 checks morale (called by the GM): 2d6 6+6 = 12: redoubles the attack.",
        "Gob2 checks morale (called by the GM): 2d6 6+6 = 12: redoubles the attack.",
    ]


def test_morale_per_creature_option_rolls_each():
    played = run(call(side="goblins"), dice=[6, 6, 1, 1], options={"morale_per_creature": True})
    assert texts(played, "morale") == [
        "Gob1 checks morale (called by the GM): 2d6 6+6 = 12: redoubles the attack.",
        "Gob2 checks morale (called by the GM): 2d6 1+1 = 2: surrenders.",
    ]


def test_morale_is_a_gm_command():
    played = run({"type": "call_morale", "combatant": "gob1", "as": "player:alda"})
    assert [e.code for e in played.log if e.kind == "rejected"] == ["auth/forbidden"]


def test_morale_first_death_triggers_at_end_of_round():
    # Alda kills Goblin 1 (d20 10 + 9 = 19, d6 3); at the end of the round Goblin 2 rolls 2+1 = 3: flees.
    played = run(KILL_GOB1, ADVANCE, dice=[10, 3, 2, 1], options={"morale_first_death": True})
    assert texts(played, "morale") == ["Gob2 checks morale (first death on its side): 2d6 2+1 = 3: flees."]
    assert (get(played, "gob2").conditions, get(played, "gob2").morale_round) == (["fled"], 2)


def test_morale_first_death_fires_once():
    played = run(KILL_GOB1, ADVANCE, ADVANCE, dice=[10, 3, 4, 4], options={"morale_first_death": True})
    assert len(texts(played, "morale")) == 1


def test_morale_off_by_default():
    played = run(KILL_GOB1, ADVANCE, dice=[10, 3])
    assert texts(played, "morale") == []


def test_morale_half_down_and_leader_down_in_one_roll():
    # Goblin 1 is the leader, and one of two is half the side: one roll names both causes.
    leader = {**GOB1, "leader": True}
    played = run(KILL_GOB1, ADVANCE, dice=[10, 3, 5, 5], combatants=(ALDA, leader, GOB2), options={"morale_half_down": True, "morale_leader_down": True})
    assert texts(played, "morale") == ["Gob2 checks morale (half its side out of the fight; its leader is down): 2d6 5+5 = 10: presses for advantage."]


def test_morale_result_shown_to_the_gm_for_the_round_it_governs():
    played = run(KILL_GOB1, ADVANCE, dice=[10, 3, 5, 5], options={"morale_first_death": True})
    gm = next(c for c in view(played.state, Viewer("gm")).combatants if c.id == "gob2")
    assert (gm.morale, gm.morale_round) == ("press", 2)
    player = next(c for c in view(played.state, Viewer("player", ("alda",))).combatants if c.id == "gob2")
    assert player.morale is None
    after = run(KILL_GOB1, ADVANCE, ADVANCE, dice=[10, 3, 5, 5], options={"morale_first_death": True})
    assert get(after, "gob2").morale == ""  # 'press' governed round 2 only


def test_morale_flee_runs_in_the_round_it_governs_then_is_gone():
    # 003: 'This result determines the affected creature's actions for the next round.' The GM's call
    # during round 1's declarations governs round 1: Gob1 declares nothing, but is still there in the
    # attack phase (Alda's d20 15 hits, 1 damage); it runs in the movement phase, so Bran's attack
    # delayed to it finds no one, and it has fled the field when the round ends.
    bran = fighter("bran", "party", dex=12, x=0, y=5, pc=True)
    tough = {**GOB1, "hp": 10, "hp_max": 10}
    late = {"type": "declare", "actor": "bran", "action": {"type": "attack", "target": "gob1", "delay": "movement"}}
    played = run(call(combatant="gob1"), KILL_GOB1, late, ADVANCE, dice=[1, 3, 15, 1], combatants=(ALDA, bran, tough, GOB2))
    assert texts(played, "attack") == [
        "Alda attacks Gob1: d20 15 + 0 combat bonus + AC 9 = 24 ≥ 19: hit.",
        "Bran has no target: Gob1 has fled the field.",
    ]
    assert texts(played, "morale") == ["Gob1 checks morale (called by the GM): 2d6 1+3 = 4: flees.", "Gob1 has fled the field."]
    assert get(played, "gob1").hp == 9 and not get(played, "gob1").down


def test_morale_fled_is_out_of_the_fight_for_good_after_its_round():
    # Round 2: no one may declare against Gob1 any more, it is no target in the view, and a
    # strike that was coming to it is not made.
    tough = {**GOB1, "hp": 10, "hp_max": 10}
    shoot = {"type": "declare", "actor": "alda", "action": {"type": "shoot", "target": "gob1", "weapon": 1}}
    archer = {**ALDA, "weapons": [{"name": "sword"}, {"name": "bow", "range": 150, "missile": "bow"}]}
    played = run(call(combatant="gob1"), ADVANCE, KILL_GOB1, shoot, dice=[1, 3], combatants=(archer, tough, GOB2))
    assert [(e.code, e.text) for e in played.log if e.kind == "rejected"] == [
        ("declare/target-fled", "Rejected: Gob1 has fled the field."),
        ("declare/target-fled", "Rejected: Gob1 has fled the field."),
    ]
    attack = next(ch for ch in view(played.state, Viewer("gm")).actions["alda"] if ch.type == "attack")
    assert attack.targets == ["gob2"]
    assert get(played, "gob1").hp == 10


def test_morale_flee_at_the_end_of_a_round_governs_the_next():
    # An automatic check (the first death) at the end of round 1 governs round 2: Gob2, fleeing, may
    # still be struck in round 2's attack phase (d20 14 hits, 2 damage), and is gone from round 3.
    a2 = {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob2"}}
    played = run(
        KILL_GOB1, ADVANCE, a2, ADVANCE, a2, dice=[15, 3, 1, 2, 14, 2], combatants=(ALDA, GOB1, {**GOB2, "x": 5, "y": 0}), options={"morale_first_death": True}
    )
    assert texts(played, "morale") == [
        "Gob2 checks morale (first death on its side): 2d6 1+2 = 3: flees.",
        "Gob2 has fled the field.",
    ]
    assert "Alda attacks Gob2: d20 14 + 0 combat bonus + AC 9 = 23 ≥ 19: hit." in texts(played, "attack")
    assert get(played, "gob2").hp == 1
    assert played.log[-1].code == "declare/target-fled"
