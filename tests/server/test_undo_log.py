"""After an undo, the log and the state agree (issue 27, item 3), over a real server and
real websockets. `undo {seq}` judges every later event again (docs/rulings.md 'Undo'):
a round resolved after the undone event may now end otherwise than its lines said. The
GM's mistaken HP edit (Goblin 1 at 7) is undone after a round in which Alda hit it for 4
('3 HP left'); judged again, that 4 takes its real 4 HP: it is down at 0 HP. The log
said nothing of it, so its last line about Goblin 1 still read '3 HP left', and the
table's next attack on it was lost to 'already down'. Now the undo's lines say it."""

import httpx
import pytest
from support import token_of

pytestmark = pytest.mark.redis


def fight(hidden: bool) -> dict:
    return {
        "options": {"sealed_declarations": False},
        "combatants": [
            {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
            {"id": "gob1", "name": "Goblin 1", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 8, "dex": 9, "x": 15, "y": 10, "hidden": hidden},
            {"id": "gob2", "name": "Goblin 2", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 8, "x": 10, "y": 15},
        ],
        "players": {"Ann": ["alda"]},
    }


def declare(actor: str, target: str | None = None) -> dict:
    return {"type": "declare", "actor": actor, "action": {"type": "attack", "target": target} if target else {"type": "hold"}}


# Positions: create 0, the combatants 1-3, then these from 4.
SCRIPT = [
    {"type": "force_rolls", "values": [5, 6]},  # 4: 003's surprise, nobody
    {"type": "start"},  # 5
    {"type": "edit_combatant", "id": "gob1", "hp": 7},  # 6: the GM's slip
    {"type": "force_rolls", "values": [19], "sides": 20},  # 7: Alda's d20 19 + 1 + AC 6 = 26 hits
    {"type": "force_rolls", "values": [4], "sides": 6},  # 8: her d6 4
    declare("alda", "gob1"),  # 9
    declare("gob1"),  # 10
    declare("gob2"),  # 11
    {"type": "advance"},  # 12: 'Goblin 1 takes 4 damage (1d6), 3 HP left.'
]
ROUND_2 = [declare("alda"), declare("gob2"), {"type": "advance"}]  # Goblin 1 is down: it declares nothing


def about(log: list[dict], undone: list[int], cid: str) -> list[str]:
    """The log's lines naming combatant `cid`, as the page shows them (not struck through)."""
    return [e["text"] for e in log if cid in (e.get("target"), e.get("actor")) and e["seq"] not in undone]


@pytest.mark.parametrize("hidden", [False, True], ids=["figures-shown", "figures-hidden"])
async def test_after_an_undo_the_last_line_about_a_combatant_agrees_with_its_card(fray_server, join, hidden):
    made = fray_server.create(fight(hidden))
    links = {"gm": made["links"]["gm"], "player": made["links"]["players"]["Ann"], "spectator": made["links"]["spectator"]}
    tables = {who: await join(fray_server, link) for who, link in links.items()}
    gm = tables["gm"]
    for command in SCRIPT:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
    await gm.until(ack["position"])
    assert about(gm.log, [], "gob1")[-1] == "Goblin 1 takes 4 damage (1d6), 3 HP left."
    ack = await gm.send({"type": "undo", "seq": 6})
    assert ack["type"] == "ack", ack
    for table in tables.values():
        await table.until(ack["position"])
    card = next(c for c in gm.view["combatants"] if c["id"] == "gob1")
    assert (card["hp"], card["down"]) == (0, True)  # judged again: the 4 took its 4 HP
    shown = "After the undo, Goblin 1: 0 HP (was 3), down."
    told = {"gm": shown, "player": "After the undo, Goblin 1: down." if hidden else shown}
    told["spectator"] = told["player"]
    for who, table in tables.items():
        undone = table.view["undone"]
        assert undone == [6]
        assert about(table.log, undone, "gob1")[-1] == told[who], who
        assert next(c for c in table.view["combatants"] if c["id"] == "gob1")["down"] is True, who
    line = next(e for e in gm.log if e["text"] == shown)
    assert line["seq"] == 13 and line["kind"] == "down"  # the restore's own line, a fall the summary counts

    # Round 2: the table knows Goblin 1 is down; the end's summaries agree with the log and the state.
    for command in [*ROUND_2, {"type": "end"}]:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
    for who, table in tables.items():
        await table.until(ack["position"])
        summary = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/replay", params={"token": token_of(links[who])}, timeout=10).json()["summary"]
        assert [(f["name"], f["by"]) for f in summary["fell"]] == [("Goblin 1", "Alda")], who


def test_an_undo_that_stands_a_fallen_combatant_up_says_so_and_the_summary_agrees():
    """The other way: the GM's slip 'HP 1' let Alda's 3 fell Goblin 1; undone, the round
    judged again leaves it 1 HP of its 4: 'up again', a rise, and it is no fall of the summary."""
    from fray_table.rules.scenario import play
    from fray_table.rules.summary import summarize
    from fray_table.rules.view import Viewer, log_for

    commands = [c if c.get("type") != "edit_combatant" else {**c, "hp": 1} for c in SCRIPT]
    commands = [{**c, "values": [3]} if c.get("sides") == 6 else c for c in commands]
    made = {k: v for k, v in fight(False).items() if k != "players"}
    before = play({**made, "commands": commands})
    assert [e.text for e in before.log if e.target == "gob1"][-2:] == ["Goblin 1 takes 3 damage (1d6), -2 HP left.", "Goblin 1 falls."]
    played = play({**made, "commands": [*commands, {"type": "undo", "seq": 6}]})
    gob = next(c for c in played.state.combatants if c.id == "gob1")
    assert (gob.hp, gob.down) == (1, False)
    line = played.log[-1]
    assert (line.kind, line.text, line.target) == ("up", "After the undo, Goblin 1: 1 HP (was -2), up again.", "gob1")
    lines = log_for(played.log, played.state, Viewer("player", ("alda",)), points=True)
    summary = summarize(((1, e) for e in lines), {"gob1": "Goblin 1"}, played.state.round, played.state.undone)
    assert summary.fell == [] and [(t.id, t.dealt, t.taken) for t in summary.damage] == [("gob1", 0, 3), ("alda", 3, 0)]
