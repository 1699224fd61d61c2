"""Issue 22's 'Done when', on two real servers: a campaign of four characters plays three
fights in a row; a scar, armor damage, spent oil and a death carry from one fight to the
next; a week of rest heals the concussion (000: 'until you rest for 1 week'); a level-up
offers 000's improved combat options; both replicas fold the campaign to the same bytes,
and it survives export and import."""

import httpx
import pytest
from support import TIMEOUT, token_of
from test_campaign_server import api

pytestmark = pytest.mark.redis


def sheet(name: str, klass: str, hp: int, **more) -> dict:
    return {"name": name, "side": "party", "klass": klass, "level": 3, "hp": hp, "hp_max": 12, "dex": 13, **more}


PARTY = [
    {"id": "alda", "owner": "Ann", "sheet": sheet("Alda", "fighter", 3, armor="chain mail"), "gear": {"oil": 2, "coin": 50, "armor_cost": 70}},
    {"id": "bors", "owner": "Ben", "sheet": sheet("Bors", "cleric", 12)},
    {"id": "cora", "owner": "Cat", "sheet": sheet("Cora", "thief", 1)},
    {"id": "dain", "owner": "Dan", "sheet": sheet("Dain", "dwarf", 2)},
]


async def fight(server, join, base: str, gm: str, characters: list[str], dice: list[int], declare) -> tuple[str, dict]:
    # the goblin faces the first character named: the party stands in a row at y 10, the goblin at (10, 15)
    """A fight from the campaign against one goblin, played to its end by the GM: the forced
    dice, the declarations `declare(goblin)` gives, one round; then its findings, all accepted."""
    made = api(server, f"{base}/fights", gm, {"characters": characters, "bestiary": {"Goblin": 1}})
    assert made.status_code == 201, made.text
    fight_id = made.json()["fight"]
    table = await join(server, made.json()["links"]["gm"])
    goblin = next(c["id"] for c in table.view["combatants"] if c["name"] == "Goblin")
    start = {c["id"]: c for c in table.view["combatants"]}
    for command in [{"type": "force_rolls", "values": dice}, {"type": "start"}, *declare(goblin), {"type": "advance"}, {"type": "end"}]:
        ack = await table.send(command)
        assert ack["type"] == "ack", (command, ack)
    reported = api(server, f"{base}/fights/{fight_id}/report", gm)
    assert reported.status_code == 200, reported.text
    for f in api(server, base, gm, method="GET").json()["findings"]:
        r = api(server, f"{base}/commands", gm, {"id": f"review-{f['id']}", "command": {"type": "review", "finding": f["id"], "accept": True}})
        assert r.status_code == 200, r.text
    return fight_id, start


def character(server, base: str, link: str, cid: str) -> dict:
    return next(c for c in api(server, base, link, method="GET").json()["characters"] if c["id"] == cid)


async def test_four_characters_three_fights_in_a_row(fray_replicas, join):
    one, two = fray_replicas
    made = httpx.post(f"{one.url}/api/campaigns", json={"name": "Three fights", "characters": PARTY}, timeout=TIMEOUT).json()
    gm, base, ann = made["links"]["gm"], f"/api/campaigns/{made['id']}", made["links"]["players"]["Ann"]

    # Fight 1, Alda and Bors: Alda's flask (d20 15, hits), then the goblin's natural 20: crit chart 19 (triple
    # damage, armor damage), d6 2 x 3 = 6 against 3 HP; death and dying 15: broken collarbone, 1d4+6 weeks (d4 1: 7).
    oil = lambda g: [{"type": "declare", "actor": "alda", "action": {"type": "throw_oil", "target": g, "torch": False}}, attack(g, "alda")]  # noqa: E731
    first, _ = await fight(one, join, base, gm, ["alda", "bors"], [6, 6, 15, 20, 19, 2, 15, 3, 1, 1], oil)
    alda = character(two, base, gm, "alda")
    assert [(x["name"], x["days"], x["fight"]) for x in alda["lasting"]] == [("broken collarbone", 49, first)]
    assert (alda["sheet"]["armor_damage"], alda["gear"]["oil"], alda["ac"]) == (1, 2 - 1, 14)
    api(one, f"{base}/commands", gm, {"id": "heal-1", "command": {"type": "heal", "id": "alda", "hp": 12}})

    # Fight 2, Alda and Cora: the scar and the armor damage come in; the goblin's d20 19 hits Cora (AC 10), d6 3
    # against 1 HP; death and dying 5: 'Death is instantaneous!'
    second, start = await fight(two, join, base, gm, ["cora", "alda"], [6, 6, 19, 3, 5], lambda g: [attack(g, "cora")])
    assert start["alda"]["ac"] == 14 and "broken collarbone" in start["alda"]["conditions"]  # carried from fight 1
    assert character(one, base, gm, "cora")["dead"] is True
    refused = api(one, f"{base}/fights", gm, {"characters": ["cora", "dain"], "bestiary": {"Goblin": 1}})
    assert refused.status_code == 409 and refused.json()["code"] == "campaign/dead"

    # Fight 3, Alda and Dain: d20 19 hits Dain, d6 3 against 2 HP; death and dying 16: concussion, wakes in 2d4 (1, 1).
    third, start = await fight(one, join, base, gm, ["dain", "alda"], [6, 6, 19, 3, 16, 1, 1], lambda g: [attack(g, "dain")])
    assert "cora" not in start and start["alda"]["ac"] == 14
    assert [(x["name"], x["days"], x["fight"]) for x in character(one, base, gm, "dain")["lasting"]] == [("concussion", 7, third)]

    # A week of rest heals the concussion, not the broken collarbone (49 days).
    for i, days in enumerate((6, 1)):
        api(two, f"{base}/commands", gm, {"id": f"rest-{i}", "command": {"type": "pass_time", "days": days}})
    assert character(one, base, gm, "dain")["lasting"] == []
    assert [(x["name"], x["days"]) for x in character(one, base, gm, "alda")["lasting"]] == [("broken collarbone", 42)]

    # Alda reaches level 4, where a fighter's saves improve: Ann chooses extra attack.
    api(one, f"{base}/commands", gm, {"id": "level", "command": {"type": "level_up", "id": "alda"}})
    assert character(one, base, ann, "alda")["offers"] == 1
    chosen = api(two, f"{base}/commands", ann, {"id": "choose", "command": {"type": "choose_improvement", "id": "alda", "option": "extra_attack"}})
    assert chosen.status_code == 200 and chosen.json()["characters"][0]["sheet"]["improvements"] == {"extra_attack": 1}

    # Both replicas fold it to the same bytes; it survives export and import.
    here, there = api(one, base, gm, method="GET").json(), api(two, base, gm, method="GET").json()
    assert here["sha256"] == there["sha256"] and [f["fight"] for f in here["fights"]] == [first, second, third]
    exported = httpx.get(f"{two.url}{base}/export", params={"token": token_of(gm)}, timeout=TIMEOUT)
    copy_id = made["id"] + "again"
    imported = httpx.post(
        f"{one.url}/api/campaigns/import", params={"as": copy_id}, content=exported.content, headers={"content-type": "application/x-ndjson"}, timeout=TIMEOUT
    ).json()
    copy = api(two, f"/api/campaigns/{copy_id}", imported["links"]["gm"], method="GET").json()
    assert copy["characters"] == here["characters"] and copy["day"] == here["day"] == 7 and copy["fights"] == here["fights"]


def attack(goblin: str, target: str) -> dict:
    return {"type": "declare", "actor": goblin, "action": {"type": "attack", "target": target}}
