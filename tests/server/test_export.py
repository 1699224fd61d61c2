"""A fight's data on real processes: `fray export` and `fray import` between two
Redis servers, the GM's export and delete over HTTP, and the sweep of ended fights."""

import asyncio
import base64
import json
import os
import subprocess
import sys
import time

import httpx
import msgspec
import pytest
import websockets
from support import ROOT, TIMEOUT, FrayServer, Table, digest, folded, stream, token_of

from fray_table.rules.events import encode_event
from fray_table.server import archive
from fray_table.server.embedded import EmbeddedRedis
from fray_table.server.store import RedisStore

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 40, "hp_max": 40, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 40, "hp_max": 40, "dex": 9, "x": 15, "y": 10},
    ]
}
SECRET = {"FRAY_SECRET": "test-secret-0123456789abcdef"}  # what support.FrayServer runs with
JSON = {"content-type": "application/json"}  # every request that changes something says its body is JSON (server/edge.py)


def fray(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fray_table.server.cli", *args], cwd=ROOT, input=stdin, capture_output=True, timeout=60, env={**os.environ, **SECRET}
    )


async def play(server: FrayServer, made: dict, *, end: bool) -> str:
    """A round of the fight (dice forced, a declaration, an advance), then `end` if asked; the last position."""
    gm = await Table.join(server, made["links"]["gm"])
    try:
        for command in (
            {"type": "force_rolls", "values": [5, 6]},
            {"type": "start"},
            {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
            {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
            {"type": "force_rolls", "values": [15, 3, 2]},
            {"type": "advance"},
            *([{"type": "end"}] if end else []),
        ):
            ack = await gm.send(command)
            assert ack["type"] == "ack", (command, ack)
        return ack["position"]
    finally:
        await gm.close()


@pytest.fixture
def other_redis(tmp_path):
    with EmbeddedRedis(tmp_path / "other") as redis:
        yield redis.url


async def test_export_then_import_into_another_redis_folds_to_the_same_bytes(fray_server, redis_url, other_redis, tmp_path):
    made = fray_server.create(FIGHT)
    await play(fray_server, made, end=False)
    exported = fray("export", made["id"], "--redis-url", redis_url)
    assert exported.returncode == 0, exported.stderr
    assert exported.stderr == b""  # no progress bar: stderr is not a terminal
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    header, events = lines[0], lines[1:]
    assert (header["format"], header["version"], header["encounter"]) == ("fray-fight", 1, made["id"])
    assert header["events"] == len(events) == len(await stream(redis_url, made["id"]))
    assert events[0]["event"]["command"]["type"] == "create" and isinstance(events[0]["event"]["command"]["seed"], str)  # base64
    path = tmp_path / "fight.jsonl"
    path.write_bytes(exported.stdout)
    imported = fray("import", str(path), "--redis-url", other_redis)
    assert imported.returncode == 0, imported.stderr
    assert f"imported encounter {made['id']} ({len(events)} events, running)" in imported.stdout.decode()
    assert [e for _, e in await stream(other_redis, made["id"])] == [e for _, e in await stream(redis_url, made["id"])]
    assert await folded(other_redis, made["id"]) == await folded(redis_url, made["id"])
    # the printed GM link works on a server of the other Redis, and its replica agrees byte for byte
    gm_link = next(line.split()[-1] for line in imported.stdout.decode().splitlines() if line.strip().startswith("GM:"))
    there = FrayServer(other_redis, tmp_path)
    try:
        theirs = digest(there, {"id": made["id"], "links": {"gm": gm_link}})
        assert theirs["sha256"] == digest(fray_server, made)["sha256"]
    finally:
        there.stop()


async def test_a_fight_deleted_then_imported_again_brings_back_none_of_its_old_links(fray_server, redis_url, tmp_path):
    """Issue 28: a fight deleted, then imported under its own id, took back every old link,
    a revoked one too, which its GM could not revoke again (its links were deleted with it).
    An imported fight has only the links issued for it since."""
    made = fray_server.create(FIGHT)
    await play(fray_server, made, end=True)
    gm = {"token": token_of(made["links"]["gm"])}
    spectator = made["links"]["spectator"]
    links = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/links", params=gm, timeout=TIMEOUT).json()["links"]
    watcher = next(item["token_id"] for item in links if item["role"] == "spectator")
    revoked = httpx.post(f"{fray_server.url}/api/encounters/{made['id']}/links/{watcher}/revoke", params=gm, json={}, timeout=TIMEOUT)
    assert revoked.status_code == 200
    path = tmp_path / "fight.jsonl"
    exported = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/export", params={**gm, "format": "jsonl"}, timeout=TIMEOUT)
    path.write_bytes(exported.content)
    assert httpx.request("DELETE", f"{fray_server.url}/api/encounters/{made['id']}", headers=JSON, params=gm, timeout=TIMEOUT).status_code == 200
    imported = fray("import", str(path), "--redis-url", redis_url, "--public-url", fray_server.url)
    assert imported.returncode == 0, imported.stderr
    for old in (spectator, made["links"]["gm"], made["links"]["players"]["alda"]):
        answer = httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/log", params={"token": token_of(old)}, timeout=TIMEOUT)
        assert (answer.status_code, answer.json()["code"]) == (403, "auth/bad-token"), answer.text[:200]
        assert "not one of this fight's links" in answer.json()["message"]
    new_gm = next(line.split()[-1] for line in imported.stdout.decode().splitlines() if line.strip().startswith("GM:"))
    assert httpx.get(f"{fray_server.url}/api/encounters/{made['id']}/log", params={"token": token_of(new_gm)}, timeout=TIMEOUT).status_code == 200


async def test_import_refuses_an_id_that_exists_unless_renamed(fray_server, redis_url, tmp_path):
    made = fray_server.create(FIGHT)
    path = tmp_path / "fight.jsonl"
    path.write_bytes(fray("export", made["id"], "--redis-url", redis_url).stdout)
    again = fray("import", str(path), "--redis-url", redis_url)
    assert again.returncode == 2
    assert again.stderr.decode().splitlines() == [f"fray import: an encounter {made['id']!r} already exists here; import it under another id with --as NEW_ID"]
    new_id = f"copy{made['id']}"
    renamed = fray("import", str(path), "--as", new_id, "--redis-url", redis_url)
    assert renamed.returncode == 0, renamed.stderr
    original = await stream(redis_url, made["id"])
    copy = await stream(redis_url, new_id)
    assert copy[0][1].command.id == new_id
    assert [e for _, e in copy[1:]] == [e for _, e in original[1:]]
    store = RedisStore(redis_url)
    await store.start()
    try:
        assert new_id in await store.list_encounters()
        await store.delete(new_id)
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("content", "fault"),
    [
        (b"", "empty, not a Fray fight export"),
        (b'{"hello": "world"}\n', "line 1: not a Fray fight export (the first line must be its header"),
        (b'{"format": "tarball", "version": 1, "encounter": "x", "rules_version": 3}\n', "line 1: not a Fray fight export (format 'tarball'"),
        (b'{"format": "fray-fight", "version": 9, "encounter": "x", "rules_version": 3}\n', "line 1: export format version 9"),
        (b'{"format": "fray-fight", "version": 1, "encounter": "x", "rules_version": 3}\nnot json\n', "line 2: not an event line"),
        (b'{"format": "fray-fight", "version": 1, "encounter": "x", "rules_version": 3}\n', "a header and no events"),
    ],
)
def test_import_refuses_a_file_that_is_not_a_fight(redis_url, tmp_path, content, fault):
    path = tmp_path / "not-a-fight.jsonl"
    path.write_bytes(content)
    done = fray("import", str(path), "--redis-url", redis_url)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"fray import: {path}") and fault in lines[0], lines
    assert done.stdout == b""


