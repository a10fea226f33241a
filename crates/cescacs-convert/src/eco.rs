//! Chess opening classification: ECO code, opening and variation names from the
//! lichess-org/chess-openings table (CC0, `data/README.md`), matched by position.
//!
//! Every line of the table is replayed once (on first use) to the position it names;
//! a game is classified by replaying its main line and looking every position up
//! (its start included): the **last** position of the game found in the table gives
//! the opening. Positions are compared as an EPD is (placement, side to move,
//! castling rights, and the en passant square only when a capture there is legal),
//! so a transposition to a named position counts.
//!
//! ```
//! use cescacs_convert::{Format, Record, record_opening};
//!
//! // The Sicilian Najdorf reached by a transposition of White's fifth move.
//! let pgn = b"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 *";
//! let record = Record::from_bytes(Format::Pgn, pgn);
//! let opening = record_opening(&record).unwrap();
//! assert_eq!(opening.eco, "B90");
//! assert_eq!(opening.family(), "Sicilian Defense");
//! assert_eq!(opening.variation(), Some("Najdorf Variation, English Attack"));
//! ```

use chess_pgn::cozy_chess::Board;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table as shipped: `eco<TAB>name<TAB>pgn` lines, a header first.
const TABLE: &str = include_str!("../data/chess-openings.tsv");

/// One named opening of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The whole name, `Family: Variation, Subvariation, …`.
    pub name: &'static str,
    /// The moves (SAN, with move numbers) the table gives for it.
    pub moves: &'static str,
}

impl Opening {
    /// The name before its first `: ` (the `Opening` tag).
    pub fn family(&self) -> &'static str {
        self.name.split_once(": ").map_or(self.name, |(f, _)| f)
    }

    /// The name after its first `: ` (the `Variation` tag), when there is one.
    pub fn variation(&self) -> Option<&'static str> {
        self.name.split_once(": ").map(|(_, v)| v)
    }

    /// The tags `--eco` writes: `ECO`, `Opening` and, when the name has one,
    /// `Variation`.
    pub fn tags(&self) -> Vec<(String, String)> {
        let mut tags = vec![
            ("ECO".to_string(), self.eco.to_string()),
            ("Opening".to_string(), self.family().to_string()),
        ];
        if let Some(v) = self.variation() {
            tags.push(("Variation".to_string(), v.to_string()));
        }
        tags
    }
}

struct Table {
    openings: Vec<Opening>,
    /// Zobrist key without en passant -> (position, index into `openings`), in table
    /// order. Several lines may reach one position (the table adds lines for common
    /// transpositions): the first keeps it.
    by_key: HashMap<u64, Vec<(Board, usize)>>,
}

fn table() -> &'static Table {
    static TABLE_CELL: OnceLock<Table> = OnceLock::new();
    TABLE_CELL.get_or_init(build)
}

/// Replays every line of the table. A line that does not replay is a defect of the
/// shipped data, caught by this module's tests; at run time it is skipped.
fn build() -> Table {
    let mut openings = Vec::new();
    let mut by_key: HashMap<u64, Vec<(Board, usize)>> = HashMap::new();
    for line in TABLE.lines().skip(1) {
        let mut fields = line.split('\t');
        let (Some(eco), Some(name), Some(moves)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Some(board) = replay(moves) else { continue };
        let index = openings.len();
        openings.push(Opening { eco, name, moves });
        let slot = by_key.entry(board.hash_without_ep()).or_default();
        if !slot.iter().any(|(b, _)| same_epd(b, &board)) {
            slot.push((board, index));
        }
    }
    Table { openings, by_key }
}

/// The position after a table line's moves (`1. e4 e5 2. Nf3`), `None` when a token
/// is not a legal move.
fn replay(moves: &str) -> Option<Board> {
    let mut board = Board::default();
    for token in moves.split_ascii_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        let san = chess_pgn::SanPlus::parse(token.as_bytes()).ok()?;
        let mv = san.san.to_move(&board).ok()?;
        board.try_play(mv).ok()?;
    }
    Some(board)
}

