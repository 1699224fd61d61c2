"""Dice anyone can verify (issue 14, docs/dice.md): the draw's test vectors pass both
implementations; `fray verify` confirms a fight, catches one roll tampered at that roll and a
tampered seed by its hash, and refuses a file that is not a fight. Headless fights, the `fray`
command as a user runs it, and the exports of a real `fray serve`."""

import hashlib
import json
import re
import subprocess
import sys

import httpx
import msgspec
import pytest
from support import ROOT, TIMEOUT, token_of

from fray_table.rules.commands import Advance, Command
from fray_table.rules.dice import draw
from fray_table.rules.events import Actor, Event
from fray_table.rules.reducer import apply
from fray_table.rules.scenario import events_of, load
from fray_table.rules.view import Viewer, log_for
from fray_table.server import verify
from fray_table.server.archive import FORMAT, VERSION, Header, Line
from fray_table.server.forks import fork_events

DOC = (ROOT / "docs" / "dice.md").read_text()
SEED = hashlib.sha256(b"fray").digest()
BIG = (1 << 63) + 1
VECTORS = [(0, 0, 2, 2), (1, 0, 1000, 440), (4, 0, 6, 1), (4, 1, 6, 5), (7, 0, 20, 18), (7, 1, 6, 6), (12, 3, 100, 15), (5, 0, BIG, 576748035087793961)]
encode = msgspec.json.Encoder().encode

