"""001's wounds come back from a real `challenges` fight (issue 22): a fight of the
campaign's characters played on 001's Attack Chart on a real server, where a Light, a
Serious and a Critical wound land on three characters; the GM's report brings each back
as a lasting condition waiting on review, naming the fight and the event, and nothing
lands until the GM accepts it."""

import httpx
from support import TIMEOUT
from test_campaign_server import api


def pc(cid: str, name: str, owner: str) -> dict:
    sheet = {"name": name, "side": "party", "klass": "fighter", "level": 1, "hp": 40, "hp_max": 40, "ac": 10, "dex": 3}
    return {"id": cid, "owner": owner, "sheet": sheet}


PARTY = [pc("ann", "Anna", "A"), pc("bea", "Bea", "B"), pc("cal", "Cal", "C")]
# 001: Attack Result = d20 + attack bonus - AC; +4 a Light wound, +7 a Serious, +9 a Critical (its chart, rules/charts/attack_result.py)
RAIDERS = [
    {
        "name": f"Raider {i}",
        "side": "raiders",
        "attack_bonus": 10,
        "ac": 12,
        "hp": 9,
        "hp_max": 9,
        "dex": 18 - i,
        "weapons": [{"name": "club", "damage": "1d4"}],
    }
    for i in (1, 2, 3)
]
TARGETS = {"Raider 1": "ann", "Raider 2": "bea", "Raider 3": "cal"}
# surprise 6, 6; Raider 1 d20 4 (+4: +3 points, a Light wound), d4 2; Raider 2 d20 7 (+7: +5, Serious), d4 2;
# Raider 3 d20 9 (+9: double damage, Critical), d4 2
DICE = [6, 6, 4, 2, 7, 2, 9, 2]


async def test_a_challenges_fights_light_serious_and_critical_wounds_come_back_for_review(fray_server, join):
    made = httpx.post(f"{fray_server.url}/api/campaigns", json={"name": "Wounds", "characters": PARTY}, timeout=TIMEOUT).json()
    gm, base = made["links"]["gm"], f"/api/campaigns/{made['id']}"
    started = api(fray_server, f"{base}/fights", gm, {"characters": ["ann", "bea", "cal"], "monsters": RAIDERS, "profile": "challenges"})
    assert started.status_code == 201, started.text
    fight = started.json()["fight"]
    table = await join(fray_server, started.json()["links"]["gm"])
    assert table.view["profile"] == "challenges"
    raiders = {c["name"]: c["id"] for c in table.view["combatants"] if c["side"] == "raiders"}
    declare = [{"type": "declare", "actor": raiders[name], "action": {"type": "attack", "target": target}} for name, target in TARGETS.items()]
    for command in [{"type": "force_rolls", "values": DICE}, {"type": "start"}, *declare, {"type": "advance"}, {"type": "end"}]:
        ack = await table.send(command)
        assert ack["type"] == "ack", (command, ack)
    await table.until(ack["position"])
    hp = {c["id"]: c["hp"] for c in table.view["combatants"] if c["side"] == "party"}
    assert hp == {"ann": 40 - (2 + 3), "bea": 40 - (2 + 5), "cal": 40 - 2 * 2}, [e["text"] for e in table.log]
    wounded = {c["id"]: c["conditions"] for c in table.view["combatants"] if c["side"] == "party"}
    assert wounded == {"ann": ["light wound"], "bea": ["serious wound"], "cal": ["critical wound"]}

    reported = api(fray_server, f"{base}/fights/{fight}/report", gm)
    assert reported.status_code == 200, reported.text
    conditions = {f["character"]: f for f in reported.json()["findings"] if f["kind"] == "condition"}
    assert {c: (f["name"], f["fight"], f.get("days", 0)) for c, f in conditions.items()} == {
        "ann": ("light wound", fight, 0),  # 001 gives wounds no time: they last until healed
        "bea": ("serious wound", fight, 0),
        "cal": ("critical wound", fight, 0),
    }
    wound_at = {
        who: e["seq"]
        for e in table.log
        if e["kind"] == "wound"
        for who, name in (("ann", "Anna"), ("bea", "Bea"), ("cal", "Cal"))
        if e["text"].startswith(name)
    }
    assert {c: f["event"] for c, f in conditions.items()} == wound_at == {"ann": 12, "bea": 12, "cal": 12}  # the replay's moment of the wound
    assert sorted((f["character"], f["kind"], f.get("value", 0)) for f in reported.json()["findings"] if f["kind"] != "condition") == [
        ("ann", "hp", 35),
        ("bea", "hp", 33),
        ("cal", "hp", 36),
    ]
    before = api(fray_server, base, gm, method="GET").json()
    assert all(c["lasting"] == [] for c in before["characters"])  # nothing lands before the review

    for f in conditions.values():
        r = api(fray_server, f"{base}/commands", gm, {"id": f"review-{f['id']}", "command": {"type": "review", "finding": f["id"], "accept": True}})
        assert r.status_code == 200, r.text
    after = {c["id"]: [(x["name"], x["fight"], x["text"]) for x in c["lasting"]] for c in api(fray_server, base, gm, method="GET").json()["characters"]}
    assert after == {
        "ann": [("light wound", fight, "A Light wound (-1 to attack rolls, etc.)")],
        "bea": [("serious wound", fight, "A Serious wound (-3 to attack rolls, etc.)")],
        "cal": [("critical wound", fight, "A Critical wound (-5 to attack rolls, etc.)")],
    }
