"""Monsters that play themselves (fray_table.client.bot), against a real `fray serve`:
a bot on a player link declares for the goblins as soon as declarations open, marked
in the log; the GM changes one and the bot leaves it; the GM takes the side back by
revoking the link; and the same bot from the command line (`fray bot`)."""

import asyncio
import subprocess
import sys

import httpx
import pytest
from support import ROOT, TIMEOUT, token_of

from fray_table.client import join
from fray_table.client.bot import Bot, Plan, label, play
from fray_table.rules.actions import Hold
from fray_table.rules.commands import Advance, Answer, Declare, End, ForceRolls, Start

pytestmark = pytest.mark.redis

GOBLINS = ["gob1", "gob2", "gob3", "gob4"]
NO_SURPRISE = ForceRolls(values=[6, 6], sides=6)  # both sides' surprise d6s


def player_link(server, made: dict, combatants: list[str], name: str) -> dict:
    response = httpx.post(
        f"{server.url}/api/encounters/{made['id']}/links",
        params={"token": token_of(made["links"]["gm"])},
        json={"role": "player", "combatants": combatants, "name": name},
        timeout=TIMEOUT,
    )
    assert response.status_code == 201, response.text
    return response.json()


def tactic_lines(table) -> list[str]:
    return [line.text for line in table.log if line.kind == "declare" and "(tactics: " in line.text]


async def eventually(ready, seconds: float = TIMEOUT) -> None:
    """Until `ready()` (the bot's own bookkeeping, after its ack), polled at most `seconds`."""
    for _ in range(int(seconds * 20)):
        if ready():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never ready")


def test_label_names_the_plan():
    assert label(Plan()) == "nearest"
    assert label(Plan(tactic="weakest", flee_at=0.5, options=True)) == "weakest, flee at 50%, attack options"


async def test_bot_declares_for_goblins_the_gm_overrides_one_then_takes_them_back(fray_server):
    made = fray_server.create()  # the demo: three adventurers, four hidden goblins
    link = player_link(fray_server, made, GOBLINS, "goblin tactics")
    gm = await join(made["links"]["gm"]).open()
    table = await join(link["link"]).open()
    bot = Bot(table, Plan(tactic="nearest"))
    playing = asyncio.create_task(bot.run(60))
    try:
        assert [c.hp for c in table.view.combatants if c.side == "goblins"] == [None] * 4  # it plays fair: hidden figures unseen
        await gm.send(NO_SURPRISE)
        await gm.send(Start())
        await gm.wait(lambda t: set(GOBLINS) <= {d.actor for d in t.view.declarations}, TIMEOUT)
        lines = tactic_lines(gm)
        assert len(lines) == 4 and all(line.startswith("Goblin ") and " (tactics: nearest) declares: " in line for line in lines), lines
        await eventually(lambda: {actor for _, actor, _ in bot.declared} == set(GOBLINS))
        assert not [line for line in gm.log if line.kind == "rejected"]

        # The GM changes one; the bot leaves it as the GM made it.
        await gm.send(Declare(actor="gob1", action=Hold()))
        seen = gm.position
        await asyncio.sleep(0.5)
        assert gm.position == seen  # nothing declared after the GM's change
        assert next(d for d in gm.view.declarations if d.actor == "gob1").type == "hold"
        assert [line.text for line in gm.log if line.kind == "declare"][-1] == "Goblin 1 declares: hold."

        await gm.send(Advance())
        await gm.wait(lambda t: t.view.round == 2 and t.view.phase == "declaration" and t.view.awaiting is None, TIMEOUT)
        standing = {c.id for c in gm.view.combatants if c.side == "goblins" and not c.down}
        await gm.wait(lambda t: standing <= {d.actor for d in t.view.declarations}, TIMEOUT)
        await eventually(lambda: {actor for round_, actor, _ in bot.declared if round_ == 2} == standing)

        # The GM takes the goblins back: their link revoked, the bot stops, round 3 is the GM's.
        revoked = httpx.post(
            f"{fray_server.url}/api/encounters/{made['id']}/links/{link['token_id']}/revoke", params={"token": token_of(made["links"]["gm"])}, json={}
        )
        assert revoked.status_code == 200
        assert await asyncio.wait_for(playing, TIMEOUT) == "auth/revoked"
        before = len(tactic_lines(gm))
        await gm.send(Advance())
        await gm.wait(lambda t: t.view.round == 3 or t.view.status == "ended", TIMEOUT)
        await asyncio.sleep(0.5)
        assert len(tactic_lines(gm)) == before
        assert not [d for d in gm.view.declarations if d.actor in GOBLINS]
    finally:
        playing.cancel()
        await table.close()
        await gm.close()