# Two fighters trading blows for three rounds, every die the seed's: no forced result.
BRAWL = {
    "seed": "verify",
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 12, "hp": 30, "hp_max": 30, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Gob", "side": "goblins", "ac": 12, "hp": 30, "hp_max": 30, "dex": 9, "x": 15, "y": 10},
    ],
    "commands": [
        {"type": "start"},
        *[
            c
            for _ in range(3)
            for c in (
                {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
                {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
                {"type": "advance"},
            )
        ],
        {"type": "force_rolls", "values": [4]},
        {"type": "call_morale", "side": "goblins"},  # a forced die and a random one
        {"type": "end"},
    ],
}


# The server's seed is its own: a natural 20 could break a sword (003) and refuse a later
# declaration, so the saves always succeed (a d20 of 1 or more); the save is still rolled.
UNBREAKABLE = {"weapon_saves": "steel=1"}


def fray(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fray_table.server.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def stream_of(data: dict | list[Event]) -> bytes:
    """The fight as `fray export` writes it (positions as a store would give them)."""
    events = events_of(load(data)) if isinstance(data, dict) else data
    lines = [encode(Header(FORMAT, VERSION, "scenario", events[0].command.rules_version, len(events)))]
    return b"\n".join(lines + [encode(Line(f"{i + 1}-0", e)) for i, e in enumerate(events)]) + b"\n"


def log_of(data: dict | list[Event], viewer: Viewer) -> list[dict]:
    """The fight's log as `viewer` saw it, as the replay page exports it (format=json)."""
    state, lines = None, []
    for event in events_of(load(data)) if isinstance(data, dict) else data:
        state = apply(state, event)
        lines += log_for(state.recent, state, viewer)
    return json.loads(encode(lines))


# --- the draw ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("position", "index", "sides", "result"), VECTORS)
def test_the_documents_vectors_pass_both_implementations(position, index, sides, result):
    assert draw(SEED, position, index, sides) == verify.expected(SEED, position, index, sides) == result
    shown = "9223372036854775809 (2^63 + 1)" if sides == BIG else str(sides)
    assert re.search(rf"^\| {position} \| {index} \| {re.escape(shown)} \| .* \| {result} \|$", DOC, re.M), "docs/dice.md lists it"
    assert SEED.hex() in DOC


def test_the_big_die_is_drawn_on_the_third_attempt():
    """docs/dice.md: attempts 0 and 1 fall at or above the limit; attempt 2 is taken."""
    limit = (1 << 64) - (1 << 64) % BIG
    values = [int.from_bytes(hashlib.blake2b(f"5:0:{a}".encode(), key=SEED, digest_size=8).digest(), "big") for a in range(3)]
    assert [v < limit for v in values] == [False, False, True] and values[2] % BIG + 1 == 576748035087793961


# --- checking a fight, headless --------------------------------------------------------------


def test_a_fight_verifies_from_its_stream_and_from_each_viewers_log():
    fight = verify.parse(stream_of(BRAWL))
    report = verify.check(fight)
    assert (
        report.ok and report.forced == 1 and report.entered == 0 and report.random >= 9
    )  # surprise 2, six attack rolls, a morale die; and the damage of each hit
    for viewer in (Viewer("gm"), Viewer("spectator"), Viewer("player", ("alda",))):
        seen = verify.check(verify.parse(json.dumps(log_of(BRAWL, viewer)).encode()))
        assert seen.ok and seen.random == report.random and seen.forced == 1, viewer


def test_a_log_lacking_a_line_with_dice_still_verifies_by_each_rolls_draw_index():
    """A viewer's export lacks the lines they may not read (the GM's, about a hidden foe):
    each seeded roll says its draw's index (docs/dice.md), so the rolls after a missing one
    are checked at their own index, not at a count of what the log holds."""
    lines = log_of(BRAWL, Viewer("gm"))
    by_event: dict[int, list[dict]] = {}
    for line in lines:
        if any("draw" in r for r in line.get("rolls", [])):
            by_event.setdefault(line["seq"], []).append(line)
    seq, (first, *_rest) = next((seq, ls) for seq, ls in by_event.items() if len(ls) >= 2)
    assert [r["draw"] for r in first["rolls"] if "draw" in r][0] == 0  # the event's first draw
    lacking = [line for line in lines if line is not first]
    assert verify.check(verify.parse(json.dumps(lacking).encode())).ok
    # Without the indices (a log exported before rolls carried them) the count goes wrong there.
    for line in lacking:
        for r in line.get("rolls", []):
            r.pop("draw", None)
    counted = verify.check(verify.parse(json.dumps(lacking).encode()))
    assert not counted.ok and counted.lines[-1].startswith(f"event {seq}, draw 0: ")


def tampered(lines: list[dict]) -> tuple[list[dict], dict, dict]:
    """The log with its fifth random roll changed to another face; the line and the roll."""
    random = [(e, r) for e in lines for r in e.get("rolls", []) if not r.get("forced") and not r.get("entered")]
    line, roll = random[4]
    roll["value"] = roll["value"] % roll["sides"] + 1
    return lines, line, roll


def test_one_roll_tampered_is_caught_at_that_roll():
    lines, line, roll = tampered(log_of(BRAWL, Viewer("gm")))
    report = verify.check(verify.parse(json.dumps(lines).encode()))
    assert not report.ok
    want = roll["value"] - 1 or roll["sides"]
    assert re.fullmatch(
        rf"event {line['seq']}, draw \d+: d{roll['sides']} for {re.escape(repr(roll['purpose']))} shows {roll['value']}; the seed gives {want} .*",
        report.lines[-1],
    )


def test_a_tampered_seed_is_caught_by_the_published_hash():
    lines = log_of(BRAWL, Viewer("spectator"))
    end = lines[-1]
    other = hashlib.sha256(b"another seed").hexdigest()
    end["text"] = re.sub(r"Seed revealed: [0-9a-f]+", f"Seed revealed: {other}", end["text"])
    report = verify.check(verify.parse(json.dumps(lines).encode()))
    assert not report.ok and report.random == 0
    assert report.lines[-1].startswith(f"the seed does not match the published hash: sha256 of the seed is {hashlib.sha256(bytes.fromhex(other)).hexdigest()}")


def test_a_stream_checked_against_the_hash_the_table_saw():
    seen = hashlib.sha256(hashlib.sha256(b"verify").digest()).hexdigest()  # a scenario's seed is the SHA-256 of its text
    assert verify.check(verify.parse(stream_of(BRAWL)), seen).ok
    other = verify.check(verify.parse(stream_of(BRAWL)), "0" * 64)
    assert not other.ok and other.lines[0].startswith(f"the hash published in this file ({seen}) is not the one given")


def test_a_log_of_a_fight_not_ended_cannot_be_checked():
    running = {**BRAWL, "commands": BRAWL["commands"][:-1]}
    report = verify.check(verify.parse(json.dumps(log_of(running, Viewer("spectator"))).encode()))
    assert not report.ok and report.lines == ["the seed is not revealed (the fight has not ended): the rolls cannot be checked"]


def forked() -> list[Event]:
    """BRAWL forked after its first round (rules/fork.py: a new seed from there on), then a
    round of the fork's own and its end."""
    origin = events_of(load(BRAWL))
    at = next(i for i, e in enumerate(origin) if isinstance(e.command, Advance))
    events, _ = fork_events(origin, at, "whatif", hashlib.sha256(b"the fork's seed").digest())
    gm = Actor("gm", "GM")
    more = [*BRAWL["commands"][1:4], {"type": "end"}]  # a round: the two declarations and the advance
    return events + [Event(f"w{i}", gm, msgspec.convert(c, Command)) for i, c in enumerate(more)]


def test_a_fork_verifies_under_both_seeds_from_its_stream_and_its_own_from_its_log():
    """A fork's rolls after the fork event are its own seed's (published at the fork, revealed at
    its end); those before are its origin's, whose seed the stream holds and the log does not."""
    events = forked()
    whole = verify.check(verify.parse(stream_of(events)))
    assert whole.ok and whole.unchecked == 0 and whole.random >= 6
    assert [line.rsplit(" (", 1)[0] for line in whole.lines] == [
        "the seed's sha256 is the hash published at creation",
        f"the seed's sha256 is the hash published at the fork (event {next(i for i, e in enumerate(events) if e.id.startswith('fork-'))})",
    ]
    seen = verify.check(verify.parse(json.dumps(log_of(events, Viewer("spectator"))).encode()))
    assert seen.ok and seen.unchecked > 0 and seen.random + seen.unchecked == whole.random
    assert seen.lines[0].startswith("the rolls before event ") and seen.lines[0].endswith("are encounter scenario's, under its seed: check its own log")


# --- the command ---------------------------------------------------------------------------------


def test_fray_verify_exit_codes(tmp_path):
    good = tmp_path / "fight.jsonl"
    good.write_bytes(stream_of(BRAWL))
    done = fray("verify", str(good))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "OK: every random roll is the one the seed gives."
    assert re.search(r"^  \d+ random rolls checked; 1 forced by the GM and 0 entered at the table", done.stdout, re.M)

    lines, line, _ = tampered(log_of(BRAWL, Viewer("gm")))
    bad = tmp_path / "fray-scenario.json"
    bad.write_text(json.dumps(lines))
    caught = fray("verify", str(bad))
    assert caught.returncode == 1 and caught.stdout.splitlines()[-1] == "NOT VERIFIED."
    assert f"  event {line['seq']}, draw " in caught.stdout

    as_json = fray("verify", "--json", str(bad))
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["ok"] is False

    for junk, why in ((b"hello", "not a fight"), (b'{"format": "csv"}\n', "not a Fray fight export"), (b"[]", "not a log export")):
        path = tmp_path / "junk"
        path.write_bytes(junk)
        refused = fray("verify", str(path))
        assert refused.returncode == 2 and why in refused.stderr and refused.stdout == "", junk
    assert fray("verify", str(tmp_path / "missing.jsonl")).returncode == 2


# --- a real server's exports ---------------------------------------------------------------------


@pytest.mark.redis
async def test_a_real_servers_exports_verify(fray_server, join, tmp_path):
    made = fray_server.create({"combatants": BRAWL["combatants"], "players": {"party": ["alda"]}, "options": UNBREAKABLE})
    gm = await join(fray_server, made["links"]["gm"])
    # The server's seed is its own: nobody may be surprised (003: 1-2 on the d6), so those two are forced.
    for command in [{"type": "force_rolls", "values": [5, 6]}, *BRAWL["commands"]]:
        ack = await gm.send(command)
        assert ack["type"] == "ack", (command, ack)
    checked = {}
    for who, link, fmt in (("gm", made["links"]["gm"], "jsonl"), ("gm", made["links"]["gm"], "json"), ("party", made["links"]["players"]["party"], "json")):
        got = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/export", params={"token": token_of(link), "format": fmt}, timeout=TIMEOUT)
        assert got.status_code == 200, got.text
        path = tmp_path / f"{who}.{fmt}"
        path.write_bytes(got.content)
        done = fray("verify", "--json", str(path))
        assert done.returncode == 0, (who, fmt, done.stdout, done.stderr)
        checked[(who, fmt)] = json.loads(done.stdout)
    for link in (made["links"]["gm"], made["links"]["players"]["party"]):  # the same check, made by the server
        served = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/dice", params={"token": token_of(link)}, timeout=TIMEOUT).json()
        assert served == checked[("gm", "json")], served
    refused = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/dice", params={"token": "nope"}, timeout=TIMEOUT)
    assert (refused.status_code, refused.json()["code"]) == (403, "auth/bad-token")
    counts = {(k, v["random"], v["forced"]) for k, v in checked.items()}
    assert len({(r, f) for _, r, f in counts}) == 1 and next(iter(counts))[1] >= 7 and next(iter(counts))[2] == 3, counts
