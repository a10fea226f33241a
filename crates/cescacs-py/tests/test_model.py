"""The game model (issue 29 part A): `Game.mainline()` Move objects, positions,
`board_at`, and the variation tree, on small games whose answers are known (checked by
hand against python-chess 1.11 and the rule crates), for all three games."""

from __future__ import annotations

import pickle  # noqa: F401  (pickling is part B's; not asserted here)

import pytest

import cescacs

PGN = b"""[Event "model"]
[White "A"]
[Black "B"]
[Result "*"]
[FEN "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"]
[SetUp "1"]

{intro} 1. exd6 {[%clk 1:02:03.5] [%eval -0.29]} O-O $1 2. bxa8=Q {[%emt 0:00:07]}
( 2. b8=N {[%eval #3]} ) 2... Kg7 3. O-O-O *
"""


def game(data: bytes, fmt: str = "pgn") -> cescacs.Game:
    games = list(cescacs.read_games(data, format=fmt))
    assert len(games) == 1 and games[0].errors == [], games[0].errors
    return games[0]


def test_chess_moves_carry_san_uci_squares_men_and_annotations() -> None:
    g = game(PGN)
    moves = g.mainline()
    assert [m.uci for m in moves] == ["e5d6", "e8g8", "b7a8q", "g8g7", "e1c1"]
    assert [m.san for m in moves] == ["exd6", "O-O", "bxa8=Q", "Kg7", "O-O-O"]
    assert [m.ply for m in moves] == [1, 2, 3, 4, 5]
    ep, castle, promo = moves[0], moves[1], moves[2]
    assert (ep.from_square, ep.to_square, ep.piece, ep.captured) == ("e5", "d6", "P", "p")
    assert ep.clock == 3723.5 and ep.eval is not None and (ep.eval.cp, ep.eval.mate) == (-29, None)
    assert ep.comments == ["[%clk 1:02:03.5] [%eval -0.29]"]
    assert (castle.to_square, castle.piece, castle.captured, castle.nags) == ("g8", "k", None, ["$1"])
    assert (promo.promotion, promo.captured, promo.emt, promo.is_check) == ("Q", "r", 7.0, False)
    assert moves[-1].fen_after == "Q4r2/6k1/3P4/8/8/8/8/2KR3R b - - 2 3"
    assert moves[-1].fen_after == g.final_position
    assert str(moves[0]) == "exd6" and "exd6" in repr(moves[0])


def test_a_main_line_is_made_once_and_kept() -> None:
    # Iterating makes every Move in one pass and keeps them: a second iteration, an index
    # or a slice gives the same objects; an index before any iteration makes only that
    # one (equal to the kept one made later); reversed and equality see the same moves.
    g = game(PGN)
    moves = g.mainline()
    early = moves[-1]
    first = list(moves)
    assert len(first) == len(moves) == 5
    assert all(a is b for a, b in zip(first, moves))
    assert moves[2] is first[2] and moves[-1] is first[-1] and moves[1:3][0] is first[1]
    assert early is not first[-1] and early == first[-1]
    assert list(reversed(moves)) == first[::-1] and moves == first and moves == g.mainline()
    assert type(iter(moves)) is type(iter([]))  # the kept list's own iterator
    assert list(game(b"*\n").mainline()) == []


def test_mate_and_check() -> None:
    m = game(b"1. f3 e5 2. g4 Qh4# 0-1\n").mainline()[-1]
    assert (m.is_check, m.is_mate, m.piece, m.to_square) == (True, True, "q", "h4")
    assert game(b"1. e4 f5 2. Qh5+ *\n").mainline()[-1].is_check


def test_positions_and_board_at() -> None:
    g = game(PGN)
    fens = g.positions()
    assert len(fens) == 6
    assert fens[0] == "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"
    assert fens[1:] == [m.fen_after for m in g.mainline()]
    for ply, fen in enumerate(fens):
        b = g.board_at(ply)
        assert isinstance(b, cescacs.Board) and b.fen() == fen
    with pytest.raises(cescacs.OptionError, match="past the end"):
        g.board_at(6)


