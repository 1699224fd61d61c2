"""apply(campaign, event) -> campaign: the one reducer a campaign's stream is folded with.

The fight's order of checks (rules.reducer): may this sender send it, then the rule. A
refused command changes nothing but the position, and its one line (for its sender and
the GM) says why, with a namespaced code. The campaign is never changed in place: each
event works on a copy."""

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..errors import Rejected
from ..events import Actor
from ..model import Entry
from ..reducer import sender
from . import bestiary, between, review, roster
from .commands import (
    AddCharacter,
    ChooseImprovement,
    CreateCampaign,
    EditCharacter,
    EditOwn,
    Heal,
    LevelUp,
    PassTime,
    RemoveMonster,
    RepairArmor,
    ReplaceArmor,
    ReplaceShield,
    ReportFight,
    Review,
    SetMonster,
    StartFight,
)
from .events import CampaignEvent
from .state import Campaign, canonical, copied

__all__ = ["apply", "canonical", "fold", "folding", "audience_of"]

Say = Callable[..., None]

# Each command's rule: (state, cmd, by, say), raising Rejected before or after it changed the copy.
_RULES: dict[type, Callable[[Campaign, Any, Actor, Say], None]] = {
    AddCharacter: lambda s, cmd, by, say: roster.add(s, cmd, say),
    EditCharacter: lambda s, cmd, by, say: roster.edit(s, cmd, say),
    EditOwn: roster.edit_own,  # type: ignore[dict-item]  # (state, cmd, by, say)
    StartFight: lambda s, cmd, by, say: roster.start_fight(s, cmd, say),
    PassTime: lambda s, cmd, by, say: between.pass_time(s, cmd, say),
    Heal: lambda s, cmd, by, say: between.heal(s, cmd, say),
    RepairArmor: between.repair_armor,
    ReplaceArmor: between.replace_armor,
    ReplaceShield: between.replace_shield,
    LevelUp: lambda s, cmd, by, say: between.level_up(s, cmd, say),
    ChooseImprovement: between.choose,
    SetMonster: lambda s, cmd, by, say: bestiary.set_monster(s, cmd, say),
    RemoveMonster: lambda s, cmd, by, say: bestiary.remove_monster(s, cmd, say),
    ReportFight: lambda s, cmd, by, say: review.report(s, cmd, say),
    Review: lambda s, cmd, by, say: review.review(s, cmd, say),
}


def audience_of(character: str) -> str:
    """A line about one character: the GM's and that character's player's."""
    return f"character:{character}"


def apply(state: Campaign | None, event: CampaignEvent) -> Campaign:
    cmd = event.command
    if state is None:
        if not isinstance(cmd, CreateCampaign):
            raise RuntimeError("the first event of a campaign must be 'create_campaign'")
        state = roster.create(cmd)
        state.recent = [Entry(seq=0, kind="campaign", text=f"Campaign {cmd.name!r} begins ({cmd.profile}).")]
        state.seq = 1
        return state
    work = copied(state)
    lines: list[Entry] = []

    def say(text: str, character: str = "", audience: str = "") -> None:
        lines.append(
            Entry(seq=state.seq, kind="campaign", text=text, command_id=event.id, audience=audience or (audience_of(character) if character else "all"))
        )

    try:
        if event.by.role not in cmd.roles and not (event.by.role == "gm" and "player" in cmd.roles):
            raise Rejected("auth/forbidden", f"a {event.by.role} may not send '{cmd.__struct_config__.tag}'")
        if isinstance(cmd, CreateCampaign):
            raise Rejected("campaign/already-created", "this campaign already exists")
        _RULES[type(cmd)](work, cmd, event.by, say)
    except Rejected as r:
        work = copied(state)
        lines = [Entry(seq=state.seq, kind="rejected", text=f"Rejected: {r.message}.", code=r.code, command_id=event.id, audience=sender(event.by))]
    work.recent = lines
    work.seq = state.seq + 1
    return work


def folding(events: Iterable[CampaignEvent], state: Campaign | None = None) -> Iterator[Campaign]:
    for event in events:
        state = apply(state, event)
        yield state


def fold(events: Iterable[CampaignEvent], state: Campaign | None = None) -> Campaign | None:
    for state in folding(events, state):  # noqa: B007, B020 (the last state is wanted)
        pass
    return state


def folded_log(events: Iterable[CampaignEvent]) -> tuple[Campaign | None, list[Entry]]:
    """The campaign after `events`, and every line they wrote."""
    state, log = None, []
    for state in folding(events):  # noqa: B007
        log.extend(state.recent)
    return state, log


assert set(_RULES) | {CreateCampaign} == set(CreateCampaign.__mro__[1].__subclasses__()), "every command has its rule"
