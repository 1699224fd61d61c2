"""001's worked example (Brother Hubert, Lucas and Dulcia against four gnolls), played
from docs/scenarios/challenges.toml with every die forced and checked against the
Attack Chart. Where the example's arithmetic disagrees, the chart wins (docs/rulings.md)."""

import hashlib

import httpx
import pytest
from scenes import all_forced, rejected, scenario, texts, who
from support import play_script, stream, token_of

from fray_table.rules.reducer import canonical, fold
from fray_table.rules.scenario import play

SCENARIO = scenario("challenges")
PLAYED = play(SCENARIO)


def test_example_uses_every_forced_die_and_nothing_else():
    assert all_forced(PLAYED, SCENARIO["dice"]) and not rejected(PLAYED)


def test_round_1_hubert_weak_hit_halves_the_d6():
    # '12+1-15 equals an Attack Result of -2 ... gets a five, which is halved to 2.5 and rounded down to 2'
    assert (
        "Brother Hubert attacks Gnoll 1: d20 12 + 1 attack bonus - AC 15 = Attack Result -2: A weak Hit for half normal damage (round down, minimum 1 point)."
        in texts(PLAYED, "attack")
    )
    assert "Gnoll 1 takes 2 damage (1d6 rolled 5, halved, round down, minimum 1), 13 HP left." in texts(PLAYED, "damage")


def test_round_1_dulcia_plus_4_is_plus_3_damage_by_the_chart_not_plus_4():
    # The example: 'd8 (sword) +1 (high strength) +4 (attack result) or 13 points'; the chart's +4 row
    # is 'A strong Hit for +3 points of damage that also inflicts a Light wound': 8 + 1 + 3 = 12.
    assert (
        "Dulcia the Mighty attacks Gnoll 2: d20 14 + 5 attack bonus - AC 15 = Attack Result +4: A strong Hit for +3 points of damage that also inflicts a Light wound."
        in texts(PLAYED, "attack")
    )
    assert "Gnoll 2 takes 12 damage (1d8+1 rolled 8 + 1 = 9, +3 strong Hit), 3 HP left." in texts(PLAYED, "damage")
    assert "Gnoll 2 suffers a Light wound (-1 to attack rolls and saves); now light wound -1." in texts(PLAYED, "wound")


def test_round_1_gnolls_a_miss_and_a_wounded_weak_hit():
    # '6+3-13 or an Attack Results of -4. That's a straight-up Miss'
    assert "Gnoll 1 attacks Brother Hubert: d20 6 + 3 attack bonus - AC 13 = Attack Result -4: Miss, no other effect." in texts(PLAYED, "attack")
    # '13+3-16=0 ... Light Wound, knocking that 0 to a -1 ... a weak -2 damage Hit ... 5 points ... reducing it to 3'
    assert (
        "Gnoll 2 attacks Dulcia the Mighty: d20 13 + 3 attack bonus - 1 light wound - AC 16 = Attack Result -1: A weak Hit for normal damage -2 points (minimum 1 point)."
        in texts(PLAYED, "attack")
    )
    assert "Dulcia the Mighty takes 3 damage (1d8 rolled 5, -2, minimum 1), 11 HP left." in texts(PLAYED, "damage")


def test_round_2_morale_holds():
    assert texts(PLAYED, "morale")[0] == "Gnoll 1 checks morale (called by the GM): 2d6 3+4 = 7: stands off or holds ground."


def test_round_2_gnoll_with_a_light_wound_rolls_minus_10_not_minus_9():
    # The example: '4+3-16=-9 ... he blows his saving throw' (forgetting the Light wound it applied in
    # round 1); the chart: 4 + 3 - 1 - 16 = -10, 'Miss clumsily, forfeit your next attack': no save, no drop.
    assert (
        "Gnoll 2 attacks Dulcia the Mighty: d20 4 + 3 attack bonus - 1 light wound - AC 16 = Attack Result -10: Miss clumsily, forfeit your next attack."
        in texts(PLAYED, "attack")
    )
    assert not texts(PLAYED, "save") and not who(PLAYED, "g2").weapons[0].dropped
    assert "forfeits next attack" in who(PLAYED, "g2").conditions


def test_round_2_hubert_is_chopped_in_twain():
    # '12+3-13=2. That's a strong hit for a total of a whopping 9 points ... Hubert only has 6 points'
    assert "Gnoll 1 attacks Brother Hubert: d20 12 + 3 attack bonus - AC 13 = Attack Result +2: A strong Hit for +2 points of damage." in texts(
        PLAYED, "attack"
    )
    assert "Brother Hubert takes 9 damage (1d8 rolled 7, +2 strong Hit), -3 HP left." in texts(PLAYED, "damage")
    assert who(PLAYED, "hubert").down and "Brother Hubert cannot act (down)." in texts(PLAYED)


