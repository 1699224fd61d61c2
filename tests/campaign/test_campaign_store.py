"""A campaign's stream on a real Redis: appended, read back, folded to the same bytes;
a retried command keeps its first position; its keys share one Cluster slot."""

import redis.asyncio as aioredis
from campaign_support import ALDA, GM, SYSTEM, event
from redis.crc import key_slot

from fray_table.rules import RULES_VERSION
from fray_table.rules.campaign.commands import CreateCampaign
from fray_table.rules.campaign.events import CampaignEvent, decode_event, encode_event
from fray_table.rules.campaign.reducer import canonical, fold
from fray_table.server.campaign_store import CAMPAIGNS, CampaignStore, cmds_key, events_key, is_campaign_id, new_campaign_id
from fray_table.server.security import links_key


async def test_campaign_stream_round_trips_and_retries_keep_their_position(redis_url):
    client = aioredis.Redis.from_url(redis_url)
    store = CampaignStore(client)
    campaign = new_campaign_id()
    try:
        events = [
            CampaignEvent("create", SYSTEM, CreateCampaign(campaign, "The Keep", "ll-house", RULES_VERSION)),
            event({"type": "add_character", "character": ALDA}),
            event({"type": "pass_time", "days": 7}, GM),
        ]
        positions = [await store.append(campaign, e.id, encode_event(e)) for e in events]
        assert [new for _, new in positions] == [True, True, True]
        again = await store.append(campaign, events[1].id, encode_event(events[1]))
        assert again == (positions[1][0], False)
        stored = await store.read(campaign)
        assert [p for p, _ in stored] == [p for p, _ in positions]
        read_back = [decode_event(payload) for _, payload in stored]
        assert read_back == events
        folded, direct = fold(read_back), fold(events)
        assert folded is not None and direct is not None and canonical(folded) == canonical(direct)
        assert folded.day == 7 and [c.id for c in folded.characters] == ["alda"]
        assert await store.read(campaign, after=positions[1][0]) == stored[2:]
        assert campaign in await store.list()
    finally:
        await client.delete(events_key(campaign), cmds_key(campaign))
        await client.srem(CAMPAIGNS, campaign)
        await client.aclose()


def test_campaign_keys_share_one_slot_and_never_a_fights_id():
    campaign = new_campaign_id()
    assert is_campaign_id(campaign) and not is_campaign_id("campaign-a b") and not is_campaign_id("Xq3")
    slots = {key_slot(k.encode()) for k in (events_key(campaign), cmds_key(campaign), links_key(campaign))}
    assert len(slots) == 1
