"""What-if forks (rules/fork.py, server/forks.py): a fight that goes on from a point
of another one, under its own seed. The reducer first, then a real `fray serve`
on Redis (POST /api/encounters/{id}/fork) and the `fray fork` command."""

import hashlib
import os
import subprocess
import sys

import httpx
import pytest
from support import ROOT, TIMEOUT, Table, digest, encounter_of, folded, stream, token_of

from fray_table.rules.commands import Advance, Fork, Undo
from fray_table.rules.dice import draw
from fray_table.rules.errors import Rejected
from fray_table.rules.events import Actor, Event
from fray_table.rules.history import plan
from fray_table.rules.reducer import apply, canonical, check, fold
from fray_table.rules.scenario import play
from fray_table.server.forks import ForkRefused, fork_events

# Two fighters and no forced dice: every roll comes from the seed.
FIGHT = {
    "seed": "fork-origin",
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 40, "hp_max": 40, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 40, "hp_max": 40, "dex": 9, "x": 15, "y": 10},
    ],
    "commands": [
        {"type": "start"},
        {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
        {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
        {"type": "advance"},
    ],
}
SEED = hashlib.sha256(b"the fork's seed").digest()
GM = Actor("gm", "GM")


def origin_events() -> list[Event]:
    return play(FIGHT).events


def test_the_fork_keeps_the_origins_state_and_then_rolls_its_own_seed():
    events = origin_events()
    at = 4  # create, two adds, start, Alda's declaration: the fork comes before the goblin declares
    forked, state = fork_events(events, at, "whatif", SEED, now_ms=1)
    assert forked[: at + 1] == events[: at + 1]
    assert canonical(fold(forked[: at + 1])) == canonical(fold(events[: at + 1]))
    assert isinstance(forked[-1].command, Fork) and forked[-1].by.role == "system"
    assert (state.id, state.seed, state.seed_hash) == ("whatif", SEED, hashlib.sha256(SEED).hexdigest())
    assert (state.origin.encounter, state.origin.at) == ("scenario", at)
    assert [e.text for e in state.recent] == [f"A fork of encounter scenario after its event #{at}; a new seed, sha256 {state.seed_hash}."]
    # The origin's own declarations after the fork point are not the fork's: it goes on by itself.
    state = apply(state, Event("g", GM, events[5].command))
    position = state.seq
    state = apply(state, Event("adv", GM, Advance()))
    d20s = [r for e in state.recent for r in e.rolls if r.sides == 20]
    assert d20s and not any(r.forced for r in d20s)
    # Every die of the advance is the fork seed's draw at that position, one after another.
    rolls = [r for e in state.recent for r in e.rolls]
    assert [r.value for r in rolls] == [draw(SEED, position, i, r.sides) for i, r in enumerate(rolls)]


def test_options_can_change_at_the_fork_and_bad_ones_are_refused():
    events = origin_events()
    _, state = fork_events(events, 4, "whatif", SEED, options={"weapon_length": False})
    assert state.options["weapon_length"] is False
    assert "weapon_length now False" in state.recent[0].text
    with pytest.raises(ForkRefused) as refused:
        fork_events(events, 4, "whatif", SEED, options={"no_such_option": 1})
    assert refused.value.code == "create/bad-options" and "no_such_option" in refused.value.message


@pytest.mark.parametrize(
    ("at", "code", "words"),
    [(99, "fork/unknown-event", "there is no event #99 to fork after (the last is #"), (-1, "fork/unknown-event", "there is no event #-1")],
)
def test_a_fork_point_that_is_not_there_is_refused(at, code, words):
    with pytest.raises(ForkRefused) as refused:
        fork_events(origin_events(), at, "whatif", SEED)
    assert refused.value.code == code and words in refused.value.message


def test_a_fork_after_the_end_is_refused_with_the_event_to_fork_before():
    ended = play({**FIGHT, "commands": [*FIGHT["commands"], {"type": "end"}]}).events
    with pytest.raises(ForkRefused) as refused:
        fork_events(ended, len(ended) - 1, "whatif", SEED)
    assert refused.value.code == "fork/after-end"
    assert refused.value.message == f"the fight had ended by event #{len(ended) - 1}: fork at an event before #{len(ended) - 1}, the end"
    _, state = fork_events(ended, len(ended) - 2, "whatif", SEED)  # just before the end: a running fight
    assert state.status == "running"


def test_no_client_may_send_a_fork_and_a_misplaced_one_is_refused():
    events = origin_events()
    state = fold(events[:5])
    fork = Fork(id="whatif", seed=SEED, origin="scenario", at=4)
    assert check(state, Event("f", GM, fork)).code == "auth/forbidden"
    misplaced = check(state, Event("f", Actor("system", "server"), Fork(id="whatif", seed=SEED, origin="scenario", at=2)))
    assert misplaced.code == "fork/misplaced"
    assert check(state, Event("f", Actor("system", "server"), Fork(id="whatif", seed=b"short", origin="scenario", at=4))).code == "create/weak-seed"


def test_the_fork_event_cannot_be_undone_but_the_events_before_it_can():
    forked, _ = fork_events(origin_events(), 4, "whatif", SEED)
    forked = [*forked, Event("g", GM, origin_events()[5].command)]
    with pytest.raises(Rejected) as refused:
        plan(forked, Undo(seq=5))
    assert refused.value.code == "undo/fork" and "event #5 made this fight a fork of scenario" in refused.value.message
    with pytest.raises(Rejected) as rewound:
        plan(forked, Undo(seq=3, rewind=True))
    assert rewound.value.code == "undo/fork"
    restore = plan(forked, Undo(seq=4))  # Alda's declaration, before the fork point
    state = apply(fold(forked), Event("u", GM, restore))
    assert [d.actor for d in state.declarations] == ["gob"]
    assert state.id == "whatif" and state.seed == SEED


def test_a_veil_stays_on_a_fork_of_a_veiled_fork_and_a_bad_one_is_refused():
    from fray_table.rules.view import Viewer

    events = origin_events()
    veiled, state = fork_events(events, 4, "first", SEED, seen_as=Viewer("player", ("alda",)))
    assert (state.origin.veil, state.origin.veil_role, state.origin.veil_combatants) == (4, "player", ("alda",))
    again, state = fork_events(veiled, 5, "second", SEED)  # its GM forks it: the veil over events 0-4 stays
    assert (state.origin.encounter, state.origin.at, state.origin.veil, state.origin.veil_role) == ("first", 5, 4, "player")
    system = Actor("system", "server")
    bad = Fork(id="x", seed=SEED, origin="scenario", at=4, veil=9, veil_role="player")
    assert check(fold(events[:5]), Event("f", system, bad)).code == "fork/bad-veil"
    gm_veil = Fork(id="x", seed=SEED, origin="scenario", at=4, veil=4, veil_role="gm")
    assert check(fold(events[:5]), Event("f", system, gm_veil)).code == "fork/bad-veil"


# --- on a real server ---------------------------------------------------------------------

pytest_redis = pytest.mark.redis


def post_fork(server, made_id: str, link: str, body: dict) -> httpx.Response:
    return httpx.post(f"{server.url}/api/encounters/{made_id}/fork", params={"token": token_of(link)}, json=body, timeout=TIMEOUT)


async def round_played(server, made: dict, end: bool = False) -> str:
    gm = await Table.join(server, made["links"]["gm"])
    try:
        no_surprise = {"type": "force_rolls", "values": [5, 6]}  # the sides' surprise d6s
        for command in [no_surprise, *FIGHT["commands"], *([{"type": "end"}] if end else [])]:
            ack = await gm.send(command)
            assert ack["type"] == "ack", (command, ack)
        return ack["position"]
    finally:
        await gm.close()


@pytest_redis
async def test_the_gm_forks_a_running_fight_and_the_origin_is_untouched(fray_server, redis_url):
    made = fray_server.create({"combatants": FIGHT["combatants"]})
    await round_played(fray_server, made)
    before = (await stream(redis_url, made["id"]), digest(fray_server, made))
    answer = post_fork(fray_server, made["id"], made["links"]["gm"], {"at": 4})
    assert answer.status_code == 201, answer.text
    fork = answer.json()
    assert fork["origin"] == {"id": made["id"], "at": 4, "link": made["links"]["gm"]}
    assert fork["id"] != made["id"] and fork["seed_hash"] != made["seed_hash"]
    origin_stream, fork_stream = await stream(redis_url, made["id"]), await stream(redis_url, fork["id"])
    assert (origin_stream, digest(fray_server, made)) == before  # the origin: not one event more, the same state
    assert [e for _, e in fork_stream[:5]] == [e for _, e in origin_stream[:5]]
    assert canonical(fold(e for _, e in fork_stream[:5])) == canonical(fold(e for _, e in origin_stream[:5]))
    assert isinstance(fork_stream[5][1].command, Fork) and len(fork_stream) == 6
    # The fork is a fight of its own: its GM link works, its view says where it came from.
    assert digest(fray_server, fork)["sha256"] == hashlib.sha256(await folded(redis_url, fork["id"])).hexdigest()
    gm = await Table.join(fray_server, fork["links"]["gm"])
    try:
        assert gm.view["id"] == fork["id"] and gm.view["origin"] == {"encounter": made["id"], "at": 4}
        assert [c["id"] for c in gm.view["combatants"]] == ["alda", "gob"]
        ack = await gm.send({"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}})
        assert ack["type"] == "ack", ack
    finally:
        await gm.close()
    assert encounter_of(fork["links"]["players"]["alda"]) == fork["id"]


@pytest_redis
async def test_a_player_forks_only_an_ended_fight_and_is_the_gm_of_the_fork(fray_server):
    made = fray_server.create({"combatants": FIGHT["combatants"]})
    await round_played(fray_server, made)
    player = made["links"]["players"]["alda"]
    refused = post_fork(fray_server, made["id"], player, {"at": 4})
    assert (refused.status_code, refused.json()["code"]) == (403, "fork/running")
    gm = await Table.join(fray_server, made["links"]["gm"])
    try:
        assert (await gm.send({"type": "end"}))["type"] == "ack"
    finally:
        await gm.close()
    answer = post_fork(fray_server, made["id"], player, {"at": 4})
    assert answer.status_code == 201, answer.text
    fork = answer.json()
    assert digest(fray_server, fork)["seq"] == 6  # the GM-only digest answers the fork's new GM
    spectator = await Table.join(fray_server, fork["links"]["spectator"])
    try:
        assert spectator.view["status"] == "running" and spectator.view["seed"] is None  # the fork's own seed stays secret
    finally:
        await spectator.close()


@pytest_redis
@pytest.mark.parametrize(
    ("body", "status", "code"),
    [({"at": 500}, 400, "fork/unknown-event"), ({"at": "x"}, 400, "request/invalid"), ({"at": 2, "options": {"nope": 1}}, 400, "create/bad-options")],
)
async def test_bad_forks_are_refused_and_make_nothing(fray_server, redis_url, body, status, code):
    made = fray_server.create({"combatants": FIGHT["combatants"]})
    answer = post_fork(fray_server, made["id"], made["links"]["gm"], body)
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert len(await stream(redis_url, made["id"])) == 3


@pytest_redis
async def test_fray_fork_on_the_command_line(fray_server, redis_url):
    made = fray_server.create({"combatants": FIGHT["combatants"]})
    await round_played(fray_server, made)
    env = {**os.environ, "FRAY_SECRET": "test-secret-0123456789abcdef"}
    run = lambda *args: subprocess.run([sys.executable, "-m", "fray_table.server.cli", "fork", *args], cwd=ROOT, capture_output=True, timeout=60, env=env)  # noqa: E731
    done = run(made["id"], "--at", "4", "--redis-url", redis_url, "--public-url", fray_server.url)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode().splitlines()
    assert out[0].startswith(f"fray: forked encounter {made['id']} after its event #4: encounter ")
    gm_link = next(line.split()[-1] for line in out if line.strip().startswith("GM:"))
    fork_id = encounter_of(gm_link)
    assert digest(fray_server, {"id": fork_id, "links": {"gm": gm_link}})["seq"] == 6
    bad = run(made["id"], "--at", "99", "--redis-url", redis_url)
    assert bad.returncode == 2
    assert bad.stderr.decode().splitlines() == ["fray fork: there is no event #99 to fork after (the last is #7)"]


@pytest_redis
async def test_a_fork_from_a_players_link_shows_its_gm_the_origin_as_that_player_saw_it(fray_server, redis_url):
    """A player's fork of an ended fight makes them its GM, but behind a veil: the origin's
    events read as their link read them (no GM-only line, no GM note), in the welcome, the
    replay and the log; the raw stream is not theirs to export; what the fork adds is theirs."""
    combatants = [dict(c) for c in FIGHT["combatants"]]
    combatants[1] |= {"notes": "the goblin carries the vault key"}
    made = fray_server.create({"combatants": combatants})
    gm = await Table.join(fray_server, made["links"]["gm"])
    try:
        for command in (
            {"type": "force_rolls", "values": [5, 6]},
            {"type": "start"},
            {"type": "call_morale", "side": "goblins"},  # 003 morale: the result is the GM's alone
            {"type": "end"},
        ):
            assert (await gm.send(command))["type"] == "ack", command
        gm_only = [e for e in gm.log if e["seq"] <= 4 and e.get("audience") == "gm"]
    finally:
        await gm.close()
    player_link = made["links"]["players"]["alda"]
    answer = post_fork(fray_server, made["id"], player_link, {"at": 4})
    assert answer.status_code == 201, answer.text
    fork = answer.json()
    params = lambda link, **more: {"token": token_of(link), **more}  # noqa: E731
    as_player = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/log", params=params(player_link), timeout=TIMEOUT).json()
    as_origin_gm = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/log", params=params(made["links"]["gm"]), timeout=TIMEOUT).json()
    fork_log = httpx.get(f"{fray_server.url}/api/encounters/{fork['id']}/log", params=params(fork["links"]["gm"]), timeout=TIMEOUT).json()
    assert len(as_origin_gm) > len([e for e in as_player if e["seq"] <= 4])  # the origin's GM saw more of it
    assert [e for e in fork_log if e["seq"] <= 4] == [e for e in as_player if e["seq"] <= 4]
    assert fork_log[-1]["text"].startswith(f"A fork of encounter {made['id']} after its event #4")
    replay = httpx.get(f"{fray_server.url}/api/encounters/{fork['id']}/replay", params=params(fork["links"]["gm"], at="4"), timeout=TIMEOUT).json()
    assert replay["view"]["you"]["role"] == "player" and replay["view"]["seed"] is None
    origin_gm_replay = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/replay", params=params(made["links"]["gm"], at="4"), timeout=TIMEOUT).json()
    assert origin_gm_replay["view"]["combatants"][1]["notes"] == "the goblin carries the vault key"
    assert replay["view"]["combatants"][1]["notes"] is None  # the fork's GM, at the origin's event #4: as the player saw it
    welcome = await Table.join(fray_server, fork["links"]["gm"])
    try:
        assert welcome.view["you"]["role"] == "gm"
        assert [e for e in welcome.log if e["seq"] <= 4] == [e for e in as_player if e["seq"] <= 4]
        assert all(c.get("notes") in (None, "") for c in welcome.view["combatants"])  # the origin GM's note is not the fork's
    finally:
        await welcome.close()
    raw = httpx.get(f"{fray_server.url}/api/encounters/{fork['id']}/export", params=params(fork["links"]["gm"], format="jsonl"), timeout=TIMEOUT)
    assert (raw.status_code, raw.json()["code"]) == (403, "export/veiled")
    forked_gm = await Table.join(fray_server, fork["links"]["gm"])
    try:  # an undo would restore the origin's figures of then: those events are not the fork GM's
        refused = await forked_gm.send({"type": "undo", "seq": 2})
        assert (refused["type"], refused["code"]) == ("error", "undo/veiled"), refused
    finally:
        await forked_gm.close()
    assert len(await stream(redis_url, fork["id"])) == 6  # nothing appended
    assert gm_only  # the origin had lines for its GM alone, which the veil kept from the fork's GM


@pytest_redis
async def test_a_fork_from_a_link_is_refused_where_that_link_did_not_see_everything(fray_server, redis_url):
    """Issue 28: a player's or a spectator's fork made them the GM of a state holding a hidden
    combatant's figures and an unseen one. Such a fork is refused where the link did not see
    everything its GM would (and made where it did); the GM forks anywhere."""
    combatants = [
        FIGHT["combatants"][0],
        {**FIGHT["combatants"][1], "hidden": True},
        {"id": "lurker", "name": "Lurker", "side": "goblins", "ac": 12, "hp": 7, "hp_max": 7, "dex": 11, "x": 30, "y": 30, "unseen": True},
    ]
    made = fray_server.create({"combatants": combatants})
    gm = await Table.join(fray_server, made["links"]["gm"])
    try:
        for command in ({"type": "force_rolls", "values": [5, 6]}, {"type": "start"}, {"type": "call_morale", "side": "goblins"}, {"type": "end"}):
            assert (await gm.send(command))["type"] == "ack", command
    finally:
        await gm.close()
    before = len(await stream(redis_url, made["id"]))
    for link in (made["links"]["players"]["alda"], made["links"]["spectator"]):
        for at in (2, 3, 5):  # the hidden goblin is in; the unseen lurker too; the fight has begun
            refused = post_fork(fray_server, made["id"], link, {"at": at})
            assert (refused.status_code, refused.json()["code"]) == (403, "fork/veiled-state"), refused.text
            assert "Goblin" not in refused.text and "Lurker" not in refused.text and "gob" not in refused.text
    allowed = post_fork(fray_server, made["id"], made["links"]["players"]["alda"], {"at": 1})  # Alda alone: all the link saw
    assert allowed.status_code == 201, allowed.text
    forked = await Table.join(fray_server, allowed.json()["links"]["gm"])
    try:
        assert [c["id"] for c in forked.view["combatants"]] == ["alda"]
    finally:
        await forked.close()
    own = post_fork(fray_server, made["id"], made["links"]["gm"], {"at": 5})  # the GM saw it all
    assert own.status_code == 201, own.text
    theirs = await Table.join(fray_server, own.json()["links"]["gm"])
    try:
        assert {c["id"]: c["hp"] for c in theirs.view["combatants"]} == {"alda": 40, "gob": 40, "lurker": 7}
    finally:
        await theirs.close()
    assert len(await stream(redis_url, made["id"])) == before


@pytest.fixture(scope="module")
def keyed_server(redis_url: str, tmp_path_factory: pytest.TempPathFactory):
    from support import FrayServer

    server = FrayServer(redis_url, tmp_path_factory.mktemp("keyed"), env={"FRAY_ADMIN_KEY": ADMIN_KEY})
    yield server
    server.stop()


ADMIN_KEY = "fork-admin-key-0123456789"


@pytest_redis
async def test_a_fork_from_a_link_that_is_not_the_gms_needs_the_admin_key_where_creating_does(keyed_server, redis_url):
    """Issue 28: a spectator's link made 30 forks in a second on a server with FRAY_ADMIN_KEY.
    A fork from a link not the GM's makes a fight: it needs the key, as creating does."""
    key = {"authorization": f"Bearer {ADMIN_KEY}"}
    made = httpx.post(f"{keyed_server.url}/api/encounters", json={"combatants": FIGHT["combatants"]}, headers=key, timeout=TIMEOUT).json()
    gm = await Table.join(keyed_server, made["links"]["gm"])
    try:
        for command in ({"type": "force_rolls", "values": [5, 6]}, {"type": "start"}, {"type": "end"}):
            assert (await gm.send(command))["type"] == "ack", command
    finally:
        await gm.close()
    fork = lambda link, headers: httpx.post(  # noqa: E731
        f"{keyed_server.url}/api/encounters/{made['id']}/fork", params={"token": token_of(link)}, json={"at": 2}, headers=headers, timeout=TIMEOUT
    )
    for link in (made["links"]["spectator"], made["links"]["players"]["alda"]):
        for headers in ({}, {"authorization": "Bearer wrong"}):
            refused = fork(link, headers)
            assert (refused.status_code, refused.json()["code"]) == (403, "auth/admin-key"), refused.text
    assert fork(made["links"]["spectator"], key).status_code == 201
    assert fork(made["links"]["gm"], {}).status_code == 201  # the GM's own fight: its link is the key it was given
