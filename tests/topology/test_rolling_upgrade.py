"""Issue 21, 'Mixed versions in one deployment': two `fray serve` on one Redis behind
HAProxy (deploy/haproxy.cfg), one of them limited to the rules version before today's
(`FRAY_RULES_VERSION`, as the release before would run). A fight created on the newer
one is only ever folded by it (the older refuses its sockets with 4012, its HTTP routes
with 409); a fight of the older version is folded byte-identically by both; a GM who
moves a fight on to today's rules hands its sockets on the older replica to the newer
one; nothing acknowledged is lost."""

import hashlib

import httpx
import pytest
import websockets
from support import FrayServer, Table, digest, stream, token_of
from test_balancer import FIGHT, Balancer, replica_of

from fray_table.rules import FIRST_KEPT_VERSION, RULES_VERSION
from fray_table.rules.reducer import canonical, fold
from fray_table.server.hub import UNKNOWN_VERSION_CLOSE

pytestmark = [pytest.mark.redis, pytest.mark.balancer]
OLDER = RULES_VERSION - 1
assert OLDER >= FIRST_KEPT_VERSION


@pytest.fixture
def mixed(redis_url, tmp_path_factory, request):
    """(newer, older) replicas on one Redis, and HAProxy in front of them."""
    logs = tmp_path_factory.mktemp("mixed")
    newer = FrayServer(redis_url, logs)
    older = FrayServer(redis_url, logs, env={"FRAY_RULES_VERSION": str(OLDER)})
    lb = request.getfixturevalue("balancer_for")((newer, older), logs)
    yield newer, older, lb
    lb.stop()
    newer.stop()
    older.stop()


@pytest.fixture
def balancer_for():
    import os
    import shutil

    if shutil.which("haproxy") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("haproxy not found: install Debian's haproxy package")
        pytest.skip("haproxy not found: install Debian's haproxy package for the balancer test")
    return Balancer


async def refused(server, link: str) -> tuple[dict, int]:
    """Open a socket straight to `server`; the error it is sent and the close code."""
    async with websockets.connect(server.ws_url(link), open_timeout=10) as ws:
        import json

        message = json.loads(await ws.recv())
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    return message, closed.value.rcvd.code


async def join_through(lb: Balancer, link: str, tries: int = 6) -> tuple[Table, int]:
    """Join through the balancer as the browser client does: a socket closed with 4012 is
    tried again (round robin: the next lands on the other replica). (table, sockets handed off)."""
    handed_off = 0
    for _ in range(tries):
        try:
            return await Table.join(lb, link), handed_off
        except AssertionError:  # the first message was not a welcome: the refusal, then the close
            handed_off += 1
        except websockets.ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == UNKNOWN_VERSION_CLOSE, e
            handed_off += 1
    raise AssertionError(f"no replica took the socket in {tries} tries")


def log_status(server: FrayServer, made: dict) -> int:
    return httpx.get(f"{server.url}/api/encounters/{made['id']}/log", params={"token": token_of(made["links"]["gm"])}, timeout=10).status_code


async def test_a_newer_fight_is_folded_only_by_the_newer_replica(mixed, redis_url):
    newer, older, lb = mixed
    made = newer.create(FIGHT)
    assert (await stream(redis_url, made["id"]))[0][1].command.rules_version == RULES_VERSION
    message, code = await refused(older, made["links"]["gm"])
    assert (message["code"], code) == ("rules/unknown-version", UNKNOWN_VERSION_CLOSE)
    assert f"rules version {RULES_VERSION}" in message["message"] and f"up to {OLDER}" in message["message"]
    assert log_status(older, made) == 409 and log_status(newer, made) == 200
    assert digest(older, made)["code"] == "rules/unknown-version"
    tables = []
    try:
        for _ in range(4):  # round robin: every other socket is first sent to the older replica
            table, _ = await join_through(lb, made["links"]["players"]["alda"])
            tables.append(table)
            assert replica_of(table) == "fray-1"  # the newer
        metrics = httpx.get(f"{older.url}/metrics", timeout=10).text
        assert any(line.startswith("fray_handed_off_total ") and float(line.split()[1]) >= 1 for line in metrics.splitlines())
    finally:
        for table in tables:
            await table.close()


async def test_an_older_fight_folds_the_same_on_both_then_moves_on(mixed, redis_url, join):
    newer, older, lb = mixed
    made = older.create(FIGHT)
    assert (await stream(redis_url, made["id"]))[0][1].command.rules_version == OLDER
    gm = await join(newer, made["links"]["gm"])
    player = await join(older, made["links"]["players"]["alda"])
    acked = []
    for table, command in (
        (gm, {"type": "force_rolls", "values": [5, 6]}),
        (gm, {"type": "start"}),
        (gm, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}),
        (player, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}),
        (gm, {"type": "force_rolls", "values": [15, 3, 2]}),
        (gm, {"type": "advance"}),
    ):
        if acked:
            await table.until(acked[-1])
        reply = await table.send(command)
        assert reply["type"] == "ack", reply
        acked.append(reply["position"])
    await player.until(acked[-1])
    await gm.until(acked[-1])
    from_scratch = hashlib.sha256(canonical(fold(e for _, e in await stream(redis_url, made["id"])))).hexdigest()
    assert digest(newer, made)["sha256"] == digest(older, made)["sha256"] == from_scratch
    assert player.view["round"] == gm.view["round"] == 2
    assert [c["hp"] for c in player.view["combatants"] if c["id"] == "gob"] == [c["hp"] for c in gm.view["combatants"] if c["id"] == "gob"] == [37]

    # The GM moves the fight on to today's rules on the newer replica: the older hands its socket on.
    reply = await gm.send({"type": "upgrade_rules"})
    assert reply["type"] == "ack", reply
    acked.append(reply["position"])
    for _ in range(20):  # the player's update up to the event before, then the close
        try:
            await player.next()
        except websockets.ConnectionClosed as e:
            assert e.rcvd is not None and e.rcvd.code == UNKNOWN_VERSION_CLOSE
            break
    else:
        raise AssertionError("the older replica kept the socket of a fight moved on to newer rules")
    await gm.until(acked[-1])
    assert any(f"rules version {RULES_VERSION}" in line["text"] for line in gm.log)
    assert log_status(older, made) == 409
    resumed, _ = await join_through(lb, made["links"]["players"]["alda"])
    try:
        assert replica_of(resumed) == "fray-1" and resumed.position == acked[-1]
    finally:
        await resumed.close()
    events = await stream(redis_url, made["id"])
    assert set(acked) <= {p for p, _ in events}  # nothing acknowledged lost


async def test_an_event_of_a_newer_release_hands_the_fight_on(fast_server, redis_url):
    """A newer release may store a command or field this code lacks: a replica that cannot
    read an event folds nothing from it on and hands the fight on (4012), as for a version."""
    import msgspec
    import redis.asyncio as aioredis

    from fray_table.server.store import events_key

    made = fast_server.create(FIGHT)
    future = msgspec.msgpack.encode({"id": "f1", "by": {"role": "gm", "name": "GM"}, "command": {"type": "from_a_newer_release"}, "at": 0})
    client = aioredis.Redis.from_url(redis_url)
    try:
        await client.xadd(events_key(made["id"]), {"e": future})
    finally:
        await client.aclose()
    message, code = await refused(fast_server, made["links"]["gm"])
    assert (message["code"], code) == ("rules/unknown-version", UNKNOWN_VERSION_CLOSE)
    assert "an event this server cannot read" in message["message"]
    assert log_status(fast_server, made) == 409
