"""The deployment's topology with plain processes: HAProxy, from the same
deploy/haproxy.cfg as compose (its addresses from the environment, loopback
only), in front of two `fray serve` replicas on one Redis. A GM and a player
land on different replicas through it, play a round, the player's replica is
killed, and both resume through the balancer with nothing acknowledged lost."""

import asyncio
import hashlib
import json
import os
import shutil
import signal
import subprocess
import time

import httpx
import pytest
import websockets
from support import ROOT, FrayServer, Table, digest, free_port, stop_process, stream

from fray_table.rules.reducer import canonical, fold

pytestmark = [pytest.mark.redis, pytest.mark.balancer]

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 40, "hp_max": 40, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 40, "hp_max": 40, "dex": 9, "x": 15, "y": 10},
    ]
}


class Balancer:
    """HAProxy on a loopback port; `ws_url` as a FrayServer's, so support.Table joins through it."""

    ws_url = FrayServer.ws_url

    def __init__(self, replicas: tuple[FrayServer, FrayServer], log_dir) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.names = {"fray-1": replicas[0], "fray-2": replicas[1]}
        env = {**os.environ, "FRAY_LB_BIND": f"127.0.0.1:{self.port}", **{f"FRAY_REPLICA_{i}": f"127.0.0.1:{r.port}" for i, r in enumerate(replicas, 1)}}
        self.log_path = log_dir / "haproxy.log"
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [shutil.which("haproxy"), "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")], env=env, stdout=log, stderr=subprocess.STDOUT
            )
        try:
            self.wait_for({"fray-1", "fray-2"})
        except BaseException:
            self.stop()
            raise

    def wait_for(self, names: set[str], limit: float = 20) -> None:
        """Until requests through the balancer have reached exactly these replicas (bounded)."""
        seen: list[str] = []
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log_path.read_text()
            try:
                response = httpx.get(f"{self.url}/healthz", timeout=2)
                if response.status_code == 200:
                    seen = [*seen[-5:], response.headers["x-fray-replica"]]
                    if set(seen) == names and len(seen) >= 2 * len(names):
                        return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"the balancer reached {seen}, not {names}: {self.log_path.read_text()}")

    def stop(self) -> None:
        stop_process(self.proc)


@pytest.fixture
def balancer(fray_replicas, tmp_path):
    if shutil.which("haproxy") is None:
        message = "haproxy not found: install Debian's haproxy package for the balancer test"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    lb = Balancer(fray_replicas, tmp_path)
    yield lb
    lb.stop()


def replica_of(table: Table) -> str:
    return table.ws.response.headers["X-Fray-Replica"]


async def join(lb: Balancer, link: str, after: str | None = None) -> Table:
    """Join through the balancer; a connection that lands on a dying replica is tried again (bounded)."""
    for attempt in range(20):
        try:
            return await Table.join(lb, link, after)
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as e:  # refused, reset, 502/503 while it notices
            if attempt == 19:
                raise AssertionError(f"could not join through the balancer: {e!r}") from e
            await asyncio.sleep(0.25)
    raise AssertionError("unreachable")


async def test_balancer_spreads_a_table_and_survives_a_replica_killed(balancer, fray_replicas, redis_url):
    made = fray_replicas[0].create(FIGHT)
    opened: list[Table] = []
    try:
        gm = await join(balancer, made["links"]["gm"])
        opened.append(gm)
        player = None
        for _ in range(4):  # round robin: the next socket lands on the other replica
            table = await join(balancer, made["links"]["players"]["alda"])
            opened.append(table)
            if replica_of(table) != replica_of(gm):
                player = table
                break
        assert player is not None, [replica_of(t) for t in opened]
        assert {replica_of(gm), replica_of(player)} == {"fray-1", "fray-2"}

        acked: list[str] = []

        async def send(table: Table, command: dict, command_id: str) -> None:
            if acked:
                await table.until(acked[-1])  # its replica has folded the command before
            reply = await table.send(command, command_id=command_id)
            assert reply["type"] == "ack", reply
            acked.append(reply["position"])

        await send(gm, {"type": "force_rolls", "values": [5, 6]}, "r1-force")
        await send(gm, {"type": "start"}, "r1-start")
        await send(gm, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}, "r1-gob")
        await send(player, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}, "r1-alda")
        await send(gm, {"type": "force_rolls", "values": [15, 3, 2]}, "r1-dice")
        await send(gm, {"type": "advance"}, "r1-advance")
        for table in (gm, player):
            await table.until(acked[-1])
        assert gm.view["round"] == player.view["round"] == 2

        # The player's replica dies with a command in flight; the balancer sends every new socket to the other.
        dead = balancer.names[replica_of(player)]
        in_flight = {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}
        await player.ws.send(json.dumps({"type": "command", "id": "in-flight", "command": in_flight}))
        dead.proc.send_signal(signal.SIGKILL)
        dead.proc.wait(10)
        alive = next(name for name, r in balancer.names.items() if r is not dead)
        resumed_player = await join(balancer, made["links"]["players"]["alda"], after=player.position)
        opened.append(resumed_player)
        assert replica_of(resumed_player) == alive
        await send(resumed_player, in_flight, "in-flight")  # resent with the same id: applied once
        await send(gm, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}}, "r2-gob")
        for table in (gm, resumed_player):
            await table.until(acked[-1])

        events = await stream(redis_url, made["id"])
        positions = [pos for pos, _ in events]
        assert set(acked) <= set(positions)  # every acknowledged command is in the stream
        assert sum(e.id.endswith(".in-flight") for _, e in events) == 1
        from_scratch = hashlib.sha256(canonical(fold(e for _, e in events))).hexdigest()
        assert digest(balancer.names[alive], made)["sha256"] == from_scratch
        fresh_gm = await join(balancer, made["links"]["gm"])
        fresh_player = await join(balancer, made["links"]["players"]["alda"])
        opened += [fresh_gm, fresh_player]
        assert fresh_gm.position == gm.position == resumed_player.position == positions[-1]
        assert gm.view == fresh_gm.view  # the GM, whose replica lived, and one joining now agree
        assert resumed_player.view == fresh_player.view  # as do the resumed player and a new one
    finally:
        for table in opened:
            await table.close()
