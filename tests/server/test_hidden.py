"""Hidden information over a whole scripted fight: every raw websocket frame and
HTTP body a player and a spectator receive is free of the seed (before the
end), GM notes, hidden figures, the forced-roll queue and the other side's
sealed declarations. Replays (the log endpoint) are per viewer."""

import re

import httpx
import msgspec
import pytest
from scenes import SCENARIOS, scenario
from support import key, token_of, wire

from fray_table.rules.commands import Command
from fray_table.rules.events import Actor, Event, encode_event
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, log_for, view
from fray_table.server.store import RedisStore

NOTE = "NOTE-MARKER-the-goblin-is-a-prince"
HIDDEN_FIGURES = ("hp", "hp_max", "ac", "ac_shown", "attack_bonus", "weapons", "subdual", "morale", "morale_round", "notes")
FIGHT = {
    "options": {"sealed_declarations": True},
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 30, "hp_max": 30, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 37, "hp_max": 37, "dex": 9, "x": 15, "y": 10, "hidden": True, "notes": NOTE},
        {"id": "wolf", "name": "Wolf", "side": "goblins", "ac": 12, "hp": 5, "hp_max": 5, "dex": 12, "x": 15, "y": 15},
    ],
    "players": {"Ann": ["alda"]},
}
HIDDEN = {"gob"}


def check_view(view: dict, side: str | None) -> None:
    assert view.get("seed") is None and view.get("forced") is None
    for c in view["combatants"]:
        assert c.get("notes") is None and c.get("figures") is None  # a profile's own figures: the GM's card only
        if c["id"] in HIDDEN:
            leaked = {k: c[k] for k in HIDDEN_FIGURES if c.get(k) is not None}
            assert not leaked, f"hidden figures of {c['id']}: {leaked}"
    if view["phase"] == "declaration":
        sides = {c["id"]: c["side"] for c in view["combatants"]}
        for d in view["declarations"]:
            if sides.get(d["actor"]) != side:
                assert d.get("type") is None and d["text"] == "has declared", d


def check_entries(entries: list[dict], side: str | None, mine: str = "alda") -> None:
    for e in entries:
        assert e.get("audience", "all") in ("all", f"side:{side}") + ((f"player:{mine}",) if side else ()), e
        assert e["kind"] != "gm" and "forces" not in e["text"], e
        if e.get("actor") in HIDDEN or e.get("target") in HIDDEN:
            assert e.get("total") is None and e.get("need") is None and not e.get("mods"), e
            assert not TARGET_FIGURES.search(e["text"]), e  # the roller's own terms are theirs: the hidden target's are not
        if e.get("actor") in HIDDEN:
            assert not FIGURES.search(e["text"]), e


def check_raw(texts: list[str], seed: str) -> None:
    raw = "".join(texts)
    assert seed not in raw
    assert NOTE not in raw
    assert "forces the next rolls" not in raw