/// Same position as an EPD says it: placement, side to move, castling rights, and
/// the en passant file only when a capture there is legal; move counters aside
/// (`Board`'s `==` compares them too).
fn same_epd(a: &Board, b: &Board) -> bool {
    use chess_pgn::cozy_chess::{Color, Piece};
    a.hash_without_ep() == b.hash_without_ep()
        && a.side_to_move() == b.side_to_move()
        && Piece::ALL.iter().all(|&p| a.pieces(p) == b.pieces(p))
        && Color::ALL
            .iter()
            .all(|&c| a.colors(c) == b.colors(c) && a.castle_rights(c) == b.castle_rights(c))
        && legal_en_passant(a) == legal_en_passant(b)
}

/// The en passant file when some legal move captures there.
fn legal_en_passant(board: &Board) -> Option<chess_pgn::cozy_chess::File> {
    use chess_pgn::cozy_chess::Piece;
    let file = board.en_passant()?;
    let mut legal = false;
    board.generate_moves_for(board.pieces(Piece::Pawn), |moves| {
        legal |= moves.into_iter().any(|m| {
            m.to.file() == file && m.from.file() != m.to.file() && board.piece_on(m.to).is_none()
        });
        legal
    });
    legal.then_some(file)
}

/// The opening of this position, when the table names it.
pub fn opening_at(board: &Board) -> Option<&'static Opening> {
    let t = table();
    let (_, index) = t
        .by_key
        .get(&board.hash_without_ep())?
        .iter()
        .find(|(b, _)| same_epd(b, board))?;
    t.openings.get(*index)
}

/// The opening of a chess game: the last position of its main line (its start
/// included) the table names; `None` when it reaches none, and for Chess960 (the
/// table names positions of standard chess). A null move ends the search.
pub fn game_opening(game: &chess_pgn::Game) -> Option<&'static Opening> {
    if game.variant != chess_pgn::Variant::Standard {
        return None;
    }
    let mut board = game.start.clone();
    let mut found = opening_at(&board);
    for node in &game.moves.moves {
        match node.mv {
            Some(m) => board.play_unchecked(m),
            None => match board.null_move() {
                Some(b) => board = b,
                None => break,
            },
        }
        if let Some(o) = opening_at(&board) {
            found = Some(o);
        }
    }
    found
}

/// The opening of a record's game: `None` for a game other than chess, or one that
/// could not be read.
pub fn record_opening(record: &crate::Record) -> Option<&'static Opening> {
    match record.game()? {
        crate::Game::Chess(g) => game_opening(g),
        _ => None,
    }
}

/// Every opening of the table, in table order (ECO volumes A to E, as shipped).
pub fn openings() -> &'static [Opening] {
    &table().openings
}

/// A range of ECO codes for `select --eco`: `B33`, `A00-B99`, or a list of them
/// separated by commas (`A00-A99,E60`); a single letter stands for its volume
/// (`B` is `B00-B99`, `A-C` is `A00-C99`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcoRange(Vec<(u16, u16)>);

/// `A00` as 0, `E99` as 499.
fn code(s: &str) -> Option<u16> {
    let b = s.trim().as_bytes();
    let volume = match b.first()?.to_ascii_uppercase() {
        c @ b'A'..=b'E' => u16::from(c - b'A'),
        _ => return None,
    };
    match b.len() {
        3 if b[1].is_ascii_digit() && b[2].is_ascii_digit() => {
            Some(volume * 100 + u16::from(b[1] - b'0') * 10 + u16::from(b[2] - b'0'))
        }
        _ => None,
    }
}

impl std::str::FromStr for EcoRange {
    type Err = String;

