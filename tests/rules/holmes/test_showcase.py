"""The scripted fight of docs/scenarios/holmes-showcase.toml (issue 3): surprise, every
phase, a charge against a set spear, a parry that disarms, burning oil over three
rounds and a morale rout, every die forced. Played headless, replayed byte for
byte, and played again through a real `fray serve` with real websocket clients."""

import hashlib

import httpx
import pytest
from scenes import all_forced, rejected, scenario, texts, who
from support import play_script, stream, token_of

from fray_table.rules.reducer import canonical, fold
from fray_table.rules.scenario import play

SCENARIO = scenario("holmes-showcase")
PLAYED = play(SCENARIO)


# --- (a) the outcome, headless -------------------------------------------------


def test_showcase_uses_every_forced_die_and_nothing_else():
    assert len(SCENARIO["dice"]) == 25 and all_forced(PLAYED, SCENARIO["dice"])
    assert not rejected(PLAYED)


def test_showcase_final_hit_points_and_conditions():
    hp = {c.id: c.hp for c in PLAYED.state.combatants}
    assert hp == {"alda": 7, "bran": 6, "cora": 5, "grul": 5, "snag": 1, "ukk": 0, "mog": -2}
    assert {c.id for c in PLAYED.state.combatants if c.down} == {"ukk", "mog"}
    assert who(PLAYED, "grul").conditions == ["fled"]  # disarmed in round 1, re-armed in round 2
    assert who(PLAYED, "snag").conditions == ["prone", "fled"] and who(PLAYED, "snag").burning == 0
    assert who(PLAYED, "bran").conditions == [] and not who(PLAYED, "bran").weapons[0].dropped
    assert not who(PLAYED, "grul").weapons[0].dropped
    assert (PLAYED.state.round, PLAYED.state.phase, PLAYED.state.surprised) == (4, "declaration", [])


def test_showcase_surprise_gives_the_party_a_free_round_at_plus_two():
    # 003: 'surprised if 1 or 2 is rolled'; the thief's from-behind +2 is inside his surprise +2.
    assert texts(PLAYED, "surprise")[:3] == [
        "party rolls d6 5: not surprised.",
        "orcs rolls d6 2: surprised.",
        "party gain a free round and attack at +2; orcs cannot act until round 2.",
    ]
    assert "Bran attacks Grul: d20 11 + 0 combat bonus + 2 surprise, from behind included + AC 6 (shield ignored) = 19 ≥ 19: hit." in texts(PLAYED)
    assert "Grul is caught gawping and drops what was in hand (d6 1 ≤ 2)." in texts(PLAYED)
    assert texts(PLAYED)[texts(PLAYED).index("Round 2: declarations are open.") + 1 :][:7] == [
        f"{name} declares: {what}."
        for name, what in (
            ("Bran", "parry with the dagger"),
            ("Alda", "charge Ukk"),
            ("Cora", "cast magic missile at Mog"),
            ("Ukk", "set a spear against a charge"),
            ("Snag", "attack Bran"),
            ("Grul", "pick up a dropped weapon"),
            ("Mog", "approach Alda cautiously"),
        )
    ]


def test_showcase_round_one_runs_every_phase_in_order():
    round_one = texts(PLAYED)[texts(PLAYED).index("Round 1: declarations close.") : texts(PLAYED).index("Round 2: declarations are open.")]
    phases = [t for t in round_one if t.endswith(" phase.")]
    assert phases == ["Attack phase.", "Movement phase.", "Magic phase.", "End phase."]
    assert round_one.index("Alda moves to (20, 10).") > round_one.index("Movement phase.")


def test_showcase_charge_against_a_set_spear():
    # 003: the longer weapon strikes first; the set spear adds 1-6 (2-12 total); the charger gets +2.
    assert "Ukk sets the spear against a charge." in texts(PLAYED, "set")
    attacks = texts(PLAYED, "attack")
    meet = attacks.index("Ukk meets the charge of Alda: d20 16 + 0 combat bonus + AC 4 = 20 ≥ 19: hit.")
    assert attacks[meet + 1] == "Alda charges Ukk: d20 12 + 0 combat bonus + 2 charge + AC 7 = 21 ≥ 19: hit."
    assert "Alda takes 5 damage (1d6 + 1d6 set spear), 7 HP left." in texts(PLAYED, "damage")
    assert "Ukk falls." in texts(PLAYED, "down")