async def test_bot_on_a_gm_link_plays_the_side_it_is_given(fray_server):
    made = fray_server.create()
    async with join(made["links"]["gm"]) as gm:
        playing = asyncio.create_task(play(made["links"]["gm"], Plan(tactic="weakest"), side="goblins", seconds=30))
        await gm.send(NO_SURPRISE)
        await gm.send(Start())
        await gm.wait(lambda t: set(GOBLINS) <= {d.actor for d in t.view.declarations}, TIMEOUT)
        assert not [d for d in gm.view.declarations if d.actor in ("alda", "bran", "cora")]
        assert all("(tactics: weakest)" in line for line in tactic_lines(gm)) and len(tactic_lines(gm)) == 4
        await gm.send(End())
        assert await asyncio.wait_for(playing, TIMEOUT) == "ended"
    assert await play(made["links"]["gm"], Plan(), seconds=5) == "bot/choose"


async def test_fray_bot_from_the_command_line(fray_server):
    made = fray_server.create()
    link = player_link(fray_server, made, GOBLINS, "goblins")
    bot = subprocess.Popen(
        [sys.executable, "-m", "fray_table.server.cli", "bot", link["link"], "--tactic", "focus"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        async with join(made["links"]["gm"]) as gm:
            await gm.send(NO_SURPRISE)
            await gm.send(Start())
            await gm.wait(lambda t: set(GOBLINS) <= {d.actor for d in t.view.declarations}, 20)
            lines = tactic_lines(gm)
            assert len(lines) == 4 and all("(tactics: focus) declares: " in line for line in lines), lines
            await gm.send(End())
        out, _ = await asyncio.to_thread(bot.communicate, timeout=20)
        assert bot.returncode == 0, out
        assert out.splitlines()[-1] == "bot stopped: the fight has ended"
        assert sorted(line.partition(":")[0] for line in out.splitlines()[:-1]) == GOBLINS
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(5)


async def test_gm_hands_the_goblins_to_a_tactic_on_the_server_and_takes_them_back(fray_server):
    made = fray_server.create()
    gm_token = token_of(made["links"]["gm"])
    tactics = f"{fray_server.url}/api/encounters/{made['id']}/tactics"
    bad = httpx.post(tactics, params={"token": gm_token}, json={"side": "goblins", "tactic": "bravest"})
    assert (bad.status_code, bad.json()["code"]) == (400, "request/invalid") and "bravest" in bad.json()["message"]
    player = httpx.post(tactics, params={"token": token_of(made["links"]["players"]["alda"])}, json={"side": "goblins"})
    assert (player.status_code, player.json()["code"]) == (403, "auth/forbidden")
    handed = httpx.post(tactics, params={"token": gm_token}, json={"side": "goblins", "tactic": "weakest", "flee_at": 0.25})
    assert handed.status_code == 201, handed.text
    assert (handed.json()["combatants"], handed.json()["tactic"]) == (GOBLINS, "weakest, flee at 25%")
    listed = httpx.get(tactics, params={"token": gm_token}).json()
    assert listed["tactics"] == ["nearest", "weakest", "focus"]
    assert [(h["token_id"], h["name"], h["here"]) for h in listed["handovers"]] == [(handed.json()["token_id"], "tactics: weakest, flee at 25%", True)]
    async with join(made["links"]["gm"]) as gm:
        await gm.send(NO_SURPRISE)
        await gm.send(Start())
        await gm.wait(lambda t: set(GOBLINS) <= {d.actor for d in t.view.declarations}, TIMEOUT)
        assert len(tactic_lines(gm)) == 4 and all("(tactics: weakest, flee at 25%) declares: " in line for line in tactic_lines(gm))

        released = httpx.post(f"{tactics}/{handed.json()['token_id']}/release", params={"token": gm_token}, json={})
        assert released.json() == {"token_id": handed.json()["token_id"], "released": True}
        assert httpx.get(tactics, params={"token": gm_token}).json()["handovers"] == []
        await gm.send(Advance())
        await gm.wait(lambda t: t.view.round == 2 or t.view.status == "ended", TIMEOUT)
        await asyncio.sleep(0.5)
        assert len(tactic_lines(gm)) == 4  # round 2 is the GM's again
    again = httpx.post(f"{tactics}/{handed.json()['token_id']}/release", params={"token": gm_token}, json={})
    assert (again.status_code, again.json()["code"]) == (404, "link/unknown")


async def test_bot_on_a_player_link_guesses_what_is_hidden_and_the_rules_correct_it(fray_server):
    """Alda's bot cannot see the hidden goblin's dagger, guesses a longer blade and tries
    a double attack (003: a shorter, lighter weapon against a longer one); the rules refuse
    it, and the tactic's next choice, the plain attack, is declared."""
    dagger = {"name": "dagger", "damage": "1d4", "length": 1, "weight": 1}
    made = fray_server.create(
        {
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "ac": 12, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10, "weapons": [dagger]},
                {
                    "id": "gob",
                    "name": "Goblin",
                    "side": "goblins",
                    "ac": 12,
                    "hp": 5,
                    "hp_max": 5,
                    "dex": 9,
                    "x": 15,
                    "y": 10,
                    "hidden": True,
                    "weapons": [dagger],
                },
            ]
        }
    )
    table = await join(made["links"]["players"]["alda"]).open()
    bot = Bot(table, Plan(options=True))
    playing = asyncio.create_task(bot.run(30))
    try:
        async with join(made["links"]["gm"]) as gm:
            await gm.send(NO_SURPRISE)
            await gm.send(Start())
            await gm.wait(lambda t: any(d.actor == "alda" for d in t.view.declarations), TIMEOUT)
            assert [line.text for line in gm.log if line.kind == "declare"] == ["Alda (tactics: nearest, attack options) declares: attack Goblin."]
            await eventually(lambda: bool(bot.declared))
            assert bot.refused == ["melee/no-double-attack"]
            assert [(actor, action.double) for _, actor, action in bot.declared] == [("alda", False)]
            assert not [line for line in gm.log if line.kind == "rejected"]  # a refusal before storing: nothing stored
    finally:
        playing.cancel()
        await table.close()


