"""Forced dice by die (issue 13, Deliver 4): the GM queues results for one kind of die
(`force_rolls {values, sides}`), each used by the next roll of that kind only; sees the
queues (GM's view `forced_by_die`) and clears them (`clear_forced`). The untyped queue
(`force_rolls {values}`, every stored fight's and scenario file's `dice`) works as before."""

import msgspec
import pytest
from support import wire

from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, view
from fray_table.server.views import Views

FIGHT = {
    "options": {"sealed_declarations": False, "weapon_damage": True},
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "attack_bonus": 1, "dex": 14, "x": 10, "y": 10},
        {
            "id": "gob",
            "name": "Goblin",
            "side": "goblins",
            "ac": 13,
            "hp": 30,
            "hp_max": 30,
            "dex": 9,
            "x": 15,
            "y": 10,
            "weapons": [{"name": "club", "damage": "1d6"}],
        },
    ],
}
ROUND = [
    {"type": "declare", "actor": "alda", "action": {"type": "attack", "target": "gob"}},
    {"type": "declare", "actor": "gob", "action": {"type": "attack", "target": "alda"}},
    {"type": "advance"},
]


def rolls(played, kind="attack"):
    return [(r.sides, r.value, r.forced) for e in played.log if e.kind in (kind, "damage") for r in e.rolls]


def test_a_value_forced_for_a_kind_of_die_feeds_the_next_roll_of_that_kind_only():
    """'20 2' meant for two d20s once put the 2 on a d6 of damage (issue 13): forced as d20s,
    the 2 waits for the second d20 while the d6 of damage rolls from the seed."""
    played = play(
        {
            **FIGHT,
            "dice": [5, 6],  # 003 surprise, the untyped queue: nobody surprised
            "commands": [
                {"type": "start"},
                {"type": "force_rolls", "values": [19, 2], "sides": 20},
                {"type": "force_rolls", "values": [4], "sides": 8},
                *ROUND,
            ],
        }
    )
    attacks = [e for e in played.log if e.kind == "attack"]
    # Alda (DEX 14) first: d20 19 hits, her sword's d6 is the seed's; the goblin's d20 is the 2.
    assert [(r.sides, r.value, r.forced) for r in attacks[0].rolls] == [(20, 19, True)]
    assert attacks[1].text == "Goblin attacks Alda: d20 2 + 0 combat bonus + AC 4 = 6 < 19: miss."
    assert [(r.sides, r.value, r.forced) for r in attacks[1].rolls] == [(20, 2, True)]
    damage = [r for e in played.log if e.kind == "damage" for r in e.rolls]
    assert damage and all(r.sides == 6 and not r.forced for r in damage)
    assert played.state.forced_by_die == {"8": [4]}  # no d8 was rolled: it waits
    gm = view(played.state, Viewer("gm"))
    assert gm.forced_by_die == {"8": [4]} and gm.forced == []
    assert view(played.state, Viewer("player", ("alda",))).forced_by_die is msgspec.UNSET
    assert [e.text for e in played.log if e.kind == "gm"][1:3] == ["GM forces the next d20 rolls: 19, 2.", "GM forces the next d8 rolls: 4."]


def test_the_untyped_queue_still_feeds_whatever_die_rolls_next_and_both_queues_clear():
    played = play(
        {**FIGHT, "dice": [5, 6, 20, 3], "commands": [{"type": "start"}, ROUND[0], {"type": "declare", "actor": "gob", "action": {"type": "hold"}}, ROUND[2]]}
    )
    assert rolls(played)[:2] == [(20, 20, True), (6, 3, True)]  # as every stored fight had it
    played = play(
        {
            **FIGHT,
            "dice": [5, 6, 7],
            "commands": [
                {"type": "force_rolls", "values": [19], "sides": 20},
                {"type": "force_rolls", "values": [6], "sides": 6},
                {"type": "clear_forced", "sides": 20},
                {"type": "clear_forced", "sides": 20},
            ],
        }
    )
    assert played.state.forced_by_die == {"6": [6]} and played.state.forced == [5, 6, 7]
    assert [(e.code, e.text) for e in played.log if e.kind == "rejected"] == [("dice/nothing-forced", "Rejected: no forced result waits for a d20.")]
    played = play({**FIGHT, "dice": [5], "commands": [{"type": "force_rolls", "values": [6], "sides": 6}, {"type": "clear_forced"}]})
    assert played.state.forced_by_die == {} and played.state.forced == []
    assert [e.text for e in played.log if e.kind == "gm"][-1] == "GM clears every forced result."


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "force_rolls", "values": [7], "sides": 6}, "dice/too-high"),
        ({"type": "force_rolls", "values": [1], "sides": 1}, "dice/bad-die"),
        ({"type": "force_rolls", "values": [1], "sides": 1001}, "dice/bad-die"),
        ({"type": "force_rolls", "values": [], "sides": 6}, "dice/empty"),
        ({"type": "clear_forced", "sides": 0}, "dice/nothing-forced"),
    ],
)
def test_bad_forced_dice_are_refused_naming_what_is_wrong(command, code):
    played = play({**FIGHT, "commands": [command]})
    assert [e.code for e in played.log if e.kind == "rejected"] == [code]
    assert played.state.forced_by_die == {} and played.state.forced == []


