"""What a combatant may declare for the round (003: 'Everyone states what they're doing').

Each action is resolved in one phase of the round (see rules.round).
New options get defaults, tags never change: stored events live forever.
"""

from msgspec import Struct


class ActionBase(Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    pass


class Attack(ActionBase, tag="attack"):
    target: str
    weapon: int = 0  # index into the attacker's weapons
    called_shots: int = 0  # 003: -5 to hit, +1d6 damage each, up to three
    from_behind: bool = False
    subdue: bool = False


class Move(ActionBase, tag="move"):
    x: int
    y: int


class Hold(ActionBase, tag="hold"):
    """Do nothing this round (or wait, ready)."""


Action = Attack | Move | Hold


def tag(action: ActionBase) -> str:
    """The action's wire tag: 'attack', 'move', ..."""
    return action.__struct_config__.tag
