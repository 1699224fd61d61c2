"""002's range and cover adjustments to a missile attack roll."""

# 002, 'Range adjustments' table.
RANGE = {"short": 1, "medium": 0, "long": -1}

# 002, 'Cover adjustments' table: (soft, hard); None is the chart's '---' (cannot be hit).
COVER = {
    "none": (0, 0),
    "quarter": (-1, -2),
    "half": (-2, -4),
    "three-quarters": (-3, -6),
    "full": (-4, None),
}

COVER_KINDS = ("soft", "hard")


def cover_adjustment(cover: str, kind: str) -> int | None:
    soft, hard = COVER[cover]
    return soft if kind == "soft" else hard


def range_band(distance: int, reach: int) -> str:
    """A ruling: a weapon's range splits in thirds, short, medium and long."""
    if distance * 3 <= reach:
        return "short"
    if distance * 3 <= reach * 2:
        return "medium"
    return "long"
