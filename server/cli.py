"""The `fray` command: `serve` (server/serve.py), `schema`, `run`, `export`, `import` and `fork` (server/fight_data.py), `simulate` (server/simulate_cli.py),
`verify` (server/verify.py), `replay` (server/replay_cli.py), `bot` (client/cli.py)."""

import argparse
import importlib.metadata
import ipaddress
import json
import os
import pathlib
import sys
import tomllib

from ..client.cli import add_bot
from .settings import SERVE, Parser, add_settings


def version() -> str:
    try:
        return importlib.metadata.version("fray-table")
    except importlib.metadata.PackageNotFoundError:  # a source tree that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """One function a subcommand: each adds its own parser and names its handler."""
    parser = Parser(prog="fray", description="Fray: an event-sourced combat encounter server.")
    parser.add_argument("--version", action="version", version=f"fray {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    add_serve(sub)
    add_schema(sub)
    add_run(sub)
    add_data_commands(sub)
    add_simulate(sub)
    add_verify(sub)
    add_replay(sub)
    add_bot(sub)
    return parser


def add_serve(sub) -> None:
    serve = sub.add_parser(
        "serve",
        help="run the server (embedded Redis unless REDIS_URL is set)",
        description="Run the server. Every setting is a flag and an environment variable (docs/operations.md).",
    )
    add_settings(serve, SERVE)
    serve.set_defaults(handler=serve_command)


def add_schema(sub) -> None:
    schema = sub.add_parser("schema", help="print the JSON Schema of the wire protocol")
    schema.add_argument("--campaign", action="store_true", help="the campaign's instead: its commands, a character, a finding (docs/campaign.md)")
    schema.set_defaults(handler=schema_command)


def add_run(sub) -> None:
    run = sub.add_parser("run", help="play a scenario file through the reducer, no server")
    run.add_argument("scenario", type=pathlib.Path)
    run.add_argument("--json", action="store_true", help="print the final state and the log as JSON")
    run.set_defaults(handler=run_command)


def add_simulate(sub) -> None:
    simulate = sub.add_parser(
        "simulate",
        help="how deadly is this fight? play a scenario many times with fresh seeds and count the odds",
        description="Play a scenario (its dice and commands first, as written) many times with fresh seeds, every side by a simple tactic, "
        "and print each side's odds of winning with a 95%% interval, how long fights last and how often each combatant falls.",
    )
    simulate.add_argument("scenario", type=pathlib.Path, nargs="?", help="a scenario file (.toml or .json); leave out with --demo")
    simulate.add_argument("--demo", action="store_true", help="the demo fight a new encounter gets")
    simulate.add_argument("--runs", type=int, default=1000, help="fights to play (default 1000)")
    simulate.add_argument("--jobs", type=int, default=0, help="processes to play them on (default: every core)")
    simulate.add_argument("--rounds", type=int, default=30, help="a fight with no winner after this many rounds counts as none (default 30)")
    simulate.add_argument("--seed", default=None, help="the simulation's seed: the same seed and runs give the same numbers (default: a fresh one, printed)")
    simulate.add_argument(
        "--side",
        action="append",
        default=[],
        metavar="SIDE=TACTIC[,flee_at=F][,options]",
        help="how a side fights: nearest (default), weakest or focus; flee_at=0.5 runs at half strength; "
        "options uses the attack options the rules offer (a monster's attack routine, a double attack) (repeatable)",
    )
    simulate.add_argument("--json", action="store_true", help="print the numbers as JSON")
    simulate.set_defaults(handler=simulate_command)


def simulate_command(args) -> int:
    from .simulate_cli import run

    try:
        return run(args)
    except BrokenPipeError:  # `fray simulate ... | head`: the reader has gone
        return 1


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.handler(args)


def serve_command(args) -> int:
    from .serve import serve_command as serve

    return serve(args)


def schema_command(args) -> int:
    from .campaigns import schema as campaign_schema
    from .protocol import schema

    print(json.dumps(campaign_schema() if args.campaign else schema(), indent=2))
    return 0


def add_data_commands(sub) -> None:
    """`fray export`, `fray import` and `fray fork` (server/fight_data.py)."""
    for name, text in (
        ("export", "write a fight's raw stream as JSON lines to stdout"),
        ("import", "add a fight exported by `fray export` to this server's Redis"),
        ("fork", "a what-if fork of a fight after one of its events: a new fight with a fresh seed and new links"),
    ):
        command = sub.add_parser(name, help=text)
        if name == "export":
            command.add_argument("id", help="the encounter id")
        elif name == "fork":
            command.add_argument("id", help="the encounter to fork")
            command.add_argument("--at", type=int, required=True, help="the last of its events the fork keeps (the number its log lines show)")
            command.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="an option changed from the fork on (repeatable)")
            command.add_argument("--today", action="store_true", help="the fork goes on under this Fray's newest rules, not its origin's")
            command.add_argument("--public-url", default="http://127.0.0.1:8000/", help="the server's address, for the printed links")
        else:
            command.add_argument("file", type=pathlib.Path, help="the .jsonl file ('-': stdin)")
            command.add_argument("--as", dest="new_id", default=None, help="import under this id instead of the file's")
            command.add_argument("--public-url", default="http://127.0.0.1:8000/", help="the server's address, for the printed links")
        command.add_argument("--redis-url", default=os.environ.get("REDIS_URL"), help="an external Redis instead of the embedded one")
        command.add_argument("--data", type=pathlib.Path, default=None, help="the embedded Redis's folder (default: the user data dir)")
        command.set_defaults(handler=data_command)


