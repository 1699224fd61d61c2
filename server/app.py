"""The Starlette app: its routes, its lifespan (store, hub, signer), and the pages."""

import asyncio
import contextlib
import importlib.metadata
import os
import pathlib
import re
import secrets

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .. import client_web
from ..rules import RULES_VERSION
from ..rules.profiles import catalogue
from . import api, campaign_archive, campaign_fights, campaigns, connection, forks, handover, metrics, replay, simulate_api, verify
from .api import SECURITY_HEADERS, error
from .archive import Sweeper
from .campaign_store import CampaignStore
from .chronicle import Rebuilds
from .collector import Collector
from .edge import KnownHosts, SameSiteWrites, hosts_answered
from .hub import Hub
from .limits import Limits
from .security import Access, SecurityHeaders
from .simulate_api import Simulator
from .store import RedisStore, StoreUnavailable, connect
from .tokens import Signer

CLIENT_DIR = pathlib.Path(client_web.__file__).parent
SOCKET_PATH = re.compile(r"/ws/encounters/([^/]+)")
# The only request headers an encounter socket reads (connection.encounter_socket: its origin
# check). The scope lives as long as the socket; the rest of its headers, ~1 KB, go (issue 24).
SOCKET_HEADERS = (b"origin", b"host")

DEFAULT_LIMITS = Limits()  # frozen: one shared default


class Fray(Starlette):
    """The app. An encounter's websocket goes straight to its handler: it lives as
    long as the player stays, and run inside the router and the middleware it would
    keep each layer's frame alive for as long, about 5 KB a socket
    (docs/decisions.md). Everything else is routed as usual."""

    hosts: KnownHosts | None = None  # set by create_app: a Host it does not answer to is refused first

    async def __call__(self, scope, receive, send) -> None:
        if self.hosts is not None and (refused := self.hosts.refused(scope)) is not None:
            await refused(scope, receive, send)
            return
        if scope["type"] == "websocket" and (match := SOCKET_PATH.fullmatch(scope["path"])):
            scope["app"] = self
            scope["path_params"] = {"id": match[1]}
            scope["headers"] = [(name, value) for name, value in scope["headers"] if name in SOCKET_HEADERS]
            await connection.encounter_socket(WebSocket(scope, receive, send), send, receive)
            return
        await super().__call__(scope, receive, send)


async def load_secret(redis_url: str, cluster: bool = False) -> bytes:
    """FRAY_SECRET, or one generated once and kept in Redis (so in the data folder,
    and shared by every replica on that Redis)."""
    if env := os.environ.get("FRAY_SECRET"):
        return env.encode()
    client = connect(redis_url, cluster=cluster, max_connections=2, timeout=5)
    try:
        await client.set("fray:secret", secrets.token_hex(32), nx=True)
        secret = await client.get("fray:secret")
        assert isinstance(secret, bytes)  # just set if absent; replies are not decoded
        return secret
    finally:
        await client.aclose()


