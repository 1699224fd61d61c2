"""The campaign on a real server (uvicorn on loopback, the test Redis, real websockets):
create a campaign, add a character, start a fight from it, damage in the fight, the GM
reviews, and the scar lands in the campaign; players see and edit only their own."""

import httpx
from support import TIMEOUT, token_of

ALDA = {
    "id": "alda",
    "owner": "Ann",
    "sheet": {"name": "Alda", "side": "party", "klass": "fighter", "level": 3, "hp": 3, "hp_max": 12, "dex": 13, "armor": "chain mail", "x": 10, "y": 10},
    "gear": {"oil": 2, "coin": 50, "armor_cost": 70},
}
BORS = {"id": "bors", "owner": "Ben", "sheet": {"name": "Bors", "side": "party", "klass": "cleric", "hp": 7, "hp_max": 7}}


def api(server, path: str, link: str, body=None, method: str = "POST") -> httpx.Response:
    if body is None and method != "GET":
        body = {}  # a request that changes something says its body is JSON (server/edge.py)
    return httpx.request(method, f"{server.url}{path}", params={"token": token_of(link)}, json=body, timeout=TIMEOUT)


NDJSON = {"content-type": "application/x-ndjson"}  # a campaign's file, as its export says it is


def campaign_id(link: str) -> str:
    return link.split("/c/", 1)[1].split("?", 1)[0]


