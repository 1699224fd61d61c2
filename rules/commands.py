"""Commands: what people ask for. They are what the stream holds (DESIGN: 'Why the
stream holds commands'); outcomes are derived by the reducer.

Each command names the roles that may send it (`roles`); the server checks it
before appending and the reducer checks it again when folding.
"""

from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
from msgspec import UNSET, Struct, UnsetType

from .actions import Action
from .model import Awaiting, Combatant, Declaration, MapImage, Step

GM = frozenset({"gm"})
TABLE = frozenset({"gm", "player"})
SYSTEM = frozenset({"system"})


class CommandBase(Struct, gc=False, tag_field="type", forbid_unknown_fields=True, frozen=True):
    roles: ClassVar[frozenset[str]] = GM


class CreateEncounter(CommandBase, tag="create", frozen=True):
    """Always the first event: pins the profile, options, rules version and seed."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    id: str
    profile: str
    seed: bytes
    rules_version: int
    options: dict[str, int | bool | str] = {}
    modules: dict[str, str] = {}  # module -> the profile it is taken from (rules.ruleset.compose)


class AddCombatant(CommandBase, tag="add_combatant", frozen=True):
    combatant: Combatant  # an empty id gets a fresh one ('c1', 'c2', ...)


def _edit_fields() -> list[tuple]:
    """Every figure of Combatant but its id, each unset unless the edit gives it: a
    figure is declared once (rules.model.Combatant; its bounds with the profile's
    figures, rules.profiles), and the edit, its check and the schema follow."""
    fields: list[tuple] = [("id", str)]
    for f in msgspec.structs.fields(Combatant):
        if f.name != "id":
            default = msgspec.field(default=UNSET, name=f.encode_name) if f.encode_name != f.name else UNSET
            fields.append((f.name, f.type | UnsetType, default))
    return fields


# The GM sets any figures of a combatant; a stored edit names only those it changes.
if TYPE_CHECKING:
    # mypy cannot see the fields of a class made by defstruct: it sees this stand-in.
    class EditCombatant(CommandBase, tag="edit_combatant", frozen=True):
        id: str

        def __getattr__(self, name: str) -> Any: ...

else:
    EditCombatant = msgspec.defstruct(
        "EditCombatant",
        _edit_fields(),
        bases=(CommandBase,),
        tag="edit_combatant",
        frozen=True,
        module=__name__,
    )


class RemoveCombatant(CommandBase, tag="remove_combatant", frozen=True):
    id: str


class Start(CommandBase, tag="start", frozen=True):
    """Roll surprise (003) and open the first round's declarations."""


class Declare(CommandBase, tag="declare", frozen=True, omit_defaults=True):
    """`tactic`: the tactic a bot declared it by (fray_table.client.bot), for the log's words;
    left out when empty (omit_defaults), so a declaration without one is stored as before."""

    roles: ClassVar[frozenset[str]] = TABLE
    actor: str
    action: Action
    tactic: str = ""


class Advance(CommandBase, tag="advance", frozen=True):
    """Close declarations and resolve the round's phases in Dexterity order."""


class ForceRolls(CommandBase, tag="force_rolls", frozen=True):
    """Queue die results. With `sides` (a kind of die: 20 for d20s), each is used by the
    next roll of that kind only; without (0, as every stored fight has it), by the next
    die rolled, of any kind, if it fits that die."""

    values: list[int]
    sides: int = 0


class ClearForced(CommandBase, tag="clear_forced", frozen=True):
    """Empty the GM's forced-roll queues: one kind of die's (`sides`), the untyped one
    (`sides` 0), or every one (no `sides`)."""

    sides: int | None = None


class Answer(CommandBase, tag="answer", frozen=True):
    roles: ClassVar[frozenset[str]] = TABLE
    awaiting: str
    choice: str


class CallMorale(CommandBase, tag="call_morale", frozen=True):
    """003: roll morale now for one combatant or a whole side (2d6 + modifier + loyalty).

    Name `combatant` or `side`. During declarations the result governs the round
    being declared; at any other time, the next round.
    """

    combatant: str = ""
    side: str = ""
    modifier: int = 0


class Say(CommandBase, tag="say", frozen=True):
    """A chat line to the table, or a whisper (`to`): the GM's to the player of combatant
    `to`, a player's to the GM (`to: "gm"`). Plain text (rules.chat)."""

    roles: ClassVar[frozenset[str]] = TABLE
    text: str
    to: str = ""


