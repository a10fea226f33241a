//! Output notations besides SAN: long algebraic (LAN) and UCI, as
//! [`crate::writer::WriteOptions::notation`] selects them.
//!
//! Both are written exactly as python-chess's `Board.lan()` and `Move.uci()` write
//! them (checked move by move on the test corpus), and both are read back by this
//! crate's reader, which accepts long algebraic and UCI moves in movetext (spec §6).

use cozy_chess::{Board, File, Move, Piece};

use crate::san::Suffix;

/// How the writer spells moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Standard algebraic notation, the PGN export form (`Nf3`, `exd5`, `e8=Q+`).
    #[default]
    San,
    /// Long algebraic: piece letter, from-square, `-` or `x`, to-square, promotion
    /// and check marker (`Ng1-f3`, `Bf1xb5+`, `e7-e8=Q`); castling `O-O`/`O-O-O`;
    /// a null move `--`.
    Lan,
    /// UCI coordinates (`g1f3`, `e7e8q`). Castling is the king's two-square move in
    /// standard chess (`e1g1`) and king-takes-own-rook in Chess960 (`e1h1`), as UCI
    /// engines expect in each mode; a null move is `0000`.
    Uci,
}

impl Notation {
    /// Reads `san`, `lan` or `uci` (any case), as a command-line option would give it.
    pub fn from_name(name: &str) -> Option<Notation> {
        match name.to_ascii_lowercase().as_str() {
            "san" => Some(Notation::San),
            "lan" | "long" => Some(Notation::Lan),
            "uci" => Some(Notation::Uci),
            _ => None,
        }
    }
}

impl std::str::FromStr for Notation {
    type Err = String;

    fn from_str(s: &str) -> Result<Notation, String> {
        Notation::from_name(s).ok_or_else(|| format!("unknown notation {s:?} (san, lan or uci)"))
    }
}

fn is_castling(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    board.piece_on(mv.from) == Some(Piece::King) && board.colors(us).has(mv.to)
}

fn piece_letter(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

/// The long-algebraic text of `mv` (legal in `board`) with the given check marker;
/// `None` is a null move (`--`).
pub fn lan_with_suffix(board: &Board, mv: Option<Move>, suffix: Option<Suffix>) -> String {
    let mut s = String::with_capacity(10);
    match mv {
        None => s.push_str("--"),
        Some(mv) if is_castling(board, mv) => {
            s.push_str(if mv.to.file() < mv.from.file() {
                "O-O-O"
            } else {
                "O-O"
            });
        }
        Some(mv) => {
            let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
            let us = board.side_to_move();
            let capture = board.colors(!us).has(mv.to)
                || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
            s.push_str(piece_letter(piece));
            s.push_str(&mv.from.to_string());
            s.push(if capture { 'x' } else { '-' });
            s.push_str(&mv.to.to_string());
            if let Some(p) = mv.promotion {
                s.push('=');
                s.push_str(piece_letter(p));
            }
        }
    }
    match suffix {
        Some(Suffix::Check) => s.push('+'),
        Some(Suffix::Mate) => s.push('#'),
        None => {}
    }
    s
}

/// The long-algebraic text of `mv`, legal in `board`, check marker included
/// (python-chess's `board.lan(move)`).
///
/// ```
/// use chess_pgn::{cozy_chess::Board, lan, SanPlus};
/// let board = Board::default();
/// let mv = SanPlus::parse(b"Nf3").unwrap().san.to_move(&board).unwrap();
/// assert_eq!(lan(&board, Some(mv)), "Ng1-f3");
/// ```
pub fn lan(board: &Board, mv: Option<Move>) -> String {
    let suffix = mv.and_then(|m| {
        let mut after = board.clone();
        after.play_unchecked(m);
        Suffix::of(&after)
    });
    lan_with_suffix(board, mv, suffix)
}

/// The UCI text of `mv`, legal in `board` (python-chess's `move.uci()`): castling
/// as the king's two-square move unless `chess960`, where it is king-takes-rook.
///
/// ```
/// use chess_pgn::{cozy_chess::Board, uci, SanPlus};
/// let board: Board = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
/// let mv = SanPlus::parse(b"O-O").unwrap().san.to_move(&board).unwrap();
/// assert_eq!(uci(&board, Some(mv), false), "e1g1");
/// assert_eq!(uci(&board, Some(mv), true), "e1h1");
/// ```
pub fn uci(board: &Board, mv: Option<Move>, chess960: bool) -> String {
    let Some(mv) = mv else {
        return "0000".into();
    };
    let mut to = mv.to;
    if !chess960 && is_castling(board, mv) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        to = cozy_chess::Square::new(file, mv.from.rank());
    }
    let mut s = format!("{}{}", mv.from, to);
    if let Some(p) = mv.promotion {
        s.push(char::from(p));
    }
    s
}