def test_round_2_lucas_dagger_and_dulcia_kill_gnoll_1():
    # '1+14-15 equals zero ... Lucas rolls 2 for damage, but due to low Strength ... 1 point'
    assert (
        "Lucas of the Invisible Sigil shoots at Gnoll 1 (dagger): d20 14 + 1 attack bonus + 0 medium range - AC 15 = Attack Result 0: A normal Hit, no other effect."
        in texts(PLAYED, "attack")
    )
    assert "Gnoll 1 takes 1 damage (1d4-1 rolled 2 - 1 = 1), 12 HP left." in texts(PLAYED, "damage")
    # '17+5-15 for a Attack Result of +7 ... +5 damage and a Serious wound. The total damage is 12'
    assert (
        "Dulcia the Mighty attacks Gnoll 1: d20 17 + 5 attack bonus - AC 15 = Attack Result +7: A strong Hit for +5 points of damage that also inflicts a Serious wound."
        in texts(PLAYED, "attack")
    )
    assert "Gnoll 1 takes 12 damage (1d8+1 rolled 6 + 1 = 7, +5 strong Hit), 0 HP left." in texts(PLAYED, "damage")
    assert who(PLAYED, "g1").down and who(PLAYED, "g1").conditions == []  # dead: the Serious wound is moot


def test_round_3_the_last_gnoll_runs_with_a_light_wound_not_a_serious_one():
    # The example: 'Since he has a Serious wound ... -3'; by the chart the survivor took Dulcia's +4, a Light wound.
    g2 = who(PLAYED, "g2")
    assert g2.conditions == ["light wound", "forfeits next attack", "fled"]
    assert "Gnoll 2 flees to (60, 20) and is out of the fight." in texts(PLAYED, "move")


def test_example_final_figures():
    hp = {c.id: c.hp for c in PLAYED.state.combatants}
    assert hp == {"hubert": -3, "lucas": 5, "dulcia": 11, "g1": 0, "g2": 3, "g3": 15, "g4": 15}
    assert (PLAYED.state.round, PLAYED.state.phase) == (4, "declaration")


def test_example_replay_is_byte_identical():
    assert canonical(fold(PLAYED.events)) == canonical(PLAYED.state)
    cut = 20
    assert canonical(fold(PLAYED.events[cut:], fold(PLAYED.events[:cut]))) == canonical(PLAYED.state)


# --- the same fight on a real server, created with profile 'challenges' ----------------


def test_profiles_endpoint_lists_challenges_and_its_options(fray_server):
    profiles = httpx.get(f"{fray_server.url}/api/profiles").json()
    options = {o["name"]: o for o in profiles["challenges"]["options"]}
    assert profiles["challenges"]["document"] == "001_2000a7d525ea5a8f.txt" and profiles["challenges"]["ac_style"] == "ascending"
    assert options["wound_penalties"]["choices"] == ["stack", "worst"] and options["weapon_damage"]["default"] is True


async def test_challenges_encounter_is_created_with_its_options(fray_server, join):
    made = fray_server.create(
        {"profile": "challenges", "options": {"wound_penalties": "worst", "save_vs_paralyzation": 12}, "combatants": SCENARIO["combatants"][2:4]}
    )
    gm = await join(fray_server, made["links"]["gm"])
    assert gm.view["profile"] == "challenges"
    assert gm.view["options"]["wound_penalties"] == "worst" and gm.view["options"]["save_vs_paralyzation"] == 12
    assert gm.view["options"]["weapon_damage"] is True and gm.view["options"]["double_damage"] == "dice"
    assert {c["id"]: c["ac_shown"] for c in gm.view["combatants"]} == {"dulcia": 16, "g1": 15}  # ascending, 001's own


def test_bad_challenges_option_is_refused(fray_server):
    r = httpx.post(f"{fray_server.url}/api/encounters", json={"profile": "challenges", "options": {"double_damage": "triple"}})
    assert r.status_code == 400 and "double_damage" in r.json()["message"]


@pytest.mark.redis
async def test_example_on_the_server_logs_what_the_headless_run_logs(fray_server, redis_url, join):
    made = fray_server.create(
        {
            "profile": "challenges",
            "combatants": SCENARIO["combatants"],
            "players": {"party": ["hubert", "lucas", "dulcia"]},
        }
    )
    gm, _ = await play_script(fray_server, join, made, SCENARIO)
    assert gm.view["profile"] == "challenges" and gm.view["round"] == 4

    token = token_of(made["links"]["gm"])
    url = f"{fray_server.url}/api/encounters/{made['id']}"
    served = httpx.get(f"{url}/log", params={"token": token}).json()
    assert [e["text"] for e in served[1:]] == [e.text for e in PLAYED.log[1:]]
    events = [e for _, e in await stream(redis_url, made["id"])]
    digest = httpx.get(f"{url}/digest", params={"token": token}).json()
    assert digest["sha256"] == hashlib.sha256(canonical(fold(events))).hexdigest()
