"""cescacs.select: the CLI's selections (cescacs_convert::Criteria and Filter) from Python,
in the three games, on inline files (no ../shared)."""

import pytest

import cescacs

CHESS = b"""[Event "World Blitz"]
[White "Carlsen, Magnus"]
[Black "Nakamura, Hikaru"]
[Date "2022.12.29"]
[WhiteElo "2812:0"]
[Result "1-0"]

1. e4 c5 2. Nf3 d6 1-0

[Event "Rapid open"]
[White "Fischer, Robert"]
[Black "Spassky, Boris"]
[Date "1972.??.??"]
[WhiteElo "2785"]
[Result "1/2-1/2"]

1. d4 Nf6 2. c4 e6 1/2-1/2

[Event "club blitz"]
[White "Amateur"]
[Black "carlsen fan"]
[Result "0-1"]
[SetUp "1"]
[FEN "8/5k2/8/8/3R4/8/1P6/K7 w - - 0 1"]

1. Kb1 Kf6 2. Kc1 Kf5 0-1
"""

XIANGQI = """[Game "Chinese Chess"]
[Event "National Blitz"]
[Red "Hu Ronghua"]
[Black "Xu Tianhong"]
[RedElo "2600"]
[Result "1-0"]

1. h2e2 h9g7 1-0

[Game "Chinese Chess"]
[Event "League"]
[Red "Lü Qin"]
[Black "Hu Ronghua"]
[RedElo "2500"]
[Result "0-1"]

1. b0c2 b9c7 0-1
""".encode()

CESCACS = b"""[Variant "C'escacs"]
[Event "Cescacs Blitz"]
[White "Ramon"]
[Black "Joan"]
[Result "*"]

1. E7-E9, E21-E19
*

[Variant "C'escacs"]
[Event "Trial"]
[White "Joan"]
[Black "Pere"]
[Result "*"]

1. E7-E9, E21-E19
*
"""


def count(data, fmt, **filters):
    return len(list(cescacs.select(data, fmt, **filters)))


def test_text_criteria_in_the_three_games():
    assert count(CHESS, "pgn", player="carlsen") == 2
    assert count(CHESS, "pgn", player="Carlsen, Magnus", exact=True) == 1
    assert count(CHESS, "pgn", event="BLITZ") == 2
    assert count(XIANGQI, "xiangqi-pgn", player="hu ron") == 2
    assert count(CESCACS, "ctl-pgn", player="JOAN") == 2
    assert count(CESCACS, "ctl-pgn", event="blitz") == 1


def test_comparisons_and_any():
    assert count(CHESS, "pgn", tags=["WhiteElo>=2800"]) == 1
    assert count(CHESS, "pgn", tags=["Date<2000"]) == 1
    assert count(XIANGQI, "xiangqi-pgn", tags=["RedElo>2550"]) == 1
    assert count(CHESS, "pgn", player="fischer", event="club", any=True) == 2
    with pytest.raises(cescacs.OptionError, match="not a number"):
        cescacs.select(CHESS, "pgn", tags=["WhiteElo>=high"])


def test_criteria_and_positions_files(tmp_path):
    criteria = tmp_path / "c.txt"
    criteria.write_text('White "carlsen"\nWhite "fischer"\nDate < "2000"\n')
    assert count(CHESS, "pgn", criteria=str(criteria)) == 1
    positions = tmp_path / "p.txt"
    positions.write_text("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n")
    assert count(CHESS, "pgn", positions=str(positions)) == 1


def test_boards_and_material():
    assert count(CHESS, "pgn", fen_patterns=["rnbqkbnr/*/*/*/*/*/*/RNBQKBNR"]) == 2
    assert count(CHESS, "pgn", material=["R+P vs "]) == 1
    assert count(XIANGQI, "xiangqi-pgn", fen_patterns=["*/*/*/*/*/*/*/1C2C4/*/*"]) == 1
    assert count(CESCACS, "ctl-pgn", material=["R R"]) == 0
    selected = list(cescacs.select(CHESS, "pgn", material=["RP"]))
    assert selected[0].startswith('[Event "club blitz"]')


def test_games_a_filter_cannot_read_are_listed():
    bad = b'[White "a"]\n\n1. e4 e5 2. Ke3 *\n\n[White "b"]\n\n1. e4 *\n'
    selected = cescacs.select(bad, "pgn", min_plies=1)
    assert len(list(selected)) == 1
    assert len(selected.errors) == 1
    assert "illegal move Ke3" in selected.errors[0]
