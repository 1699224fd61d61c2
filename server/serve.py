"""`fray serve`: wait for Redis, run the app under uvicorn, print the links,
and on SIGTERM drain before closing (docs/operations.md)."""

import logging
import sys
import time
import urllib.parse

import redis
import uvicorn
from redis.backoff import NoBackoff
from redis.retry import Retry

from . import logs, memtrace
from .addresses import ANY, start_url
from .edge import hosts_answered
from .forwarded import ForwardedHeaders, Trusted
from .limits import Limits
from .timeouts import http_protocol

log = logging.getLogger("fray.serve")
BACKOFF_FIRST, BACKOFF_MAX = 0.25, 5.0


class RedisMissing(Exception):
    pass


def shown(url: str) -> str:
    """A Redis URL without its password, for messages."""
    parts = urllib.parse.urlsplit(url)
    if "@" in parts.netloc:
        return parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()
    return url


def wait_for_redis(url: str, wait: float, clock=time.monotonic, sleep=time.sleep) -> None:
    """PING until Redis answers, backing off, for at most `wait` seconds (a Redis
    started beside Fray, as compose or a supervisor do, may come up later).
    A refusal that waiting cannot fix (a wrong password) fails at once."""
    deadline = clock() + wait
    delay = BACKOFF_FIRST
    while True:
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2, retry=Retry(NoBackoff(), 0))  # the loop retries
        try:
            client.ping()
            return
        except (redis.ConnectionError, redis.TimeoutError, OSError) as e:
            if isinstance(e, redis.AuthenticationError):
                raise RedisMissing(f"Redis at {shown(url)} refused the credentials: {e}") from None
            left = deadline - clock()
            if left <= 0:
                raise RedisMissing(f"no Redis answers at {shown(url)} after {wait:g} s: {e}") from None
            pause = min(delay, left)
            log.warning("Redis at %s does not answer yet (%s); retrying in %.2f s", shown(url), e, pause)
            sleep(pause)
            delay = min(delay * 2, BACKOFF_MAX)
        except redis.RedisError as e:
            raise RedisMissing(f"Redis at {shown(url)} refused: {e}") from None
        finally:
            client.close()


class Server(uvicorn.Server):
    """uvicorn's shutdown closes every websocket at once (1012, nothing drained).
    Fray's first stops accepting, answers what waits on Redis and sends every
    outbox, and closes each socket itself (1012 with a reason); then uvicorn's."""

    def __init__(self, config: uvicorn.Config, fray, drain_timeout: float) -> None:
        super().__init__(config)
        self.fray = fray
        self.drain_timeout = drain_timeout

    async def shutdown(self, sockets=None) -> None:
        for server in self.servers:
            server.close()
        hub = getattr(self.fray.state, "hub", None)
        if hub is not None:
            await hub.drain(self.drain_timeout)
        await super().shutdown(sockets)


def uvicorn_config(
    app, limits: Limits, *, host: str, port: int, log_level: str = "info", access_log: bool = False, shutdown_timeout: float | None = None
) -> uvicorn.Config:
    """How `fray serve` runs its app under uvicorn (bench/sockets.py measures a socket so served)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,  # logs.configure
        log_level=log_level,
        access_log=access_log,
        proxy_headers=False,  # server/forwarded.py, which also reads X-Forwarded-Host
        timeout_graceful_shutdown=shutdown_timeout,  # type: ignore[arg-type]  # seconds, a float: uvicorn says int, but waits with asyncio.wait_for
        ws_max_size=limits.frame_bytes,
        ws_ping_interval=20,
        ws_per_message_deflate=False,  # updates are small patches: compressing costs more CPU than it saves
        http=http_protocol(limits.request_seconds),  # a connection that sends no whole request head is closed (server/timeouts.py)
        timeout_keep_alive=5,  # seconds an idle connection is kept after a response
    )


def serve_command(args) -> int:
    from .api import CreateBody, create_encounter
    from .app import create_app
    from .cli import is_loopback
    from .embedded import EmbeddedRedis, default_data_dir

    logs.configure(args.log_level, args.log_format, access=args.access_log)
    memtrace.install()  # FRAY_TRACEMALLOC (bench/memory.py); nothing otherwise
    embedded = None
    url = args.redis_url
    try:
        if not url:
            data = args.data or default_data_dir()
            embedded = EmbeddedRedis(data, appendfsync=args.appendfsync)
            url = embedded.start()
            print(f"fray: embedded Redis, data in {data}", flush=True)
        else:
            print(f"fray: using the Redis at {shown(url)}", flush=True)
            wait_for_redis(url, args.redis_wait)
    except (RedisMissing, RuntimeError, OSError) as e:
        print(f"fray serve: {e}", file=sys.stderr)
        return 2
    base = start_url(args.host, args.port, args.public_url)
    limits = Limits(
        frame_bytes=args.max_frame,
        body_bytes=args.max_body,
        rate=args.rate,
        burst=args.burst,
        sockets_per_token=args.sockets_per_token,
        chat_rate=args.chat_rate,
        chat_burst=args.chat_burst,
        request_seconds=args.request_timeout,
        rebuilds=args.rebuilds,
    )

    async def on_ready(app) -> None:
        print(f"fray: serving on {base}" + (f" (listening on {args.host}:{args.port})" if args.host in ANY else ""), flush=True)
        print(f"fray: {app.state.access.creation_policy()}", flush=True)
        if not args.no_demo:
            made = await create_encounter(app, CreateBody(), base)
            print(f"fray: demo fight {made['id']}", flush=True)
            print(f"  GM:        {made['links']['gm']}", flush=True)
            print(f"  spectator: {made['links']['spectator']}", flush=True)
            for name, link in made["links"]["players"].items():
                print(f"  {name + ':':<10} {link}", flush=True)

    trusted = Trusted(args.forwarded_allow_ips)
    app = create_app(
        url,
        on_ready=on_ready,
        on_stopped=embedded.stop if embedded else None,
        limits=limits,
        admin_key=args.admin_key,
        loopback=is_loopback(args.host),
        origins=tuple(args.origin),
        public_url=args.public_url,
        cluster=args.redis_cluster,
        retain_ended=args.retain_ended,
        archive_dir=args.archive_dir,
        allowed_hosts=hosts_answered(args.host, args.public_url, args.allowed_hosts),
        proxied=bool(trusted),
        rules_version=args.rules_version,
    )
    config = uvicorn_config(
        ForwardedHeaders(app, trusted) if trusted else app,
        limits,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        access_log=args.access_log,
        shutdown_timeout=args.shutdown_timeout,
    )
    try:
        Server(config, app, args.shutdown_timeout).run()
    finally:
        if embedded is not None:
            embedded.stop()
    return 0
