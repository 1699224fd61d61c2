"""A campaign on a real local Redis Cluster (three masters): created, changed and read
back through a server, every key of it in the one slot its id names."""

import httpx
import pytest
import redis.asyncio as aioredis
from support import TIMEOUT, FrayServer
from test_campaign_server import ALDA, api

pytestmark = [pytest.mark.redis, pytest.mark.cluster]


async def test_cluster_a_campaigns_keys_are_in_one_slot(redis_cluster, tmp_path):
    server = FrayServer(redis_cluster.url, tmp_path)
    try:
        made = httpx.post(f"{server.url}/api/campaigns", json={"characters": [ALDA]}, timeout=TIMEOUT).json()
        gm, campaign = made["links"]["gm"], made["id"]
        r = api(server, f"/api/campaigns/{campaign}/commands", gm, {"id": "rest", "command": {"type": "pass_time", "days": 7}})
        assert r.status_code == 200, r.text
        assert r.json()["day"] == 7 and [c["id"] for c in r.json()["characters"]] == ["alda"]
    finally:
        server.stop()
    found: dict[str, int] = {}
    for port in redis_cluster.ports:
        node = aioredis.Redis(host="127.0.0.1", port=port)
        try:
            async for key in node.scan_iter(match=f"*{campaign}*", count=1000):
                found[key.decode()] = port
        finally:
            await node.aclose()
    assert {key.rsplit(":", 1)[1] for key in found} == {"campaign", "campaign-cmds", "links"}, found
    slots = {redis_cluster.client(redis_cluster.ports[0]).cluster("keyslot", key) for key in found}
    assert slots == {redis_cluster.slot_of(campaign)} and len(set(found.values())) == 1
