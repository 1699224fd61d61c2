"""View patches: what changed between two JSON-shaped values, as a list of ops.

An op is `[path, value]` (set the value at path) or `[path]` (delete the key at
path). A path is a list of object keys and array indexes; `[]` is the root.
An array that grows is diffed element by element and its new elements are set
at the new indexes, in order (setting index == length appends); one that shrinks
is replaced whole. So one combatant's HP change, or one more declaration, is
one small op. A value held as the JSON it is sent as (msgspec.Raw: server/views.py
`packed`) is diffed as what it reads as.
Documented in docs/protocol.md; the browser applies it in a dozen lines.
"""

from typing import Any

from msgspec import Raw
from msgspec.json import decode

Op = list


def diff(old: Any, new: Any, path: list | None = None, ops: list[Op] | None = None) -> list[Op]:
    path = [] if path is None else path
    ops = [] if ops is None else ops
    if old is new or old == new:  # shared, unchanged parts are the same object: no walk
        return ops
    if type(old) is Raw or type(new) is Raw:  # held as JSON (a card, a combatant's choices): diffed as what it reads as
        return diff(decode(old) if type(old) is Raw else old, decode(new) if type(new) is Raw else new, path, ops)
    if type(old) is dict and type(new) is dict:
        for key, value in new.items():
            if key not in old:
                ops.append([path + [key], value])
            elif old[key] is not value and old[key] != value:
                diff(old[key], value, path + [key], ops)
        for key in old:
            if key not in new:
                ops.append([path + [key]])
    elif type(old) is list and type(new) is list and len(old) <= len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            if a is not b and a != b:
                diff(a, b, path + [i], ops)
        for i in range(len(old), len(new)):  # grown: set the new indexes, in order
            ops.append([path + [i], new[i]])
    else:
        ops.append([path, new])
    return ops


def apply(value: Any, ops: list[Op]) -> Any:
    """Apply ops in order; returns the new root (the root itself may be replaced)."""
    for op in ops:
        path = op[0]
        if not path:
            value = op[1]
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        if len(op) == 2:
            if type(parent) is list and path[-1] == len(parent):
                parent.append(op[1])
            else:
                parent[path[-1]] = op[1]
        else:
            del parent[path[-1]]
    return value
