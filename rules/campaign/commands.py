"""A campaign's commands: what the GM, a player or the server asks of it. The stream holds
them, as a fight's holds its own (rules.commands); outcomes are the reducer's.
`roles` names who may send each; a player only for their own characters."""

from typing import ClassVar

from msgspec import UNSET, Struct, UnsetType

from ..commands import GM, SYSTEM, TABLE
from ..model import Combatant
from .sheet import Character, Gear
from .state import Finding


class CampaignCommand(Struct, gc=False, tag_field="type", forbid_unknown_fields=True, frozen=True):
    roles: ClassVar[frozenset[str]] = GM


class CreateCampaign(CampaignCommand, tag="create_campaign", frozen=True):
    """Always the first event: the campaign's name and the rules its sheets are checked by."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    id: str
    name: str
    profile: str
    rules_version: int


class AddCharacter(CampaignCommand, tag="add_character", frozen=True):
    character: Character


class EditCharacter(CampaignCommand, tag="edit_character", frozen=True):
    """The GM sets any of a character's parts; unset ones stay."""

    id: str
    sheet: Combatant | UnsetType = UNSET
    owner: str | UnsetType = UNSET
    abilities: dict[str, int] | UnsetType = UNSET
    gear: Gear | UnsetType = UNSET


class EditOwn(CampaignCommand, tag="edit_own", frozen=True):
    """What a player may change of their own character: its name and their notes."""

    roles: ClassVar[frozenset[str]] = TABLE
    id: str
    name: str | UnsetType = UNSET
    notes: str | UnsetType = UNSET


class PassTime(CampaignCommand, tag="pass_time", frozen=True):
    """In-game days go by ('a week of rest'): lasting conditions run down, and those that
    heal only with rest (000's concussion) when `rest`."""

    days: int
    rest: bool = True


class Heal(CampaignCommand, tag="heal", frozen=True):
    """Medical attention or magical healing ends a condition that it heals (000, 001), or sets HP."""

    id: str
    condition: str = ""
    hp: int | None = None


class RepairArmor(CampaignCommand, tag="repair_armor", frozen=True):
    """000: 'Damaged Armor can be repaired for 1/2 the original cost.'"""

    roles: ClassVar[frozenset[str]] = TABLE
    id: str


class ReplaceArmor(CampaignCommand, tag="replace_armor", frozen=True):
    """000: armor beyond repair 'MUST be replaced': new armor at its full cost."""

    roles: ClassVar[frozenset[str]] = TABLE
    id: str


class ReplaceShield(CampaignCommand, tag="replace_shield", frozen=True):
    """000's shield sacrifice shatters it 'altering your AC until it is replaced'."""

    roles: ClassVar[frozenset[str]] = TABLE
    id: str


class LevelUp(CampaignCommand, tag="level_up", frozen=True):
    """The character reaches the next level; 000's improved combat option is offered where
    the saves improve (rules.campaign.saves), or where the GM says (`offer`)."""

    id: str
    offer: bool | None = None


class ChooseImprovement(CampaignCommand, tag="choose_improvement", frozen=True):
    """000: 'you may choose 1 of these Improvements' (`weapon` for weapon expertise)."""

    roles: ClassVar[frozenset[str]] = TABLE
    id: str
    option: str
    weapon: str = ""


class SetMonster(CampaignCommand, tag="set_monster", frozen=True):
    """Add a monster to the bestiary, or replace the one of the same name."""

    monster: Combatant
    morale: int = 0  # Labyrinth Lord's morale score, 2-12; 0: not given


class RemoveMonster(CampaignCommand, tag="remove_monster", frozen=True):
    name: str


class StartFight(CampaignCommand, tag="start_fight", frozen=True):
    """A fight was made from the campaign with copies of these characters (written by the server)."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    fight: str
    characters: list[str]


class ReportFight(CampaignCommand, tag="report_fight", frozen=True):
    """What a fight did to its characters, for the GM's review (written by the server from
    the fight's stream: rules.campaign.findings)."""

    roles: ClassVar[frozenset[str]] = SYSTEM
    fight: str
    findings: list[Finding]


class Review(CampaignCommand, tag="review", frozen=True):
    """The GM accepts a finding (it lands on the character) or rejects it (nothing changes)."""

    finding: str
    accept: bool


Command = (
    CreateCampaign
    | AddCharacter
    | EditCharacter
    | EditOwn
    | PassTime
    | Heal
    | RepairArmor
    | ReplaceArmor
    | ReplaceShield
    | LevelUp
    | ChooseImprovement
    | SetMonster
    | RemoveMonster
    | StartFight
    | ReportFight
    | Review
)
