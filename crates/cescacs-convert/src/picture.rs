//! Classic chess positions as pictures and text diagrams (`cescacs show --fen` with a
//! chess FEN, and [`crate::Record::svg`] for chess games), in the look of the other
//! boards (`board-svg`).

use chess_pgn::cozy_chess::{Board, Color, Square};

/// Why a chess position cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PictureError {
    /// The FEN is not a legal chess position (read as a PGN `FEN` tag is read).
    #[error("invalid chess FEN {fen:?}: {reason}")]
    BadFen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The last move to highlight is not two squares.
    #[error("expected a move as two squares like e2-e4 or e2e4, found {0:?}")]
    BadMove(String),
    /// The FEN is not a xiangqi position.
    #[error("invalid xiangqi FEN: {reason}")]
    BadXiangqiFen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The last xiangqi move to highlight is not two ICCS points.
    #[error("expected an ICCS move like h2-e2, found {0:?}")]
    BadXiangqiMove(String),
}

fn board(fen: &str) -> Result<Board, PictureError> {
    let bad = |reason: String| PictureError::BadFen {
        fen: fen.to_string(),
        reason,
    };
    // The placement's own check names the rank at fault; the rules crate's check
    // (kings, pawns on the last rank, castling rights…) comes after.
    board_svg::chess_men_from_fen(fen).map_err(|e| bad(e.to_string()))?;
    chess_pgn::parse_fen(fen).map_err(bad)
}

/// A square as (file, rank), 0-based from a1.
type FileRank = (u8, u8);

/// Two board points written `e2-e4`, `e2e4` or `E2-E4`: files `a` onwards, ranks as
/// digits from `first_rank` (`1` for chess, `0` for xiangqi's ICCS), on a board of
/// `files` × `ranks`.
fn two_points(text: &str, files: u8, first_rank: u8, ranks: u8) -> Option<(FileRank, FileRank)> {
    let s: Vec<u8> = text
        .bytes()
        .filter(|b| *b != b'-')
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let point = |f: u8, r: u8| {
        let (file, rank) = (f.wrapping_sub(b'a'), r.wrapping_sub(first_rank));
        (file < files && rank < ranks).then_some((file, rank))
    };
    match s[..] {
        [f1, r1, f2, r2] => Some((point(f1, r1)?, point(f2, r2)?)),
        _ => None,
    }
}

/// `e2-e4`, `e2e4`, `E2-E4` as from and to squares.
fn squares(text: &str) -> Result<(FileRank, FileRank), PictureError> {
    two_points(text, 8, b'1', 8).ok_or_else(|| PictureError::BadMove(text.to_string()))
}

/// A text diagram: the top rank first, each rank labelled with its digit (`first_rank`
/// is the bottom one's), `.` for an empty point, a river line below rank `river` if
/// any, the file letters, then `fen`.
fn diagram(
    (files, ranks, first_rank): (usize, usize, u8),
    men: impl Iterator<Item = (u8, u8, char)>,
    river: Option<usize>,
    fen: &str,
) -> String {
    let mut grid = vec![vec!['.'; files]; ranks];
    for (file, rank, letter) in men {
        grid[rank as usize][file as usize] = letter;
    }
    let mut out = String::with_capacity((ranks + 2) * (2 * files + 3) + fen.len());
    for rank in (0..ranks).rev() {
        out.push(char::from(first_rank + rank as u8));
        for &c in &grid[rank] {
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
        if river == Some(rank) {
            out.push_str("  ");
            out.push_str(&"~".repeat(2 * files - 1));
            out.push('\n');
        }
    }
    out.push(' ');
    for file in 0..files {
        out.push(' ');
        out.push(char::from(b'a' + file as u8));
    }
    out.push('\n');
    out.push_str(fen);
    out.push('\n');
    out
}

fn men(board: &Board) -> Vec<board_svg::ChessMan> {
    let mut out = Vec::with_capacity(32);
    for sq in Square::ALL {
        if let (Some(piece), Some(color)) = (board.piece_on(sq), board.color_on(sq)) {
            let letter = char::from(piece);
            out.push(board_svg::ChessMan {
                file: sq.file() as u8,
                rank: sq.rank() as u8,
                letter: if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                },
            });
        }
    }
    out
}

/// The picture of a classic chess position given as FEN (4 or 6 fields, X-FEN or
/// Shredder castling), with an optional last move highlighted (`e2-e4` or `e2e4`)
/// and the FEN as caption.
///
/// ```
/// let start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
/// let svg = cescacs_convert::chess_svg(start, Some("e2-e4")).unwrap();
/// assert_eq!(svg.matches("<use href=\"#c").count(), 32); // one figure per man
/// assert!(cescacs_convert::chess_svg("8/8/8/8/8/8/8/8 w - - 0 1", None).is_err()); // no kings
/// ```
pub fn chess_svg(fen: &str, last_move: Option<&str>) -> Result<String, PictureError> {
    let b = board(fen)?;
    let last = last_move.map(squares).transpose()?;
    Ok(chess_picture(&b, last, fen.trim()))
}