async def test_a_fight_from_the_campaign_brings_its_scar_back_on_review(fray_server, join):
    made = httpx.post(f"{fray_server.url}/api/campaigns", json={"name": "The Keep", "characters": [ALDA]}, timeout=TIMEOUT)
    assert made.status_code == 201, made.text
    campaign, gm = made.json()["id"], made.json()["links"]["gm"]
    assert campaign_id(gm) == campaign and set(made.json()["links"]["players"]) == {"Ann"}
    base = f"/api/campaigns/{campaign}"
    added = api(fray_server, f"{base}/commands", gm, {"id": "add-bors", "command": {"type": "add_character", "character": BORS}})
    assert added.status_code == 200, added.text
    assert [c["id"] for c in added.json()["characters"]] == ["alda", "bors"]

    # Ann's link: her character whole, the other by name; she edits her own notes only.
    ann = made.json()["links"]["players"]["Ann"]
    mine = api(fray_server, base, ann, method="GET").json()
    assert [c["id"] for c in mine["characters"]] == ["alda"] and mine["others"] == [{"id": "bors", "name": "Bors", "dead": False}]
    refused = api(fray_server, f"{base}/commands", ann, {"id": "x1", "command": {"type": "edit_own", "id": "bors", "notes": "mine"}})
    assert refused.status_code == 409 and refused.json()["code"] == "campaign/not-your-character"
    assert api(fray_server, f"{base}/commands", ann, {"id": "x2", "command": {"type": "edit_own", "id": "alda", "notes": "hates goblins"}}).status_code == 200

    # A fight of copies: Alda (3 HP, chain mail) against a goblin.
    assert [(m["name"], m["hd"], m["ac"], m["hp"], m["morale"]) for m in added.json()["bestiary"]][0] == (
        "Goblin",
        1,
        13,
        4,
        7,
    )  # the ready goblin (rules/ready.py)
    fight = api(fray_server, f"{base}/fights", gm, {"characters": ["alda"], "bestiary": {"Goblin": 1}})
    assert fight.status_code == 201, fight.text
    fight_id, links = fight.json()["fight"], fight.json()["links"]
    table = await join(fray_server, links["gm"])
    alda = next(c for c in table.view["combatants"] if c["id"] == "alda")
    assert (alda["hp"], alda["ac"]) == (3, 15)  # 000: Chain Mail 15
    goblin = next(c["id"] for c in table.view["combatants"] if c["name"] == "Goblin")
    # surprise 6, 6; the goblin's d20 20 (a critical), crit chart 19 (triple damage, armor damage), d6 2 x 3 = 6;
    # death and dying 15 (broken collarbone), wakes in 2d4 (3, 1), heals in 1d4+6 weeks (d4 1: 7 weeks)
    for command in (
        {"type": "force_rolls", "values": [6, 6, 20, 19, 2, 15, 3, 1, 1]},
        {"type": "start"},
        {"type": "declare", "actor": goblin, "action": {"type": "attack", "target": "alda"}},
        {"type": "advance"},
    ):
        ack = await table.send(command)
        assert ack["type"] == "ack", ack
    early = api(fray_server, f"{base}/fights/{fight_id}/report", gm)
    assert early.status_code == 409 and early.json()["code"] == "campaign/fight-running"
    ack = await table.send({"type": "end"})
    assert ack["type"] == "ack", ack
    await table.until(ack["position"])
    digest = httpx.get(f"{fray_server.url}/api/encounters/{fight_id}/digest", params={"token": token_of(links["gm"])}, timeout=TIMEOUT).json()

    reported = api(fray_server, f"{base}/fights/{fight_id}/report", gm)
    assert reported.status_code == 200, reported.text
    findings = reported.json()["findings"]
    assert sorted((f["kind"], f.get("name", ""), f.get("value", 0), f.get("days", 0)) for f in findings) == [
        ("armor_damage", "", 1, 0),
        ("condition", "broken collarbone", 0, 49),
        ("hp", "", -3, 0),
    ]
    assert {f["fight"] for f in findings} == {fight_id}
    waiting = reported.json()["findings"]
    assert api(fray_server, base, ann, method="GET").json()["findings"] == []  # the review is the GM's
    no = api(fray_server, f"{base}/commands", ann, {"id": "x3", "command": {"type": "review", "finding": "r1", "accept": True}})
    assert no.status_code == 409 and no.json()["code"] == "auth/forbidden"
    before = api(fray_server, base, gm, method="GET").json()
    assert before["characters"][0]["lasting"] == [] and before["characters"][0]["sheet"]["armor_damage"] == 0  # nothing without review
    for f in before["findings"]:
        r = api(fray_server, f"{base}/commands", gm, {"id": f"review-{f['id']}", "command": {"type": "review", "finding": f["id"], "accept": True}})
        assert r.status_code == 200, r.text
    after = r.json()
    scarred = after["characters"][0]
    assert [(x["name"], x["days"], x["fight"]) for x in scarred["lasting"]] == [("broken collarbone", 49, fight_id)]
    assert (scarred["sheet"]["hp"], scarred["sheet"]["armor_damage"], scarred["ac"]) == (0, 1, 14)
    assert {(s["fight"], s["event"]) for s in scarred["story"]} == {(fight_id, waiting[0]["event"])}
    assert after["findings"] == []

    # A scar's moment in the fight's replay, for Ann (her character was there), not for Ben.
    event = scarred["story"][0]["event"]
    moment = httpx.get(f"{fray_server.url}{base}/fights/{fight_id}/replay", params={"token": token_of(ann), "at": event}, timeout=TIMEOUT)
    assert moment.status_code == 303 and f"/e/{fight_id}?token=" in moment.headers["location"] and f"&at={event}" in moment.headers["location"]
    seen_then = httpx.get(
        f"{fray_server.url}/api/encounters/{fight_id}/replay", params={"token": token_of(moment.headers["location"]), "at": event}, timeout=TIMEOUT
    )
    assert seen_then.status_code == 200 and next(c for c in seen_then.json()["view"]["combatants"] if c["id"] == "alda")["hp"] == -3
    ben = api(fray_server, f"{base}/links", gm, {"name": "Ben", "characters": ["bors"]}).json()["link"]
    assert httpx.get(f"{fray_server.url}{base}/fights/{fight_id}/replay", params={"token": token_of(ben)}, timeout=TIMEOUT).status_code == 404
    listed = api(fray_server, f"{base}/links", gm, method="GET").json()["links"]
    bens = next(x["token_id"] for x in listed if x["name"] == "Ben")
    assert api(fray_server, f"{base}/links/{bens}/revoke", gm).json() == {"token_id": bens, "revoked": True}
    gone = api(fray_server, base, ben, method="GET")
    assert gone.status_code == 403 and "revoked" in gone.json()["message"]

    # The fight never reads the campaign: a week of rest changes nothing it folds to.
    api(fray_server, f"{base}/commands", gm, {"id": "rest", "command": {"type": "pass_time", "days": 7}})
    again = httpx.get(f"{fray_server.url}/api/encounters/{fight_id}/digest", params={"token": token_of(links["gm"])}, timeout=TIMEOUT).json()
    assert again["sha256"] == digest["sha256"]

    # Exported and imported under a new id, it folds to the same campaign.
    exported = httpx.get(f"{fray_server.url}{base}/export", params={"token": token_of(gm)}, timeout=TIMEOUT)
    now = api(fray_server, base, gm, method="GET").json()
    assert exported.status_code == 200 and len(exported.text.splitlines()) == 1 + now["seq"]  # the header, then every event
    same = httpx.post(f"{fray_server.url}/api/campaigns/import", content=exported.content, headers=NDJSON, timeout=TIMEOUT)
    assert same.status_code == 409 and same.json()["code"] == "campaign/exists"
    new_id = campaign + "copy"
    imported = httpx.post(f"{fray_server.url}/api/campaigns/import", params={"as": new_id}, content=exported.content, headers=NDJSON, timeout=TIMEOUT)
    assert imported.status_code == 201, imported.text
    copy = api(fray_server, f"/api/campaigns/{new_id}", imported.json()["links"]["gm"], method="GET").json()
    assert copy["characters"] == now["characters"] and copy["day"] == now["day"] == 7 and copy["id"] == new_id