def test_the_gms_shared_view_carries_the_queues_by_die_as_the_reference_does():
    played = play(
        {**FIGHT, "dice": [5], "commands": [{"type": "force_rolls", "values": [20, 17], "sides": 20}, {"type": "force_rolls", "values": [3], "sides": 6}]}
    )
    views = Views()
    for viewer in (Viewer("gm"), Viewer("player", ("alda",)), Viewer("spectator")):
        assert wire(views.of(played.state, viewer)) == wire(view(played.state, viewer)), viewer
    assert views.of(played.state, Viewer("gm"))["forced_by_die"] == {"6": [3], "20": [20, 17]}
    assert "forced_by_die" not in views.of(played.state, Viewer("spectator"))


def test_undoing_a_force_by_die_empties_that_queue_and_a_redo_refills_it():
    played = play({**FIGHT, "commands": [{"type": "force_rolls", "values": [20, 17], "sides": 20}, {"type": "undo", "seq": 3}]})
    assert played.state.forced_by_die == {}
    played = play({**FIGHT, "commands": [{"type": "force_rolls", "values": [20, 17], "sides": 20}, {"type": "undo", "seq": 3}, {"type": "undo", "seq": 4}]})
    assert played.state.forced_by_die == {"20": [20, 17]}


@pytest.mark.redis
async def test_the_gms_frames_show_the_queues_by_die_and_patch_them_away(fray_server, join):
    """Over the wire: the queue by die reaches the GM's view through patches (keys '20', as
    JSON has them), is used up, and is never in a player's frame."""
    made = fray_server.create({**FIGHT, "players": {"Ann": ["alda"]}})
    gm = await join(fray_server, made["links"]["gm"])
    ann = await join(fray_server, made["links"]["players"]["Ann"])
    for command in ({"type": "force_rolls", "values": [20, 17], "sides": 20}, {"type": "force_rolls", "values": [3], "sides": 6}):
        await gm.until((await gm.send(command))["position"])
    assert gm.view["forced_by_die"] == {"6": [3], "20": [20, 17]}
    await gm.until((await gm.send({"type": "clear_forced", "sides": 20}))["position"])
    assert gm.view["forced_by_die"] == {"6": [3]}
    ack = await gm.send({"type": "clear_forced"})
    await gm.until(ack["position"])
    await ann.until(ack["position"])
    assert "forced_by_die" not in gm.view and gm.view["forced"] == []
    assert "forced_by_die" not in "".join(ann.frames)


def test_a_veiled_fork_does_not_hand_the_origin_gms_forced_dice_to_its_new_gm():
    """A fork from a player's link (rules/fork.py, a new veil): the dice the origin's GM forced
    and did not use, by die or not, are not in the fork's state for its new GM to read."""
    from fray_table.rules.commands import Fork
    from fray_table.rules.events import Actor, Event
    from fray_table.rules.reducer import apply

    played = play({**FIGHT, "dice": [5], "commands": [{"type": "force_rolls", "values": [20], "sides": 20}]})
    assert played.state.forced == [5] and played.state.forced_by_die == {"20": [20]}
    at = played.state.seq - 1
    fork = Fork(id="f1", seed=bytes(32), origin=played.state.id, at=at, veil=at, veil_role="player", veil_combatants=["alda"])
    forked = apply(played.state, Event("fork-1", Actor("system", "server"), fork))
    assert forked.origin is not None and forked.forced == [] and forked.forced_by_die == {}
