//! What a board object needs beyond the rule crates: a chess FEN as python-chess writes
//! it, a chess move read as UCI or SAN, a xiangqi move read as ICCS or any notation
//! the reader knows, and chess perft within the toolkit's depth limit.

use chess_pgn::cozy_chess::{Board, Move, Piece, Rank, Square};
use chess_pgn::{CastlingStyle, to_fen, with_halfmove_clock};

/// FEN as python-chess's `board.fen()`: the en-passant square only when a capture
/// there is legal, the exact halfmove clock `clock` (cozy-chess caps its own), castling
/// rights in `style`.
///
/// ```
/// use chess_pgn::{CastlingStyle, cozy_chess::Board};
/// let b: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse().unwrap();
/// assert_eq!(cescacs_convert::chess_fen(&b, 0, CastlingStyle::XFen),
///     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
pub fn chess_fen(board: &Board, clock: u32, style: CastlingStyle) -> String {
    let mut fen = to_fen(board, style);
    if let Some(ep) = board.en_passant() {
        let target = Square::new(ep, Rank::Sixth.relative_to(board.side_to_move()));
        let mut legal = false;
        board.generate_moves(|moves| {
            legal |= moves.piece == Piece::Pawn && moves.to.has(target);
            legal
        });
        if !legal {
            let mut fields: Vec<&str> = fen.split(' ').collect();
            if fields.len() > 3 {
                fields[3] = "-";
            }
            fen = fields.join(" ");
        }
    }
    with_halfmove_clock(&fen, clock)
}

/// The legal move `text` names on `board`: UCI first (castling as the King's two-square
/// move, or king-takes-rook when `chess960`), then SAN; `None` if neither reads it.
///
/// ```
/// use chess_pgn::cozy_chess::Board;
/// let b = Board::default();
/// assert_eq!(cescacs_convert::chess_move(&b, "g1f3", false), cescacs_convert::chess_move(&b, "Nf3", false));
/// assert!(cescacs_convert::chess_move(&b, "e2e5", false).is_none());
/// ```
pub fn chess_move(board: &Board, text: &str, chess960: bool) -> Option<Move> {
    let text = text.trim();
    let mut found = None;
    board.generate_moves(|moves| {
        for m in moves {
            if chess_pgn::uci(board, Some(m), chess960) == text {
                found = Some(m);
                return true;
            }
        }
        false
    });
    if found.is_some() {
        return found;
    }
    let san = chess_pgn::SanPlus::parse(text.as_bytes()).ok()?;
    san.san.to_move(board).ok()
}

/// The legal moves of `board` in UCI, sorted.
pub fn chess_legal_moves(board: &Board, chess960: bool) -> Vec<String> {
    let mut out = Vec::new();
    board.generate_moves(|moves| {
        out.extend(
            moves
                .into_iter()
                .map(|m| chess_pgn::uci(board, Some(m), chess960)),
        );
        false
    });
    out.sort_unstable();
    out
}

/// Leaves of the legal-move tree `depth` plies deep under `board` (1 at depth 0);
/// refused above `perft::MAX_PERFT_DEPTH`.
///
/// ```
/// use chess_pgn::cozy_chess::Board;
/// assert_eq!(cescacs_convert::chess_perft(&Board::default(), 3), Ok(8902));
/// ```
pub fn chess_perft(board: &Board, depth: u32) -> Result<u64, perft::PerftError> {
    perft::check_limits(depth, 1)?;
    Ok(leaves(board, depth))
}

fn leaves(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    board.generate_moves(|moves| {
        if depth == 1 {
            n += moves.len() as u64;
        } else {
            for m in moves {
                let mut b = board.clone();
                b.play_unchecked(m);
                n += leaves(&b, depth - 1);
            }
        }
        false
    });
    n
}

/// The legal move `text` names in `position`: ICCS (`h2e2`) first, then any notation
/// the xiangqi reader knows (Chinese, WXF, WinBoard SAN); `None` if none reads it.
///
/// ```
/// let p = xiangqi::Position::initial();
/// assert_eq!(cescacs_convert::xiangqi_move(&p, "h2e2"), cescacs_convert::xiangqi_move(&p, "炮二平五"));
/// ```
pub fn xiangqi_move(position: &xiangqi::Position, text: &str) -> Option<xiangqi::Move> {
    let text = text.trim();
    if let Some(m) = position.legal_moves().iter().find(|m| m.to_iccs() == text) {
        return Some(*m);
    }
    xiangqi_pgn::resolve_any(position, text, false)
        .ok()
        .map(|r| r.mv)
}

/// The legal moves of `position` in ICCS, sorted.
pub fn xiangqi_legal_moves(position: &xiangqi::Position) -> Vec<String> {
    let mut out: Vec<String> = position.legal_moves().iter().map(|m| m.to_iccs()).collect();
    out.sort_unstable();
    out
}