def add_verify(sub) -> None:
    verify = sub.add_parser(
        "verify",
        help="check that every random roll of a fight is the one its seed gives (docs/dice.md)",
        description="Check a fight's dice: a raw stream (`fray export`) or a log export (the replay page's JSON). "
        "Exit 0: every roll matches; 1: one does not, or the seed is not revealed; 2: not a fight.",
    )
    verify.add_argument("file", type=pathlib.Path, help="the .jsonl stream or the .json log ('-': stdin)")
    verify.add_argument("--hash", default=None, help="the seed's sha256 as the table saw it published, to check the file against")
    verify.add_argument("--json", action="store_true", help="print the result as JSON")
    verify.set_defaults(handler=verify_command)


def add_replay(sub) -> None:
    replay = sub.add_parser(
        "replay",
        help="fold an exported fight with no server, under its own rules version, and print what one viewer saw",
        description="Fold a fight exported by `fray export` (or archived) with no server, under the rules version it was played with, "
        "and print what one viewer saw: each log line, the final view and the state's sha256 (the server's /digest gives the same). "
        "Exit 2: not a fight, or rules this Fray does not know.",
    )
    replay.add_argument("file", type=pathlib.Path, help="the .jsonl file ('-': stdin)")
    replay.add_argument("--as", dest="as_", default="gm", metavar="VIEWER", help="gm (default), spectator, or player:ID[,ID...]")
    replay.add_argument("--at", type=int, default=None, help="stop after this event (the number its log lines show; default: the last)")
    replay.add_argument("--json", action="store_true", help="print the viewer's log, final view and the state's sha256 as JSON")
    replay.set_defaults(handler=replay_command)


def replay_command(args) -> int:
    from .replay_cli import run

    return run(args)


def verify_command(args) -> int:
    from .verify import run

    return run(args)


def data_command(args) -> int:
    from .fight_data import run

    return run(args)


def scenario_data(path: pathlib.Path) -> dict:
    """A scenario file's data, TOML or JSON by its suffix (docs/scenarios.md). FileNotFoundError,
    or ValueError naming what is wrong (tomllib's and json's errors are ValueErrors)."""
    raw = path.read_bytes()
    return tomllib.loads(raw.decode()) if path.suffix == ".toml" else json.loads(raw)


def run_command(args) -> int:
    import msgspec

    from ..rules.scenario import play

    path: pathlib.Path = args.scenario
    try:
        played = play(scenario_data(path))
    except FileNotFoundError:
        print(f"fray run: no such file: {path}", file=sys.stderr)
        return 2
    except ValueError as e:
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


if __name__ == "__main__":
    sys.exit(main())
