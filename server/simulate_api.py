"""`POST /api/encounters/{id}/simulate?token=<gm>`: the simulator (server/simulate.py)
for the GM of a fight being prepared, or of one running (from where it stands):
"how deadly is this encounter?". Played on a process of its own, so the fights
of the table never wait on it, one simulation at a time (a few more wait their turn,
one per link), within a time budget that stops it between two fights.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import secrets
import time
from concurrent.futures import ProcessPoolExecutor

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .api import SECURITY_HEADERS, error, gm_room, json_body
from .simulate import plans_from, report, simulate_within

MAX_RUNS = 2000
SECONDS = 5.0  # the server's budget for one simulation: it begins no fight past it, and says how many it played


class SimulateBody(msgspec.Struct, forbid_unknown_fields=True):
    runs: int = 500
    rounds: int = 30
    sides: dict[str, dict] = {}  # side -> {tactic, flee_at, options} (server/tactics.py)


WAITING = 4  # simulations that may wait for the one running, each from another link


class Simulator:
    """One process, started at the first simulation and kept; one simulation at a time, the
    others waiting their turn in the order they came (asyncio.Lock is fair), one per GM link:
    a GM who asks again and again waits behind the others each time, so no one holds the slot."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.slot = asyncio.Lock()
        self.queued: set[str] = set()  # the links with a simulation running or waiting

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


async def simulate_endpoint(request: Request) -> Response:
    if isinstance(room := await gm_room(request), Response):
        return room
    body = await json_body(request, SimulateBody, "simulation")
    if isinstance(body, Response):
        return body
    if not 1 <= body.runs <= MAX_RUNS or not 1 <= body.rounds <= 200:
        return error(400, "request/invalid", f"a simulation plays 1 to {MAX_RUNS} fights ('runs') of 1 to 200 rounds ('rounds')")
    state = room.state
    if state.status == "ended":
        return error(409, "simulate/ended", "this fight has ended: fork it to play it again another way")
    sides = {c.side for c in state.combatants if not c.vessel}
    if len(sides) < 2:
        return error(409, "simulate/one-side", "a fight needs two sides to simulate; add the other side's combatants first")
    if unknown := sorted(set(body.sides) - sides):
        return error(400, "request/invalid", f"'sides' names no side of this fight: {', '.join(unknown)}")
    try:
        plans = plans_from(body.sides)
    except ValueError as e:
        return error(400, "request/invalid", str(e))
    simulator: Simulator = request.app.state.simulator
    link = request.query_params.get("token", "")  # the GM's link (gm_room has checked it)
    if link in simulator.queued:
        return error(429, "simulate/busy", "this link is already simulating a fight: wait for its answer")
    if len(simulator.queued) > WAITING:
        return error(429, "simulate/busy", f"the server is simulating a fight and {WAITING} more wait; ask again in a few seconds")
    simulator.queued.add(link)
    seed = secrets.token_bytes(16)
    try:
        async with simulator.slot:
            loop = asyncio.get_running_loop()
            deadline = time.monotonic() + SECONDS  # from its turn: the process's start counts too
            tally = await loop.run_in_executor(simulator.pool(), simulate_within, state, body.runs, seed, plans, body.rounds, deadline)
    finally:
        simulator.queued.discard(link)
    numbers = report(state, tally) | {"asked": body.runs, "rounds_at_most": body.rounds, "from_round": state.round}
    return JSONResponse(numbers, headers=SECURITY_HEADERS)
