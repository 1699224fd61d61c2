"""`fray export ID > fight.jsonl` and `fray import fight.jsonl`: a fight's raw
stream out of one server's Redis and into another's (the file: server/archive.py).
`fray fork ID --at N`: a what-if fork of a fight on the same Redis (server/forks.py).

Both reach Redis as `fray serve` does: `--redis-url` (or REDIS_URL), else the
embedded Redis of the `--data` folder (shared with a server running on it, or
started for the command and stopped after it). A refusal is one line and exit
code 2; an unreachable store, one line and exit code 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import pathlib
import sys
from typing import IO

from ..rules import RULES_VERSION
from .archive import ArchiveError, export_lines, import_fight, parse, pre_release, renamed
from .forks import ForkRefused, fork_stream
from .store import RedisStore, StoreUnavailable


def run(args) -> int:
    name = f"fray {args.command}"
    try:
        with redis_for(args) as url:
            if args.command == "export":
                return asyncio.run(export(url, args.id, sys.stdout.buffer, sys.stderr))
            if args.command == "fork":
                return asyncio.run(fork(url, args.id, args.at, option_values(args.option), args.public_url, args.today))
            return asyncio.run(import_file(url, args.file, args.new_id, args.public_url))
    except ArchiveError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    except ForkRefused as e:
        print(f"{name}: {e.message}", file=sys.stderr)
        return 2
    except (StoreUnavailable, RuntimeError) as e:  # RuntimeError: the embedded Redis did not start
        print(f"{name}: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `fray export ID | head`: the reader has gone
        return 1


@contextlib.contextmanager
def redis_for(args):
    if args.redis_url:
        yield args.redis_url
        return
    from .embedded import EmbeddedRedis, default_data_dir

    embedded = EmbeddedRedis(args.data or default_data_dir())
    url = embedded.start()
    try:
        yield url
    finally:
        embedded.stop()  # stops only a Redis no running server uses


class Progress:
    """A bar on stderr, only when stderr is a terminal (a long fight takes a while)."""

    def __init__(self, out: IO[str], what: str) -> None:
        self.out, self.what = out, what
        self.shown = out.isatty()

    def __call__(self, done: int, total: int) -> None:
        if self.shown:
            filled = 30 * done // max(total, 1)
            self.out.write(f"\r{self.what} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} events")
            self.out.flush()

    def end(self) -> None:
        if self.shown:
            self.out.write("\n")
            self.out.flush()


async def export(url: str, encounter: str, out: IO[bytes], err: IO[str]) -> int:
    store = RedisStore(url)
    await store.start()
    progress = Progress(err, f"exporting {encounter}")
    try:
        async for line in export_lines(store, encounter, progress):
            out.write(line)
        out.flush()
    finally:
        progress.end()
        await store.close()
    return 0


def read_file(path: pathlib.Path, refusal: type[Exception] = ArchiveError) -> bytes:
    """The file's bytes ('-': stdin); `refusal` naming a file that is missing or a folder."""
    try:
        return sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except FileNotFoundError:
        raise refusal(f"no such file: {path}") from None
    except IsADirectoryError:
        raise refusal(f"{path} is a folder, not a fight export") from None


def read_lines(path: pathlib.Path) -> list[bytes]:
    return read_file(path).splitlines()


def option_values(pairs: list[str]) -> dict[str, int | bool | str]:
    """['death_chart=false', 'x=3'] -> {'death_chart': False, 'x': 3}; ArchiveError for a pair with no '='."""
    options: dict[str, int | bool | str] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise ArchiveError(f"--option {pair[:60]!r}: write it NAME=VALUE")
        value: int | bool | str = text
        if text.lower() in ("true", "false"):
            value = text.lower() == "true"
        elif text.lstrip("-").isdigit():
            value = int(text)
        options[name] = value
    return options


async def links_for(url: str, encounter: str, roles: list[tuple[str, tuple[str, ...], str]]) -> list[str]:
    """Tokens for new links to `encounter`: one per (role, combatants, name)."""
    from .app import load_secret
    from .limits import Limits
    from .security import Access
    from .tokens import Signer

    access = Access(url, Signer(await load_secret(url)), limits=Limits())
    await access.start()
    try:
        return [await access.issue(encounter, role, owned, name=name) for role, owned, name in roles]
    finally:
        await access.close()


async def fork(url: str, origin: str, at: int, options: dict, public_url: str, today: bool = False) -> int:
    from .api import new_encounter_id, player_links

    store = RedisStore(url)
    await store.start()
    try:
        encounter = new_encounter_id()
        state = await fork_stream(store, origin, at, encounter, options, rules_version=RULES_VERSION if today else 0)
    finally:
        await store.close()
    players = player_links(state, None)
    roles = [("gm", (), "GM"), ("spectator", (), "spectator"), *(("player", tuple(owned), name) for name, owned in players.items())]
    tokens = await links_for(url, encounter, roles)
    base = public_url.rstrip("/") + "/"
    print(f"fray: forked encounter {origin} after its event #{at}: encounter {encounter} (seed sha256 {state.seed_hash})")
    for (_, _, name), token in zip(roles, tokens, strict=True):
        print(f"  {(name + ':'):<11}{base}e/{encounter}?token={token}")
    return 0


async def import_file(url: str, path: pathlib.Path, new_id: str | None, public_url: str) -> int:
    fight = parse(read_lines(path), str(path))  # the whole file is checked before anything is written
    if (warning := pre_release(fight.header.rules_version)) is not None:
        print(f"fray import: warning: {warning} (docs/decisions.md)", file=sys.stderr)
    if new_id is not None:
        fight = renamed(fight, new_id)
    store = RedisStore(url)
    await store.start()
    try:
        encounter = await import_fight(store, fight)
    finally:
        await store.close()
    gm, spectator = await links_for(url, encounter, [("gm", (), "GM"), ("spectator", (), "spectator")])
    base = public_url.rstrip("/") + "/"
    print(f"fray: imported encounter {encounter} ({len(fight.events)} events, {fight.state.status})")
    print(f"  GM:        {base}e/{encounter}?token={gm}")
    print(f"  spectator: {base}e/{encounter}?token={spectator}")
    return 0