    fn from_str(s: &str) -> Result<EcoRange, String> {
        let bad = || {
            format!(
                "ECO range {s:?}: expected a code A00-E99, CODE-CODE, a volume letter A-E, or a comma-separated list of them"
            )
        };
        let one = |part: &str| -> Option<(u16, u16)> {
            let part = part.trim();
            if part.len() == 1 {
                let v = code(&format!("{part}00"))?;
                return Some((v, v + 99));
            }
            match part.split_once('-') {
                // Volumes: `A-C` is A00-C99.
                Some((a, b)) if a.trim().len() == 1 && b.trim().len() == 1 => Some((
                    code(&format!("{}00", a.trim()))?,
                    code(&format!("{}99", b.trim()))?,
                ))
                .filter(|(a, b)| a <= b),
                Some((a, b)) => Some((code(a)?, code(b)?)).filter(|(a, b)| a <= b),
                None => code(part).map(|c| (c, c)),
            }
        };
        let ranges: Option<Vec<_>> = s.split(',').map(one).collect();
        ranges
            .filter(|r| !r.is_empty())
            .map(EcoRange)
            .ok_or_else(bad)
    }
}

impl EcoRange {
    /// Whether an ECO code (`B33`; any letter case, spaces around ignored) is in the
    /// range. Anything else (`?`, an empty value) is not.
    pub fn contains(&self, eco: &str) -> bool {
        code(eco).is_some_and(|c| self.0.iter().any(|&(a, b)| (a..=b).contains(&c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_table_replays() {
        let lines = TABLE.lines().skip(1).count();
        assert!(lines > 3000, "{lines}");
        assert_eq!(
            openings().len(),
            lines,
            "a line of the table does not replay"
        );
        assert!(openings().iter().all(|o| code(o.eco).is_some()));
    }

    #[test]
    fn the_last_named_position_wins_and_transpositions_count() {
        let read = |pgn: &str| crate::Record::from_bytes(crate::Format::Pgn, pgn.as_bytes());
        // 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 is the Nimzo-Indian (E20); reached by a
        // different move order it is the same position.
        let a = read("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *");
        let b = read("1. c4 e6 2. Nc3 Nf6 3. d4 Bb4 *");
        let (oa, ob) = (record_opening(&a).unwrap(), record_opening(&b).unwrap());
        assert_eq!((oa.eco, oa.family()), ("E20", "Nimzo-Indian Defense"));
        assert_eq!(oa, ob);
        // Moves after the book do not lose the last named position.
        let c = read("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. h4 h5 5. Rh3 Rh6 *");
        let oc = record_opening(&c).unwrap();
        assert_eq!((oc.eco, oc.variation()), ("C70", Some("Morphy Defense")));
        assert_eq!(oc.family(), "Ruy Lopez");
        // No named position: no opening.
        assert!(
            record_opening(&read("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. Kb1 *")).is_none()
        );
    }

    #[test]
    fn en_passant_counts_only_when_legal() {
        // After 1. e4 the e3 square is named by some writers, never captured on:
        // the position is the table's 1. e4 (B00 King's Pawn Game).
        let board: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
            .parse()
            .unwrap();
        assert_eq!(opening_at(&board).map(|o| o.name), Some("King's Pawn Game"));
    }

    #[test]
    fn ranges() {
        let r: EcoRange = "A00-B99".parse().unwrap();
        assert!(r.contains("A00") && r.contains("b99") && !r.contains("C00"));
        assert!(!r.contains("?") && !r.contains(""));
        let r: EcoRange = "C, E60".parse().unwrap();
        assert!(r.contains("C42") && r.contains("E60") && !r.contains("E61"));
        let r: EcoRange = "a-c".parse().unwrap();
        assert!(r.contains("A00") && r.contains("C99") && !r.contains("D00"));
        for bad in ["", "F00", "B99-A00", "A0", "A000", "x", "C-A"] {
            assert!(bad.parse::<EcoRange>().is_err(), "{bad}");
        }
    }
}
