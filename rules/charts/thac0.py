"""002's hit table as data, and the combat bonus 003 asks for derived from it.

003 says a hit needs 'd20 + the attacking character's combat bonus (as per their
class and level) + ...' but gives no table; Fray reads the bonus off 002's THAC0
table: combat bonus = 19 - THAC0 (a THAC0 of 19 needs 19 on the die against
AC 0, exactly 003's sum with a bonus of 0).

Ruling on the D-H column (docs/rulings.md): its letters A..M are the attack ranks
of dwarves, elves and halflings. By default (`demihuman_thac0 = "fighter"`) a
demi-human fights as a fighter of its level until given a rank, which then reads
the letter's row; `demihuman_thac0 = "letters"` reads the letters as levels
instead (level 1 = A, ..., 13 and up = M).
"""

CLASSES = ("fighter", "cleric", "thief", "magic-user", "dwarf", "elf", "halfling", "monster", "normal")
GROUP = {  # 002's column headings: M-U, C/T, F, D-H
    "magic-user": "mu",
    "cleric": "ct",
    "thief": "ct",
    "fighter": "f",
    "dwarf": "dh",
    "elf": "dh",
    "halfling": "dh",
}
RANKS = "ABCDEFGHIJKLM"
NORMAL_MAN = 20  # 002, Hit table: 'Normal man ... 20'

# 002, Hit table: THAC0 by M-U / C-T / F level range, D-H letter and monster HD range.
# Monster HD (a, b) reads '<a>+ to <b>'; (None, 1) is 'Up to 1'; (35, None) is '35+ up'.
HIT_TABLE = (
    # thac0, M-U,     C/T,      F,        D-H,  monster HD
    (19, (1, 5), (1, 4), (1, 3), None, (None, 1)),
    (18, None, None, None, None, (1, 2)),
    (17, (6, 10), (5, 8), (4, 6), None, (2, 3)),
    (16, None, None, None, None, (3, 4)),
    (15, (11, 15), (9, 12), (7, 9), "A", (4, 5)),
    (14, None, None, None, "B", (5, 6)),
    (13, (16, 20), (13, 16), (10, 12), "C", (6, 7)),
    (12, None, None, None, "D", (7, 8)),
    (11, (21, 25), (17, 20), (13, 15), "E", (8, 9)),
    (10, None, None, None, "F", (9, 11)),
    (9, (26, 30), (21, 24), (16, 18), "G", (11, 13)),
    (8, None, None, None, "H", (13, 15)),
    (7, (31, 35), (25, 28), (19, 21), "I", (15, 17)),
    (6, None, None, None, "J", (17, 19)),
    (5, (36, 36), (29, 32), (22, 24), "K", (19, 21)),
    (4, None, None, None, "L", (21, 23)),
    (3, None, (33, 36), (25, 27), "M", (23, 25)),
    (2, None, None, None, None, (25, 27)),
    (1, None, None, (28, 30), None, (27, 29)),
    (0, None, None, None, None, (29, 31)),
    (-1, None, None, (31, 33), None, (31, 33)),
    (-2, None, None, None, None, (33, 35)),
    (-3, None, None, (34, 36), None, (35, None)),
)
_COLUMN = {"mu": 1, "ct": 2, "f": 3}


def by_level(group: str, level: int) -> int:
    """THAC0 of a class group at a level. Below 1: a normal man; above the
    column's last row: that row (a ruling: the table stops, so does the gain)."""
    if level < 1:
        return NORMAL_MAN
    column = _COLUMN[group]
    best = NORMAL_MAN
    for row in HIT_TABLE:
        span = row[column]
        if span is None:
            continue
        assert isinstance(span, tuple) and span[0] is not None and span[1] is not None  # a class column holds spans
        if span[0] <= level <= span[1]:
            return row[0]
        if level > span[1]:
            best = row[0]
    return best


def by_rank(rank: str) -> int:
    return next(row[0] for row in HIT_TABLE if row[4] == rank)


def by_hit_dice(hd: int, plus: int = 0) -> int:
    """'Up to 1' is HD 1 or less with no plus; '4+ to 5' is 4+1 up to 5 (and 5+0)."""
    half = 2 * hd + (1 if plus > 0 else 0)  # HD in half steps: 4 -> 8, 4+1 -> 9
    for row in HIT_TABLE:
        low, high = row[5]
        if (low is None or half >= 2 * low + 1) and (high is None or half <= 2 * high):
            return row[0]
    raise AssertionError(f"no hit-table row for HD {hd}+{plus}")


def thac0(klass: str, level: int, hd: int, hd_plus: int = 0, rank: str = "", demihuman: str = "fighter") -> int:
    if klass == "normal":
        return NORMAL_MAN
    if klass == "monster":
        return by_hit_dice(hd, hd_plus)
    group = GROUP[klass]
    if group != "dh":
        return by_level(group, level)
    if demihuman == "letters":
        return NORMAL_MAN if level < 1 else by_rank(RANKS[min(level, len(RANKS)) - 1])
    return by_rank(rank) if rank else by_level("f", level)


def combat_bonus(klass: str, level: int, hd: int, hd_plus: int = 0, rank: str = "", demihuman: str = "fighter") -> int:
    """003's combat bonus read off 002: 19 - THAC0."""
    return 19 - thac0(klass, level, hd, hd_plus, rank, demihuman)
