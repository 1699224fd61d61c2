"""docs/scenarios/thac0-sheet.toml played headless: every die forced, each of 002's
rules it exercises checked by its figures, and the fold replayed byte for byte."""

from scenes import all_forced, rejected, scenario, texts, who

from fray_table.rules.reducer import canonical, fold
from fray_table.rules.scenario import play

SCENARIO = scenario("thac0-sheet")
PLAYED = play(SCENARIO)


def test_thac0_showcase_uses_every_forced_die_and_refuses_nothing():
    assert all_forced(PLAYED, SCENARIO["dice"]) and not rejected(PLAYED)


def test_thac0_showcase_hull_points_speed_grapple_and_repair():
    assert "Sea serpent attacks Galley: THAC0 12 - AC 7 = H 5; d20 9 ≥ 5: hit." in texts(PLAYED)
    assert "Galley takes 3 hull points (18 hit points (4d6) / 5, rounded down), 27 HP left." in texts(PLAYED)
    assert "Galley makes 108 of 120 ft (10% damage, 0% of the rowers lost)." in texts(PLAYED)
    assert "Galley grapples Cog: d6 2 ≤ 2." in texts(PLAYED)
    assert "Cog's crew patches 1 hull point, 25 HP left; the patch fails after 5d6 = 15 days." in texts(PLAYED)
    galley, cog = who(PLAYED, "galley"), who(PLAYED, "cog")
    assert (galley.hp, galley.lashed_to, cog.hp, cog.repaired, cog.lashed_to) == (27, "cog", 25, 1, "galley")


def test_thac0_showcase_missile_cover_boarding_and_a_fist():
    assert "Bran shoots at Pete (bow): THAC0 19 - AC 7 = H 12; d20 14 + 0 medium range - 1 quarter soft cover = 13 ≥ 12: hit." in texts(PLAYED)
    assert "Alda boards and attacks Pete: THAC0 17 - AC 7 = H 10; d20 12 - 2 boarding = 10 ≥ 10: hit." in texts(PLAYED)
    assert "Pete strikes Alda: THAC0 20 - AC 4 = H 16; d20 15 + 2 target boarding (AC 2 worse) = 17 ≥ 16: hit." in texts(PLAYED)
    assert "Alda is not stunned: t = d20 8 - C' 10 = -2, not above 0." in texts(PLAYED)


def test_thac0_showcase_wrestling_and_the_knock_out():
    wrestle = texts(PLAYED, "wrestle")
    assert wrestle[0].endswith("= 24 against d20 6 + w 12 (ceil(L 4/2) 2 + δS 1 + δD 0 + basic AC 9) = 18: Ogre wins, a grab on Alda.")
    assert wrestle[1].endswith("= 27 against d20 9 + w 12 (ceil(L 4/2) 2 + δS 1 + δD 0 + basic AC 9) = 21: Ogre wins, Alda falls.")
    round_three = texts(PLAYED)[texts(PLAYED).index("Round 3: declarations close.") :]
    haymaker = round_three.index("Alda throws a haymaker at Pete: THAC0 17 - AC 7 = H 10; d20 16 - 5 haymaker = 11 ≥ 10: hit.")
    assert haymaker > next(i for i, t in enumerate(round_three) if t.startswith("Ogre wrestles Alda"))  # DEX 14 strikes after DEX 8
    assert "Pete is knocked out for 8 rounds (t = d20 17 - C' 9 = 8): SvDR d20 9 - 1 = 8 < 14." in texts(PLAYED)
    alda, pete = who(PLAYED, "alda"), who(PLAYED, "pete")
    assert (alda.hp, alda.aboard, alda.hold, alda.held_by, alda.conditions) == (9, "cog", "fall", "ogre", ["grabbed", "prone"])
    assert (pete.hp, pete.conditions, pete.out_until) == (1, ["knocked out"], 11)
    assert (PLAYED.state.round, PLAYED.state.phase) == (4, "declaration")


def test_thac0_showcase_folds_again_to_the_same_bytes():
    again = fold(PLAYED.events)
    assert canonical(again) == canonical(PLAYED.state)
