"""Table chat and GM whispers (issue 13): lines of the log like any other, each with
its audience fixed where it is made (DESIGN, 'The log'), so a whisper reaches its
addressee and the GM in updates, welcomes, replays and exports alike, and never anyone
else, whatever happens later.

`say {text}` speaks to the table; `say {text, to}` whispers: the GM to the player who
controls combatant `to`, a player to the GM (`to: "gm"`). Plain text, 1 to 500
characters, no control characters; the server also limits how fast one link
may chat (server.limits, `chat/too-fast`).
"""

import unicodedata

from .commands import Say
from .context import Context, lookup
from .errors import Rejected
from .events import Actor
from .model import Encounter, Entry

MAX_TEXT = 500  # characters of one chat line
GM = "gm"


NOT_PLAIN = ("Cc", "Cf", "Co", "Cs")  # Unicode categories: control (a newline), format (a right-to-left override), private use, surrogates


def plain(text: str) -> bool:
    """Is it plain text, as a person's words must be (a chat line, a name, a spell): no
    control or formatting character. The server asks it of every string of every
    command and request body before anything is stored (server.protocol.unplain)."""
    # isprintable() (C speed) is False for every character of those categories, and for some
    # plain ones too (a no-break space): only those strings are read character by character.
    return text.isprintable() or not any(unicodedata.category(ch) in NOT_PLAIN for ch in text)


def to_audience(cid: str) -> str:
    """The audience of a whisper to the player who controls combatant `cid` (rules.view.sees)."""
    return f"to:{cid}"


def check_say(state: Encounter, by: Actor, cmd: Say) -> None:
    text = cmd.text.strip()
    if not text:
        raise Rejected("chat/empty", "say something: the message is empty")
    if len(text) > MAX_TEXT:
        raise Rejected("chat/too-long", f"a chat message is at most {MAX_TEXT} characters, not {len(text)}")
    if not plain(text):
        raise Rejected("chat/bad-text", "a chat message is plain text: no control or formatting characters")
    if not cmd.to:
        return
    if by.role != "gm":
        if cmd.to != GM:
            raise Rejected("chat/whisper-to-gm", "a player whispers to the GM alone (to: 'gm')")
        return
    if cmd.to == GM or lookup(state, cmd.to) is None:
        raise Rejected("chat/unknown-addressee", f"there is no combatant {cmd.to!r} to whisper to")


def say(ctx: Context, cmd: Say) -> None:
    by, text = ctx.by, cmd.text.strip()
    speaker = "GM" if by.role == "gm" else by.name or "A player"
    if not cmd.to:
        kind, line, audience = "chat", f"{speaker}: {text}", "all"
    elif by.role == "gm":
        kind, line, audience = "whisper", f"GM whispers to {ctx.combatant(cmd.to).name}: {text}", to_audience(cmd.to)
    else:
        kind, line, audience = "whisper", f"{speaker} whispers to the GM: {text}", "player:" + ",".join(by.combatants)
    # Not ctx.log: a person's words are theirs as typed, never read against the fight's secrets.
    ctx.state.recent.append(Entry(seq=ctx.state.seq, kind=kind, text=line, command_id=ctx.command_id, audience=audience))
