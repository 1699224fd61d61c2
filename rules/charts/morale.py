"""003's morale chart: 2d6 (+ modifiers) against the table below."""

# 003, morale chart ('The affected party throws two six-sided dice'): (highest total, result).
MORALE = (
    (2, "surrender"),  # '2 (or lower) | Surrender'
    (5, "flee"),  # '3-5 | Flee'
    (8, "hold"),  # '6-8 | Stand off or hold ground'
    (11, "press"),  # '9-11 | Press for advantage'
    (999, "redouble"),  # '12 (or higher) | Redouble attack!'
)

# How each result reads in the log.
MORALE_TEXT = {
    "surrender": "surrenders",
    "flee": "flees",
    "hold": "stands off or holds ground",
    "press": "presses for advantage",
    "redouble": "redoubles the attack",
}


def morale_result(total: int) -> str:
    return next(result for top, result in MORALE if total <= top)
