//! Playing on the board: the legal moves of a position with the cells they join, and
//! the position after one of them, for any of the three games. The viewer's play mode
//! (through the WebAssembly module, `crates/cescacs-wasm`) and the bindings call these,
//! so a click on the page and `legalMoves` in node give the same moves.

use crate::steps::{Shown, chess, hex, xq};
use board_svg::BoardKind;

/// A legal move as the board shows it: its text and the cells it joins (indices of
/// [`BoardKind`]'s numbering, as in [`crate::Step::last_move`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayMove {
    /// CTL-AN with its check marker (C'escacs), SAN (chess), or the xiangqi notation
    /// asked for.
    pub text: String,
    /// The cell the man leaves.
    pub from: u16,
    /// The cell it goes to (for chess castling, the king's destination, as the
    /// viewer shows castling).
    pub to: u16,
}

/// Why a position or a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The position text is not a TLPD (C'escacs) or FEN (chess, xiangqi).
    #[error("bad {what} {text:?}: {reason}")]
    Position {
        /// "TLPD" or "FEN".
        what: &'static str,
        /// The text given.
        text: String,
        /// The reader's message.
        reason: String,
    },
    /// The move cannot be read, or is not legal in the position.
    #[error("{text:?}: {reason}")]
    Move {
        /// The move as given.
        text: String,
        /// Why.
        reason: String,
    },
}

/// Which notation the xiangqi moves are written in (C'escacs and chess have one each).
pub use xiangqi_pgn::Notation as XiangqiNotation;

/// The start position of `kind` (TLPD or FEN), and how it is shown.
pub fn start(kind: BoardKind) -> Shown {
    match kind {
        BoardKind::Chess => chess::shown(chess_pgn::start_board(), chess_pgn::CastlingStyle::XFen),
        BoardKind::Xiangqi => xq::shown(&xiangqi::Position::initial()),
        BoardKind::Cescacs => hex::shown(&cescacs_rules::Position::initial()),
    }
}

/// How `position` is shown (board letters, check, mate, and the position text the
/// readers write).
pub fn show(kind: BoardKind, position: &str) -> Result<Shown, PlayError> {
    Ok(match read(kind, position)? {
        Read::Chess(b) => chess::shown(&b, chess_pgn::CastlingStyle::XFen),
        Read::Xiangqi(p) => xq::shown(&p),
        Read::Cescacs(p) => hex::shown(&p),
    })
}

/// Every legal move of `position`, sorted by text in code-point order (the order of
/// `cescacs moves`). `notation` applies to xiangqi only.
pub fn legal_moves(
    kind: BoardKind,
    position: &str,
    notation: XiangqiNotation,
) -> Result<Vec<PlayMove>, PlayError> {
    let mut moves: Vec<PlayMove> = match read(kind, position)? {
        Read::Chess(board) => {
            let mut out = Vec::new();
            board.generate_moves(|list| {
                out.extend(list);
                false
            });
            out.into_iter()
                .map(|m| PlayMove {
                    text: chess_pgn::SanPlus::from_move(&board, m).to_string(),
                    from: m.from as u16,
                    to: chess_to(&board, m) as u16,
                })
                .collect()
        }
        Read::Xiangqi(p) => {
            let style = xiangqi_pgn::MoveStyle::canonical(notation);
            p.legal_moves()
                .iter()
                .map(|&m| PlayMove {
                    text: xiangqi_pgn::render(&p, m, &style),
                    from: xq::index(m.from()),
                    to: xq::index(m.to()),
                })
                .collect()
        }
        Read::Cescacs(p) => {
            let letters = cescacs_rules::Letters::default();
            p.legal_moves()
                .iter()
                .map(|&m| PlayMove {
                    text: p.move_to_an(m, &letters),
                    from: board_svg::hex_index(m.from()),
                    to: board_svg::hex_index(m.to()),
                })
                .collect()
        }
    };
    moves.sort_unstable_by(|a, b| a.text.cmp(&b.text));
    Ok(moves)
}

