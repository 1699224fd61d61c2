"""server/replay.py against a real `fray serve`: the fight at any event, as each
viewer saw it then, and the log exported as JSON and Markdown."""

import copy
import json

import httpx
import pytest
from scenes import scenario
from support import play_script, token_of

pytestmark = pytest.mark.redis

SCENARIO = scenario("holmes-showcase")
NOTE = "Mog carries the key to the vault"


async def played(fray_server, join, end: bool = False) -> dict:
    """The showcase fight on the server, Mog hidden and noted by the GM; its links."""
    combatants = copy.deepcopy(SCENARIO["combatants"])
    mog = next(c for c in combatants if c["id"] == "mog")
    mog.update(hidden=True, notes=NOTE)
    made = fray_server.create({"combatants": combatants, "options": SCENARIO["options"], "players": {"party": ["alda", "bran", "cora"]}})
    await play_script(fray_server, join, made, SCENARIO, ({"type": "end"},) if end else ())
    return made


def replay(server, made: dict, link: str, at: int | None = None) -> httpx.Response:
    params = {"token": token_of(link)} | ({} if at is None else {"at": str(at)})
    return httpx.get(f"{server.url}/api/encounters/{made['id']}/replay", params=params, timeout=10)


def export(server, made: dict, link: str, fmt: str) -> httpx.Response:
    return httpx.get(f"{server.url}/api/encounters/{made['id']}/export", params={"token": token_of(link), "format": fmt}, timeout=10)


async def test_replay_shows_the_fight_at_the_chosen_event(fray_server, join):
    made = await played(fray_server, join)
    player = made["links"]["players"]["party"]
    last = replay(fray_server, made, player).json()
    count = last["count"]
    assert last["seq"] == count - 1 and last["view"]["round"] == 4
    assert {"seq": 9, "round": 1} in last["rounds"] and {"seq": 13, "round": 2} in last["rounds"]

    # Event 12: round 1's declarations, Alda not yet moved, Snag not yet burning.
    then = replay(fray_server, made, player, at=12).json()
    assert (then["seq"], then["count"]) == (12, count)
    assert (then["view"]["round"], then["view"]["phase"]) == (1, "declaration")
    by_id = {c["id"]: c for c in then["view"]["combatants"]}
    assert (by_id["alda"]["x"], by_id["alda"]["y"]) == (10, 10)
    assert by_id["snag"]["conditions"] == [] and by_id["snag"]["hp"] == 9
    assert max(e["seq"] for e in then["log"]) == 12
    assert then["log"][-1]["text"] == "Alda declares: move to (20, 10)."
    assert then["view"]["actions"] == {}  # a replay is read-only

    # Clamped to the stream; a bad position is refused.
    assert replay(fray_server, made, player, at=10**9).json()["seq"] == count - 1
    bad = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/replay", params={"token": token_of(player), "at": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "request/invalid"


async def test_replay_gives_a_player_only_what_a_player_saw(fray_server, join):
    made = await played(fray_server, join)
    gm = replay(fray_server, made, made["links"]["gm"]).json()
    seed = gm["view"]["seed"]
    assert seed and any(e.get("audience") == "side:orcs" for e in gm["log"])
    assert next(c for c in gm["view"]["combatants"] if c["id"] == "mog")["notes"] == NOTE

    for link in (made["links"]["players"]["party"], made["links"]["spectator"]):
        for at in (None, 12, 21):
            text = replay(fray_server, made, link, at).text
            body = json.loads(text)
            assert seed not in text and NOTE not in text
            assert body["view"]["seed"] is None
            mog = next(c for c in body["view"]["combatants"] if c["id"] == "mog")
            assert mog["hp"] is None and mog["hp_max"] is None and mog["notes"] is None
            assert not [e for e in body["log"] if e.get("audience") == "side:orcs"]
            assert not [e for e in body["log"] if "-2 HP left" in e["text"]]  # Mog's figures
        exported = export(fray_server, made, link, "json").text + export(fray_server, made, link, "md").text
        assert seed not in exported and NOTE not in exported


async def test_replay_reveals_the_seed_from_the_end_only(fray_server, join):
    made = await played(fray_server, join, end=True)
    player = made["links"]["players"]["party"]
    last = replay(fray_server, made, player).json()
    assert last["view"]["status"] == "ended" and len(last["view"]["seed"]) == 64
    before = replay(fray_server, made, player, at=last["count"] - 2)
    assert before.json()["view"]["seed"] is None and last["view"]["seed"] not in before.text


async def test_export_json_and_markdown(fray_server, join):
    made = await played(fray_server, join)
    player = made["links"]["players"]["party"]
    as_json = export(fray_server, made, player, "json")
    assert as_json.status_code == 200 and "attachment" in as_json.headers["content-disposition"]
    assert as_json.json() == replay(fray_server, made, player).json()["log"]

    as_md = export(fray_server, made, player, "md")
    assert as_md.headers["content-type"].startswith("text/markdown")
    text = as_md.text
    assert text.startswith("# Fray: the fight of encounter")
    assert text.index("## Round 1") < text.index("### Attack phase") < text.index("## Round 2")
    assert "- Bran attacks Grul: d20 11 + 0 combat bonus" in text
    assert "  - rolled a d20: 11 (Bran attacks Grul, a result forced by the GM)" in text
    assert "  - modifiers: +0 combat bonus, +2 surprise, from behind included, +6 target AC without shield" in text
    assert "  - total 19 against 19 needed: succeeds" in text
    assert "total 16 against 19 needed: fails" in text  # Snag against Bran's parry
    assert "Seed: still secret" in text


async def test_replay_refuses_a_bad_token(fray_server, join):
    made = fray_server.create()
    for path in ("replay", "export"):
        r = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/{path}", params={"token": "forged"})
        assert r.status_code == 403 and r.json()["code"] == "auth/bad-token"
    r = export(fray_server, made, made["links"]["gm"], "pdf")
    assert r.status_code == 400