async def test_bot_leaves_a_die_rolled_at_the_table_to_the_gm(fray_server):
    """Option physical_dice 'all': the goblin's attack waits for a real d20, asked of the
    goblin's link. The bot answers its combatants' prompts, but not that one: nobody rolled
    it for the bot to enter (its first option would be a 1 every time). The GM enters it."""
    sword = {"name": "sword", "damage": "1d8", "length": 3, "weight": 3}
    made = fray_server.create(
        {
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10, "weapons": [sword]},
                {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10, "weapons": [sword]},
            ],
            "options": {"physical_dice": "all"},
        }
    )
    table = await join(player_link(fray_server, made, ["gob"], "goblin tactics")["link"]).open()
    bot = Bot(table, Plan())
    playing = asyncio.create_task(bot.run(30))
    try:
        async with join(made["links"]["gm"]) as gm:
            await gm.send(NO_SURPRISE)
            await gm.send(Start())
            await gm.send(Declare(actor="alda", action=Hold()))
            await gm.wait(lambda t: {d.actor for d in t.view.declarations} == {"alda", "gob"}, TIMEOUT)
            await gm.send(Advance())
            await gm.wait(lambda t: t.view.awaiting is not None, TIMEOUT)
            waiting = gm.view.awaiting
            assert (waiting.kind, waiting.who, waiting.options[0]) == ("die", "gob", "1")
            await asyncio.sleep(0.5)
            assert gm.view.awaiting is not None and gm.view.awaiting.id == waiting.id  # the bot left it
            await gm.send(Answer(awaiting=waiting.id, choice="2"))
            await gm.wait(lambda t: t.view.round == 2 and t.view.awaiting is None, TIMEOUT)
            attacks = [line.text for line in gm.log if line.text.startswith("Goblin attacks Alda")]
            assert len(attacks) == 1 and attacks[0].startswith("Goblin attacks Alda: d20 2 "), attacks  # the GM's die
            assert bot.declared and not bot.refused
    finally:
        playing.cancel()
        await table.close()