/// A text diagram of a classic chess position given as FEN: ranks 8 to 1, files a to
/// h, FEN letters (upper case White), `.` for an empty square, then the FEN as the
/// position was read (6 fields).
///
/// ```
/// let d = cescacs_convert::chess_diagram("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
/// assert!(d.starts_with("8 . . . . k . . .\n"));
/// assert!(d.contains("1 . . . . K . . R\n  a b c d e f g h\n"));
/// ```
pub fn chess_diagram(fen: &str) -> Result<String, PictureError> {
    let b = board(fen)?;
    let men = men(&b).into_iter().map(|m| (m.file, m.rank, m.letter));
    Ok(diagram((8, 8, b'1'), men, None, &b.to_string()))
}

/// The final position of a chess game with its last main-line move highlighted.
pub(crate) fn game_svg(game: &chess_pgn::Game) -> String {
    let mut before = game.start.clone();
    let mut last = None;
    let mut board = game.start.clone();
    for mv in game.mainline() {
        before = board.clone();
        last = mv;
        match mv {
            Some(m) => board.play_unchecked(m),
            None => {
                if let Some(b) = board.null_move() {
                    board = b;
                }
            }
        }
    }
    // The UCI form of standard chess names castling by the king's own destination
    // (cozy-chess plays it as king-takes-rook), which is what the picture shows.
    let last = last
        .map(|m| chess_pgn::uci(&before, Some(m), false))
        .and_then(|u| squares(&u[..4]).ok());
    let fen = board.to_string();
    chess_picture(&board, last, &fen)
}

/// A man of any board from its FEN letter: upper case White (Red).
pub(crate) fn man(cell: u16, letter: char) -> board_svg::Man {
    board_svg::Man {
        cell,
        side: if letter.is_ascii_uppercase() {
            board_svg::Side::White
        } else {
            board_svg::Side::Black
        },
        letter: letter.to_ascii_uppercase(),
    }
}

/// A chess position drawn with its last move, a king in check (or mated) marked, and
/// `position` as caption and `data-position`.
fn chess_picture(board: &Board, last: Option<(FileRank, FileRank)>, position: &str) -> String {
    let men: Vec<board_svg::Man> = men(board)
        .iter()
        .map(|m| man(u16::from(m.rank) * 8 + u16::from(m.file), m.letter))
        .collect();
    let index = |(f, r): FileRank| u16::from(r) * 8 + u16::from(f);
    let checked = !board.checkers().is_empty();
    let marks = board_svg::Marks {
        last_move: last.map(|(a, b)| (index(a), index(b))),
        check: checked.then(|| board.king(board.side_to_move()) as u16),
        mate: checked && board.status() == chess_pgn::cozy_chess::GameStatus::Won,
    };
    let p = Some(position);
    board_svg::picture(board_svg::BoardKind::Chess, &men, &marks, false, p, p)
}

fn xiangqi_position(fen: &str) -> Result<xiangqi::Position, PictureError> {
    xiangqi::Position::from_fen(fen).map_err(|e| PictureError::BadXiangqiFen {
        fen: fen.to_string(),
        reason: e.to_string(),
    })
}

/// `h2-e2` or `h2e2`: ICCS files a..i and ranks 0..9 from Red's side.
fn iccs_points(text: &str) -> Result<(FileRank, FileRank), PictureError> {
    two_points(text, 9, b'0', 10).ok_or_else(|| PictureError::BadXiangqiMove(text.to_string()))
}

/// A xiangqi position given as FEN, drawn as SVG with its FEN as caption and, if
/// given, the last move (`h2-e2`, ICCS points) highlighted.
///
/// ```
/// let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// let svg = cescacs_convert::xiangqi_svg(start, Some("h2-e2")).unwrap();
/// assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
/// assert!(cescacs_convert::xiangqi_svg(start, Some("z9-e2")).is_err());
/// ```
pub fn xiangqi_svg(fen: &str, last_move: Option<&str>) -> Result<String, PictureError> {
    let position = xiangqi_position(fen)?;
    let last = last_move.map(iccs_points).transpose()?;
    Ok(crate::xiangqi::picture(&position, last, fen))
}

/// A text diagram of a xiangqi position given as FEN: ranks 9 (Black's back rank)
/// down to 0, files a to i, FEN letters (upper case Red), the river between ranks 5
/// and 4, then the FEN as the position was read.
///
/// ```
/// let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// let d = cescacs_convert::xiangqi_diagram(start).unwrap();
/// assert!(d.starts_with("9 r n b a k a b n r\n"));
/// ```
pub fn xiangqi_diagram(fen: &str) -> Result<String, PictureError> {
    let position = xiangqi_position(fen)?;
    let men = crate::xiangqi::men(&position).into_iter();
    let men = men.map(|m| (m.file, m.rank, m.letter));
    Ok(diagram((9, 10, b'0'), men, Some(5), &position.to_fen()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_is_shown_as_the_kings_move() {
        let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *";
        let game = chess_pgn::parse_all(pgn).remove(0).unwrap();
        let svg = game_svg(&game);
        for sq in ["e1", "g1"] {
            assert!(
                svg.contains(&format!("stroke-width=\"3\"><title>{sq}</title>")),
                "{sq}"
            );
        }
        assert_eq!(svg.matches("stroke-width=\"3\"><title>").count(), 2);
    }

    #[test]
    fn last_move_spellings() {
        assert_eq!(squares("e2-e4").unwrap(), ((4, 1), (4, 3)));
        assert_eq!(squares("H8A1").unwrap(), ((7, 7), (0, 0)));
        for bad in ["e2", "e2-e9", "i1-a1", "e2-e4-e5", ""] {
            assert!(squares(bad).is_err(), "{bad}");
        }
    }
}