def test_campaign_tokens_open_no_fight_and_bad_commands_are_refused(fray_server):
    made = httpx.post(f"{fray_server.url}/api/campaigns", json={"characters": [BORS]}, timeout=TIMEOUT).json()
    gm, campaign = made["links"]["gm"], made["id"]
    r = httpx.get(f"{fray_server.url}/api/encounters/{campaign}/digest", params={"token": token_of(gm)}, timeout=TIMEOUT)
    assert r.status_code == 404
    r = api(fray_server, f"/api/campaigns/{campaign}/commands", gm, {"id": "s", "command": {"type": "start_fight", "fight": "f", "characters": ["bors"]}})
    assert r.status_code == 400 and r.json()["code"] == "request/invalid"
    r = api(fray_server, f"/api/campaigns/{campaign}/commands", gm, {"id": "p", "command": {"type": "pass_time", "days": 0}})
    assert r.status_code == 409 and r.json()["code"] == "campaign/bad-days"
    assert (
        api(fray_server, f"/api/campaigns/{campaign}", gm, method="GET").json()["seq"] == 2 + 12
    )  # create, Bors, the 12 ready monsters: nothing more was stored
    r = httpx.get(f"{fray_server.url}/api/campaigns/{campaign}", params={"token": "a.b"}, timeout=TIMEOUT)
    assert r.status_code == 403 and r.json()["code"] == "auth/bad-token"


def test_a_campaign_folds_to_the_same_bytes_on_a_second_replica(fray_replicas):
    first, second = fray_replicas
    made = httpx.post(f"{first.url}/api/campaigns", json={"characters": [ALDA, BORS]}, timeout=TIMEOUT).json()
    gm, base = made["links"]["gm"], f"/api/campaigns/{made['id']}"
    for i, command in enumerate(
        ({"type": "level_up", "id": "alda"}, {"type": "pass_time", "days": 3}, {"type": "choose_improvement", "id": "alda", "option": "cleave"})
    ):
        assert api(first if i % 2 else second, f"{base}/commands", gm, {"id": f"c{i}", "command": command}).status_code == 200
    one, two = api(first, base, gm, method="GET").json(), api(second, base, gm, method="GET").json()
    assert one["sha256"] == two["sha256"] and one["position"] == two["position"]
    assert one["characters"][0]["sheet"]["improvements"] == {"cleave": 1} and one["day"] == 3  # 000: a fighter's saves improve at level 4


def test_a_foundry_ose_actor_imports_as_a_character(fray_server):
    import pathlib

    made = httpx.post(f"{fray_server.url}/api/campaigns", json={}, timeout=TIMEOUT).json()
    gm, base = made["links"]["gm"], f"/api/campaigns/{made['id']}"
    actor = (pathlib.Path(__file__).parent / "foundry_ose_actor.json").read_bytes()
    r = httpx.post(
        f"{fray_server.url}{base}/import/foundry",
        params={"token": token_of(gm), "owner": "Hal"},
        content=actor,
        headers={"content-type": "application/json"},
        timeout=TIMEOUT,
    )
    assert r.status_code == 201, r.text
    hilda = next(c for c in r.json()["characters"] if c["id"] == r.json()["character"])
    assert (hilda["sheet"]["name"], hilda["owner"], hilda["ac"], hilda["gear"]["oil"]) == ("Hilda the Bold", "Hal", 16, 3)  # 000: chain 15 + shield 1
    assert "system.saves" in r.json()["left_out"]
    bad = httpx.post(
        f"{fray_server.url}{base}/import/foundry",
        params={"token": token_of(gm)},
        content=b'{"nope": 1}',
        headers={"content-type": "application/json"},
        timeout=TIMEOUT,
    )
    assert bad.status_code == 400 and bad.json()["code"] == "campaign/bad-file"


async def test_a_campaign_of_newer_rules_is_not_folded_here(fray_server, redis_url):
    import redis.asyncio as aioredis

    from fray_table.rules.campaign.commands import CreateCampaign
    from fray_table.rules.campaign.events import CampaignEvent, encode_event
    from fray_table.rules.events import Actor
    from fray_table.server.campaign_store import CampaignStore, new_campaign_id
    from fray_table.server.security import links_key
    from fray_table.server.tokens import Signer, _encode

    signer = Signer(b"test-secret-0123456789abcdef")  # the test servers' FRAY_SECRET (tests/support.py)
    client = aioredis.Redis.from_url(redis_url)
    try:  # a campaign made by a newer release, under the same signed links, its GM's link listed as a server lists it
        newer = new_campaign_id()
        event = CampaignEvent("create", Actor("system"), CreateCampaign(newer, "Later", "ll-house", 99))
        await CampaignStore(client).append(newer, "create", encode_event(event))
        claims = signer.claims(newer, "gm")
        await client.hset(links_key(newer), claims.i, _encode(claims))
    finally:
        await client.aclose()
    token = signer.sign(claims)
    r = httpx.get(f"{fray_server.url}/api/campaigns/{newer}", params={"token": token}, timeout=TIMEOUT)
    assert r.status_code == 409 and r.json()["code"] == "rules/unknown-version" and "99" in r.json()["message"]
