"""The battle map's background image (issue 13, Deliver 7): set by the GM with its
scale, in the stream, in every viewer's view and replay, size-limited; removed, undone."""

import base64
import struct
import zlib

import httpx
import msgspec
import pytest
from support import token_of

from fray_table.rules.battlemap import MAP_BYTES
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, view

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "x": 20, "y": 10},
    ],
    "players": {"Ann": ["alda"]},
}


def png(width: int, height: int, rgb=(40, 120, 60)) -> bytes:
    """A real PNG of one colour (the PNG specification's chunks, by hand)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    )


def set_map(image: bytes, **fields) -> dict:
    return {"type": "set_map", "image": base64.b64encode(image).decode(), "media": "image/png", "width": 200, "height": 120, "square": 20, **fields}


def test_the_map_is_in_every_viewers_view_and_its_checks_name_what_is_wrong():
    image = png(200, 120)
    played = play({"combatants": FIGHT["combatants"], "commands": [set_map(image)]})
    for viewer in (Viewer("gm"), Viewer("player", ("alda",)), Viewer("spectator")):
        shown = view(played.state, viewer).battle_map
        assert shown.image == image and (shown.width, shown.height, shown.square, shown.media) == (200, 120, 20, "image/png"), viewer
    assert [e.text for e in played.log if e.kind == "gm"] == ["GM sets the battle map: 200 × 120 px, 20 px a 5-ft square (50 × 30 ft)."]
    refused = play(
        {
            "combatants": FIGHT["combatants"],
            "commands": [
                set_map(b"GIF89a" + bytes(20)),
                set_map(image, media="image/jpeg"),
                set_map(b"\x89PNG\r\n\x1a\n" + bytes(MAP_BYTES)),
                set_map(image, square=2),
                {"type": "set_map"},
            ],
        }
    )
    assert [e.code for e in refused.log if e.kind == "rejected"] == ["map/bad-image", "map/bad-image", "map/too-big", "map/bad-size", "map/nothing-to-clear"]
    assert refused.state.battle_map is None


def test_removing_and_undoing_the_map():
    image = png(40, 40)
    played = play({"combatants": FIGHT["combatants"], "commands": [set_map(image, width=40, height=40), {"type": "set_map"}]})
    assert played.state.battle_map is None and view(played.state, Viewer("gm")).battle_map is msgspec.UNSET  # left out of the view
    undone = play({"combatants": FIGHT["combatants"], "commands": [set_map(image, width=40, height=40), {"type": "set_map"}, {"type": "undo", "seq": 4}]})
    assert undone.state.battle_map is not None and undone.state.battle_map.image == image


@pytest.mark.redis
async def test_the_map_reaches_every_socket_and_the_replay_before_and_after(fray_server, join):
    made = fray_server.create(FIGHT)
    gm = await join(fray_server, made["links"]["gm"])
    ann = await join(fray_server, made["links"]["players"]["Ann"])
    image = png(200, 120)
    ack = await gm.send(set_map(image))
    assert ack["type"] == "ack", ack
    await ann.until(ack["position"])
    assert base64.b64decode(ann.view["battle_map"]["image"]) == image and ann.view["battle_map"]["square"] == 20
    late = await join(fray_server, made["links"]["spectator"])
    assert base64.b64decode(late.view["battle_map"]["image"]) == image
    ack = await gm.send({"type": "set_map"})
    await ann.until(ack["position"])
    assert "battle_map" not in ann.view
    base = f"{fray_server.url}/api/encounters/{made['id']}/replay"
    token = token_of(made["links"]["spectator"])
    seq = next(e["seq"] for e in gm.log if e["text"].startswith("GM sets the battle map"))
    then = httpx.get(base, params={"token": token, "at": seq}).json()["view"]
    now = httpx.get(base, params={"token": token}).json()["view"]
    assert base64.b64decode(then["battle_map"]["image"]) == image and "battle_map" not in now
