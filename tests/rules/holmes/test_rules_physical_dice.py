"""Option physical_dice: dice rolled at the table are asked for, one at a time,
and entered; the step resumes with them. Numbers from 003."""

import msgspec

from fray_table.rules.reducer import canonical, fold
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, view

FIGHT = {
    "seed": "table",
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10, "pc": True},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 6, "hp_max": 6, "dex": 9, "x": 15, "y": 10},
    ],
}
ROUND = [
    {"type": "start"},
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
    {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
    {"type": "advance"},
]


def fight(mode: str, *answers, dice=(5, 5)):
    commands = ROUND + [
        {"as": "player:alda", "type": "answer", "awaiting": a, "choice": c} if who == "alda" else {"type": "answer", "awaiting": a, "choice": c}
        for who, a, c in answers
    ]
    return play({**FIGHT, "options": {"physical_dice": mode}, "dice": list(dice), "commands": commands})


def test_a_pc_step_waits_for_its_d20_and_names_who_rolls():
    played = fight("players")
    waiting = played.state.awaiting
    assert (waiting.kind, waiting.who, len(waiting.options)) == ("die", "alda", 20)
    assert "Roll a d20 at the table for Alda attacks Goblin" in waiting.prompt
    assert played.state.phase == "attack" and played.state.round == 1
    assert not any(e.kind == "attack" for e in played.log)  # nothing of the attempt is kept


def test_entered_dice_resolve_the_step_as_rolled():
    # 003: d20 12 + 1 + descending AC 6 = 19 >= 19 hits; the entered d6 of 4 leaves the goblin 2 of 6.
    played = fight("players", ("alda", "die:7", "12"), ("alda", "die:8", "4"))
    attack = next(e for e in played.log if e.kind == "attack" and e.actor == "alda")
    assert attack.total == 19 and [(r.value, r.entered) for r in attack.rolls] == [(12, True)]
    gob = next(c for c in played.state.combatants if c.id == "gob")
    assert gob.hp == 2
    assert played.state.entered == [] and played.state.awaiting is None


def test_players_mode_rolls_monsters_as_usual():
    # The goblin is no pc: its attack is drawn from the seed without asking anyone.
    played = fight("players", ("alda", "die:7", "12"), ("alda", "die:8", "4"))
    goblin = next(e for e in played.log if e.kind == "attack" and e.actor == "gob")
    assert [(r.sides, r.forced, r.entered) for r in goblin.rolls] == [(20, False, False)]
    assert played.state.round == 2 and played.state.awaiting is None


def test_the_gms_forced_dice_come_before_the_tables():
    # A die the GM forced is used first, even in a step rolled at the table: no prompt for it.
    played = fight("players", dice=(5, 5, 3))
    attack = next(e for e in played.log if e.kind == "attack" and e.actor == "alda")
    assert [(r.value, r.forced) for r in attack.rolls] == [(3, True)] and "miss" in attack.text


def test_all_mode_asks_the_gm_for_monsters():
    played = fight("all", ("alda", "die:7", "12"), ("alda", "die:8", "4"))
    assert played.state.awaiting.who == "gob" and played.state.awaiting.options[-1] == "20"


def test_a_wrong_die_value_or_roller_is_refused_and_changes_nothing():
    waiting = fight("players")
    for answer in (("alda", "die:7", "21"), ("alda", "die:7", "0"), ("gob", "die:7", "5")):
        played = play(
            {
                **FIGHT,
                "options": {"physical_dice": "players"},
                "dice": [5, 5],
                "commands": ROUND
                + [{"as": "player:gob" if answer[0] == "gob" else "player:alda", "type": "answer", "awaiting": answer[1], "choice": answer[2]}],
            }
        )
        assert played.log[-1].kind == "rejected", answer
        assert canonical(msgspec.structs.replace(played.state, seq=0, recent=[])) == canonical(msgspec.structs.replace(waiting.state, seq=0, recent=[]))


def test_replay_with_entered_dice_is_byte_identical():
    played = fight("all", ("alda", "die:7", "12"), ("alda", "die:8", "4"), ("gm", "die:9", "17"), ("gm", "die:10", "2"))
    assert canonical(fold(played.events)) == canonical(played.state)
    assert played.state.round == 2
    alda = next(c for c in played.state.combatants if c.id == "alda")
    assert alda.hp == 7  # 17 + 0 + descending AC 4 = 21 hits; the GM's entered d6 of 2


def test_the_prompt_is_in_every_view_and_the_option_is_offered():
    played = fight("players")
    assert view(played.state, Viewer("spectator")).awaiting.kind == "die"
    assert played.state.options["physical_dice"] == "players"
