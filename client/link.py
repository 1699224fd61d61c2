"""An invite link (`http://host:port/e/<encounter>?token=...`, docs/protocol.md "Joining")
read as the websocket address it opens."""

import urllib.parse
from dataclasses import dataclass


@dataclass(frozen=True)
class Link:
    base: str  # ws://host:port or wss://host:port, with any path prefix the link's page has
    encounter: str
    token: str

    def socket_url(self, after: str = "") -> str:
        """The encounter's websocket; `after`: the last position seen, to get only what was missed."""
        query = {"token": self.token, **({"after": after} if after and after != "0-0" else {})}
        return f"{self.base}/ws/encounters/{urllib.parse.quote(self.encounter, safe='')}?{urllib.parse.urlencode(query)}"


def parse(link: str) -> Link:
    """The link a server printed or the GM console copied; ValueError naming what is wrong."""
    parts = urllib.parse.urlsplit(link.strip())
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise ValueError(f"an invite link starts with http:// or https:// and names a server, not {link[:60]!r}")
    head, marker, encounter = parts.path.rpartition("/e/")
    if not marker or not encounter or "/" in encounter:
        raise ValueError(f"an invite link's path ends in /e/<encounter>, not {parts.path[:60]!r}")
    tokens = urllib.parse.parse_qs(parts.query).get("token")
    if not tokens or not tokens[0]:
        raise ValueError("the invite link has no ?token=")
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    return Link(base=f"{scheme}://{parts.netloc}{head}", encounter=urllib.parse.unquote(encounter), token=tokens[0])