/// The position after `mv` (CTL-AN, SAN, or any xiangqi notation), as shown.
pub fn play(kind: BoardKind, position: &str, mv: &str) -> Result<Shown, PlayError> {
    let bad = |reason: String| PlayError::Move {
        text: mv.to_string(),
        reason,
    };
    Ok(match read(kind, position)? {
        Read::Chess(mut board) => {
            let san =
                chess_pgn::SanPlus::parse(mv.trim().as_bytes()).map_err(|e| bad(e.to_string()))?;
            let m = san.san.to_move(&board).map_err(|e| bad(e.to_string()))?;
            board.play_unchecked(m);
            chess::shown(&board, chess_pgn::CastlingStyle::XFen)
        }
        Read::Xiangqi(mut p) => {
            let m = xiangqi_pgn::resolve_any(&p, mv.trim(), false)
                .map_err(|e| bad(e.to_string()))?
                .mv;
            p.play(m);
            xq::shown(&p)
        }
        Read::Cescacs(mut p) => {
            let letters = cescacs_rules::Letters::default();
            let text = cescacs_rules::an::MoveText::parse(mv.trim(), &letters)
                .map_err(|e| bad(e.to_string()))?;
            let m = p.resolve(&text).map_err(|e| bad(e.to_string()))?.mv;
            p.play(m).map_err(|e| bad(e.to_string()))?;
            hex::shown(&p)
        }
    })
}

/// A position read for one of the games.
enum Read {
    Chess(chess_pgn::cozy_chess::Board),
    Xiangqi(xiangqi::Position),
    Cescacs(cescacs_rules::Position),
}

fn read(kind: BoardKind, text: &str) -> Result<Read, PlayError> {
    let bad = |what, reason: String| PlayError::Position {
        what,
        text: text.to_string(),
        reason,
    };
    let text = text.trim();
    Ok(match kind {
        BoardKind::Chess => Read::Chess(chess_pgn::parse_fen(text).map_err(|e| bad("FEN", e))?),
        BoardKind::Xiangqi => {
            Read::Xiangqi(xiangqi::Position::from_fen(text).map_err(|e| bad("FEN", e.to_string()))?)
        }
        BoardKind::Cescacs => {
            Read::Cescacs(cescacs_tlpd::parse(text).map_err(|e| bad("TLPD", e.to_string()))?)
        }
    })
}

/// The king's destination for castling (cozy-chess writes king-takes-rook), else the
/// move's own destination: the cell a player clicks.
pub(crate) fn chess_to(
    board: &chess_pgn::cozy_chess::Board,
    m: chess_pgn::cozy_chess::Move,
) -> chess_pgn::cozy_chess::Square {
    use chess_pgn::cozy_chess::{File, Square};
    if board.color_on(m.to) == board.color_on(m.from) {
        let file = if m.to.file() > m.from.file() {
            File::G
        } else {
            File::C
        };
        Square::new(file, m.from.rank())
    } else {
        m.to
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_have_the_rules_move_counts() {
        // Perft(1) of each start: 68 (C'escacs), 20 (chess), 44 (xiangqi).
        for (kind, n) in [
            (BoardKind::Cescacs, 68),
            (BoardKind::Chess, 20),
            (BoardKind::Xiangqi, 44),
        ] {
            let start = start(kind);
            let moves = legal_moves(kind, &start.position, XiangqiNotation::Wxf).unwrap();
            assert_eq!(moves.len(), n, "{kind:?}");
            assert!(moves.iter().all(|m| m.from != m.to));
            assert_eq!(start.board.len(), kind.cells());
        }
    }

    #[test]
    fn playing_a_listed_move_moves_the_man_between_its_cells() {
        for kind in [BoardKind::Cescacs, BoardKind::Chess, BoardKind::Xiangqi] {
            let start = start(kind);
            for m in legal_moves(kind, &start.position, XiangqiNotation::Iccs).unwrap() {
                let after = play(kind, &start.position, &m.text).unwrap();
                let (from, to) = (usize::from(m.from), usize::from(m.to));
                assert_eq!(after.board.as_bytes()[from], b'.', "{kind:?} {}", m.text);
                assert_eq!(
                    after.board.as_bytes()[to],
                    start.board.as_bytes()[from],
                    "{kind:?} {}",
                    m.text
                );
                assert_ne!(after.position, start.position);
            }
        }
    }

    #[test]
    fn castling_is_shown_as_the_kings_move_and_refusals_say_why() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let moves = legal_moves(BoardKind::Chess, fen, XiangqiNotation::Wxf).unwrap();
        let short = moves.iter().find(|m| m.text == "O-O").unwrap();
        assert_eq!((short.from, short.to), (4, 6));
        let after = play(BoardKind::Chess, fen, "O-O").unwrap();
        assert!(after.position.starts_with("r3k2r/8/8/8/8/8/8/R4RK1 b kq"));
        let e = play(BoardKind::Chess, fen, "e4").unwrap_err();
        assert!(matches!(e, PlayError::Move { .. }), "{e}");
        let e = show(BoardKind::Cescacs, "not a tlpd").unwrap_err();
        assert!(e.to_string().starts_with("bad TLPD \"not a tlpd\""), "{e}");
        let e = show(BoardKind::Xiangqi, "8/8 w").unwrap_err();
        assert!(e.to_string().starts_with("bad FEN"), "{e}");
    }
}
