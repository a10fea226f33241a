"""`Board` (chess, xiangqi) beside C'escacs's `Position`, one protocol for the three,
checked against python-chess (when installed) and known perft counts."""

from __future__ import annotations

import pytest

import cescacs

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
XQ_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def test_chess_board_plays_san_and_uci() -> None:
    b = cescacs.Board()
    assert b.fen() == START and b.game == "chess"
    assert len(b.legal_moves()) == 20 and "g1f3" in b.legal_moves()
    for mv in ["e4", "e7e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]:
        b.push(mv)
    assert b.is_check() and b.is_checkmate() and not b.is_stalemate()
    assert b.legal_moves() == []
    with pytest.raises(cescacs.ParseError, match="not a legal move"):
        b.push("e2e4")


def test_chess_fen_like_python_chess() -> None:
    b = cescacs.Board()
    b.push("e4")  # no capture possible: python-chess writes no en-passant square
    assert b.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    s = cescacs.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert s.is_stalemate() and not s.is_check() and not s.is_checkmate()


def test_chess_perft_and_copy() -> None:
    b = cescacs.Board()
    assert [b.perft(d) for d in range(4)] == [1, 20, 400, 8902]
    kiwipete = cescacs.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert kiwipete.perft(2) == 2039
    c = b.copy()
    c.push("d4")
    assert b.fen() == START and c.fen() != START
    with pytest.raises(cescacs.OptionError):
        b.perft(99)


def test_chess_against_python_chess_random_walk() -> None:
    chess = pytest.importorskip("chess")
    import random

    rng = random.Random(29)
    for _ in range(20):
        ours, theirs = cescacs.Board(), chess.Board()
        for _ in range(60):
            legal = sorted(m.uci() for m in theirs.legal_moves)
            assert ours.legal_moves() == legal
            assert ours.fen() == theirs.fen()
            assert (ours.is_check(), ours.is_checkmate(), ours.is_stalemate()) == (
                theirs.is_check(), theirs.is_checkmate(), theirs.is_stalemate())
            if not legal:
                break
            mv = chess.Move.from_uci(rng.choice(legal))
            if rng.random() < 0.5:
                ours.push(theirs.san(mv))
            else:
                ours.push(mv.uci())
            theirs.push(mv)


def test_xiangqi_board() -> None:
    b = cescacs.Board(game="xiangqi")
    assert b.fen() == XQ_START and len(b.legal_moves()) == 44
    assert [b.perft(d) for d in range(4)] == [1, 44, 1920, 79666]
    b.push("h2e2")
    b.push("马8进7")  # any notation the reader knows
    assert b.fen().startswith("rnbakab1r/9/1c4nc1/")
    assert not b.is_check() and not b.is_checkmate()
    assert b._repr_svg_().startswith("<svg")


def test_one_protocol_for_three_boards() -> None:
    boards = [cescacs.Board(), cescacs.Board(game="xiangqi"), cescacs.Position()]
    for board in boards:
        moves = board.legal_moves()
        assert moves
        before = board.fen()
        board.push(moves[0])
        assert board.fen() != before
        assert board.is_check() in (True, False)
        assert not board.is_checkmate() and not board.is_stalemate()
        assert board.perft(1) == len(board.legal_moves())
        assert "<svg" in board._repr_svg_()


def test_bad_arguments() -> None:
    with pytest.raises(cescacs.OptionError, match="game"):
        cescacs.Board(game="shogi")
    with pytest.raises(cescacs.ParseError, match="FEN"):
        cescacs.Board("not a fen")
    with pytest.raises(cescacs.ParseError):
        cescacs.Board(game="xiangqi").push("e2e4")


def test_boards_satisfy_the_protocol() -> None:
    for board in (cescacs.Board(), cescacs.Board(game="xiangqi"), cescacs.Position()):
        assert isinstance(board, cescacs.BoardLike)
