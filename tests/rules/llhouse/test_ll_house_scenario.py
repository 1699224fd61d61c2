"""The scripted fight of docs/scenarios/ll-house.toml (000): a critical hit with armor damage,
cleave, an extra attack that fumbles, a shield bash that knocks down, three shield-sacrifice
prompts, 000's parry, a double-damage crit, the death and dying chart and a staunched wound,
every die forced. Played headless, replayed byte for byte, and played on a real server
created with the profile through POST /api/encounters."""

import httpx
import pytest
from scenes import all_forced, rejected, scenario, texts, who
from support import play_script, token_of

from fray_table.rules.reducer import canonical, fold
from fray_table.rules.scenario import play

SCENARIO = scenario("ll-house")
PLAYED = play(SCENARIO)


def test_ll_house_scenario_uses_every_forced_die_and_nothing_else():
    assert all_forced(PLAYED, SCENARIO["dice"]) and not rejected(PLAYED)


def test_ll_house_scenario_final_figures():
    hp = {c.id: c.hp for c in PLAYED.state.combatants}
    assert hp == {"bran": 12, "alda": -4, "grul": -7, "snag": -2, "ukk": 10}
    assert {c.id: c.ac for c in PLAYED.state.combatants} == {"bran": 12, "alda": 15, "grul": 14, "snag": 12, "ukk": 15}
    assert who(PLAYED, "grul").conditions == ["dead"] and who(PLAYED, "grul").armor_damage == 1
    assert who(PLAYED, "snag").conditions == ["dead"]
    assert who(PLAYED, "alda").conditions == ["stabilized"] and who(PLAYED, "alda").down and not who(PLAYED, "alda").shield
    assert not who(PLAYED, "ukk").shield and who(PLAYED, "ukk").conditions == []
    assert not who(PLAYED, "bran").weapons[0].dropped and who(PLAYED, "bran").conditions == []
    assert (PLAYED.state.round, PLAYED.state.phase) == (5, "declaration")


def test_ll_house_scenario_round_one_crit_cleave_fumble_bash():
    assert texts(PLAYED)[texts(PLAYED).index("Round 1: declarations close.") :][2:15] == [
        "Bran attacks with two weapons Grul: d20 20 + 1 attack value + 2 two weapons = 23 ≥ AC 15: natural 20: a critical hit.",
        "Critical hit chart d20 19: Triple Damage (Dam + Bonus, then X3) + inflict permanent damage to victim's armor (victim's AC lowers by 1).",
        "Which weapon: d6 4, even: the main hand (sword).",
        "Bran rolls 15 damage against Grul ((1d8 3 + 2 sword expertise) x 3).",
        "Grul takes 15 damage, -7 HP left.",
        "Grul's chain mail is damaged (1 of 5 points): its AC 15 → 14.",
        "Grul falls, dead.",
        "Bran cleaves on into Snag with 7 leftover damage.",
        "Snag takes 7 damage (cleave), -2 HP left.",
        "Snag falls, dead.",
        "Bran attacks with two weapons Ukk: d20 1 + 1 attack value + 2 two weapons = 4 < AC 16: natural 1: a fumble.",
        "Fumble table d6 5: Bran dropped weapon; draw new weapon or lose 1 round to retrieve.",
        "Alda shield-bashes Ukk: d20 20 + 1 attack value = 21 ≥ AC 16: hit.",
    ]
    assert "Ukk is knocked down (shield bash) and loses the rest of this round to stand." in texts(PLAYED)
    assert "Ukk cannot act (knocked down)." in texts(PLAYED) and "Ukk regains its feet." in texts(PLAYED)


def test_ll_house_scenario_parry_and_shield_sacrifices():
    assert "Ukk attacks Alda: d20 17 + 1 attack value = 18 ≥ AC 18 (16 + 2 parry): hit." in texts(PLAYED)
    assert texts(PLAYED, "shield") == [
        "Ukk may sacrifice the shield against 2 damage.",
        "Ukk keeps the shield.",
        "Alda may sacrifice the shield against 6 damage.",
        "Alda sacrifices the shield: 1d4 3; 6 - 3 = 3 damage.",
        "Alda loses the shield (shattered beyond use): its AC 16 → 15.",
        "Ukk may sacrifice the shield against 4 damage.",
        "Ukk sacrifices the shield: 1d4 4; 4 - 4 = 0 damage.",
        "Ukk loses the shield (shattered beyond use): its AC 16 → 15.",
    ]


def test_ll_house_scenario_dying_and_staunched():
    assert "Ukk rolls 10 damage against Alda ((1d8 5) x 2)." in texts(PLAYED)
    assert texts(PLAYED, "down")[-1] == (
        "Alda falls: death and dying d20 10: Bleeding out. Lingers 2 round(s) (1d6+0 Con bonus) and dies "
        "at the end of round 5, unless the wound is staunched (DC11)."
    )
    assert "Bran staunches Alda's wound: d20 12 ≥ DC11; Alda is stabilized but needs medical attention or magical healing." in texts(PLAYED)


def test_ll_house_scenario_replay_is_byte_identical():
    live = canonical(PLAYED.state)
    assert canonical(fold(PLAYED.events)) == live
    for cut in (5, 13, 18, 23):
        assert canonical(fold(PLAYED.events[cut:], fold(PLAYED.events[:cut]))) == live


@pytest.mark.redis
async def test_ll_house_scenario_on_the_server(fray_server, join):
    profiles = httpx.get(f"{fray_server.url}/api/profiles").json()
    assert profiles["ll-house"]["ac_style"] == "ascending"
    assert {o["name"] for o in profiles["ll-house"]["options"]} >= {"two_weapon_fighting", "death_chart", "maneuvers"}
    made = fray_server.create(
        {
            "profile": "ll-house",
            "options": {"two_weapon_fighting": "one-roll"},
            "combatants": SCENARIO["combatants"],
            "players": {"party": ["bran", "alda"]},
        }
    )
    gm, _ = await play_script(fray_server, join, made, SCENARIO)
    assert gm.view["profile"] == "ll-house" and gm.view["round"] == 5
    served = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/log", params={"token": token_of(made["links"]["gm"])}).json()
    assert [e["text"] for e in served[1:]] == [e.text for e in PLAYED.log[1:]]


def test_ll_house_bad_options_are_refused_at_creation(fray_server):
    response = httpx.post(f"{fray_server.url}/api/encounters", json={"profile": "ll-house", "options": {"death_chart": "never"}})
    assert response.status_code == 400 and "death_chart" in response.text
