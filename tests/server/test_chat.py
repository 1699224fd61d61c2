"""Table chat and GM whispers (issue 13, Deliver 7): lines of the stream, each read by
its audience alone, live and in the replay; plain text, length- and rate-limited."""

import httpx
import pytest
from support import token_of

from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, log_for

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "hp": 9, "hp_max": 9, "x": 10, "y": 10},
        {"id": "bran", "name": "Bran", "side": "party", "hp": 9, "hp_max": 9, "x": 15, "y": 15},
        {"id": "gob", "name": "Goblin", "side": "goblins", "hp": 4, "hp_max": 4, "x": 20, "y": 10},
    ],
    "players": {"Ann": ["alda"], "Bob": ["bran"]},
}
SECRET = "the-door-is-trapped-42"


def chat_lines(log: list[dict]) -> list[str]:
    return [e["text"] for e in log if e["kind"] in ("chat", "whisper")]


@pytest.mark.redis
async def test_a_whisper_reaches_its_addressee_and_the_gm_alone_live_and_in_the_replay(fray_server, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    ann = await join(fray_server, made["links"]["players"]["Ann"])
    bob = await join(fray_server, made["links"]["players"]["Bob"])
    spectator = await join(fray_server, made["links"]["spectator"])
    everyone = (gm, ann, bob, spectator)

    async def said(table, command: dict) -> None:
        ack = await table.send(command)
        assert ack["type"] == "ack", ack
        for t in everyone:
            await t.until(ack["position"])

    await said(ann, {"type": "say", "text": "  Hello, table!  "})
    await said(gm, {"type": "say", "text": SECRET, "to": "alda"})
    await said(bob, {"type": "say", "text": "Can I sneak?", "to": "gm"})
    await said(gm, {"type": "say", "text": "<b>not bold</b>"})

    assert chat_lines(gm.log) == ["Ann: Hello, table!", f"GM whispers to Alda: {SECRET}", "Bob whispers to the GM: Can I sneak?", "GM: <b>not bold</b>"]
    assert chat_lines(ann.log) == ["Ann: Hello, table!", f"GM whispers to Alda: {SECRET}", "GM: <b>not bold</b>"]
    assert chat_lines(bob.log) == ["Ann: Hello, table!", "Bob whispers to the GM: Can I sneak?", "GM: <b>not bold</b>"]
    assert chat_lines(spectator.log) == ["Ann: Hello, table!", "GM: <b>not bold</b>"]
    for table in (bob, spectator):
        assert SECRET not in "".join(table.frames)  # raw frames: not a byte of it
    assert "Can I sneak" not in "".join(ann.frames + spectator.frames)

    # The replay and the log endpoint, per viewer; and a fresh welcome.
    base = f"{fray_server.url}/api/encounters/{made['id']}"
    for link, whispers in ((made["links"]["spectator"], False), (made["links"]["players"]["Bob"], False), (made["links"]["players"]["Ann"], True)):
        token = token_of(link)
        replay = httpx.get(f"{base}/replay", params={"token": token})
        log = httpx.get(f"{base}/log", params={"token": token})
        assert replay.status_code == 200 and log.status_code == 200
        assert (SECRET in replay.text) is whispers and (SECRET in log.text) is whispers
        again = await join(fray_server, link)
        assert (SECRET in "".join(again.frames)) is whispers

    # A spectator may not talk; bad text is refused with a sentence.
    refused = await spectator.send({"type": "say", "text": "hi"})
    assert refused["type"] == "error" and refused["code"] == "auth/forbidden"
    for command, code in (
        ({"type": "say", "text": "   "}, "chat/empty"),
        ({"type": "say", "text": "x" * 501}, "chat/too-long"),
        ({"type": "say", "text": "bell\x07"}, "chat/bad-text"),
        ({"type": "say", "text": "psst", "to": "alda"}, "chat/whisper-to-gm"),
    ):
        answer = await bob.send(command)
        assert answer["type"] == "error" and answer["code"] == code, (command, answer)
    answer = await gm.send({"type": "say", "text": "psst", "to": "nobody"})
    assert answer["code"] == "chat/unknown-addressee"


@pytest.mark.redis
async def test_chat_is_rate_limited_per_link(fray_server, join):
    """server.limits: 5 chat lines at once, then one every 2 s, per link; the next is refused
    (chat/too-fast) and nothing is stored, from another socket of the link or after
    reconnecting (issue 28: reconnecting refilled it); another link is not held back."""
    made = fray_server.create(FIGHT)
    ann = await join(fray_server, made["links"]["players"]["Ann"])
    answers = [await ann.send({"type": "say", "text": f"line {i}"}) for i in range(5)]
    assert [a["type"] for a in answers] == ["ack"] * 5
    await ann.close()
    again = await join(fray_server, made["links"]["players"]["Ann"])
    beside = await join(fray_server, made["links"]["players"]["Ann"])
    for table in (again, beside):
        answer = await table.send({"type": "say", "text": "line 5"})
        assert answer["type"] == "error" and answer["code"] == "chat/too-fast", answer
    bob = await join(fray_server, made["links"]["players"]["Bob"])
    assert (await bob.send({"type": "say", "text": "me too"}))["type"] == "ack"
    await bob.until((await bob.send({"type": "say", "text": "and again"}))["position"])
    assert [t for t in chat_lines(bob.log) if t.startswith("Ann")] == [f"Ann: line {i}" for i in range(5)]


def test_a_whisper_keeps_its_audience_after_the_addressee_leaves_and_the_fight_ends():
    """Fixed where it is made: removing Alda, or ending the fight, shows the whisper to no one new."""
    played = play(
        {
            "combatants": FIGHT["combatants"],
            "commands": [
                {"type": "say", "text": SECRET, "to": "alda"},
                {"type": "remove_combatant", "id": "alda"},
                {"type": "end"},
                {"type": "say", "text": "good game"},
            ],
        }
    )
    for viewer, sees in ((Viewer("player", ("alda",)), True), (Viewer("player", ("bran",)), False), (Viewer("spectator"), False), (Viewer("gm"), True)):
        lines = [e.text for e in log_for(played.log, played.state, viewer)]
        assert (f"GM whispers to Alda: {SECRET}" in lines) is sees, viewer
        assert "GM: good game" in lines  # the table may talk after the end


@pytest.mark.redis
async def test_the_chat_limit_is_the_operators_to_set(redis_url, tmp_path, join):
    """FRAY_CHAT_BURST (--chat-burst): with 2, the third line at once is refused."""
    from support import FrayServer

    server = FrayServer(redis_url, tmp_path, env={"FRAY_CHAT_BURST": "2", "FRAY_CHAT_RATE": "0.01"})
    try:
        made = server.create(FIGHT)
        ann = await join(server, made["links"]["players"]["Ann"])
        answers = [await ann.send({"type": "say", "text": f"line {i}"}) for i in range(3)]
        assert [a["type"] for a in answers] == ["ack", "ack", "error"] and answers[-1]["code"] == "chat/too-fast"
        assert "at most 2 chat messages at once, then one every 100 s" in answers[-1]["message"]
    finally:
        server.stop()


@pytest.mark.redis
async def test_a_whisper_to_the_gm_is_read_by_the_link_that_sent_it_not_by_others_with_the_same_combatants(fray_server, join):
    """Issue 28: a player's whisper to the GM had the audience of its combatants, so every
    other link holding the same ones read it, and every link holding none read the
    whispers of any other link holding none. Live, in a welcome, /log and /replay."""
    made = fray_server.create(FIGHT)
    gm_token = token_of(made["links"]["gm"])
    base = f"{fray_server.url}/api/encounters/{made['id']}"

    def issued(name: str, combatants: list[str]) -> str:
        r = httpx.post(f"{base}/links", params={"token": gm_token}, json={"role": "player", "name": name, "combatants": combatants})
        assert r.status_code == 201, r.text
        return r.json()["link"]

    twin, idle, other_idle = issued("Ann's tablet", ["alda"]), issued("Cy", []), issued("Di", [])
    gm = await join(fray_server, made["links"]["gm"])
    ann = await join(fray_server, made["links"]["players"]["Ann"])
    tablet, cy, di = await join(fray_server, twin), await join(fray_server, idle), await join(fray_server, other_idle)
    everyone = (gm, ann, tablet, cy, di)
    for table, text in ((ann, "I palm the key"), (cy, "I am the thief")):
        ack = await table.send({"type": "say", "text": text, "to": "gm"})
        assert ack["type"] == "ack", ack
        for t in everyone:
            await t.until(ack["position"])
    assert chat_lines(gm.log) == ["Ann whispers to the GM: I palm the key", "Cy whispers to the GM: I am the thief"]
    assert chat_lines(ann.log) == ["Ann whispers to the GM: I palm the key"]
    assert chat_lines(cy.log) == ["Cy whispers to the GM: I am the thief"]
    for table in (tablet, di):
        assert chat_lines(table.log) == []
        assert "palm the key" not in "".join(table.frames) and "the thief" not in "".join(table.frames)
    for link, sees in ((twin, False), (other_idle, False), (made["links"]["players"]["Ann"], True)):
        token = token_of(link)
        for path in ("log", "replay"):
            r = httpx.get(f"{base}/{path}", params={"token": token})
            assert r.status_code == 200 and ("palm the key" in r.text) is sees, (link, path)
        again = await join(fray_server, link)
        assert ("palm the key" in "".join(again.frames)) is sees
    assert "the thief" in httpx.get(f"{base}/log", params={"token": token_of(idle)}).text