async def test_import_refuses_events_out_of_order_and_writes_nothing(fray_server, redis_url, tmp_path):
    made = fray_server.create(FIGHT)
    lines = fray("export", made["id"], "--redis-url", redis_url).stdout.splitlines()
    lines[2], lines[3] = lines[3], lines[2]
    path = tmp_path / "shuffled.jsonl"
    path.write_bytes(b"\n".join(lines))
    done = fray("import", str(path), "--as", "shuffled" + made["id"], "--redis-url", redis_url)
    assert done.returncode == 2
    assert "line 4: position" in done.stderr.decode() and "does not follow the one before it" in done.stderr.decode()
    assert await stream(redis_url, "shuffled" + made["id"]) == []


async def test_gm_exports_the_raw_stream_over_http_and_no_one_else(fray_server, redis_url):
    made = fray_server.create(FIGHT)
    await play(fray_server, made, end=False)
    url = f"{fray_server.url}/api/encounters/{made['id']}/export"
    got = httpx.get(url, params={"token": token_of(made["links"]["gm"]), "format": "jsonl"}, timeout=TIMEOUT)
    assert got.status_code == 200 and got.headers["content-type"] == "application/x-ndjson"
    by_cli = fray("export", made["id"], "--redis-url", redis_url).stdout.splitlines()
    by_http = got.content.splitlines()
    assert by_http[1:] == by_cli[1:] and len(by_http) > 5
    assert archive.parse(by_http).state.status == "running"
    player = httpx.get(url, params={"token": token_of(made["links"]["players"]["alda"]), "format": "jsonl"}, timeout=TIMEOUT)
    assert player.status_code == 403 and player.json()["code"] == "auth/forbidden"