def test_showcase_parry_disarms_and_the_dagger_is_recovered():
    # 003: 'If the attacker would have struck the defender if not for the penalty, and their
    # weapon is heavier, the defender is disarmed.' 14 - 4 + 6 = 16 misses; 20 would have hit.
    assert "Snag attacks Bran: d20 14 + 0 combat bonus - 4 parry + AC 6 = 16 < 19: miss." in texts(PLAYED, "attack")
    assert "Bran's parry holds, but the heavier club knocks the dagger away: Bran is disarmed." in texts(PLAYED, "parry")
    assert texts(PLAYED, "move")[-1] == "Bran picks up the dagger."  # round 3's movement phase
    assert texts(PLAYED).index("Bran picks up the dagger.") > texts(PLAYED).index("Grul attacks Bran: d20 15 + 1 combat bonus + AC 6 = 22 ≥ 19: hit.")


def test_showcase_oil_burns_three_rounds():
    # 003: round 1 'continues to burn if 4-6'; then '1-4 means damage'; rolling puts it out on 3+.
    assert [t for t in texts(PLAYED, "oil") if t.startswith("The oil on Snag burns")] == [
        "The oil on Snag burns (round 1): d6 5, keeps burning (4-6).",
        "The oil on Snag burns (round 2): d6 3, burns on (1-4).",
        "The oil on Snag burns (round 3): d6 4, the rolling puts it out (3-6), no damage.",
    ]
    damage = texts(PLAYED, "damage")
    assert "Snag takes 5 damage (burning oil), 4 HP left." in damage and "Snag takes 3 damage (burning oil), 1 HP left." in damage


def test_showcase_morale_holds_then_routs():
    # 003: '6-8 Stand off or hold ground', '3-5 Flee'; fled orcs are not left standing.
    assert texts(PLAYED, "morale") == [
        "Grul checks morale (first death on its side): 2d6 3+4 = 7: stands off or holds ground.",
        "Snag checks morale (first death on its side): 2d6 3+4 = 7: stands off or holds ground.",
        "Mog checks morale (first death on its side): 2d6 3+4 = 7: stands off or holds ground.",
        "Grul checks morale (half its side out of the fight): 2d6 2+1 = 3: flees.",
        "Snag checks morale (half its side out of the fight): 2d6 2+1 = 3: flees.",
    ]
    assert texts(PLAYED, "round")[-2:] == ["Only party is left standing.", "Round 4: declarations are open."]


# --- (b) the replay is byte-identical ------------------------------------------


def test_showcase_replay_is_byte_identical():
    live = canonical(PLAYED.state)
    assert canonical(fold(PLAYED.events)) == live
    assert canonical(play(SCENARIO).state) == live


@pytest.mark.parametrize("cut", [1, 9, 20, 30])
def test_showcase_replay_in_two_halves_is_byte_identical(cut):
    first = fold(PLAYED.events[:cut])
    assert canonical(fold(PLAYED.events[cut:], first)) == canonical(PLAYED.state)


# --- (c) the same fight on a real server -----------------------------------------


@pytest.mark.redis
async def test_showcase_on_the_server_logs_what_the_headless_run_logs(fray_server, redis_url, join):
    made = fray_server.create(
        {
            "combatants": SCENARIO["combatants"],
            "options": SCENARIO["options"],
            "players": {"party": ["alda", "bran", "cora"]},
        }
    )
    gm, ack = await play_script(fray_server, join, made, SCENARIO)
    assert gm.view["round"] == 4

    token = token_of(made["links"]["gm"])
    url = f"{fray_server.url}/api/encounters/{made['id']}"
    served = httpx.get(f"{url}/log", params={"token": token}).json()
    # Everything but the first line (it names the server's own seed hash) is the same.
    assert served[0]["text"].startswith("Encounter created") and PLAYED.log[0].text.startswith("Encounter created")
    assert [e["text"] for e in served[1:]] == [e.text for e in PLAYED.log[1:]]
    rolls = [r for e in served for r in e.get("rolls", [])]  # the wire omits default fields
    assert [(r["value"], r.get("forced", False)) for r in rolls] == [(v, True) for v in SCENARIO["dice"]]

    events = [e for _, e in await stream(redis_url, made["id"])]
    folded = fold(events)
    assert folded.combatants == PLAYED.state.combatants
    expected = hashlib.sha256(canonical(folded)).hexdigest()
    digest = httpx.get(f"{url}/digest", params={"token": token}).json()
    assert digest["position"] == ack["position"] and digest["seq"] == len(events)
    assert digest["sha256"] == expected
