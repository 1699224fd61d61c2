"""The battle map's background (issue 13): an image the GM sets under the grid, with
its scale, stored in the stream with the encounter (so every replay shows it as it was
then) and shown to everyone. Size-limited so it fits one websocket frame (64 KB by
default) as base64: MAP_BYTES.
"""

from msgspec import Struct

from .commands import SetMap
from .context import Context
from .errors import Rejected
from .model import Encounter, MapImage

MAP_BYTES = 45_000  # bytes of image: 60 KB as base64, inside the default 64 KB frame
MAX_PX = 8000  # an image side, in pixels
SQUARE_PX = (4, 1000)  # pixels a 5-ft square spans in the image
# The image kinds a browser shows, by the bytes their files begin with.
MAGIC = {"image/png": (b"\x89PNG\r\n\x1a\n",), "image/jpeg": (b"\xff\xd8\xff",), "image/webp": (b"RIFF",)}


class MapView(Struct):
    """The background as every viewer's view has it (the image base64 in JSON)."""

    media: str
    image: bytes
    width: int  # pixels
    height: int
    square: int  # pixels a 5-ft square spans
    seq: int  # the event that set it


def check_set_map(state: Encounter, cmd: SetMap) -> None:
    if not cmd.image:
        if state.battle_map is None:
            raise Rejected("map/nothing-to-clear", "there is no battle map to remove")
        return
    if len(cmd.image) > MAP_BYTES:
        raise Rejected("map/too-big", f"a battle map image is at most {MAP_BYTES // 1000} KB, not {len(cmd.image) // 1000} KB: make it smaller")
    if cmd.media not in MAGIC or not cmd.image.startswith(MAGIC[cmd.media]) or (cmd.media == "image/webp" and cmd.image[8:12] != b"WEBP"):
        raise Rejected("map/bad-image", f"the image must be a PNG, JPEG or WebP file, as its media type says ({', '.join(MAGIC)})")
    if not (1 <= cmd.width <= MAX_PX and 1 <= cmd.height <= MAX_PX and SQUARE_PX[0] <= cmd.square <= SQUARE_PX[1]):
        raise Rejected("map/bad-size", f"width and height are 1 to {MAX_PX} pixels, and a 5-ft square spans {SQUARE_PX[0]} to {SQUARE_PX[1]} of them")


def set_map(ctx: Context, cmd: SetMap) -> None:
    state = ctx.state
    if not cmd.image:
        state.battle_map = None
        ctx.log("gm", "GM removes the battle map.")
        return
    state.battle_map = MapImage(media=cmd.media, image=cmd.image, width=cmd.width, height=cmd.height, square=cmd.square, seq=state.seq)
    feet = (cmd.width * 5 // cmd.square, cmd.height * 5 // cmd.square)
    ctx.log("gm", f"GM sets the battle map: {cmd.width} × {cmd.height} px, {cmd.square} px a 5-ft square ({feet[0]} × {feet[1]} ft).")


def map_view(state: Encounter) -> MapView | None:
    m = state.battle_map
    return None if m is None else MapView(media=m.media, image=m.image, width=m.width, height=m.height, square=m.square, seq=m.seq)