async def test_gm_deletes_an_ended_fight_not_a_running_one(fray_server, redis_url):
    made = fray_server.create(FIGHT)
    await play(fray_server, made, end=False)
    url = f"{fray_server.url}/api/encounters/{made['id']}"
    gm = {"token": token_of(made["links"]["gm"])}
    running = httpx.request("DELETE", url, headers=JSON, params=gm, timeout=TIMEOUT)
    assert running.status_code == 409
    assert running.json() == {"code": "encounter/running", "message": "this fight is still running: end it before deleting it"}
    player = httpx.request("DELETE", url, headers=JSON, params={"token": token_of(made["links"]["players"]["alda"])}, timeout=TIMEOUT)
    assert player.status_code == 403 and player.json()["code"] == "auth/forbidden"
    watcher = await Table.join(fray_server, made["links"]["spectator"])
    gm_table = await Table.join(fray_server, made["links"]["gm"])
    ack = await gm_table.send({"type": "end"})
    assert ack["type"] == "ack", ack
    await gm_table.close()
    await watcher.until(ack["position"])
    deleted = httpx.request("DELETE", url, headers=JSON, params=gm, timeout=TIMEOUT)
    assert deleted.status_code == 200 and deleted.json() == {"id": made["id"], "deleted": True}
    # the open socket is told why and closed
    for _ in range(100):
        message = await watcher.next()
        if message["type"] == "error":
            break
    assert message["code"] == "encounter/deleted"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(watcher.ws.recv(), TIMEOUT)
    assert closed.value.rcvd.code == 4410
    assert await stream(redis_url, made["id"]) == []
    gone = httpx.get(f"{url}/digest", params=gm, timeout=TIMEOUT)
    assert gone.status_code in (403, 404)  # its links went with it
    store = RedisStore(redis_url)
    await store.start()
    try:
        assert made["id"] not in await store.list_encounters() and not await store.exists(made["id"])
    finally:
        await store.close()


async def test_ended_fights_are_archived_then_deleted_after_the_retention_time(other_redis, tmp_path):
    redis_url = other_redis  # a Redis of its own: the sweep would take every old ended fight of a shared one
    kept = tmp_path / "archive"
    server = FrayServer(redis_url, tmp_path, env={"FRAY_RETAIN_ENDED": "2s", "FRAY_ARCHIVE_DIR": str(kept)})
    try:
        ended, running = server.create(FIGHT), server.create(FIGHT)
        await play(server, ended, end=True)
        await play(server, running, end=False)
        before = await folded(redis_url, ended["id"])
        deadline = time.monotonic() + 20
        while await stream(redis_url, ended["id"]):
            assert time.monotonic() < deadline, "the ended fight was never swept"
            await asyncio.sleep(0.3)
        fight = archive.parse((kept / f"{ended['id']}.jsonl").read_bytes().splitlines())
        from fray_table.rules.reducer import canonical

        assert canonical(fight.state) == before and fight.state.status == "ended"
        await asyncio.sleep(2.5)  # more sweeps: the running fight stays, however old
        assert await stream(redis_url, running["id"])
        assert not (kept / f"{running['id']}.jsonl").exists()
    finally:
        server.stop()


def test_serve_refuses_a_bad_retention_time_in_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "fray_table.server.cli", "serve", "--redis-url", "redis://127.0.0.1:1", "--no-demo"],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        env={**os.environ, "FRAY_RETAIN_ENDED": "soon"},
    )
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [
        "fray serve: --retain-ended or FRAY_RETAIN_ENDED 'soon': a retention time is a number and a unit, like 30d, "
        "12h, 90m or 45s (or 'off'), not 'soon' (see fray serve --help)"
    ]


def test_parse_duration_units():
    assert [archive.parse_duration(t) for t in ("30d", "12h", "90m", "45s", "off", "", "0")] == [2592000, 43200, 5400, 45, None, None, None]


def edited(lines: list[bytes], header: dict | None = None, event: tuple[int, dict] | None = None, extra: dict | None = None) -> bytes:
    """An export with its header, one event line (by index among the events) or one more event changed."""
    parsed = [json.loads(line) for line in lines]
    if header:
        parsed[0].update(header)
        parsed[1]["event"]["command"].update(
            {k: v for k, v in header.items() if k == "rules_version"} | ({"id": header["encounter"]} if "encounter" in header else {})
        )
    if event:
        index, change = event
        parsed[1 + index]["event"].update(change)
    if extra:
        last = parsed[-1]["position"]
        ms, _, n = last.partition("-")
        parsed.append({"position": f"{ms}-{int(n) + 1}", "event": extra})
    return b"\n".join(json.dumps(p).encode() for p in parsed) + b"\n"


