"""Issue 21: history never changes. Every golden stream folds to the state bytes it had
when frozen, event by event (tests/golden/*.states; its views and log lines:
tests/rules/test_golden.py); fights exported by the release that kept rules version 7 replay
offline (`fray replay`) and after `fray import` exactly as that release showed each
viewer; a fight folds under its own version, moves on only by the GM's upgrade_rules,
and a version this Fray does not know is refused with one line naming both."""

import dataclasses
import json
import pathlib
import subprocess
import sys

import httpx
import pytest
from golden.record import FIGHTS, HERE, load
from golden.states import frozen, hashes
from support import ROOT, FrayServer

from fray_table.rules import FIRST_KEPT_VERSION, RULES_VERSION, ruleset
from fray_table.rules.commands import CreateEncounter, UpgradeRules
from fray_table.rules.events import Actor, Event
from fray_table.rules.reducer import apply
from fray_table.rules.ruleset import Module, Profile, Revision, modules_at, revised
from fray_table.server.cli import main
from fray_table.server.embedded import EmbeddedRedis

EXPORTS = sorted((HERE / "exports").glob("v7-*.jsonl"))
GM = Actor("gm", "GM")


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_every_golden_stream_folds_to_its_frozen_state_bytes(name):
    assert hashes(load(name)) == frozen(name)


def test_the_frozen_states_cover_every_golden_stream():
    assert {p.stem for p in HERE.glob("*.states")} == {p.stem for p in HERE.glob("*.stream")} == set(FIGHTS)


def replayed(path: pathlib.Path, viewer: str, capsys) -> dict:
    assert main(["replay", str(path), "--as", viewer, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.stem)
def test_a_version_7_export_replays_offline_as_that_release_showed_each_viewer(path, capsys):
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())
    assert len(expected) >= 4
    for label, was in expected.items():
        viewer = was["viewer"]["role"] + (":" + ",".join(was["viewer"]["combatants"]) if was["viewer"]["combatants"] else "")
        now = replayed(path, viewer, capsys)
        assert now["rules_version"] == 7
        assert [e["text"] for e in now["log"]] == was["log"], label
        assert now["view"] == was["view"], label
        assert now["sha256"] == was["sha256"], label


