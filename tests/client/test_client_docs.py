"""docs/client_library.md's complete example, run as it is written against a real
server: it joins with a spectator link and prints each log line as it comes, to
the fight's end."""

import asyncio
import re
import subprocess
import sys

import pytest
from support import ROOT

from fray_table.client import join
from fray_table.rules.commands import End, Say, Start

pytestmark = pytest.mark.redis


def example() -> str:
    page = (ROOT / "docs" / "client_library.md").read_text()
    return re.search(r"## A complete example.*?```python\n(.*?)```", page, re.S).group(1)


async def test_the_docs_example_prints_each_log_line_as_it_comes(fray_server, tmp_path):
    script = tmp_path / "watch.py"
    script.write_text(example())
    made = fray_server.create()
    watcher = subprocess.Popen([sys.executable, str(script), made["links"]["spectator"]], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        # It has joined before the fight starts: what follows, it prints as it comes.
        first = await asyncio.wait_for(asyncio.to_thread(watcher.stdout.readline), 20)
        assert first == f"joined {made['id']} as spectator\n"
        async with join(made["links"]["gm"]) as gm:
            await gm.send(Start())
            said = await gm.send(Say(text="Roll for initiative"))
            ended = await gm.send(End())
        out, _ = await asyncio.wait_for(asyncio.to_thread(watcher.communicate), 20)  # (no timeout= there: it would skip what readline buffered)
        assert watcher.returncode == 0, out
        async with join(made["links"]["spectator"]) as spectator:  # what the same link reads now
            assert out.splitlines() == [f"#{line.seq} {line.text}" for line in spectator.log]
            assert spectator.position == ended.position != said.position
        printed = [line.partition(" ")[2] for line in out.splitlines()]
        assert printed[0].startswith("Encounter created") and "GM: Roll for initiative" in printed
        assert printed[-1].startswith("The fight ends. Seed revealed: ")
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait(5)