@pytest.mark.redis
async def test_players_and_spectators_never_receive_hidden_information(fray_server, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    watchers = {"party": await join(fray_server, made["links"]["players"]["Ann"]), None: await join(fray_server, made["links"]["spectator"])}
    seed = gm.view["seed"]
    assert seed and len(seed) == 64
    player = watchers["party"]

    async def run(table, command: dict) -> None:
        ack = await table.send(command)
        assert ack["type"] == "ack", (command, ack)
        for side, watcher in watchers.items():
            for _ in range(200):  # check every frame as it arrives, until the command is reflected
                check_view(watcher.view, side)
                check_entries(watcher.log, side)
                if key(watcher.position) >= key(ack["position"]):
                    break
                await watcher.next()
            check_raw(watcher.frames, seed)
        await gm.until(ack["position"])

    await run(gm, {"type": "force_rolls", "values": [5, 6]})  # 003 surprise: nobody surprised
    await run(gm, {"type": "start"})
    await run(player, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}})
    await run(gm, {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}})
    await run(gm, {"type": "declare", "actor": "wolf", "action": {"type": "attack", "target": "alda"}})
    sealed = {d["actor"]: d for d in player.view["declarations"]}
    assert sealed["gob"]["text"] == "has declared" and sealed["alda"]["type"] == "attack"
    await run(gm, {"type": "force_rolls", "values": [18, 6, 17, 4, 16, 3]})  # the queue is the GM's
    await run(gm, {"type": "advance"})
    assert player.view["round"] == 2
    assert any(e["kind"] == "attack" and e.get("target") == "gob" for e in player.log)
    assert any(e["kind"] == "damage" and e.get("target") == "gob" for e in player.log)
    await run(gm, {"type": "edit_combatant", "id": "gob", "hp": 20, "notes": NOTE + " still"})
    await run(player, {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob", "called_shots": 1}})
    await run(gm, {"type": "declare", "actor": "gob", "action": {"type": "parry"}})
    await run(gm, {"type": "call_morale", "side": "goblins"})
    await run(gm, {"type": "advance"})
    if gm.view.get("awaiting"):
        await run(gm, {"type": "answer", "awaiting": gm.view["awaiting"]["id"], "choice": gm.view["awaiting"]["options"][-1]})

    # HTTP bodies a player and a spectator may ask for, before the end
    base = f"{fray_server.url}/api/encounters/{made['id']}"
    bodies = []
    for link in (made["links"]["players"]["Ann"], made["links"]["spectator"]):
        token = token_of(link)
        for path in ("/log", "/digest", "/links"):
            r = httpx.get(base + path, params={"token": token})
            assert r.status_code in (200, 403), r.text
            bodies.append(r.text)
        r = httpx.post(base + "/links", params={"token": token}, json={"role": "spectator"})
        assert r.status_code == 403
        bodies.append(r.text)
        bodies.append(httpx.get(link).text)
    check_raw(bodies, seed)

    # replays are per viewer: the log endpoint gives exactly what that viewer saw live
    for side, watcher in watchers.items():
        token = token_of(made["links"]["players"]["Ann"] if side else made["links"]["spectator"])
        replay = httpx.get(f"{base}/log", params={"token": token}).json()
        check_entries(replay, side)
        assert [e["text"] for e in replay] == [e["text"] for e in watcher.log]
    gm_log = httpx.get(f"{base}/log", params={"token": token_of(made["links"]["gm"])})
    gm_replay = gm_log.json()
    assert len(gm_replay) > len(player.log) and any(NOTE in e["text"] or "forces" in e["text"] for e in gm_replay)
    # a line's public text stays in the state: no frame or body carries it, the GM's neither
    assert any("HP left" in e["text"] for e in gm_replay)
    for raw in (gm_log.text, *gm.frames, *(f for w in watchers.values() for f in w.frames)):
        assert '"public"' not in raw

    # the end reveals the seed to everyone
    ack = await gm.send({"type": "end"})
    for watcher in watchers.values():
        await watcher.until(ack["position"])
        assert watcher.view["seed"] == seed


@pytest.mark.redis
async def test_rejections_removals_and_reconnects_show_each_line_to_its_audience(fray_server, join, redis_url):
    """Over the wire: the GM's refused edit (naming a hidden goblin's HP) reaches the GM
    alone; a player's refused declaration reaches that player and the GM; after the GM
    removes the hidden goblin, a player who reconnects reads its old lines as they were
    shown live (public text), not in the GM's words."""
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    player = await join(fray_server, made["links"]["players"]["Ann"])
    spectator = await join(fray_server, made["links"]["spectator"])
    for command in ({"type": "force_rolls", "values": [5, 6, 20, 6]}, {"type": "start"}):
        await gm.until((await gm.send(command))["position"])
    # Two commands the server would refuse at once, stored as a replica that lost a race
    # stores them: the reducer refuses them when it folds them.
    store = RedisStore(redis_url)
    await store.start()
    try:
        for i, (by, command) in enumerate(
            [
                (Actor("player", "Ann", ("alda",)), {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "alda"}}),
                (Actor("gm", "gm"), {"type": "edit_combatant", "id": "gob", "hp": 60}),
            ]
        ):
            position, _ = await store.append(made["id"], f"raced-{i}", encode_event(Event(f"raced-{i}", by, msgspec.convert(command, Command))))
    finally:
        await store.close()
    await gm.until(position)
    for command in ({"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}}, {"type": "advance"}):
        ack = await gm.send(command)
        await gm.until(ack["position"])
    await player.until(ack["position"])
    await spectator.until(ack["position"])

    def rejected(log):
        return [e["text"] for e in log if e["kind"] == "rejected"]

    assert rejected(gm.log) == ["Rejected: Alda cannot attack itself.", "Rejected: HP 60/37: need 1 <= max HP <= 10000 and HP <= max HP."]
    assert rejected(player.log) == ["Rejected: Alda cannot attack itself."]
    assert rejected(spectator.log) == []
    live = [e["text"] for e in player.log if e.get("target") == "gob" or e.get("actor") == "gob"]
    assert live and not any(TARGET_FIGURES.search(t) for t in live)
    assert not any(FIGURES.search(e["text"]) for e in player.log if e.get("actor") == "gob")

    ack = await gm.send({"type": "remove_combatant", "id": "gob"})
    await gm.until(ack["position"])
    again = await join(fray_server, made["links"]["players"]["Ann"])
    assert [e["text"] for e in again.log if e.get("target") == "gob" or e.get("actor") == "gob"] == live + ["Goblin leaves the fight."]
    assert rejected(again.log) == ["Rejected: Alda cannot attack itself."]
    check_entries(again.log, "party")


# A combatant's figures as the profiles' log lines show them: this test's knowledge, not
# the rules' (a line carries its own public text, made with it: rules.context.said).
# A target's: 003's AC, number needed, HP and subdual; 001's Attack Result; 002's C',
# death-ray save (SvDR), H and hull share; 000's armor points and lost INT. An
# attacker's: 003's combat bonus, 002's THAC0 and wrestling rating w, 000's Attack
# Value, 001's Attack Bonus. A figure is a number: '(victim's AC lowers by 1)' names none.
ATTACKER_FIGURES = (
    r"-?\d+ (?:combat bonus|attack value|attack bonus)",
    r"THAC0 -?\d",
    r"\bw -?\d",
)
TARGET_FIGURES = re.compile(
    "|".join(
        (
            r"\bAC -?\d",  # 'AC 6', 'basic AC 9', 'its AC 15 → 14'
            r"-?\d+ is needed",
            r"Attack Result [+-]?\d",
            r"\bH -?\d",
            r"negative H",
            r"C' -?\d",
            r"SvDR d20 -?\d+ [+-]",
            r"(?:death ray|to save)[^.]*[≥<] -?\d",
            r"-?\d+ HP left",
            r"-?\d+ max HP",
            r"\bwith -?\d+ HP\b",
            r"subdual -?\d+ of",
            r"\d+ of \d+ points",
            r"\d+% damage",
            r"d100 \d+ [≥<]",
            r"INT is permanently reduced by \d+: ",
        )
    )
)
# A roll against a hidden target shows the roller its own terms (issue 13): only a hidden actor's are all secret.
FIGURES = re.compile("|".join((TARGET_FIGURES.pattern, *ATTACKER_FIGURES)))
SCENARIO_NAMES = sorted(p.stem for p in SCENARIOS.glob("*.toml"))


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_log_lines_about_a_hidden_side_carry_none_of_its_figures_in_any_profile(name):
    """Every scenario, with its last side's figures hidden: what a player of the
    first side reads about those combatants names no figure of theirs."""
    data = scenario(name)
    sides = list(dict.fromkeys(c["side"] for c in data["combatants"]))
    for c in data["combatants"]:
        c["hidden"] = c["side"] == sides[-1]
    played = play(data)
    hidden = {c["id"] for c in data["combatants"] if c["hidden"]}
    mine = next(c["id"] for c in data["combatants"] if c["side"] == sides[0])
    about = [e for e in log_for(played.log, played.state, Viewer("player", (mine,))) if e.actor in hidden or e.target in hidden]
    assert about, "the scenario has no line about the hidden side to check"
    for e in about:
        assert e.total is None and e.need is None and not e.mods and e.public is None, e
        assert not (FIGURES if e.actor in hidden else TARGET_FIGURES).search(e.text), e.text


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_every_line_that_names_a_combatants_figures_carries_its_public_text(name):
    """With every combatant hidden, each line about one carries, from when it is made,
    the text those who may not see its figures read; and that text names none (a rule
    that logs figures with no public text shows here as a public text with figures)."""
    data = scenario(name)
    for c in data["combatants"]:
        c["hidden"] = True
    played = play(data)
    about = [e for e in played.log if e.actor or e.target]
    assert [e for e in about if FIGURES.search(e.text)], "the scenario has no line with figures to check"
    assert not [e.text for e in about if e.public is None]
    assert not [e.public for e in about if FIGURES.search(e.public)]


def test_a_line_is_read_as_it_was_made_whatever_happens_to_its_combatant_later():
    """The audience and public text are fixed where a line is made: a hidden goblin's
    lines stay public text for a player after the GM reveals or removes it, and a
    line made while it was not hidden stays whole after it is hidden."""
    fight = {
        "combatants": FIGHT["combatants"],
        "dice": [5, 5, 20, 6, 20, 6],
        "commands": [
            {"type": "start"},
            {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
            {"type": "advance"},
            {"type": "edit_combatant", "id": "gob", "hidden": False},
            {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
            {"type": "advance"},
            {"type": "edit_combatant", "id": "gob", "hidden": True},
            {"type": "remove_combatant", "id": "gob"},
        ],
    }
    played = play(fight)
    player = [e.text for e in log_for(played.log, played.state, Viewer("player", ("alda",))) if e.kind == "attack"]
    gm = [e.text for e in log_for(played.log, played.state, Viewer("gm")) if e.kind == "attack"]
    assert player[0] == "Alda attacks Goblin: d20 20 + 1 combat bonus vs the target's AC: hit." and "combat bonus + AC 6" in gm[0]
    assert player[1] == gm[1] and "combat bonus" in player[1]


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_nobody_is_sent_a_lines_public_text_the_gm_included(name):
    """`public` stays in the state: the GM reads the text, others its public text when it
    is about a hidden combatant, and no update carries the field (bytes stay small)."""
    data = scenario(name)
    for c in data["combatants"]:
        c["hidden"] = c["side"] == data["combatants"][-1]["side"]
    played = play(data)
    assert any(e.public is not None for e in played.log)
    mine = next(c["id"] for c in data["combatants"] if not c["hidden"])
    for viewer in (Viewer("gm"), Viewer("player", (mine,)), Viewer("spectator")):
        shown = log_for(played.log, played.state, viewer)
        assert b'"public"' not in msgspec.json.encode(shown), viewer
    gm = log_for(played.log, played.state, Viewer("gm"))
    assert [e.text for e in gm] == [e.text for e in played.log]


def test_a_hidden_combatants_cannot_reach_line_names_no_weapon_reach_or_distance():
    """A hidden goblin out of reach: the GM reads its weapon, reach and distance; a player
    reads only that it cannot reach (and the same for a shot out of range)."""
    bow = {"name": "shortbow", "damage": "1d6", "range": 50, "missile": "bow"}
    played = play(
        {
            "dice": [5, 6],
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "hp": 9, "hp_max": 9, "x": 10, "y": 10},
                {
                    "id": "gob",
                    "name": "Goblin",
                    "side": "goblins",
                    "hp": 5,
                    "hp_max": 5,
                    "x": 100,
                    "y": 10,
                    "hidden": True,
                    "weapons": [{"name": "spear", "reach": 10}, bow],
                },
            ],
            "commands": [
                {"type": "start"},
                {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
                {"type": "advance"},
                {"type": "declare", "actor": "gob", "action": {"type": "shoot", "target": "alda", "weapon": 1}},
                {"type": "advance"},
            ],
        }
    )
    gm = [e.text for e in log_for(played.log, played.state, Viewer("gm")) if "cannot reach" in e.text]
    player = [e.text for e in log_for(played.log, played.state, Viewer("player", ("alda",))) if "cannot reach" in e.text]
    assert gm == ["Goblin cannot reach Alda (90 ft away, spear reaches 10 ft).", "Goblin cannot reach Alda (90 ft away, shortbow ranges 50 ft)."]
    assert player == ["Goblin cannot reach Alda.", "Goblin cannot reach Alda."]


# --- Unseen combatants (issue 13, Deliver 1): not in the table's view at all until revealed.

LURKER = {
    "id": "lurker9",
    "name": "Grimsby",
    "side": "goblins",
    "ac": 14,
    "hp": 11,
    "hp_max": 11,
    "dex": 16,
    "x": 10,
    "y": 15,
    "hidden": True,
    "unseen": True,
    "weapons": [{"name": "dagger", "damage": "1d4"}],
}
SHADE = {"id": "shade", "name": "Shade", "side": "goblins", "ac": 12, "hp": 6, "hp_max": 6, "x": 40, "y": 40, "unseen": True}


def unseen_fight(**options) -> dict:
    return {
        "options": {"sealed_declarations": False, **options},
        "combatants": [*FIGHT["combatants"][:1], FIGHT["combatants"][2], LURKER, SHADE],
        "players": {"Ann": ["alda"]},
    }


@pytest.mark.redis
async def test_an_unseen_combatant_is_in_no_frame_of_the_table_until_it_acts_against_them(fray_server, join):
    """Raw frames: the player's and the spectator's carry neither the unseen Grimsby's
    id nor its name (no card, target, awaited id, declaration or log line) while it
    waits and moves; the player cannot target it; when it strikes Alda it is revealed
    (option reveal_when_acting, on by default), its figures still hidden and no
    'hidden' badge; the GM reveals Shade with one edit."""
    made = fray_server.create(unseen_fight())
    gm = await join(fray_server, made["links"]["gm"])
    player = await join(fray_server, made["links"]["players"]["Ann"])
    spectator = await join(fray_server, made["links"]["spectator"])
    assert {c["id"] for c in gm.view["combatants"]} == {"alda", "wolf", "lurker9", "shade"}
    assert next(c for c in gm.view["combatants"] if c["id"] == "lurker9")["unseen"] is True

    async def gm_does(command: dict) -> str:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
        for table in (gm, player, spectator):
            await table.until(ack["position"])
        return ack["position"]

    await gm_does({"type": "force_rolls", "values": [5, 6]})  # 003 surprise: nobody surprised
    await gm_does({"type": "start"})
    assert [c["id"] for c in player.view["combatants"]] == ["alda", "wolf"]
    assert player.view["awaited"] == ["alda", "wolf"] and set(gm.view["awaited"]) == {"alda", "wolf", "lurker9", "shade"}
    attack = next(ch for ch in player.view["actions"]["alda"] if ch["type"] == "attack")
    assert attack["targets"] == ["wolf"]
    refused = await player.send({"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "lurker9"}})
    assert refused["type"] == "error" and refused["code"] == "declare/unknown-target", refused
    player.frames.clear()  # the refusal echoes the id the player sent itself
    ack = await player.send({"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "wolf"}})
    await gm.until(ack["position"])
    await gm_does({"type": "declare", "actor": "lurker9", "action": {"type": "move", "x": 5, "y": 15}})
    await gm_does({"type": "declare", "actor": "wolf", "action": {"type": "hold"}})
    await gm_does({"type": "force_rolls", "values": [3]})  # Alda misses the wolf
    await gm_does({"type": "advance"})
    assert gm.view["round"] == 2 and any(e.get("actor") == "lurker9" and e["kind"] == "move" for e in gm.log)
    for table in (player, spectator):
        raw = "".join(table.frames)
        assert "lurker9" not in raw and "Grimsby" not in raw and "shade" not in raw.lower(), table.log
        assert [c["id"] for c in table.view["combatants"]] == ["alda", "wolf"]

    # Round 2: Grimsby stabs Alda, and is seen from then on.
    await gm_does({"type": "declare", "actor": "lurker9", "action": {"type": "attack", "target": "alda"}})
    assert "lurker9" not in "".join(player.frames) and [d["actor"] for d in player.view["declarations"]] == []
    await gm_does({"type": "force_rolls", "values": [20, 3]})
    await gm_does({"type": "advance"})
    for table in (player, spectator):
        card = next(c for c in table.view["combatants"] if c["id"] == "lurker9")
        assert card["hidden"] is False and "unseen" not in card  # no badge of either outside the GM's page
        assert card["hp"] is None and card["ac"] is None and card["weapons"] is None  # its figures stay hidden
        lines = [e["text"] for e in table.log if e.get("actor") == "lurker9"]
        assert lines[0] == "Grimsby is revealed." and lines[1].startswith("Grimsby attacks Alda: d20 20"), lines
        assert "shade" not in "".join(table.frames).lower()
    assert next(c for c in gm.view["combatants"] if c["id"] == "lurker9").get("unseen") is None

    # The GM reveals Shade: one edit (the card's button), one line for everyone.
    await gm_does({"type": "edit_combatant", "id": "shade", "unseen": False})
    for table in (player, spectator):
        card = next(c for c in table.view["combatants"] if c["id"] == "shade")
        assert card["hp"] == 6 and card["hidden"] is False  # not hidden: its figures are the table's now
        assert table.log[-1]["text"] == "The GM reveals Shade."


def test_an_unseen_attacker_is_someone_unseen_to_the_table_with_the_option_off():
    """reveal_when_acting off: Grimsby strikes Alda unseen; the player reads 'Someone
    unseen' with no actor id and no purposes on the dice; the GM reads it all; a line
    about Grimsby alone (its move) is the GM's."""
    fight = unseen_fight(reveal_when_acting=False)
    del fight["players"]
    fight["dice"] = [5, 6, 18, 3]
    fight["commands"] = [
        {"type": "start"},
        {"type": "declare", "actor": "lurker9", "action": {"type": "attack", "target": "alda"}},
        {"type": "declare", "actor": "shade", "action": {"type": "move", "x": 45, "y": 40}},
        {"type": "advance"},
    ]
    played = play(fight)
    assert next(c for c in played.state.combatants if c.id == "lurker9").unseen
    gm = [e for e in log_for(played.log, played.state, Viewer("gm")) if "lurker9" in (e.actor, e.target) or "shade" in (e.actor, e.target)]
    player = log_for(played.log, played.state, Viewer("player", ("alda",)))
    gm_attack = next(e for e in gm if e.kind == "attack")
    assert gm_attack.text.startswith("Grimsby attacks Alda: d20 18 + 0 combat bonus") and gm_attack.rolls[0].purpose == "Grimsby attacks Alda"
    seen = [e for e in player if e.seq == gm_attack.seq and e.kind == "attack"]
    assert [e.text for e in seen][:1] == ["Someone unseen attacks Alda: d20 18: hit."]
    assert seen[0].actor is None and seen[0].target == "alda" and [r.purpose for r in seen[0].rolls] == ["a roll"]
    assert not [e for e in player if "Grimsby" in e.text or "Shade" in e.text or "lurker9" in (e.actor, e.target) or e.actor == "shade"]
    assert any(e.kind == "move" and e.actor == "shade" for e in gm)


def test_the_servers_shared_views_leave_out_the_unseen_as_the_reference_view_does():
    """server/views.py builds each audience's view from shared parts: with Grimsby unseen
    (declared, awaited), they equal rules.view.view for the GM, the player and a spectator."""
    from fray_table.rules.view import view
    from fray_table.server.views import Views

    fight = unseen_fight()
    del fight["players"]
    fight["dice"] = [5, 6]
    fight["commands"] = [{"type": "start"}, {"type": "declare", "actor": "lurker9", "action": {"type": "attack", "target": "alda"}}]
    state = play(fight).state
    views = Views()
    for viewer in (Viewer("gm"), Viewer("player", ("alda",)), Viewer("spectator")):
        assert wire(views.of(state, viewer)) == wire(view(state, viewer)), viewer
    player = wire(views.of(state, Viewer("player", ("alda",))))
    assert [c["id"] for c in player["combatants"]] == ["alda", "wolf"] and "lurker9" not in player["awaited"]
    assert player["declarations"] == [] and "lurker9" not in str(player["actions"])


def test_a_player_reads_the_terms_of_their_own_roll_against_a_hidden_target():
    """Issue 13, Deliver 2: Alda's roll against the hidden goblin shows Alda's player her own
    terms (combat bonus, the parry's -4 on her) and the die, the goblin's AC and
    the total left out; the GM reads the whole sum; a hidden goblin's own roll stays its dice."""
    fight = {
        "options": {"sealed_declarations": False, "parry_counter": "auto"},
        "combatants": [FIGHT["combatants"][0], {**FIGHT["combatants"][1], "x": 15, "y": 10}],
        "dice": [5, 6, 15, 13],
        "commands": [
            {"type": "start"},
            {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
            {"type": "declare", "actor": "gob", "action": {"type": "parry"}},
            {"type": "advance"},
            {"type": "declare", "actor": "alda", "action": {"type": "hold"}},
            {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
            {"type": "advance"},
        ],
    }
    played = play(fight)
    gm = [e.text for e in log_for(played.log, played.state, Viewer("gm")) if e.kind == "attack"]
    player = [e.text for e in log_for(played.log, played.state, Viewer("player", ("alda",))) if e.kind == "attack"]
    # 003: d20 15 + 1 combat bonus - 4 parry + AC 6 (13 ascending) = 18 < 19; the goblin's own: AC 4 is Alda's 15
    assert gm[0] == "Alda attacks Goblin: d20 15 + 1 combat bonus - 4 parry + AC 6 = 18 < 19: miss."
    assert player[0] == "Alda attacks Goblin: d20 15 + 1 combat bonus - 4 parry vs the target's AC: miss."
    assert gm[-1] == "Goblin attacks Alda: d20 13 + 0 combat bonus + AC 4 = 17 < 19: miss." and player[-1] == "Goblin attacks Alda: d20 13: miss."


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_no_line_a_player_reads_names_an_unseen_side_in_any_profile(name):
    """Every scenario with its last side unseen all fight long (option reveal_when_acting
    off; the GM declares for everyone): what a player of the first side reads names none
    of those combatants, by name, by id or in a die's purpose, and carries none of their figures."""
    data = scenario(name)
    sides = list(dict.fromkeys(c["side"] for c in data["combatants"]))
    for c in data["combatants"]:
        c["unseen"] = c["side"] == sides[-1]
    data["options"] = {**data.get("options", {}), "reveal_when_acting": False}
    played = play(data)
    unseen = [c for c in data["combatants"] if c["unseen"]]
    ids = {c.get("id") for c in unseen}
    mine = next(c["id"] for c in data["combatants"] if c["side"] == sides[0])
    gm = log_for(played.log, played.state, Viewer("gm"))
    assert any(e.actor in ids or e.target in ids for e in gm), "the scenario has no line about the unseen side to check"
    read = log_for(played.log, played.state, Viewer("player", (mine,)))
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(c["name"]) for c in unseen) + r")(?!\w)")
    for e in read:
        assert e.actor not in ids and e.target not in ids, e
        assert not pattern.search(e.text) and not any(pattern.search(r.purpose) for r in e.rolls), e.text
        if "someone unseen" in e.text.lower():
            assert e.total is None and not e.mods, e
    seen_view = view(played.state, Viewer("player", (mine,)))
    assert not ids & {c.id for c in seen_view.combatants}


def test_a_players_own_unseen_combatant_is_the_gms_to_declare_for_until_revealed():
    """No card and no choices for it on the player's page (views would disagree otherwise); a
    declaration for it from the player is refused, from the GM taken."""
    fight = unseen_fight()
    del fight["players"]
    fight["combatants"][0] = {**fight["combatants"][0], "unseen": True}  # Alda hides
    fight["dice"] = [5, 6]
    fight["commands"] = [{"type": "start"}]
    state = play(fight).state
    player = view(state, Viewer("player", ("alda",)))
    assert "alda" not in {c.id for c in player.combatants} and player.actions == {}
    from fray_table.rules.commands import Declare
    from fray_table.rules.events import Actor, Event
    from fray_table.rules.reducer import check

    hold = msgspec.convert({"type": "declare", "actor": "alda", "action": {"type": "hold"}}, Declare)
    refused = check(state, Event("x", Actor("player", "Ann", ("alda",)), hold))
    assert refused is not None and (refused.code, refused.message) == ("declare/unseen", "Alda is unseen: the GM declares for it until it is revealed")
    assert check(state, Event("y", Actor("gm", "gm"), hold)) is None


def test_an_ambush_side_all_unseen_is_not_named_by_the_surprise_roll():
    """003's surprise: the goblins, all unseen, roll d6 for the GM alone; the party, caught
    (d6 2), reads that an unseen foe has a free round, not who."""
    fight = {
        "combatants": [FIGHT["combatants"][0], {**LURKER, "side": "ambush"}],
        "dice": [2, 5],
        "commands": [{"type": "start"}],
    }
    played = play(fight)
    player = [e.text for e in log_for(played.log, played.state, Viewer("player", ("alda",))) if e.kind == "surprise"]
    gm = [e.text for e in log_for(played.log, played.state, Viewer("gm")) if e.kind == "surprise"]
    assert gm == [
        "party rolls d6 2: surprised.",
        "ambush rolls d6 5: not surprised.",
        "ambush gain a free round and attack at +2; party cannot act until round 2.",
    ]
    assert player == ["party rolls d6 2: surprised.", "An unseen foe gain a free round and attack at +2; party cannot act until round 2."]
    assert played.state.surprised == ["party"]


def test_an_ambushers_surprise_roll_comes_after_the_tables_so_a_player_can_check_the_dice():
    """The ambush side listed first still rolls its d6 last: the party's roll is the event's
    draw 0, as a player's log (without the GM's line) is checked (docs/dice.md)."""
    from fray_table.rules.dice import draw

    fight = {"combatants": [{**LURKER, "side": "ambush"}, FIGHT["combatants"][0]], "commands": [{"type": "start"}]}
    played = play(fight)
    gm = [e for e in log_for(played.log, played.state, Viewer("gm")) if e.kind == "surprise" and e.rolls]
    assert [e.text.split(" rolls")[0] for e in gm] == ["party", "ambush"]
    mine = [e for e in log_for(played.log, played.state, Viewer("player", ("alda",))) if e.rolls]
    assert len(mine) == 1 and mine[0].rolls[0].value == draw(played.state.seed, mine[0].seq, 0, 6)
