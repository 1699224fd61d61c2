"""fray_table.client: a Python client of Fray's public websocket protocol
(docs/protocol.md, docs/client_library.md), and a bot that plays combatants by a
tactic on it (`fray bot`).

    async with join(link) as table:
        await table.send(Declare(actor="alda", action=Attack(target="gob1")))
        async for line in table.lines():
            print(line.text)
"""

from .link import Link, parse
from .table import Closed, Refused, Table, join

__all__ = ["Closed", "Link", "Refused", "Table", "join", "parse"]
