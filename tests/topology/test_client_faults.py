"""fray_table.client when things fail for real: Redis killed under a command (sent
again with the same id until stored, once), and a replica killed behind HAProxy
(the tables carry on through the other, nothing acknowledged lost)."""

import asyncio
import signal
import urllib.parse

import pytest
from support import TIMEOUT, FrayServer, stream
from test_balancer import balancer  # noqa: F401  (the fixture: HAProxy in front of fray_replicas)

from fray_table.client import join
from fray_table.rules.actions import Attack, Hold
from fray_table.rules.commands import Declare, ForceRolls, Say, Start
from fray_table.server.embedded import EmbeddedRedis

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 40, "hp_max": 40, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 40, "hp_max": 40, "dex": 9, "x": 15, "y": 10},
    ]
}


def through(lb, link: str) -> str:
    """The same link, to the balancer's address."""
    parts = urllib.parse.urlsplit(link)
    return urllib.parse.urlunsplit(parts._replace(netloc=f"127.0.0.1:{lb.port}"))


async def test_client_sends_again_with_the_same_id_until_redis_is_back(tmp_path):
    data = tmp_path / "redis"
    redis = EmbeddedRedis(data, appendfsync="always")
    url = redis.start()
    server = FrayServer(url, tmp_path)
    try:
        made = server.create(FIGHT)
        async with join(made["links"]["gm"], timeout=30) as gm:
            await gm.send(Start())
            redis._process.send_signal(signal.SIGKILL)
            redis._process.wait(10)
            redis._process = None
            sending = asyncio.create_task(gm.send(Say(text="Hold fast"), id="while-down"))
            await gm.wait(lambda t: t.resent >= 1, 30)  # refused by a store error, and sent again
            assert not sending.done()
            redis = EmbeddedRedis(data, appendfsync="always")
            redis.start()
            ack = await asyncio.wait_for(sending, 30)
            await gm.until(ack.position, TIMEOUT)
            assert [line.text for line in gm.log].count("GM: Hold fast") == 1
        events = await stream(url, made["id"])
        assert [pos for pos, e in events if e.id.endswith(".while-down")] == [ack.position]
    finally:
        server.stop()
        redis.stop()


@pytest.mark.balancer
async def test_client_carries_on_when_its_replica_is_killed_behind_the_balancer(balancer, fray_replicas, redis_url):  # noqa: F811
    made = fray_replicas[0].create(FIGHT)
    gm = await join(through(balancer, made["links"]["gm"]), reconnect_for=30).open()
    player = await join(through(balancer, made["links"]["players"]["alda"]), reconnect_for=30).open()
    try:
        await gm.send(ForceRolls(values=[5, 6]))
        await gm.send(Start())
        await gm.send(Declare(actor="gob", action=Attack(target="alda")))
        await player.until(gm.position, TIMEOUT)

        # One replica dies with the player's command in flight; both tables go on through the other.
        in_flight = asyncio.create_task(player.send(Declare(actor="alda", action=Hold()), id="in-flight"))
        fray_replicas[0].proc.send_signal(signal.SIGKILL)
        fray_replicas[0].proc.wait(10)
        acked = [(await asyncio.wait_for(in_flight, 40)).position]
        acked.append((await gm.send(Say(text="Onward"))).position)
        for table in (gm, player):
            await table.until(acked[-1], 40)
        assert gm.welcomes + player.welcomes >= 3  # at least one of them was on the dead replica
        events = await stream(redis_url, made["id"])
        assert set(acked) <= {pos for pos, _ in events}
        assert sum(e.id.endswith(".in-flight") for _, e in events) == 1
        for table, link in ((gm, made["links"]["gm"]), (player, made["links"]["players"]["alda"])):
            async with join(through(balancer, link), reconnect_for=30) as fresh:
                assert (fresh.view, fresh.log) == (table.view, table.log)
        assert "Alda declares: hold." in [line.text for line in player.log]
    finally:
        await gm.close()
        await player.close()
