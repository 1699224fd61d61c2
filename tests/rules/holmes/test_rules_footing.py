"""Getting back into the fight (rules.holmes.footing): `stand` from prone, `recover` a dropped
weapon. Both are Movement Phase actions (rulings in docs/rulings.md); every die forced."""

from scenes import ADVANCE, NO_SURPRISE, declare, fighter, started, texts, who

from fray_table.rules.view import Viewer, view

ALDA = fighter("alda", "party", ac=15, dex=14, x=10, y=10)  # AC 4 descending
ORC = fighter("orc", "orcs", ac=12, dex=9, x=15, y=10)  # AC 7 descending
DROPPED = [{"name": "sword", "dropped": True}, {"name": "dagger", "length": 1, "weight": 1}]


def run(*commands, dice=(), combatants=(ALDA, ORC), surprise=NO_SURPRISE):
    return started(combatants, *commands, dice=dice, surprise=surprise)


def offered(played, cid: str) -> dict:
    return {ch.type: ch for ch in view(played.state, Viewer("gm")).actions[cid]}


def test_stand_gets_up_in_the_movement_phase_after_the_attack_phase():
    # 003: 'prone but awake and lively, the offender gets a +4': the orc strikes in the attack
    # phase, before Alda stands in the movement phase. d20 8 + 0 + 4 prone + AC 4 = 16.
    played = run(
        declare("alda", {"type": "stand"}),
        declare("orc", {"type": "attack", "target": "alda"}),
        ADVANCE,
        dice=[8],
        combatants=({**ALDA, "conditions": ["prone"]}, ORC),
    )
    assert texts(played, "attack") == ["Orc attacks Alda: d20 8 + 0 combat bonus + 4 prone target + AC 4 = 16 < 19: miss."]
    assert texts(played, "move") == ["Alda stands up (no longer prone)."]
    assert who(played, "alda").conditions == []


def test_stand_after_stop_drop_and_roll_clears_the_prone_bonus():
    # Round 1: the orc, burning since an earlier round, rolls (003: out 'on a damage roll of
    # 3 or higher': d6 4) and is prone. Round 2: it stands; in round 3 Alda's attack has no
    # +4: d20 10 + 0 + AC 7 = 17.
    burning = {**ORC, "conditions": ["burning"], "burning": 1}
    played = run(
        declare("orc", {"type": "stop_drop_roll"}),
        ADVANCE,
        declare("orc", {"type": "stand"}),
        ADVANCE,
        declare("alda", {"type": "attack", "target": "orc"}),
        ADVANCE,
        dice=[4, 10],
        combatants=(ALDA, burning),
    )
    assert who(played, "orc").conditions == []
    assert texts(played, "attack") == ["Alda attacks Orc: d20 10 + 0 combat bonus + AC 7 = 17 < 19: miss."]


def test_stand_rejected_when_not_prone():
    played = run(declare("alda", {"type": "stand"}))
    assert played.log[-1].code == "stand/not-prone"


def test_stand_offered_only_to_the_prone():
    prone = run(combatants=({**ALDA, "conditions": ["prone"]}, ORC))
    assert "stand" in offered(prone, "alda") and "stand" not in offered(prone, "orc")
    assert offered(prone, "alda")["stand"].options == {}


def test_recover_picks_up_a_dropped_weapon_in_the_movement_phase():
    # Disarmed in round 1 the sword cannot be declared; recovered, it can in round 2.
    alda = {**ALDA, "weapons": DROPPED, "conditions": ["disarmed"]}
    played = run(
        declare("alda", {"type": "attack", "target": "orc", "weapon": 0}),
        declare("alda", {"type": "recover", "weapon": 0}),
        ADVANCE,
        declare("alda", {"type": "attack", "target": "orc", "weapon": 0}),
        combatants=(alda, ORC),
    )
    rejected = [e for e in played.log if e.kind == "rejected"]
    assert [e.code for e in rejected] == ["melee/weapon-unusable"]
    assert texts(played, "move") == ["Alda picks up the sword."]
    a = who(played, "alda")
    assert not a.weapons[0].dropped and a.conditions == []
    assert played.log[-1].text == "Alda declares: attack Orc."


def test_recover_rejected_for_a_weapon_in_hand():
    played = run(declare("alda", {"type": "recover", "weapon": 0}))
    assert played.log[-1].code == "recover/not-dropped"


def test_recover_offered_with_the_dropped_weapons():
    played = run(combatants=({**ALDA, "weapons": DROPPED, "conditions": ["disarmed"]}, ORC))
    assert offered(played, "alda")["recover"].options == {"weapon": [0]}
    assert "recover" not in offered(played, "orc")


def test_surprised_gawper_drops_the_weapon_in_hand_and_can_recover_it():
    # 003: 'Any gawpers so struck will drop anything held in-hand on a 2 or less': surprise d6
    # 5 and 2 (the orcs are surprised); Alda d20 12 + 0 + 2 surprise + AC 7 = 21, damage 3; drop d6 2.
    played = run(declare("alda", {"type": "attack", "target": "orc"}), ADVANCE, dice=[12, 3, 2], surprise=[5, 2])
    orc = who(played, "orc")
    assert orc.conditions == ["disarmed"] and orc.weapons[0].dropped
    assert offered(played, "orc")["recover"].options == {"weapon": [0]}
    again = run(declare("alda", {"type": "attack", "target": "orc"}), ADVANCE, declare("orc", {"type": "recover"}), ADVANCE, dice=[12, 3, 2], surprise=[5, 2])
    assert who(again, "orc").conditions == [] and not who(again, "orc").weapons[0].dropped
