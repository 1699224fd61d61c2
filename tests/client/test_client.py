"""fray_table.client against real `fray serve` processes: a whole fight played by a GM
and a player through the library, the server restarted in the middle of it."""

import asyncio

import httpx
import pytest
from support import TIMEOUT, FrayServer, token_of

from fray_table.client import Closed, Refused, Table, join, parse
from fray_table.rules.actions import Attack, Recover
from fray_table.rules.commands import Advance, Answer, Declare, Say, Start

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 12, "hp": 3, "hp_max": 3, "attack_bonus": 2, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 12, "hp": 3, "hp_max": 3, "dex": 9, "x": 15, "y": 10, "hidden": True},
    ]
}


def server_log(server: FrayServer, made: dict, link: str) -> list[str]:
    response = httpx.get(f"{server.url}/api/encounters/{made['id']}/log", params={"token": token_of(link)}, timeout=TIMEOUT)
    return [line["text"] for line in response.json()]


async def attack(table: Table, actor: str, target: str) -> None:
    """Declare an attack; with the weapon dropped (a fumble of the unforced dice), pick it up instead."""
    try:
        await table.send(Declare(actor=actor, action=Attack(target=target)))
    except Refused as refused:
        if refused.code != "melee/weapon-unusable":
            raise
        await table.send(Declare(actor=actor, action=Recover()))


async def play_round(gm: Table, player: Table) -> None:
    """Both declare an attack, the GM advances and answers any prompt; the round's end awaited."""
    at = gm.view.round
    if "alda" in player.view.awaited:  # not when surprised
        await attack(player, "alda", "gob")
    if "gob" in gm.view.awaited:
        await attack(gm, "gob", "alda")
    await gm.send(Advance())
    for _ in range(10):  # a prompt or two at most
        await gm.wait(lambda t: t.view.round > at or t.view.awaiting is not None or t.view.status == "ended", TIMEOUT)
        if gm.view.awaiting is None:
            return
        await gm.send(Answer(awaiting=gm.view.awaiting.id, choice=gm.view.awaiting.options[0]))
    raise AssertionError("the round never ended")


def test_link_parse_names_what_is_wrong():
    link = parse("https://table.example/fray/e/Xk2?token=abc.def")
    assert (link.base, link.encounter, link.token) == ("wss://table.example/fray", "Xk2", "abc.def")
    assert link.socket_url("1-0") == "wss://table.example/fray/ws/encounters/Xk2?token=abc.def&after=1-0"
    for bad, words in (("ftp://x/e/1?token=a", "http"), ("http://x/p/1?token=a", "/e/"), ("http://x/e/1", "token")):
        with pytest.raises(ValueError, match=words):
            parse(bad)


async def test_client_plays_a_whole_fight_through_a_server_restart(redis_url, tmp_path):
    server = FrayServer(redis_url, tmp_path)
    tables: list[Table] = []
    try:
        made = server.create(FIGHT)
        gm = await join(made["links"]["gm"]).open()
        player = await join(made["links"]["players"]["alda"]).open()
        spectator = await join(made["links"]["spectator"]).open()
        tables += [gm, player, spectator]
        assert (gm.viewer.role, player.viewer.role, player.viewer.combatants, spectator.viewer.role) == ("gm", "player", ("alda",), "spectator")
        assert [c.hp for c in player.view.combatants] == [3, None]  # the goblin's figures are hidden from the table

        start = await gm.send(Start())
        assert start.duplicate is False
        again = await gm.send(Start(), id=start.id)  # the same id: applied once, the original position
        assert (again.position, again.duplicate) == (start.position, True)
        with pytest.raises(Refused) as refused:
            await player.send(Declare(actor="gob", action=Attack(target="alda")))
        assert refused.value.code == "declare/not-your-combatant"
        await player.send(Say(text="For the king!"))
        await play_round(gm, player)
        await spectator.until(gm.position, TIMEOUT)
        assert spectator.view.round == gm.view.round == 2

        # The server goes away mid-fight; a command sent meanwhile waits, and goes once it is back.
        server.stop()
        waiting = asyncio.create_task(player.send(Say(text="Still here?")))
        await asyncio.sleep(0.5)
        assert not waiting.done()
        server = FrayServer(redis_url, tmp_path, port=server.port)
        said = await asyncio.wait_for(waiting, 30)
        for table in tables:
            await table.until(said.position, 30)
            assert table.welcomes == 2

        for _ in range(60):
            if gm.view.status == "ended" or any(c.down for c in gm.view.combatants):
                break
            await play_round(gm, player)
        assert any(c.down for c in gm.view.combatants)
        for table in tables:
            await table.until(gm.position, TIMEOUT)

        # What each kept from its welcomes and patches is what a fresh join sees, and its log the server's.
        for table, link in zip(tables, (made["links"]["gm"], made["links"]["players"]["alda"], made["links"]["spectator"])):
            async with join(link) as fresh:
                assert fresh.view == table.view
                assert fresh.log == table.log
            assert [line.text for line in table.log] == server_log(server, made, link)
        texts = [line.text for line in player.log]
        assert texts.count("alda: Still here?") == 1 and "alda: For the king!" in texts  # the link's name
    finally:
        for table in tables:
            await table.close()
        server.stop()


async def test_client_closed_for_good_by_a_revoked_link(fray_server):
    made = fray_server.create(FIGHT)
    gm_token = token_of(made["links"]["gm"])
    issued = httpx.post(f"{fray_server.url}/api/encounters/{made['id']}/links", params={"token": gm_token}, json={"role": "player", "combatants": ["alda"]})
    link = issued.json()
    table = await join(link["link"]).open()
    revoked = httpx.post(f"{fray_server.url}/api/encounters/{made['id']}/links/{link['token_id']}/revoke", params={"token": gm_token}, json={})
    assert revoked.status_code == 200
    with pytest.raises(Closed) as closed:
        await table.wait(lambda t: False, TIMEOUT)
    assert closed.value.code == "auth/revoked"
    with pytest.raises(Closed):
        await table.send(Say(text="hello?"))
    with pytest.raises(Closed) as refused:
        await join(link["link"]).open()
    assert refused.value.code == "auth/bad-token"
