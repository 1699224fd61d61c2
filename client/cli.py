"""`fray bot LINK --tactic nearest`: a bot (client/bot.py) from the command line."""

from ..server.tactics import TACTICS, Plan


def add_bot(sub) -> None:
    bot = sub.add_parser(
        "bot",
        help="play combatants by a tactic, through an invite link",
        description="Join a fight with an invite link and declare for its combatants each round by a tactic, as any client would "
        "(a player link: the combatants it controls, seeing what it sees). Stops when the fight ends or the link is revoked.",
    )
    bot.add_argument("link", help="an invite link (http://host:port/e/<id>?token=...)")
    bot.add_argument("--tactic", choices=TACTICS, default="nearest", help="how targets are picked (default nearest)")
    bot.add_argument("--flee-at", type=float, default=0.0, metavar="SHARE", help="flee once the side is down to this share (0.5: half; default never)")
    bot.add_argument("--options", action="store_true", help="use the attack options the rules offer (a monster's attack routine, a double attack)")
    bot.add_argument("--side", default="", help="play every combatant of this side (with a GM link)")
    bot.add_argument("--combatant", action="append", default=[], metavar="ID", help="play this combatant (repeatable)")
    bot.add_argument("--hours", type=float, default=12.0, help="stop after this long at most (default 12)")
    bot.set_defaults(handler=bot_command)


def bot_command(args) -> int:
    from . import bot, link

    try:
        link.parse(args.link)
    except ValueError as e:
        print(f"fray bot: {e}")
        return 2
    if not 0 <= args.flee_at < 1 or not 0 < args.hours <= 24 * 7:
        print("fray bot: --flee-at is a share from 0 to below 1, and --hours more than 0 and at most a week")
        return 2
    plan = Plan(tactic=args.tactic, flee_at=args.flee_at, options=args.options)
    return bot.main(args.link, plan, tuple(args.combatant), args.side, args.hours * 3600)
