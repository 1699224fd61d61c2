"""Behind a reverse proxy: believe X-Forwarded-Proto, -Host and -For, but only
from the proxies named by `--forwarded-allow-ips`, so that links and the
websocket origin check follow the address players actually used
(https://table.example) instead of the proxy's hop (http://10.0.0.5:8000).

uvicorn's own proxy_headers middleware reads Proto and For but not Host, and
runs before the app can tell who the direct peer was; so Fray does all three
here, on the outermost layer (the websocket route included).
"""

import ipaddress


class Trusted:
    def __init__(self, spec: str) -> None:
        items = [v.strip() for v in spec.split(",") if v.strip()]
        self.everyone = "*" in items
        self.networks = [ipaddress.ip_network(v, strict=False) for v in items if v != "*"]

    def __bool__(self) -> bool:
        return self.everyone or bool(self.networks)

    def __contains__(self, host: str) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:  # a unix socket peer, or no peer
            return False
        return any(address in net for net in self.networks)


def last(value: bytes) -> str:
    # A chain of proxies appends: the last item is what the nearest (trusted) one saw.
    return value.decode("latin-1").rsplit(",", 1)[-1].strip()


class ForwardedHeaders:
    def __init__(self, app, trusted: Trusted) -> None:
        self.app = app
        self.trusted = trusted

    def __getattr__(self, name):  # app.state and the like, for whoever holds the wrapped app
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket") and (client := scope.get("client")) and client[0] in self.trusted:
            headers = dict(scope["headers"])
            scope = dict(scope)
            if proto := headers.get(b"x-forwarded-proto"):
                proto = last(proto).lower()
                if proto in ("http", "https"):
                    scope["scheme"] = proto if scope["type"] == "http" else proto.replace("http", "ws")
            if host := headers.get(b"x-forwarded-host"):
                value = last(host).encode("latin-1")
                scope["headers"] = [(k, v) for k, v in scope["headers"] if k != b"host"] + [(b"host", value)]
            if fwd := headers.get(b"x-forwarded-for"):
                scope["client"] = (last(fwd), 0)
        await self.app(scope, receive, send)
