"""Signed invite tokens: HMAC-SHA256 over a small JSON claim set.

A token names the encounter, the role and, for players, the combatants they
control. Every replica that shares the secret accepts every other's tokens.
"""

import base64
import hashlib
import hmac
import math
import secrets
import time

import msgspec
from msgspec import Struct

from ..rules.view import Viewer


class Claims(Struct, frozen=True):
    e: str  # encounter id
    r: str  # role: gm | player | spectator
    c: tuple[str, ...] = ()  # combatants a player controls
    n: str = ""  # display name
    x: int = 0  # expiry, unix seconds; 0 = never
    i: str = ""  # token id, for revocation

    def viewer(self) -> Viewer:
        return Viewer(role=self.r, combatants=self.c)


ROLES = ("gm", "player", "spectator")


class BadToken(Exception):
    pass


MAX_TOKEN = 2048  # characters; a longer one is refused before any work
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(Claims).decode


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise RuntimeError("the token secret must be at least 16 bytes (set FRAY_SECRET)")
        self.secret = secret

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self.secret, body.encode(), hashlib.sha256).digest())

    def claims(self, encounter: str, role: str, combatants: tuple[str, ...] = (), name: str = "", ttl: int = 0) -> Claims:
        """New claims with a fresh token id; `ttl` seconds until expiry (0: never)."""
        if role not in ROLES:
            raise RuntimeError(f"a token's role is one of {', '.join(ROLES)}, not {role!r}")
        return Claims(e=encounter, r=role, c=combatants, n=name, x=math.ceil(time.time() + ttl) if ttl else 0, i=secrets.token_hex(6))

    def sign(self, claims: Claims) -> str:
        """The token for these claims; the same claims always give the same token,
        so a stored claim set is enough to show its link again."""
        body = _b64(_encode(claims))
        return f"{body}.{self._sign(body)}"

    def issue(self, encounter: str, role: str, combatants: tuple[str, ...] = (), name: str = "", ttl: int = 0) -> str:
        return self.sign(self.claims(encounter, role, combatants, name, ttl))

    def verify(self, token: str, encounter: str) -> Claims:
        body, _, sig = token.partition(".")
        if not body or not sig or len(token) > MAX_TOKEN or not token.isascii():
            raise BadToken("the invite token is not valid (malformed)")
        if not hmac.compare_digest(sig.encode(), self._sign(body).encode()):
            raise BadToken("the invite token is not valid (bad signature)")
        try:
            claims = _decode(_unb64(body))
        except (ValueError, msgspec.DecodeError):
            raise BadToken("the invite token is not valid (unreadable)") from None
        if claims.e != encounter:
            raise BadToken("the invite token is for another encounter")
        if claims.x and claims.x < time.time():
            raise BadToken("the invite token has expired")
        return claims
