"""`fray serve`, `fray schema`, `fray run`, `fray export`, `fray import`."""

import argparse
import ipaddress
import json
import os
import pathlib
import sys
import tomllib

from fray_table.server.limits import Limits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fray", description="Fray: an event-sourced combat encounter server.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server (embedded Redis unless REDIS_URL is set)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data", type=pathlib.Path, default=None, help="folder for the embedded Redis (default: the user data dir)")
    serve.add_argument("--redis-url", default=os.environ.get("REDIS_URL"), help="an external Redis instead of the embedded one")
    cluster_env = os.environ.get("FRAY_REDIS_CLUSTER", "").strip()
    serve.add_argument("--redis-cluster", dest="redis_cluster", action="store_true", default={"1": True, "0": False}.get(cluster_env),
                       help="REDIS_URL names a node of a Redis Cluster (FRAY_REDIS_CLUSTER=1; 0 for one Redis; "
                            "unset: asked of the Redis with INFO cluster)")
    serve.add_argument("--appendfsync", choices=["always", "everysec", "no"], default=os.environ.get("FRAY_APPENDFSYNC", "everysec"), help="embedded Redis durability (FRAY_APPENDFSYNC; docs/operations.md)")
    serve.add_argument("--no-demo", action="store_true", help="do not create a demo fight at start")
    env = os.environ.get
    defaults = Limits()
    serve.add_argument("--origin", action="append", default=[o for o in env("FRAY_ORIGINS", "").split(",") if o.strip()],
                       help="another origin (scheme://host:port) whose pages may open websockets; repeatable (FRAY_ORIGINS, comma-separated)")
    serve.add_argument("--max-frame", type=int, default=int(env("FRAY_MAX_FRAME", defaults.frame_bytes)), help="largest websocket frame, bytes (FRAY_MAX_FRAME)")
    serve.add_argument("--max-body", type=int, default=int(env("FRAY_MAX_BODY", defaults.body_bytes)), help="largest HTTP request body, bytes (FRAY_MAX_BODY)")
    serve.add_argument("--rate", type=float, default=float(env("FRAY_RATE", defaults.rate)), help="messages per second per connection (FRAY_RATE)")
    serve.add_argument("--burst", type=int, default=int(env("FRAY_BURST", defaults.burst)), help="messages a connection may send at once (FRAY_BURST)")
    serve.add_argument("--sockets-per-token", type=int, default=int(env("FRAY_SOCKETS_PER_TOKEN", defaults.sockets_per_token)),
                       help="open websockets per invite link, per replica (FRAY_SOCKETS_PER_TOKEN)")
    serve.add_argument("--retain-ended", default=env("FRAY_RETAIN_ENDED", "off"),
                       help="delete ended fights this long after they end, e.g. 30d, 12h (FRAY_RETAIN_ENDED; default off)")
    serve.add_argument("--archive-dir", type=pathlib.Path, default=env("FRAY_ARCHIVE_DIR") or None,
                       help="export each ended fight here before it is deleted (FRAY_ARCHIVE_DIR)")
    add_data_commands(sub)
    sub.add_parser("schema", help="print the JSON Schema of the wire protocol")
    run = sub.add_parser("run", help="play a scenario file through the reducer, no server")
    run.add_argument("scenario", type=pathlib.Path)
    run.add_argument("--json", action="store_true", help="print the final state and the log as JSON")
    args = parser.parse_args(argv)
    if args.command == "serve" and cluster_env not in ("", "0", "1"):
        parser.error(f"FRAY_REDIS_CLUSTER must be 1, 0 or unset, not {cluster_env!r}")
    if args.command == "serve":
        return serve_command(args)
    if args.command in ("export", "import"):
        from fray_table.server.fight_data import run

        return run(args)
    if args.command == "schema":
        from fray_table.server.protocol import schema

        print(json.dumps(schema(), indent=2))
        return 0
    return run_command(args)