class SetMap(CommandBase, tag="set_map", frozen=True):
    """The battle map's background: an image (base64 in JSON), its size in pixels and how
    many pixels a 5-ft square spans; an empty image removes it (rules.battlemap)."""

    image: bytes = b""
    media: str = ""
    width: int = 0
    height: int = 0
    square: int = 0


class End(CommandBase, tag="end", frozen=True):
    """End the fight and reveal the seed."""


class Undo(CommandBase, tag="undo", frozen=True):
    """Undo event `seq` (the `seq` of its log lines) as if it had never happened;
    with `rewind`, go back to just before it (it and every later event undone).
    Never stored: the server appends the `restore` it computes (rules/undo.py)."""

    seq: int
    rewind: bool = False


class Restore(CommandBase, tag="restore", frozen=True):
    """The compensating event of a GM's `undo`, made by the server and stored under
    the GM's actor; no client may send it. It carries the value of every state
    field the undo changes, applied as is: a replay never recomputes an undo."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    undoes: int  # the event the GM undid
    at: int  # the position it was computed for; folded at any other it is stale
    what: str  # the undone event in words, for the log
    undone: list[int]  # every undone position from now on (state.undone)
    rewind: bool = False
    status: str | UnsetType = UNSET
    round: int | UnsetType = UNSET
    phase: str | UnsetType = UNSET
    combatants: list[Combatant] | UnsetType = UNSET
    declarations: list[Declaration] | UnsetType = UNSET
    surprised: list[str] | UnsetType = UNSET
    steps: list[Step] | UnsetType = UNSET
    awaiting: Awaiting | None | UnsetType = UNSET
    forced: list[int] | UnsetType = UNSET
    forced_by_die: dict[str, list[int]] | UnsetType = UNSET  # keyed as Encounter.forced_by_die
    entered: list[int] | UnsetType = UNSET  # dice entered for a step waiting on the table (physical_dice)
    morale_triggers: list[str] | UnsetType = UNSET
    next_id: int | UnsetType = UNSET
    battle_map: MapImage | None | UnsetType = UNSET


class Fork(CommandBase, tag="fork", frozen=True):
    """Right after a prefix of another encounter's stream (its events 0..`at`, copied
    as they are): this stream goes on from there as a fight of its own, encounter
    `id`, with a fresh `seed` for every roll from here on (server/forks.py makes it;
    no client may send it). `options` change the fight's options from here on. A
    fork with a new veil clears the combatants' GM notes: they were another GM's."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    id: str
    seed: bytes
    origin: str  # the encounter forked
    at: int  # the last of its events kept
    options: dict[str, int | bool | str] = {}
    # Its GM reads the events up to `veil` as a `veil_role` holding `veil_combatants` did
    # (a fork from a player's or spectator's link, or of such a fork); -1: as its GM.
    veil: int = -1
    veil_role: str = ""  # "player" | "spectator" under a veil
    veil_combatants: list[str] = []
    # The rules version the fork goes on under: 0 keeps its origin's; the server's newest
    # makes a fork under today's rules (rules/upgrade.py, as the GM's upgrade_rules).
    rules_version: int = 0


class UpgradeRules(CommandBase, tag="upgrade_rules", frozen=True):
    """Play on under newer rules: from this event on the fight folds under rules version
    `version` (0: the server fills in its newest before appending). Everything before
    it stays as it was played; the dice go on from the same seed (rules/upgrade.py)."""

    version: int = 0


Command = (
    CreateEncounter
    | AddCombatant
    | EditCombatant
    | RemoveCombatant
    | Start
    | Declare
    | Advance
    | ForceRolls
    | ClearForced
    | Say
    | SetMap
    | Answer
    | CallMorale
    | End
    | Undo
    | Restore
    | Fork
    | UpgradeRules
)

# Each command in words, as a log line names one it speaks of (the GM's undo: 'GM undid an
# edit of a combatant'). tests/rules/holmes/test_rules_undo.py checks every command has its words.
IN_WORDS = {
    "create": "the creation of the encounter",
    "add_combatant": "adding a combatant",
    "edit_combatant": "an edit of a combatant",
    "remove_combatant": "removing a combatant",
    "start": "the start of the fight",
    "declare": "a declaration",
    "advance": "closing the declarations",
    "force_rolls": "forced dice",
    "clear_forced": "clearing the forced dice",
    "answer": "an answer to a prompt",
    "call_morale": "a morale check",
    "say": "a line of table talk",
    "set_map": "the battle map",
    "end": "the end of the fight",
    "undo": "an undo",
    "restore": "an undo",
    "fork": "the fork",
    "upgrade_rules": "the move to newer rules",
}