def test_variations_are_a_tree_with_positions() -> None:
    g = game(PGN)
    first = g.variations
    assert len(first) == 1 and first[0].move.san == "exd6"
    root = first[0].parent
    assert root.move is None and root.comments == ["intro"] and root.ply == 0
    castled = first[0].variations[0]
    after = castled.variations
    assert [n.move.san for n in after] == ["bxa8=Q", "b8=N"]
    knight = after[1]
    assert knight.move.eval.mate == 3 and knight.move.ply == 3
    assert not knight.is_mainline() and after[0].is_mainline()
    assert knight.parent.move.san == "O-O"
    assert knight.board().fen() == knight.fen == knight.move.fen_after
    assert knight.next() is None
    # Walking next() from the start gives the main line.
    node, sans = root, []
    while (node := node.next()) is not None:
        sans.append(node.move.san)
    assert sans == [m.san for m in g.mainline()]


def test_a_game_without_moves_and_an_unreadable_one() -> None:
    g = game(b'[Event "x"]\n\n*\n')
    assert g.mainline() == [] and g.variations == [] and len(g.positions()) == 1
    bad = list(cescacs.read_games(b"1. e4 e5 2. Ke3 *\n", format="pgn"))[0]
    assert bad.errors  # damaged input is said to be damaged
    assert [m.san for m in bad.mainline()] == ["e4", "e5"]  # the moves read before the error


XIANGQI = """[Game "Chinese Chess"]
[Format "ICCS"]

1. h2e2 h9g7 2. h0g2 {[%clk 0:01:00]} i9h9 3. e2e6 (3. g3g4) c6c5 *
""".encode()


def test_xiangqi_moves_are_iccs_with_fen() -> None:
    g = game(XIANGQI, "xiangqi-pgn")
    moves = g.mainline()
    assert [m.uci for m in moves] == ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6", "c6c5"]
    assert [m.written for m in moves][:2] == ["h2e2", "h9g7"]
    assert moves[0].piece == "C" and moves[1].piece == "n" and moves[4].captured == "p"
    assert moves[2].clock == 60.0
    assert moves[-1].fen_after == g.final_position
    assert isinstance(g.board_at(0), cescacs.Board) and g.board_at(0).game == "xiangqi"
    third = g.variations[0].variations[0].variations[0].variations[0]
    assert [n.move.uci for n in third.variations] == ["e2e6", "g3g4"]


CTL = "[Variant \"C'escacs\"]\n\n1. E7-E9 {[%clk 0:00:10]}, E21-E19 (1... F20-F18)\n*\n".encode()


def test_cescacs_moves_are_ctl_an_with_tlpd() -> None:
    g = game(CTL, "ctl-pgn")
    moves = g.mainline()
    assert [m.uci for m in moves] == ["E7E9", "E21E19"]
    assert [m.san for m in moves] == ["E7-E9", "E21-E19"]
    assert moves[0].clock == 10.0 and moves[0].piece == "P"
    assert moves[-1].fen_after == g.final_position
    p = g.board_at(1)
    assert isinstance(p, cescacs.Position)
    p.push("E21-E19")
    assert p.fen() == g.final_position
    first = g.variations[0]
    assert [n.move.san for n in first.variations] == ["E21-E19", "F20-F18"]


def test_final_position_is_the_last_ply_position_for_every_testdata_game() -> None:
    # The read keeps a chess game's final board rather than replaying the main line
    # again for `final_position` (and for mate and stalemate): for every game of
    # testdata, of the three games, it must still be the position after the main
    # line's last ply (the start position for a game without moves).
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "testdata"
    games = 0
    for d in ("chess", "xiangqi", "ctl-pgn"):
        for p in sorted((root / d).rglob("*")):
            if not p.is_file() or p.suffix.lower() not in (".pgn", ".ctl-pgn"):
                continue
            for g in cescacs.read_games(p):
                if g.final_position is None or g.errors:
                    continue
                last = g.positions()[-1]
                if p.suffix.lower() == ".pgn" and g.format == "pgn":
                    # Known and older than the kept board: `final_position` writes the
                    # en passant square after every double push (the board's own FEN),
                    # `positions()` only when a capture there is legal (python-chess's
                    # FEN). Every other field must agree.
                    ours, theirs = g.final_position.split(" "), last.split(" ")
                    assert ours[3] == theirs[3] or theirs[3] == "-", (p.name, g.index)
                    ours[3] = theirs[3]
                    assert " ".join(ours) == last, (p.name, g.index)
                else:
                    assert g.final_position == last, (p.name, g.index)
                games += 1
    assert games > 1000, games
