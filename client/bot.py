"""A bot: combatants played by a tactic, through a link like any client.

It joins with its link (fray_table.client.Table) and, each round, as soon as
declarations open, declares for each of its combatants still to declare what the
simulator's tactic would (server/tactics.py: nearest, weakest, focus; flee at a
share; the attack options the rules offer), read from its link's view alone
(client/sight.py). Each declaration carries the tactic's name, so the log reads
'Goblin 2 (tactics: nearest) declares: attack Alda.'. It declares for a combatant
once a round and never for one already declared: a GM who changes a declaration
keeps the change. A prompt put to one of its combatants is answered with its first
option, as the simulator answers, but for a die rolled at the table (option
physical_dice), which it leaves to the GM. It stops when the fight ends, when its link is
revoked (the GM takes the combatants back), or when its time is up.
"""

import asyncio
import itertools
import time
from collections.abc import Callable

from ..rules.actions import Action, tag
from ..rules.commands import Answer, Declare
from ..rules.model import DIE
from ..rules.view import Choice, View
from ..server.tactics import TACTICS, Field, Plan, candidates
from .sight import state_of, strength
from .table import Closed, Refused, Table

__all__ = ["TACTICS", "Bot", "Plan", "label"]

TRIES = 12  # a combatant's candidates tried at most, each round
SECONDS = 12 * 3600.0  # a bot's life at most (a long session)
TURNS = 1_000_000  # and its turns (each reads one change of the fight)


def label(plan: Plan) -> str:
    """The tactic as the log names it: 'nearest', 'weakest, flee at 50%, attack options'."""
    words = [plan.tactic]
    if plan.flee_at:
        words.append(f"flee at {round(plan.flee_at * 100)}%")
    if plan.options:
        words.append("attack options")
    return ", ".join(words)


def offered(choices: list[Choice], action: Action) -> bool:
    """Is the action among the view's choices now (its kind, and its target if it names one)?"""
    target = getattr(action, "target", None)
    kind = tag(action)
    return any(ch.type == kind and (not isinstance(target, str) or not ch.targets or target in ch.targets) for ch in choices)


