"""End to end: real `fray serve` processes, a real Redis, real websocket clients."""

import hashlib

import httpx
import pytest
from support import folded, stream, token_of

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10},
    ]
}


async def test_create_answers_links_for_every_role(fray_server, join):
    made = fray_server.create(FIGHT)
    assert set(made["links"]) == {"gm", "spectator", "players"}
    assert set(made["links"]["players"]) == {"alda"}  # one link per combatant of the first side
    gm = await join(fray_server, made["links"]["gm"])
    assert gm.view["you"]["role"] == "gm"
    assert [c["id"] for c in gm.view["combatants"]] == ["alda", "gob"]
    assert gm.view["seed_hash"] == made["seed_hash"]


async def test_demo_fight_has_two_sides(fray_server, join):
    made = fray_server.create()
    gm = await join(fray_server, made["links"]["gm"])
    sides = {c["side"] for c in gm.view["combatants"]}
    assert sides == {"party", "goblins"} and len(gm.view["combatants"]) == 7


async def test_two_clients_see_the_same_state_after_every_command(fray_server, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    player = await join(fray_server, made["links"]["players"]["alda"])
    # 003: surprise d6 for each side (5, 6: nobody surprised); Alda's d20 15 + 1 + AC 6 = 22 >= 19 hits; damage d6 3.
    script = [
        (gm, {"type": "force_rolls", "values": [5, 6, 15, 3, 2]}),
        (gm, {"type": "start"}),
        (player, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}),
        (gm, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}),
        (gm, {"type": "advance"}),
    ]
    for table, command in script:
        ack = await table.send(command)
        assert ack["type"] == "ack", ack
        await gm.until(ack["position"])
        await player.until(ack["position"])
        gm_gob = next(c for c in gm.view["combatants"] if c["id"] == "gob")
        player_gob = next(c for c in player.view["combatants"] if c["id"] == "gob")
        assert gm_gob["hp"] == player_gob["hp"]
        assert (gm.view["round"], gm.view["phase"]) == (player.view["round"], player.view["phase"])
    assert gm.view["round"] == 2
    gob = next(c for c in player.view["combatants"] if c["id"] == "gob")
    assert gob["hp"] == 1  # 4 - 3
    fresh = await join(fray_server, made["links"]["players"]["alda"])
    assert fresh.view == player.view  # patches applied in order give exactly the welcome view
    attack = next(e for e in player.log if e["kind"] == "attack" and e["actor"] == "alda")
    assert attack["total"] == 22 and attack["need"] == 19
    assert attack["rolls"][0] == {"sides": 20, "value": 15, "purpose": "Alda attacks Goblin", "forced": True}
    assert "code" not in attack  # defaults are omitted on the wire


async def test_replay_from_scratch_is_byte_identical_on_two_replicas(fray_replicas, redis_url, join):
    one, two = fray_replicas
    made = one.create(FIGHT)
    gm = await join(one, made["links"]["gm"])
    watcher = await join(two, made["links"]["spectator"])
    for command in (
        {"type": "force_rolls", "values": [5, 6]},
        {"type": "start"},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
        {"type": "advance"},
    ):
        ack = await gm.send(command)
        assert ack["type"] == "ack", ack
    await watcher.until(ack["position"])  # the command through one reached a client of the other
    assert watcher.view["round"] == 2
    expected = hashlib.sha256(await folded(redis_url, made["id"])).hexdigest()
    token = token_of(made["links"]["gm"])
    for server in (one, two):
        digest = httpx.get(f"{server.url}/api/encounters/{made['id']}/digest", params={"token": token}).json()
        assert digest["position"] == ack["position"]
        assert digest["sha256"] == expected