def add_data_commands(sub) -> None:
    """`fray export` and `fray import` (server/fight_data.py)."""
    for name, text in (("export", "write a fight's raw stream as JSON lines to stdout"),
                       ("import", "add a fight exported by `fray export` to this server's Redis")):
        command = sub.add_parser(name, help=text)
        if name == "export":
            command.add_argument("id", help="the encounter id")
        else:
            command.add_argument("file", type=pathlib.Path, help="the .jsonl file ('-': stdin)")
            command.add_argument("--as", dest="new_id", default=None, help="import under this id instead of the file's")
            command.add_argument("--public-url", default="http://127.0.0.1:8000/", help="the server's address, for the printed links")
        command.add_argument("--redis-url", default=os.environ.get("REDIS_URL"), help="an external Redis instead of the embedded one")
        command.add_argument("--data", type=pathlib.Path, default=None, help="the embedded Redis's folder (default: the user data dir)")


def run_command(args) -> int:
    import msgspec

    from fray_table.rules.scenario import play

    path: pathlib.Path = args.scenario
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode()) if path.suffix == ".toml" else json.loads(raw)
        played = play(data)
    except FileNotFoundError:
        print(f"fray run: no such file: {path}", file=sys.stderr)
        return 2
    except (ValueError, tomllib.TOMLDecodeError) as e:
        print(f"fray run: {path}: {e}", file=sys.stderr)
        return 2
    if args.json:
        state = msgspec.to_builtins(played.state)
        state["seed"] = played.state.seed.hex()
        print(msgspec.json.encode({"state": state, "log": played.log}).decode())
        return 0
    for entry in played.log:
        rolls = ", ".join(f"d{r.sides}={r.value}{'*' if r.forced else ''}" for r in entry.rolls)
        print(f"[{entry.seq:>4}] {entry.text}" + (f"   ({rolls})" if rolls else ""))
    return 0


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_command(args) -> int:
    import uvicorn

    from fray_table.server.api import CreateBody, create_encounter
    from fray_table.server.app import create_app
    from fray_table.server.embedded import EmbeddedRedis, default_data_dir

    from fray_table.server.archive import parse_duration

    try:
        retain_ended = parse_duration(args.retain_ended)
    except ValueError as e:
        print(f"fray serve: --retain-ended / FRAY_RETAIN_ENDED: {e}", file=sys.stderr)
        return 2
    embedded = None
    url = args.redis_url
    if not url:
        data = args.data or default_data_dir()
        embedded = EmbeddedRedis(data, appendfsync=args.appendfsync)
        url = embedded.start()
        print(f"fray: embedded Redis, data in {data}", flush=True)
    else:
        print("fray: using the Redis at REDIS_URL", flush=True)
    base = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}/"
    limits = Limits(frame_bytes=args.max_frame, body_bytes=args.max_body, rate=args.rate, burst=args.burst,
                    sockets_per_token=args.sockets_per_token)

    async def on_ready(app) -> None:
        print(f"fray: serving on {base}", flush=True)
        print(f"fray: {app.state.access.creation_policy()}", flush=True)
        if not args.no_demo:
            made = await create_encounter(app, CreateBody(), base)
            print(f"fray: demo fight {made['id']}", flush=True)
            print(f"  GM:        {made['links']['gm']}", flush=True)
            print(f"  spectator: {made['links']['spectator']}", flush=True)
            for name, link in made["links"]["players"].items():
                print(f"  {name + ':':<10} {link}", flush=True)

    try:
        uvicorn.run(
            create_app(url, on_ready=on_ready, on_stopped=embedded.stop if embedded else None, limits=limits, admin_key=os.environ.get("FRAY_ADMIN_KEY", ""),
                       loopback=is_loopback(args.host), origins=tuple(o.strip() for o in args.origin), cluster=args.redis_cluster,
                       retain_ended=retain_ended, archive_dir=args.archive_dir),
            host=args.host,
            port=args.port,
            log_level="warning",
            ws_max_size=limits.frame_bytes,
            ws_ping_interval=20,
            ws_per_message_deflate=False,  # updates are small patches: compressing costs more CPU than it saves
        )
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