def create_app(
    redis_url: str,
    *,
    on_ready=None,
    on_stopped=None,
    limits: Limits = DEFAULT_LIMITS,
    admin_key: str = "",
    loopback: bool = True,
    origins: tuple[str, ...] = (),
    cluster: bool | None = None,
    retain_ended: float | None = None,
    archive_dir: pathlib.Path | None = None,
    public_url: str = "",
    allowed_hosts: list[str] | None = None,
    proxied: bool = False,
    rules_version: int = RULES_VERSION,
) -> Fray:
    """`loopback`: the server listens on loopback only (creation is then open without an admin key).
    `cluster`: Redis Cluster or not (None: ask the Redis; server.store.RedisStore).
    `public_url`: the base of every generated link (else each request's own address).
    `allowed_hosts`: the Host names it answers to (server/edge.py; default: loopback's and the public URL's).
    `proxied`: it believes a proxy's forwarded headers (`--forwarded-allow-ips`): creating then needs the admin key.
    `on_stopped`: called last when the app shuts down (the CLI stops its embedded Redis there:
    uvicorn re-raises SIGTERM after shutting down, so code after uvicorn.run never runs).
    `retain_ended`: seconds an ended fight is kept (None: forever), then deleted, archived
    first to `archive_dir` if given (server/archive.py).
    `rules_version`: the newest rules version this replica folds and creates fights with
    (an older one, to run as the release before during a rolling upgrade: docs/operations.md)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        store = RedisStore(redis_url, cluster=cluster)
        await store.start()
        app.state.store = store
        app.state.campaigns = CampaignStore(connect(redis_url, cluster=bool(store.cluster), max_connections=16, timeout=5))  # server/campaigns.py
        app.state.signer = Signer(await load_secret(redis_url, bool(store.cluster)))
        app.state.limits = limits
        app.state.access = Access(
            redis_url,
            app.state.signer,
            limits=limits,
            admin_key=admin_key,
            loopback=loopback,
            origins=origins,
            cluster=bool(store.cluster),
            proxied=proxied or bool(public_url),
        )
        await app.state.access.start()
        app.state.hub = Hub(store, rules_version)
        await app.state.hub.start()
        app.state.rebuilds = Rebuilds(store, limits.rebuilds, rules_version)  # replays, logs, dice, exports (server/chronicle.py)
        hub = app.state.hub
        collector = Collector(lambda: hub.joined - hub.departed, lambda: hub.departed)  # no long pauses (server/collector.py)
        collector.start()
        connection.quiet_invalid_utf8()
        sweeper = Sweeper(app, retain_ended, archive_dir) if retain_ended else None
        if sweeper is not None:
            sweeper.start()
        app.state.metrics = metrics.registry(app.state.hub)
        app.state.simulator = Simulator()  # the GM's "how deadly is this fight?" (server/simulate_api.py)
        app.state.bots = handover.Bots()  # combatants the GM handed to a tactic (server/handover.py)
        if on_ready is not None:
            await on_ready(app)
        try:
            yield
        finally:
            if sweeper is not None:
                await sweeper.stop()
            app.state.simulator.close()
            await app.state.bots.close()
            await collector.stop()
            await app.state.hub.stop()
            await app.state.access.close()
            await app.state.campaigns.client.aclose()
            await store.close()
            if on_stopped is not None:
                on_stopped()

    routes = [
        Route("/", index),
        Route("/livez", livez),
        Route("/readyz", readyz),
        Route("/healthz", readyz),  # the old name, kept: the same answer as /readyz
        Route("/metrics", metrics_endpoint),
        Route("/api/about", about),
        Route("/api/encounters", api.create, methods=["POST"]),
        Route("/api/encounters/{id}", api.delete_encounter, methods=["DELETE"]),
        Route("/api/encounters/{id}/log", replay.log_endpoint),
        Route("/api/encounters/{id}/digest", api.encounter_digest),
        Route("/api/encounters/{id}/links", api.links, methods=["GET", "POST"]),
        Route("/api/encounters/{id}/links/{token_id}/revoke", api.revoke, methods=["POST"]),
        Route("/api/encounters/{id}/fork", forks.fork_endpoint, methods=["POST"]),
        Route("/api/encounters/{id}/simulate", simulate_api.simulate_endpoint, methods=["POST"]),
        Route("/api/encounters/{id}/tactics", handover.tactics_endpoint, methods=["GET", "POST"]),
        Route("/api/encounters/{id}/tactics/{token_id}/release", handover.release_endpoint, methods=["POST"]),
        Route("/api/profiles", profiles),
        Route("/api/encounters/{id}/replay", replay.replay_endpoint),
        Route("/api/encounters/{id}/export", replay.export_endpoint),
        Route("/api/encounters/{id}/dice", verify.dice_endpoint),
        Route("/e/{id}", page),
        # the campaign (server/campaigns.py, campaign_fights.py, campaign_archive.py; client_web/campaign.html)
        Route("/api/campaigns", campaigns.create, methods=["POST"]),
        Route("/api/campaigns/import", campaign_archive.import_campaign, methods=["POST"]),
        Route("/api/campaigns/{id}", campaigns.read),
        Route("/api/campaigns/{id}/commands", campaigns.command, methods=["POST"]),
        Route("/api/campaigns/{id}/links", campaigns.links, methods=["GET", "POST"]),
        Route("/api/campaigns/{id}/links/{token_id}/revoke", campaigns.revoke, methods=["POST"]),
        Route("/api/campaigns/{id}/fights", campaign_fights.start, methods=["POST"]),
        Route("/api/campaigns/{id}/fights/{fight}/report", campaign_fights.report, methods=["POST"]),
        Route("/api/campaigns/{id}/fights/{fight}/replay", campaign_fights.replay),
        Route("/api/campaigns/{id}/export", campaign_archive.export),
        Route("/api/campaigns/{id}/import/foundry", campaign_archive.import_foundry, methods=["POST"]),
        Route("/c/{id}", campaign_page),
        # /ws/encounters/{id}: connection.encounter_socket, dispatched by Fray.__call__
        Mount("/static", StaticFiles(directory=CLIENT_DIR), name="static"),
    ]
    app = Fray(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders, headers=SECURITY_HEADERS), Middleware(SameSiteWrites, origins=origins, headers=SECURITY_HEADERS)],
        # starlette types every handler as taking any Exception; this one is only registered for HTTPException
        exception_handlers={HTTPException: api.http_error, api.SlowBody: api.slow_body, Exception: api.server_error},  # type: ignore[dict-item]
    )
    app.state.public_url = public_url
    app.hosts = KnownHosts(app, hosts_answered("127.0.0.1", public_url) if allowed_hosts is None else allowed_hosts, SECURITY_HEADERS)
    app.state.rules_version = rules_version
    return app


def version() -> str:
    try:
        return importlib.metadata.version("fray-table")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


async def index(request: Request) -> Response:
    """The home page (what Fray is, and a form to create a fight); JSON for a client that asks for it."""
    accept = request.headers.get("accept", "")
    if "application/json" in accept and "text/html" not in accept:
        return await about(request)
    return FileResponse(CLIENT_DIR / "home.html", headers=SECURITY_HEADERS)


async def about(request: Request) -> Response:
    """What the home page needs to know: the version, and whether creating a fight asks for the admin key."""
    access = request.app.state.access
    creation = "open" if access.creation_refused("", api.forwarded(request)) is None else ("admin-key" if access.admin_key else "closed")
    return JSONResponse(
        {"fray": "combat encounter server", "version": version(), "create": "POST /api/encounters", "creation": creation, "docs": "README.md"},
        headers=SECURITY_HEADERS,
    )


async def profiles(request: Request) -> Response:
    """The rule profiles and their options, as data: the GM console builds its form from them."""
    return Response(msgspec.json.encode(catalogue()), media_type="application/json", headers=SECURITY_HEADERS)


async def livez(request: Request) -> Response:
    """The process answers HTTP: no I/O, so a slow Redis never gets a live replica restarted."""
    return JSONResponse({"ok": True}, headers=SECURITY_HEADERS)


READY_TIMEOUT = 2.0


async def readyz(request: Request) -> Response:
    """Redis answers (one O(1) lookup, whatever the number of encounters) and the tail runs."""
    state = request.app.state
    if not state.hub.tail.running:
        return error(503, "tail/stopped", "the tail that reads new events is not running")
    try:
        async with asyncio.timeout(READY_TIMEOUT):
            await state.store.exists("readyz")
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    except TimeoutError:
        return error(503, "store/unavailable", f"Redis did not answer within {READY_TIMEOUT:g} s")
    return JSONResponse({"ok": True}, headers=SECURITY_HEADERS)


async def metrics_endpoint(request: Request) -> Response:
    return Response(metrics.exposition(request.app.state.metrics), media_type="text/plain; version=0.0.4; charset=utf-8")


async def page(request: Request) -> Response:
    return FileResponse(CLIENT_DIR / "index.html", headers=SECURITY_HEADERS)


async def campaign_page(request: Request) -> Response:
    return FileResponse(CLIENT_DIR / "campaign.html", headers=SECURITY_HEADERS)