async def test_duplicate_command_id_is_applied_once(fray_server, redis_url, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    first = await gm.send({"type": "force_rolls", "values": [3]}, command_id="same-id")
    before = len(await stream(redis_url, made["id"]))
    again = await gm.send({"type": "force_rolls", "values": [3]}, command_id="same-id")
    assert again == {**first, "duplicate": True}
    assert len(await stream(redis_url, made["id"])) == before
    await gm.until(first["position"])
    assert gm.view["forced"] == [3]


@pytest.mark.parametrize(
    "who, frame, code",
    [
        ("gm", "{not json", "protocol/bad-json"),
        ("gm", '{"type": "command", "id": "x", "command": {"type": "fireball"}}', "protocol/invalid"),
        ("alda", '{"type": "command", "id": "x", "command": {"type": "declare", "actor": "gob", "action": {"type": "hold"}}}', "declare/not-your-combatant"),
        ("spectator", '{"type": "command", "id": "x", "command": {"type": "start"}}', "auth/forbidden"),
        ("alda", '{"type": "command", "id": "x", "command": {"type": "advance"}}', "auth/forbidden"),
    ],
)
async def test_bad_input_gets_a_clear_error_and_changes_nothing(fray_server, redis_url, who, frame, code, join):
    made = fray_server.create(FIGHT)
    link = made["links"]["players"]["alda"] if who == "alda" else made["links"][who]
    table = await join(fray_server, link)
    before = len(await stream(redis_url, made["id"]))
    state_before = await folded(redis_url, made["id"])
    await table.ws.send(frame)
    error = await table.next()
    assert error["type"] == "error" and error["code"] == code, error
    assert len(error["message"]) > 10
    assert len(await stream(redis_url, made["id"])) == before
    assert await folded(redis_url, made["id"]) == state_before
    await table.ws.send('{"type": "ping", "id": "still-here"}')
    assert await table.next() == {"type": "pong", "id": "still-here"}  # the connection stays usable


async def test_player_and_spectator_never_receive_the_seed_or_hidden_figures(fray_server, join):
    made = fray_server.create()  # the demo's goblins are hidden
    player = await join(fray_server, made["links"]["players"]["alda"])
    spectator = await join(fray_server, made["links"]["spectator"])
    gm = await join(fray_server, made["links"]["gm"])
    assert gm.view["seed"] is not None
    for table in (player, spectator):
        assert table.view["seed"] is None and table.view["forced"] is None
        goblin = next(c for c in table.view["combatants"] if c["id"] == "gob1")
        assert goblin["hp"] is None and goblin["ac"] is None and goblin["notes"] is None
        assert gm.view["seed"] not in "".join(table.frames)
    ack = await gm.send({"type": "end"})
    await player.until(ack["position"])
    assert player.view["seed"] == gm.view["seed"]  # revealed at the end


async def test_log_endpoint_filters_per_viewer(fray_server, join):
    made = fray_server.create()
    gm = await join(fray_server, made["links"]["gm"])
    ack = await gm.send({"type": "force_rolls", "values": [4, 4]})
    assert ack["type"] == "ack"
    await gm.until(ack["position"])
    url = f"{fray_server.url}/api/encounters/{made['id']}/log"
    gm_log = httpx.get(url, params={"token": token_of(made["links"]["gm"])}).json()
    player_log = httpx.get(url, params={"token": token_of(made["links"]["players"]["alda"])}).json()
    assert any("forces" in e["text"] for e in gm_log)
    assert not any("forces" in e["text"] for e in player_log)
    assert len(player_log) == len(gm_log) - 1
    bad = httpx.get(url, params={"token": "nope.nope"})
    assert bad.status_code == 403 and bad.json()["code"] == "auth/bad-token"


async def test_resume_after_a_position_gets_only_what_was_missed(fray_server, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    first = await gm.send({"type": "force_rolls", "values": [1]})
    await gm.until(first["position"])
    second = await gm.send({"type": "force_rolls", "values": [2]})
    again = await join(fray_server, made["links"]["gm"], after=first["position"])
    texts = [e["text"] for e in again.log]
    assert texts == ["GM forces the next rolls: 2."]
    assert again.position == second["position"]


def test_unknown_encounter_and_bad_body_are_refused(fray_server):
    r = httpx.post(f"{fray_server.url}/api/encounters", content=b"[1,2]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "request/invalid"
    r = httpx.post(f"{fray_server.url}/api/encounters", json={"profile": "nope"})
    assert r.status_code == 400 and "unknown profile" in r.json()["message"]
    r = httpx.post(f"{fray_server.url}/api/encounters", json={"combatants": [{"name": "X", "side": "a", "hp": 5, "hp_max": 2}]})
    assert r.status_code == 400 and "HP" in r.json()["message"]
    r = httpx.get(f"{fray_server.url}/api/encounters/nope/log", params={"token": "a.b"})
    assert r.status_code == 403


async def test_log_endpoint_has_the_whole_log_not_the_rooms_recent_window(fast_server, join):
    # The live room keeps only its recent entries (hub.WELCOME_LOG); the endpoint must fold them all.
    from fray_table.server.hub import WELCOME_LOG

    made = fast_server.create(FIGHT)
    gm = await join(fast_server, made["links"]["gm"])
    for i in range(WELCOME_LOG + 20):
        ack = await gm.send({"type": "edit_combatant", "id": "gob", "notes": f"note {i}"})
        assert ack["type"] == "ack", ack
    entries = httpx.get(f"{fast_server.url}/api/encounters/{made['id']}/log", params={"token": token_of(made["links"]["gm"])}).json()
    edits = [e for e in entries if e["text"].startswith("GM edits Goblin")]
    assert len(edits) == WELCOME_LOG + 20
    assert entries[0]["text"].startswith("Encounter created")


BAD_TEXTS = ("Sleep\nInjected line", "wand of \u202efire", "tab\tbed", "zero\u200bwidth")


async def test_every_free_text_field_is_plain_text_or_refused_before_it_is_stored(fray_server, redis_url, join):
    """Issue 28: spell and device names took newlines and right-to-left overrides (`say`
    refused them). One check for every string of a command or a request body, at the edge."""
    made = fray_server.create(
        {"combatants": [{"id": "mage", "name": "Mage", "side": "party", "caster": True}, {"id": "gob", "name": "Goblin", "side": "goblins"}]}
    )
    gm = await join(fray_server, made["links"]["gm"])
    player = await join(fray_server, made["links"]["players"]["mage"])
    for command in ({"type": "force_rolls", "values": [6, 6]}, {"type": "start"}):  # nobody surprised: the mage may declare
        assert (await gm.send(command))["type"] == "ack"
    before = len(await stream(redis_url, made["id"]))
    for text in BAD_TEXTS:
        for table, command, where in (
            (player, {"type": "declare", "actor": "mage", "action": {"type": "cast", "spell": text}}, "action.spell"),
            (player, {"type": "declare", "actor": "mage", "action": {"type": "use_device", "device": text}}, "action.device"),
            (gm, {"type": "add_combatant", "combatant": {"name": text, "side": "goblins"}}, "combatant.name"),
            (gm, {"type": "add_combatant", "combatant": {"name": "Orc", "side": "goblins", "notes": text}}, "combatant.notes"),
            (player, {"type": "say", "text": text}, "chat message"),  # the chat's own check, the same test (rules.chat.plain)
        ):
            answer = await table.send(command)
            assert answer["type"] == "error" and answer["code"] in ("protocol/bad-text", "chat/bad-text"), (command, answer)
            assert answer["code"] == ("chat/bad-text" if command["type"] == "say" else "protocol/bad-text")
            assert where in answer["message"] and "plain text" in answer["message"]
    assert len(await stream(redis_url, made["id"])) == before  # nothing stored
    ok = await player.send({"type": "declare", "actor": "mage", "action": {"type": "cast", "spell": "Sleep (Ünïcode is fine)"}})
    assert ok["type"] == "ack", ok

    url = f"{fray_server.url}/api/encounters"
    for body, where in (
        ({"combatants": [{"name": "Gob\u202elin", "side": "a"}, {"name": "B", "side": "b"}]}, "combatants[0].name"),
        ({"combatants": [{"name": "A", "side": "a\nb"}, {"name": "B", "side": "b"}]}, "combatants[0].side"),
        ({"players": {"Ann\n": []}}, "players (a key)"),
    ):
        r = httpx.post(url, json=body)
        assert r.status_code == 400 and r.json()["code"] == "protocol/bad-text" and where in r.json()["message"], r.text
    link = httpx.post(f"{url}/{made['id']}/links", params={"token": token_of(made["links"]["gm"])}, json={"role": "spectator", "name": "Eve\u202e"})
    assert link.status_code == 400 and link.json()["code"] == "protocol/bad-text" and "name" in link.json()["message"]