def test_fray_replay_prints_the_log_and_the_state_hash(tmp_path):
    path = EXPORTS[0]
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())["gm"]
    done = subprocess.run([sys.executable, "-m", "fray_table.server.cli", "replay", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # a version 7 fight: no warning
    assert expected["log"][-1] in done.stdout and f"-- state sha256 {expected['sha256']}" in done.stdout


def exported(events: list[Event]) -> bytes:
    import msgspec

    header = {"format": "fray-fight", "version": 1, "encounter": events[0].command.id, "rules_version": events[0].command.rules_version}
    lines = [json.dumps(header).encode()] + [msgspec.json.encode({"position": f"{i + 1}-0", "event": e}) for i, e in enumerate(events)]
    return b"\n".join(lines) + b"\n"


def create(version: int, profile: str = "holmes-phases") -> Event:
    return Event("create", Actor("system", "server"), CreateEncounter(id="f1", profile=profile, seed=bytes(range(32)), rules_version=version))


def test_a_fight_of_a_version_this_fray_does_not_know_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "future.jsonl"
    path.write_bytes(exported([create(RULES_VERSION + 1)]))
    assert main(["replay", str(path)]) == 2
    said = capsys.readouterr().err.strip()
    assert said.count("\n") == 0
    assert f"rules version {RULES_VERSION + 1}" in said and f"versions {FIRST_KEPT_VERSION} to {RULES_VERSION}" in said


def test_a_pre_release_fight_folds_as_the_first_kept_version_with_a_warning(tmp_path, capsys):
    path = tmp_path / "old.jsonl"
    path.write_bytes(exported([create(4)]))
    assert main(["replay", str(path), "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["rules_version"] == FIRST_KEPT_VERSION
    assert "recorded with rules version 4" in out.err and f"folded under version {FIRST_KEPT_VERSION}'s rules" in out.err


def test_a_version_7_export_imported_shows_each_viewer_its_log_as_recorded(tmp_path):
    path = EXPORTS[0]
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())
    new_id = json.loads(path.read_text().splitlines()[0])["encounter"]  # its own id: the state's bytes hold it
    with EmbeddedRedis(tmp_path / "redis") as redis:  # a Redis of its own, where that id is free
        imported_shows_each_viewer_its_log(path, expected, new_id, redis.url, tmp_path)


def imported_shows_each_viewer_its_log(path: pathlib.Path, expected: dict, new_id: str, redis_url: str, tmp_path: pathlib.Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fray_table.server.cli", "import", str(path), "--redis-url", redis_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, "FRAY_SECRET": "test-secret-0123456789abcdef"},
    )
    assert done.returncode == 0, done.stderr
    gm_link = next(line.split()[-1] for line in done.stdout.splitlines() if line.strip().startswith("GM:"))
    token = gm_link.rsplit("token=", 1)[1]
    server = FrayServer(redis_url, tmp_path)
    try:
        log = httpx.get(f"{server.url}/api/encounters/{new_id}/log", params={"token": token}, timeout=10).json()
        assert [e["text"] for e in log] == expected["gm"]["log"]
        spectator = httpx.post(f"{server.url}/api/encounters/{new_id}/links", params={"token": token}, json={"role": "spectator"}, timeout=10).json()
        seen = httpx.get(f"{server.url}/api/encounters/{new_id}/log", params={"token": spectator["link"].rsplit("token=", 1)[1]}, timeout=10).json()
        assert [e["text"] for e in seen] == expected["spectator"]["log"]
        digest = httpx.get(f"{server.url}/api/encounters/{new_id}/digest", params={"token": token}, timeout=10).json()
        assert digest["sha256"] == expected["gm"]["sha256"]
    finally:
        server.stop()


# --- the rules core: versions choose modules -------------------------------------


def test_a_revision_replaces_its_modules_from_its_version_on_only():
    first = Module("to_hit", "the first", hooks={"bare_roll": len, "shot": abs})
    later = revised(first, help="the second", hooks={"bare_roll": max})
    record = Profile("x", "doc", "X", "ascending", (), modules=(first, Module("dying", "d")), revisions=(Revision(8, (later,), "why"),))
    assert modules_at(record, 7)[0] is first
    assert modules_at(record, 8)[0] is later and modules_at(record, 9)[0] is later
    assert later.hooks == {"bare_roll": max, "shot": abs}  # only the hook it names is new
    assert [m.name for m in modules_at(record, 8)] == ["to_hit", "dying"]
    assert dataclasses.replace(first) == first


def test_a_fight_keeps_its_version_and_pre_release_ones_fold_as_the_first_kept():
    assert ruleset.kept(4) == ruleset.kept(FIRST_KEPT_VERSION) == FIRST_KEPT_VERSION
    assert ruleset.kept(RULES_VERSION) == RULES_VERSION
    with pytest.raises(ruleset.RulesUnavailable, match=f"rules version is {RULES_VERSION + 1}"):
        ruleset.kept(RULES_VERSION + 1)
    state = apply(None, create(FIRST_KEPT_VERSION))
    assert ruleset.rules_of(state) is ruleset.compose("holmes-phases", (), FIRST_KEPT_VERSION)


def upgraded(version: int, to: int) -> tuple:
    state = apply(None, create(version))
    after = apply(state, Event("u1", GM, UpgradeRules(version=to)))
    return state, after


def test_upgrade_rules_moves_a_fight_on_and_says_so():
    before, after = upgraded(FIRST_KEPT_VERSION, RULES_VERSION)
    assert (before.rules_version, after.rules_version) == (FIRST_KEPT_VERSION, RULES_VERSION)
    assert after.seed == before.seed and after.seq == before.seq + 1  # the dice go on from the same seed and position
    assert [e.text for e in after.recent] == [
        f"The GM moves the fight on to rules version {RULES_VERSION} (it was played under version {FIRST_KEPT_VERSION}): "
        "from here on it is played under those rules; what happened before stays as it was."
    ]
    assert ruleset.rules_of(after) is ruleset.compose("holmes-phases", (), RULES_VERSION)


@pytest.mark.parametrize(
    ("version", "to", "code"),
    [(RULES_VERSION, RULES_VERSION, "upgrade/not-newer"), (4, FIRST_KEPT_VERSION, "upgrade/not-newer"), (FIRST_KEPT_VERSION, 99, "upgrade/unknown-version")],
)
def test_upgrade_rules_is_refused_where_it_cannot_apply(version, to, code):
    before, after = upgraded(version, to)
    assert [e.code for e in after.recent] == [code]
    assert after.rules_version == before.rules_version


def test_only_the_gm_moves_a_fight_on():
    state = apply(None, create(FIRST_KEPT_VERSION))
    after = apply(state, Event("u1", Actor("player", "Ann", ("alda",)), UpgradeRules(version=RULES_VERSION)))
    assert [e.code for e in after.recent] == ["auth/forbidden"] and after.rules_version == FIRST_KEPT_VERSION


def test_a_fork_goes_on_under_its_origins_rules_or_todays():
    from fray_table.server.forks import fork_events

    origin = [create(FIRST_KEPT_VERSION), Event("a1", GM, UpgradeRules(version=FIRST_KEPT_VERSION))]  # a refused move: still 7
    _, same = fork_events(origin, 1, "f2", bytes(32))
    assert same.rules_version == FIRST_KEPT_VERSION
    _, today = fork_events(origin, 1, "f3", bytes(32), rules_version=RULES_VERSION)
    assert today.rules_version == RULES_VERSION
    assert today.recent[-1].text.startswith(f"A fork of encounter f1 after its event #1 (rules version now {RULES_VERSION}); a new seed")


def test_a_fork_of_rules_newer_than_the_replica_knows_is_refused():
    from fray_table.server.forks import ForkRefused, fork_events

    with pytest.raises(ForkRefused) as refused:
        fork_events([create(RULES_VERSION)], 0, "f2", bytes(32), newest=FIRST_KEPT_VERSION)
    assert (refused.value.status, refused.value.code) == (409, "rules/unknown-version")


@pytest.mark.parametrize(("version", "told"), [(FIRST_KEPT_VERSION, []), (RULES_VERSION, ["After the undo, Goblin: 7 HP (was 3)."])])
def test_an_undo_says_what_it_changed_from_version_8_on_only(version, told):
    """Issue 27's lines after an undo are a rule of version 8 (the hook `undone`): a fight of
    version 7 undoes as it always did, its undo's own line alone."""
    from fray_table.rules.commands import AddCombatant, EditCombatant, Undo
    from fray_table.rules.history import resolve
    from fray_table.rules.model import Combatant

    goblin = Combatant(id="gob", name="Goblin", side="goblins", ac=13, hp=7, hp_max=7, dex=9, x=15, y=10)
    events = [create(version), Event("a1", GM, AddCombatant(goblin)), Event("e1", GM, EditCombatant(id="gob", hp=3))]
    state = None
    for event in events:
        state = apply(state, event)
    undo = resolve(events, Event("u1", GM, Undo(seq=2)))
    after = apply(state, undo)
    assert [e.text for e in after.recent] == ["GM undid “GM edits Goblin: hp 3.” (event #2).", *told]