class Bot:
    """Plays `combatants` (ids), or every combatant of `side`, or (neither given) every one
    its link controls, by `plan`. `said`: called with each declaration made (actor, action)."""

    def __init__(self, table: Table, plan: Plan, combatants: tuple[str, ...] = (), side: str = "", said: Callable[[str, Action], None] | None = None) -> None:
        if plan.tactic not in TACTICS:
            raise ValueError(f"a tactic is one of {', '.join(TACTICS)}, not {plan.tactic!r}")
        self.table, self.plan, self.combatants, self.side = table, plan, frozenset(combatants), side
        self.label = label(plan)
        self.said = said
        self.declared: list[tuple[int, str, Action]] = []  # (round, actor, action), every declaration it made
        self.refused: list[str] = []  # the codes of its declarations the rules refused (each followed by the tactic's next)
        self._tried: set[tuple[int, str]] = set()  # (round, actor): declared for, or gave up on, this round
        self._answered: set[str] = set()  # prompts answered

    def plays(self, view: View, cid: str) -> bool:
        if self.combatants:
            return cid in self.combatants
        if self.side:
            return any(c.id == cid and c.side == self.side for c in view.combatants)
        return view.you.role != "gm" and cid in view.you.combatants

    async def run(self, seconds: float = SECONDS) -> str:
        """Play until the fight ends ('ended'), the link is closed ('auth/revoked', ...) or time is up ('time')."""
        deadline = time.monotonic() + seconds
        try:
            for _ in range(TURNS):
                if time.monotonic() >= deadline:
                    break
                if self.table.view is None or self.table.view.status == "ended":
                    return "ended"
                seen = self.table.position
                await self.turn()
                if self.table.position == seen:  # nothing new since this turn began: wait for the fight
                    try:
                        await self.table.wait(lambda t, seen=seen: t.position != seen, max(0.0, deadline - time.monotonic()))
                    except TimeoutError:
                        break
            return "time"
        except Closed as e:
            return e.code

    async def turn(self) -> None:
        """Answer a prompt put to one of ours; declare for ours still to declare, in the order asked."""
        view = self.table.view
        assert view is not None, "a bot's table is open"
        if view.status != "running":
            return
        waiting = view.awaiting
        if waiting is not None:
            # A die rolled at the table (option physical_dice) is the table's: nobody rolled it
            # for a bot to enter, so the GM (who may answer for anyone) enters it.
            if waiting.kind != DIE and waiting.id not in self._answered and waiting.options and self.plays(view, waiting.who):
                self._answered.add(waiting.id)
                await self._send(Answer(awaiting=waiting.id, choice=waiting.options[0]))
            return
        if view.phase != "declaration":
            return
        formal = bool(view.options.get("formal_declarations"))
        for i, cid in enumerate(view.awaited):
            if formal and i > 0:
                return  # 003's formal procedure: one at a time, in its order
            if (view.round, cid) in self._tried or cid not in view.actions or not self.plays(view, cid):
                continue
            self._tried.add((view.round, cid))
            await self.declare_for(view, cid)
            return  # the view has moved on: the next turn reads it afresh

    async def declare_for(self, view: View, cid: str) -> Action | None:
        state = state_of(view)
        me = next(c for c in state.combatants if c.id == cid)
        choices = view.actions[cid]
        for action in itertools.islice(candidates(state, me, self.plan, strength(state), Field(state)), TRIES):
            if not offered(choices, action):
                continue
            try:
                await self.table.send(Declare(actor=cid, action=action, tactic=self.label))
            except Refused as r:
                self.refused.append(r.code)
                now = self.table.view
                if now is None or now.phase != "declaration" or cid not in now.awaited:
                    return None  # the moment has passed (declarations closed, or it has declared): nothing else would do
                continue  # the rules refuse this one: the tactic's next
            self.declared.append((view.round, cid, action))
            if self.said is not None:
                self.said(cid, action)
            return action
        return None

    async def _send(self, command) -> None:
        try:
            await self.table.send(command)
        except Refused:
            pass  # answered meanwhile by someone else, or no longer open


async def play(link: str, plan: Plan, combatants: tuple[str, ...] = (), side: str = "", seconds: float = SECONDS, said=None) -> str:
    """Join with `link` and play until the fight ends, the link closes or `seconds` pass; why it stopped."""
    table = Table(link)
    try:
        await table.open()
    except Closed as e:
        return e.code
    try:
        assert table.viewer is not None  # set by the welcome
        if table.viewer.role == "spectator":
            return "bot/spectator"  # a spectator declares for nobody
        if table.viewer.role == "gm" and not (combatants or side):
            return "bot/choose"  # a GM link controls everyone: say whom
        return await Bot(table, plan, combatants, side, said).run(seconds)
    finally:
        await table.close()


STOPPED = {
    "ended": "the fight has ended",
    "time": "its time was up",
    "auth/revoked": "the GM revoked its link (took the combatants back)",
    "bot/spectator": "a spectator link declares for nobody: give a player or GM link",
    "bot/choose": "a GM link controls everyone: name a --side or a --combatant",
}


def main(link: str, plan: Plan, combatants: tuple[str, ...], side: str, seconds: float) -> int:
    """`fray bot`: prints each declaration; 0 when the fight ends, 1 otherwise."""

    def said(cid: str, action: Action) -> None:
        print(f"{cid}: {tag(action)} {getattr(action, 'target', '')}".rstrip(), flush=True)

    why = asyncio.run(play(link, plan, combatants, side, seconds, said))
    print(f"bot stopped: {STOPPED.get(why, why)}", flush=True)
    return 0 if why == "ended" else 1
