"""One fight mixing three documents on a real `fray serve`: 003's round (holmes-phases),
002's to-hit and striking (thac0-sheet), 000's death and dying chart (ll-house). Every
die is forced; each line quotes its document's numbers. A second replica folding the
same stream from Redis holds byte-identical state."""

import hashlib

import httpx
import pytest
from support import TIMEOUT, digest, stream, token_of

from fray_table.rules.reducer import canonical, fold

pytestmark = pytest.mark.redis

MODULES = {"to_hit": "thac0-sheet", "dying": "ll-house", "striking": "thac0-sheet"}
COMBATANTS = [
    {"id": "alda", "name": "Alda", "side": "party", "hp": 10, "hp_max": 10, "klass": "fighter", "level": 1, "dex": 14, "x": 10, "y": 10},
    {"id": "bram", "name": "Bram", "side": "party", "hp": 10, "hp_max": 10, "klass": "fighter", "level": 1, "str_adj": 2, "dex": 12, "x": 10, "y": 20},
    {"id": "gob", "name": "Gob", "side": "goblins", "hp": 3, "hp_max": 3, "dex": 9, "x": 15, "y": 10},
    {
        "id": "grok",
        "name": "Grok",
        "side": "goblins",
        "hp": 8,
        "hp_max": 8,
        "klass": "normal",
        "level": 0,
        "con": 10,
        "save_death": 14,
        "dex": 8,
        "x": 15,
        "y": 20,
    },
]
# surprise d6 5 and 6 (003: 1 or 2 is surprised); round 1: Alda's d20 15 and d6 6, Gob's
# death and dying d20 10 and 1d6 4 rounds, Bram's strike d20 10, stun d20 15, SvDR d20 12;
# round 2: Alda's staunch d20 14, Bram's d20 3.
DICE = [5, 6, 15, 6, 10, 4, 10, 15, 12, 14, 3]


def declare(actor: str, action: dict) -> dict:
    return {"type": "declare", "actor": actor, "action": action}


async def test_a_mix_of_three_documents_plays_on_a_real_server(fray_replicas, redis_url, join):
    first, second = fray_replicas
    made = first.create({"profile": "holmes-phases", "modules": MODULES, "options": {"death_chart": "all"}, "combatants": COMBATANTS})
    gm = await join(first, made["links"]["gm"])
    alda = await join(first, made["links"]["players"]["alda"])  # a player declares her own
    assert gm.view["modules"] == MODULES and alda.view["modules"] == MODULES
    assert gm.view["options"]["death_chart"] == "all" and "h_floor" in gm.view["options"]  # 000's and 002's options

    script = [
        (gm, {"type": "force_rolls", "values": DICE}),
        (gm, {"type": "start"}),
        (alda, declare("alda", {"type": "attack", "target": "gob"})),
        (gm, declare("bram", {"type": "strike", "target": "grok"})),
        (gm, declare("grok", {"type": "attack", "target": "bram"})),
        (gm, {"type": "advance"}),
        (alda, declare("alda", {"type": "staunch", "target": "gob"})),
        (gm, declare("bram", {"type": "attack", "target": "grok"})),
        (gm, {"type": "advance"}),
    ]
    for table, command in script:
        ack = await table.send(command)
        assert ack["type"] == "ack", (command, ack)
    await gm.until(ack["position"])
    assert gm.view["round"] == 3 and gm.view["forced"] == []  # every forced die used, no other

    lines = [e["text"] for e in gm.log]
    for line in [
        # 002: 'H = THAC0 - AC'; a 1st-level fighter's THAC0 19 against AC 9
        "Alda attacks Gob: THAC0 19 - AC 9 = H 10; d20 15 ≥ 10: hit.",
        "Gob takes 6 damage (1d6), -3 HP left.",  # 003: 'All hits ... cause 1-6 points of damage'
        # 000's death and dying chart, d20 10: Bleeding out for 1d6 + Con bonus rounds
        "Gob falls: death and dying d20 10: Bleeding out. Lingers 4 round(s) (1d6+0 Con bonus) and dies at the end of round 5, unless the wound is staunched (DC11).",
        # 002 'Striking': 1 + δS, t = 1d20 - C', SvDR at +4 - δS
        "Bram strikes Grok: THAC0 19 - AC 9 = H 10; d20 10 ≥ 10: hit.",
        "Grok takes 3 damage (1 + 2 δS), 5 HP left.",
        "Grok is stunned (t = d20 15 - C' 10 = 5): SvDR d20 12 + 2 = 14 ≥ 14, stays awake; loses its next round.",
        "Grok cannot act (stunned).",
        "Alda staunches Gob's wound: d20 14 ≥ DC11; Gob is stabilized but needs medical attention or magical healing.",
        "Bram attacks Grok: THAC0 19 - AC 9 = H 10; d20 3 < 10: miss.",
        "Grok comes round (stunned no longer).",
    ]:
        assert line in lines, line
    cards = {c["id"]: c for c in gm.view["combatants"]}
    assert cards["gob"]["conditions"] == ["stabilized"] and cards["gob"]["down"] is True
    assert cards["grok"]["hp"] == 5 and cards["grok"]["conditions"] == []

    # The same stream folded three ways: from Redis here, by the replica that played it,
    # and by a second replica that only reads it.
    events = [e for _, e in await stream(redis_url, made["id"])]
    from_scratch = hashlib.sha256(canonical(fold(events))).hexdigest()
    watcher = await join(second, made["links"]["spectator"])
    assert watcher.view["modules"] == MODULES and watcher.view["round"] == 3
    played, read = digest(first, made), digest(second, made)
    assert played["sha256"] == read["sha256"] == from_scratch
    assert played["position"] == read["position"] == ack["position"]

    log = httpx.get(f"{second.url}/api/encounters/{made['id']}/log", params={"token": token_of(made["links"]["gm"])}, timeout=TIMEOUT).json()
    assert [e["text"] for e in log] == [e["text"] for e in gm.log]  # the second replica's log, line for line


async def test_a_combination_that_cannot_work_is_refused_with_a_sentence(fray_server):
    response = httpx.post(f"{fray_server.url}/api/encounters", json={"profile": "ll-house", "modules": {"to_hit": "challenges"}}, timeout=TIMEOUT)
    assert response.status_code == 400
    assert response.json()["message"] == (
        "ll-house's 'routine' cannot be combined with challenges 'to_hit': its extra strikes are rolled on 000's own attack roll"
    )