SVG = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').decode()


async def test_import_refuses_what_the_server_would_never_have_stored_and_writes_nothing(fray_server, redis_url, tmp_path):
    """Issue 28: `fray import` took the fight id from the file unchecked, and a 20 MB line,
    forged senders, a battle map that is an SVG and rules version 99."""
    made = fray_server.create(FIGHT)
    await play(fray_server, made, end=False)
    lines = fray("export", made["id"], "--redis-url", redis_url).stdout.splitlines()
    gm_only = next(i for i, line in enumerate(lines[1:]) if json.loads(line)["event"]["command"]["type"] == "force_rolls")
    cases = [
        (edited(lines, header={"encounter": "../../outside"}), "the encounter id '../../outside' is not 1 to 64 letters"),
        (edited(lines, header={"rules_version": 99}), "this fight is played under rules version 99"),
        (
            edited(lines, event=(gm_only, {"by": {"role": "player", "name": "Ann", "combatants": ["alda"]}})),
            "a 'player' may not send 'force_rolls': a forged sender",
        ),
        (edited(lines, event=(gm_only, {"by": {"role": "system", "name": "server"}})), "a 'system' may not send 'force_rolls': a forged sender"),
        (edited(lines, event=(0, {"by": {"role": "gm", "name": "GM"}})), "a 'create' is written by the server"),
        (
            edited(
                lines,
                extra={
                    "id": "gm.map",
                    "by": {"role": "gm"},
                    "command": {"type": "set_map", "image": SVG, "media": "image/svg+xml", "width": 10, "height": 10, "square": 40},
                },
            ),
            "a battle map the server refuses",
        ),
        (b"\n".join([*lines, b'{"position": "9999999999999-0", "event": "' + b"x" * (5 * 1024 * 1024) + b'"}']), "a line of 5,242,"),
    ]
    for content, fault in cases:
        path = tmp_path / "crafted.jsonl"
        path.write_bytes(content)
        done = (
            fray("import", str(path), "--as", "crafted" + made["id"], "--redis-url", redis_url)
            if "outside" not in fault
            else fray("import", str(path), "--redis-url", redis_url)
        )
        assert done.returncode == 2, (fault, done.stdout, done.stderr)
        assert fault in done.stderr.decode(), (fault, done.stderr.decode())
        assert await stream(redis_url, "crafted" + made["id"]) == [] and await stream(redis_url, "../../outside") == []
    path.write_bytes(edited(lines, header={"encounter": "../../outside"}))  # under an id of the operator's choosing, the same fight is welcome
    done = fray("import", str(path), "--as", "renamed" + made["id"], "--redis-url", redis_url)
    assert done.returncode == 0, done.stderr
    assert len(await stream(redis_url, "renamed" + made["id"])) == len(lines) - 1


async def test_a_fight_whose_id_cannot_name_a_file_is_not_archived_and_stops_no_other_sweep(other_redis, tmp_path):
    """Issue 28: an id from an unchecked import named a file outside --archive-dir, and one
    bad id stopped every retention sweep. Now it is logged and left; the others are swept."""
    redis_url = other_redis
    kept = tmp_path / "archive"
    server = FrayServer(redis_url, tmp_path, env={"FRAY_RETAIN_ENDED": "1s", "FRAY_ARCHIVE_DIR": str(kept)})
    try:
        ended = server.create(FIGHT)
        await play(server, ended, end=True)
        events = [e for _, e in await stream(redis_url, ended["id"])]
        bad = "../escaped"
        create = msgspec.structs.replace(events[0].command, id=bad)
        store = RedisStore(redis_url)
        await store.start()
        try:
            for event in [msgspec.structs.replace(events[0], command=create), *events[1:]]:
                await store.append(bad, event.id, encode_event(event))
            await store.set_meta(bad, {"created": "0", "profile": "holmes-phases", "imported": "0"})  # as an import made it
        finally:
            await store.close()
        deadline = time.monotonic() + 20
        while await stream(redis_url, ended["id"]):
            assert time.monotonic() < deadline, "the good ended fight was never swept"
            await asyncio.sleep(0.3)
        assert (kept / f"{ended['id']}.jsonl").exists()
        while "cannot name an archive file" not in server.log_path.read_text():  # the bad one's turn comes (its last event is newer)
            assert time.monotonic() < deadline, "the fight with the bad id was never tried"
            await asyncio.sleep(0.3)
        assert not (tmp_path / "escaped.jsonl").exists() and not list(tmp_path.glob(".escaped*"))
        assert await stream(redis_url, bad)  # left where it is, for the operator
    finally:
        server.stop()
