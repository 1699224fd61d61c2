"""Every viewer's end-of-fight summary agrees with the log that viewer was sent (issue 27,
item 2), over a real server and real websockets: the GM, a player and a spectator of a
fight with a hidden goblin (the demo's are all hidden), a fall, and an undone round.
The players' and the spectator's summaries used to say 'No damage was dealt', nobody
falling to anyone: a hidden combatant's damage line reaches them without its total."""

import re

import httpx
import pytest
from support import token_of

pytestmark = pytest.mark.redis

FIGHT = {
    "options": {"sealed_declarations": False},
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob1", "name": "Goblin 1", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 15, "y": 10, "hidden": True},
        {"id": "gob2", "name": "Goblin 2", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 8, "x": 10, "y": 15},
    ],
    "players": {"Ann": ["alda"]},
}


def declare(actor: str, target: str | None = None) -> dict:
    action = {"type": "attack", "target": target} if target else {"type": "hold"}
    return {"type": "declare", "actor": actor, "action": action}


def round_of(d20: list[int], d6: list[int], *orders: dict) -> list[dict]:
    return [
        {"type": "force_rolls", "values": d20, "sides": 20},
        {"type": "force_rolls", "values": d6, "sides": 6},
        *orders,
        {"type": "advance"},
    ]


# Alda (DEX 14) strikes first, then Goblin 1 (9), then Goblin 2 (8). 003: a hit needs d20 + bonus + AC >= 19.
SCRIPT = [
    {"type": "force_rolls", "values": [5, 6]},  # surprise: nobody
    {"type": "start"},
    # Round 1: Alda hits the hidden Goblin 1 for 3 (1 HP left); Goblin 1 hits Alda for 2; Goblin 2 misses.
    *round_of([19, 18, 2], [3, 2], declare("alda", "gob1"), declare("gob1", "alda"), declare("gob2", "alda")),
]
ROUND_2 = round_of([19, 2, 2], [1], declare("alda", "gob1"), declare("gob1", "alda"), declare("gob2", "alda"))  # 1: Goblin 1 falls


def told(log: list[dict], undone: set[int]) -> dict:
    """What a log says, read as a person reads it: damage taken by name, dealt by actor id, who fell."""
    taken: dict[str, int] = {}
    dealt: dict[str, int] = {}
    fell = []
    for line in log:
        if line["seq"] in undone:
            continue  # struck through on the page
        if line["kind"] == "damage":
            name, points = re.match(r"^(.+?) takes (\d+) damage", line["text"]).groups()
            taken[name] = taken.get(name, 0) + int(points)
            if line.get("actor"):
                dealt[line["actor"]] = dealt.get(line["actor"], 0) + int(points)
        elif line["kind"] == "down":
            fell.append(re.match(r"^(.+?) falls", line["text"]).group(1))
    return {"taken": taken, "dealt": dealt, "fell": fell}


@pytest.mark.parametrize("undo_round_2", [False, True], ids=["played", "round-2-undone-and-played-again"])
async def test_every_viewers_summary_agrees_with_their_own_log(fray_server, join, undo_round_2):
    made = fray_server.create(FIGHT)
    links = {"gm": made["links"]["gm"], "player": made["links"]["players"]["Ann"], "spectator": made["links"]["spectator"]}
    tables = {who: await join(fray_server, link) for who, link in links.items()}
    gm = tables["gm"]
    script = SCRIPT + ROUND_2
    if undo_round_2:  # Round 2 played, taken back (rewound to before its first forced die), played again
        script += [{"type": "undo", "seq": 4 + len(SCRIPT), "rewind": True}, *ROUND_2]
    for command in [*script, {"type": "end"}]:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
    for table in tables.values():
        await table.until(ack["position"])
    base = f"{fray_server.url}/api/encounters/{made['id']}/replay"
    for who, table in tables.items():
        summary = httpx.get(base, params={"token": token_of(links[who])}, timeout=10).json()["summary"]
        log = told(table.log, set(table.view["undone"]))
        assert log["taken"] == {"Goblin 1": 4, "Alda": 2}, who  # the log itself, as this viewer got it
        assert {t["name"]: t["taken"] for t in summary["damage"] if t["taken"]} == log["taken"], who
        assert {t["id"]: t["dealt"] for t in summary["damage"] if t["dealt"]} == log["dealt"] == {"alda": 4, "gob1": 2}, who
        assert [f["name"] for f in summary["fell"]] == log["fell"] == ["Goblin 1"], who
        assert summary["fell"][0]["by"] == "Alda" and summary["fell"][0]["round"] == 2, who


@pytest.mark.parametrize("profile", ["holmes-phases", "ll-house", "thac0-sheet", "challenges"])
def test_a_damage_lines_public_text_states_its_points(profile):
    """What lets a summary count a damage line's points for a viewer who read its public
    text (rules.view.log_for's `points`): that text says them, under every profile."""
    from fray_table.rules.model import DAMAGE
    from fray_table.rules.scenario import play

    fight = {k: v for k, v in FIGHT.items() if k != "players"}
    rounds = [c for _ in range(8) for c in (declare("alda", "gob1"), declare("gob1", "alda"), declare("gob2", "alda"), {"type": "advance"})]
    played = play({**fight, "profile": profile, "seed": "points", "commands": [{"type": "start"}, *rounds]})
    lines = [e for e in played.log if e.kind == DAMAGE and e.public is not None]
    assert lines, profile
    for e in lines:
        assert e.total is not None and re.search(rf"\b{e.total} (hull points|(subdual )?damage)\b", e.public), (e.public, e.total)
