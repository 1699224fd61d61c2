"""`fray export ID > fight.jsonl` and `fray import fight.jsonl`: a fight's raw
stream out of one server's Redis and into another's (the file: server/archive.py).

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

from fray_table.server.archive import ArchiveError, export_lines, import_fight, parse, renamed
from fray_table.server.store import RedisStore, StoreUnavailable


def run(args) -> int:
    name = f"fray {args.command}"
    try:
        with redis_for(args) as url:
            if args.command == "export":
                return asyncio.run(export(url, args.id, sys.stdout.buffer, sys.stderr))
            return asyncio.run(import_file(url, args.file, args.new_id, args.public_url))
    except ArchiveError as e:
        print(f"{name}: {e}", file=sys.stderr)
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
    from fray_table.server.embedded import EmbeddedRedis, default_data_dir

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


def read_lines(path: pathlib.Path) -> list[bytes]:
    try:
        raw = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except FileNotFoundError:
        raise ArchiveError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise ArchiveError(f"{path} is a folder, not a fight export") from None
    return raw.splitlines()


async def import_file(url: str, path: pathlib.Path, new_id: str | None, public_url: str) -> int:
    from fray_table.server.app import load_secret
    from fray_table.server.limits import Limits
    from fray_table.server.security import Access
    from fray_table.server.tokens import Signer

    fight = parse(read_lines(path), str(path))  # the whole file is checked before anything is written
    if new_id is not None:
        fight = renamed(fight, new_id)
    store = RedisStore(url)
    await store.start()
    access = Access(url, Signer(await load_secret(url)), limits=Limits())
    await access.start()
    try:
        encounter = await import_fight(store, fight)
        base = public_url.rstrip("/") + "/"
        gm = await access.issue(encounter, "gm", name="GM")
        spectator = await access.issue(encounter, "spectator", name="spectator")
    finally:
        await access.close()
        await store.close()
    print(f"fray: imported encounter {encounter} ({len(fight.events)} events, {fight.state.status})")
    print(f"  GM:        {base}e/{encounter}?token={gm}")
    print(f"  spectator: {base}e/{encounter}?token={spectator}")
    return 0
