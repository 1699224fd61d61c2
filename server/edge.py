"""What is refused at the server's edge, before any route runs: a request whose
`Host` is not one this server answers to (DNS rebinding: a page whose own name
now points at Fray would otherwise be same-origin with it, and read its answers),
and a state-changing API request that a page of another site could send
(a cross-site `Origin`, or a body that is not `application/json`: plain text,
a form). Every refusal is `{code, message}` JSON (docs/security.md).
"""

import ipaddress
import urllib.parse
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse
from starlette.routing import Match

from .addresses import ANY, interface_addresses, lan_address

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
# Probes may come without a Host at all (HAProxy's `option httpchk` speaks HTTP/1.0):
# a browser always sends one, and they build no link.
PROBES = frozenset({"/livez", "/readyz", "/healthz"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# JSON, or JSON lines (a file `POST /api/campaigns/import` takes): neither is a type a page of
# another site may send without the browser asking the server first (a CORS preflight).
JSON_TYPES = frozenset({"application/json", "application/x-ndjson"})
UNKNOWN_HOST = "request/unknown-host"
NOT_JSON = "request/not-json"
CROSS_SITE = "auth/origin"


def refusal(status: int, code: str, message: str, headers: dict[str, str]) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers)


def bracketed(host: str) -> str:
    """A host as it appears in a Host header: an IPv6 address in brackets, a name lowercased."""
    host = host.strip().lower()
    try:
        if ipaddress.ip_address(host.strip("[]")).version == 6:
            return f"[{host.strip('[]')}]"
    except ValueError:
        pass
    return host


def hosts_answered(bind: str, public_url: str = "", extra: Iterable[str] = ()) -> list[str]:
    """The names a server bound to `bind` answers to: loopback's, the bound address (every
    interface's, and the LAN address it prints, when bound to all), the public URL's host,
    and those given (`--allowed-hosts`; '*' for any, '*.example.org' for a domain's)."""
    names = [*LOOPBACK_NAMES]
    if bind in ANY:
        names += [lan_address(), *(str(a) for a in interface_addresses())]
    else:
        names.append(bind)
    if public_url and (host := urllib.parse.urlsplit(public_url).hostname):
        names.append(host)
    names += [h for h in extra if h.strip()]
    return list(dict.fromkeys(bracketed(h) for h in names))


def host_of(header: str) -> str | None:
    """The host of a Host header value ('example.org:8000' -> 'example.org', '[::1]:80' -> '[::1]'); None if malformed."""
    if header.startswith("["):
        host, sep, rest = header.partition("]")
        host += sep
        if not sep or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return host.lower()
    host, _, port = header.rpartition(":") if ":" in header else (header, "", "")
    if port and not port.isdigit() or not host or any(c in host for c in "/@ \\?#"):
        return None
    return host.lower()


def same_site(origin: str, host: str | None, origins: frozenset[str]) -> bool:
    """Is a request with this `Origin` from a page of this server (its `Host`, one the
    server answers to: KnownHosts checked it) or of an origin configured (`--origin`)?"""
    origin = origin.rstrip("/").lower()
    if origin in origins:
        return True
    netloc = urllib.parse.urlsplit(origin).netloc if "://" in origin else ""
    return bool(netloc) and host is not None and netloc == host.lower()


class KnownHosts(TrustedHostMiddleware):
    """Starlette's TrustedHostMiddleware (its patterns: a name, '*.domain', '*'), answering
    `{code, message}` (400) and letting a probe without a Host through. `refused(scope)`
    is the check alone, for Fray.__call__, which routes its websockets itself."""

    def __init__(self, app, allowed_hosts: list[str], headers: dict[str, str]) -> None:
        super().__init__(app, allowed_hosts=allowed_hosts, www_redirect=False)
        self.headers = headers

    def allows(self, host: str) -> bool:
        return self.allow_any or any(host == p or (p.startswith("*") and host.endswith(p[1:])) for p in self.allowed_hosts)

    def refused(self, scope) -> JSONResponse | None:
        if self.allow_any or scope["type"] not in ("http", "websocket"):
            return None
        header = Headers(scope=scope).get("host")
        if header is None and scope["path"] in PROBES:
            return None
        host = host_of(header or "")
        if host is not None and self.allows(host):
            return None
        shown = (header or "")[:80]
        return refusal(
            400,
            UNKNOWN_HOST,
            f"this server does not answer to the host {shown!r}: open it by an address it serves, or add that name with --allowed-hosts",
            self.headers,
        )

    async def __call__(self, scope, receive, send) -> None:
        if (response := self.refused(scope)) is not None:
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def routed(scope) -> bool:
    """Does a route take this request, its path and its method? (Else the router answers 404 or 405.)"""
    return any(route.matches(scope)[0] == Match.FULL for route in scope["app"].router.routes)


class SameSiteWrites:
    """ASGI middleware: a request under /api/ that changes something (any method but GET,
    HEAD, OPTIONS) must come from no page or one of this site (`Origin`, 403 auth/origin),
    and say its body is JSON (415 request/not-json), which a page of another site cannot
    send without the browser asking Fray first (a CORS preflight, which Fray never grants)."""

    def __init__(self, app, origins: Iterable[str], headers: dict[str, str]) -> None:
        self.app = app
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)
        self.headers = headers

    def refused(self, scope) -> JSONResponse | None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS or not scope["path"].startswith("/api/") or not routed(scope):
            return None
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is not None and not same_site(origin, headers.get("host"), self.origins):
            return refusal(403, CROSS_SITE, f"requests from the page {origin[:60]!r} are not allowed: it is not this server's", self.headers)
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media not in JSON_TYPES:
            said = repr(media[:60]) if media else "none"
            return refusal(
                415, NOT_JSON, f"send this request with 'Content-Type: application/json' (the body is JSON, even when empty); it said {said}", self.headers
            )
        return None

    async def __call__(self, scope, receive, send) -> None:
        if (response := self.refused(scope)) is not None:
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
