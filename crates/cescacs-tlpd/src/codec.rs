//! The reader and the writer. Only the public API of `cescacs-rules` is used (the board
//! goes through [`Setup`]), and nothing here names `crate::`: the rules crate's
//! differential unit test compiles this file into itself to read the oracle's test
//! positions (a dev-dependency on this crate would give it a second, incompatible copy of
//! `Position` there).

use cescacs_hex::{Cell, MAX_LINE, column_from_letter, parse_cell_prefix};
use cescacs_rules::{
    CastlingRights, Letters, Piece, PieceKind, Position, Setup, SetupError, Side, SideCastling,
    SpecialRight,
};

/// Why a TLPD string was rejected. Offsets count characters (not bytes) from the
/// start of the string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TlpdError {
    #[error("at character {offset}: expected {expected}, found {found}")]
    /// The text does not follow the TLPD syntax.
    Syntax {
        /// Character offset of the error.
        offset: usize,
        /// What the reader expected there.
        expected: &'static str,
        /// What it found.
        found: String,
    },
    #[error("the TLPD describes an invalid position: {0}")]
    /// The text is well formed but the position is not playable.
    Invalid(#[from] SetupError),
}

impl TlpdError {
    /// The 1-based column (in characters) of a syntax error, for `line:column`
    /// messages; `None` for a well-formed string describing an impossible position
    /// (the whole string is at fault).
    pub fn column(&self) -> Option<usize> {
        match self {
            TlpdError::Syntax { offset, .. } => Some(offset + 1),
            TlpdError::Invalid(_) => None,
        }
    }
}

/// Reads a TLPD with the standard letters (tolerant: see [`parse_with`]).
pub fn parse(s: &str) -> Result<Position, TlpdError> {
    parse_with(s, &Letters::default())
}

/// Reads a TLPD whose piece letters follow `letters` (a `Redefine` table).
///
/// Accepted beyond the seed form: `.` after line numbers, adjacent digits (added),
/// short lines (padded with empty cells), the author's program's castling field
/// (`rkr`, `RKR`, `-`), its en-passant field (`P@E9[E11]`, `P@C21,19[C17]`) and its
/// scornful field (`G15@F14`; ignored when the named capturer is not an enemy pawn, as
/// the program writes it for an own pawn too), `-` for the halfmove clock, and `?`,
/// `-` or nothing for the move number.
pub fn parse_with(s: &str, letters: &Letters) -> Result<Position, TlpdError> {
    Ok(Position::from_setup(parse_setup(s, letters)?)?)
}

struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.pos..).and_then(|r| r.chars().next())
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }
    fn err(&self, at: usize, expected: &'static str) -> TlpdError {
        let found = match self.s.get(at..).and_then(|r| r.chars().next()) {
            Some(' ') => "a space".to_string(),
            Some(c) => format!("'{c}'"),
            None => "end of input".to_string(),
        };
        TlpdError::Syntax {
            offset: self.s.get(..at).map_or(at, |p| p.chars().count()),
            expected,
            found,
        }
    }
    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == start || self.pos - start > 9 {
            self.pos = start;
            return None;
        }
        self.s[start..self.pos].parse().ok()
    }
    fn at_field_end(&self) -> bool {
        matches!(self.peek(), None | Some(' '))
    }
    fn spaces(&mut self) -> bool {
        let start = self.pos;
        while self.peek() == Some(' ') {
            self.pos += 1;
        }
        self.pos > start
    }
}

fn line_cells(line: u8) -> impl Iterator<Item = Cell> {
    (0..15u8).filter_map(move |c| Cell::new(c, line))
}

/// Reads a TLPD into a [`Setup`] without building the position.
pub fn parse_setup(s: &str, letters: &Letters) -> Result<Setup, TlpdError> {
    let mut r = Reader {
        s: s.trim_end(),
        pos: 0,
    };
    r.spaces();
    let board = parse_placement(&mut r, letters)?;
    if !r.spaces() {
        return Err(r.err(r.pos, "a space after the placement"));
    }
    let at = r.pos;
    let side = match r.bump() {
        Some('w') => Side::White,
        Some('b') => Side::Black,
        _ => return Err(r.err(at, "'w' or 'b'")),
    };
    if !r.spaces() {
        return Err(r.err(r.pos, "a space after the side to move"));
    }
    let castling = parse_castling(&mut r, letters)?;
    if !r.spaces() {
        return Err(r.err(r.pos, "a space after the castling field"));
    }
    let special = parse_special(&mut r, &board, side)?;
    let (halfmove, fullmove) = parse_clocks(&mut r)?;
    if r.peek().is_some() {
        return Err(r.err(r.pos, "end of the TLPD"));
    }
    Ok(Setup {
        board,
        side_to_move: side,
        castling,
        special,
        halfmove_clock: halfmove,
        fullmove_number: fullmove,
    })
}

/// The placement field: `/`, then lines numbered downwards, each `line:` and its
/// cells (pieces and counts of empty cells) up to `/`.
fn parse_placement(
    r: &mut Reader<'_>,
    letters: &Letters,
) -> Result<[Option<Piece>; 169], TlpdError> {
    let mut board: [Option<Piece>; 169] = [None; 169];
    if r.bump() != Some('/') {
        return Err(r.err(r.pos.saturating_sub(1), "'/' starting the placement"));
    }
    let mut last_line: Option<u32> = None;
    while !r.at_field_end() {
        let at = r.pos;
        let line = r
            .number()
            .filter(|&l| l <= MAX_LINE as u32)
            .ok_or_else(|| r.err(at, "a line number 0..28"))?;
        if last_line.is_some_and(|l| line >= l) {
            return Err(r.err(at, "a line number below the previous one"));
        }
        last_line = Some(line);
        match r.peek() {
            Some(':') | Some('.') => {
                r.bump();
            }
            _ => return Err(r.err(r.pos, "':' after the line number")),
        }
        parse_line_cells(r, letters, line, &mut board)?;
    }
    Ok(board)
}

/// The cells of one line after its `line:`, up to and with the `/` that ends it.
fn parse_line_cells(
    r: &mut Reader<'_>,
    letters: &Letters,
    line: u32,
    board: &mut [Option<Piece>; 169],
) -> Result<(), TlpdError> {
    let cells: Vec<Cell> = line_cells(line as u8).collect();
    let mut i = 0usize;
    loop {
        let at = r.pos;
        match r.bump() {
            Some('/') => return Ok(()),
            Some(c) if c.is_ascii_digit() && c != '0' => {
                i += c as usize - '0' as usize;
                if i > cells.len() {
                    return Err(r.err(at, "no more cells than the line has"));
                }
            }
            Some(c) => {
                let piece = letters
                    .piece_of(c)
                    .ok_or_else(|| r.err(at, "a piece letter, a digit 1-8 or '/'"))?;
                let Some(&cell) = cells.get(i) else {
                    return Err(r.err(at, "no more cells than the line has"));
                };
                board[cell.index()] = Some(piece);
                i += 1;
            }
            None => return Err(r.err(at, "'/' ending the line")),
        }
    }
}

/// The optional halfmove clock (`-` for 0) and move number (`?` or `-` when
/// unknown); a missing move number is unknown too (an old site example).
fn parse_clocks(r: &mut Reader<'_>) -> Result<(u32, Option<u32>), TlpdError> {
    let mut halfmove = 0;
    let mut fullmove = None;
    if r.spaces() && r.peek().is_some() {
        let at = r.pos;
        if r.peek() == Some('-') {
            r.bump();
        } else {
            halfmove = r.number().ok_or_else(|| r.err(at, "the halfmove clock"))?;
        }
        if !r.at_field_end() {
            return Err(r.err(r.pos, "a space after the halfmove clock"));
        }
        if r.spaces() && r.peek().is_some() {
            let at = r.pos;
            match r.peek() {
                Some('?') | Some('-') => {
                    r.bump();
                }
                _ => {
                    fullmove = Some(
                        r.number()
                            .ok_or_else(|| r.err(at, "the move number or '?'"))?,
                    );
                }
            }
        }
    }
    Ok((halfmove, fullmove))
}

fn parse_castling(r: &mut Reader<'_>, letters: &Letters) -> Result<CastlingRights, TlpdError> {
    let start = r.pos;
    let mut field = String::new();
    while !r.at_field_end() {
        field.push(r.bump().unwrap_or(' '));
    }
    let rook = letters.letter(PieceKind::Rook);
    let king = letters.letter(PieceKind::King);
    // Map to the standard letters so the part tables below apply.
    let mapped: String = field
        .chars()
        .map(|c| {
            if c == rook {
                'R'
            } else if c == rook.to_ascii_lowercase() {
                'r'
            } else if c == king {
                'K'
            } else if c == king.to_ascii_lowercase() {
                'k'
            } else {
                c
            }
        })
        .collect();
    let part = |p: &str| -> Option<SideCastling> {
        let (q, k, kr) = match p.to_ascii_uppercase().as_str() {
            "RKR" => (true, true, true),
            "RK" => (true, true, false),
            "KR" => (false, true, true),
            "K" => (false, true, false),
            "-" | "" => (false, false, false),
            _ => return None,
        };
        Some(SideCastling {
            king: k,
            queen_rook: q,
            king_rook: kr,
        })
    };
    let bad = || r.err(start, "a castling field such as RKRrkr, RK-, -rkr or --");
    if mapped == "-" {
        return Ok(CastlingRights::default());
    }
    let split = mapped
        .char_indices()
        .find(|&(i, c)| c.is_ascii_lowercase() || (c == '-' && i > 0))
        .map_or(mapped.len(), |x| x.0);
    let (white, black) = mapped.split_at(split);
    if white.chars().any(|c| c.is_ascii_lowercase())
        || black.chars().any(|c| c.is_ascii_uppercase())
    {
        return Err(bad());
    }
    let (Some(w), Some(b)) = (part(white), part(black)) else {
        return Err(bad());
    };
    if white.is_empty() && black.is_empty() {
        return Err(bad());
    }
    Ok(CastlingRights { white: w, black: b })
}

fn parse_special(
    r: &mut Reader<'_>,
    board: &[Option<Piece>; 169],
    side: Side,
) -> Result<SpecialRight, TlpdError> {
    let start = r.pos;
    let mut field = String::new();
    while !r.at_field_end() {
        field.push(r.bump().unwrap_or(' '));
    }
    let bad = |expected| r.err(start, expected);
    if field == "-" {
        return Ok(SpecialRight::None);
    }
    let mover = side.opponent();
    let ep = |pawn: Cell, lines: &[u32]| en_passant(mover, pawn, lines);
    // The author's program: P@<first crossed cell>[,<second crossed line>][<pawn cell>]
    if let Some(rest) = field.strip_prefix("P@") {
        if is_program_capture_marker(rest) {
            return Ok(SpecialRight::None);
        }
        return program_en_passant(mover, rest)
            .ok_or_else(|| bad("an en passant field such as P@E9[E11]"));
    }
    let Some((cell, n)) = parse_cell_prefix(&field) else {
        return Err(bad(
            "'-', an en passant field (G15@13, G13@9-11) or a scornful cell (F14)",
        ));
    };
    let rest = &field[n..];
    if rest.is_empty() {
        return Ok(SpecialRight::Scornful {
            target: cell,
            capturers: [None, None],
        });
    }
    let Some(after) = rest.strip_prefix('@') else {
        return Err(bad("'@' after the cell"));
    };
    if after.starts_with(|c: char| column_from_letter(c).is_some()) {
        // TS scornful form: capturer@target.
        let target: Cell = after
            .parse()
            .map_err(|_| bad("a cell after '@' (scornful form G15@F14)"))?;
        let enemy_pawn = Piece::new(side, PieceKind::Pawn);
        if board[cell.index()] != Some(enemy_pawn) {
            // Written by the program when the facing pawn is the mover's own: no right.
            return Ok(SpecialRight::None);
        }
        return Ok(SpecialRight::Scornful {
            target,
            capturers: [Some(cell), None],
        });
    }
    let lines: Option<Vec<u32>> = after
        .split('-')
        .map(|t| {
            (!t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse().ok())
                .flatten()
        })
        .collect();
    lines
        .filter(|l| l.len() <= 2)
        .and_then(|l| ep(cell, &l))
        .ok_or_else(|| bad("an en passant field such as G15@13 or G13@9-11"))
}

/// The en-passant right of `pawn` (of `mover`, the side that just moved) over the
/// cells of its column on `lines`: the crossed cell two lines behind it, and the one
/// four lines behind after a triple step. `None` when the lines are not those.
fn en_passant(mover: Side, pawn: Cell, lines: &[u32]) -> Option<SpecialRight> {
    let behind = |line: u32| -> Option<Cell> {
        let c = Cell::new(pawn.column(), u8::try_from(line).ok()?)?;
        let d = (c.line() as i32 - pawn.line() as i32) * mover.forward() as i32;
        (d == -2 || d == -4).then_some(c)
    };
    let cells: Vec<Cell> = lines.iter().map(|&l| behind(l)).collect::<Option<_>>()?;
    let near = *cells.iter().find(|c| c.line().abs_diff(pawn.line()) == 2)?;
    let far = cells
        .iter()
        .copied()
        .find(|c| c.line().abs_diff(pawn.line()) == 4);
    if cells.len() != 1 + far.is_some() as usize {
        return None;
    }
    Some(SpecialRight::EnPassant { pawn, near, far })
}

/// The author's program's en-passant form after `P@`: `<first crossed
/// cell>[,<second crossed line>][<pawn cell>]`.
fn program_en_passant(mover: Side, rest: &str) -> Option<SpecialRight> {
    let (first, n) = parse_cell_prefix(rest)?;
    let mut rest = &rest[n..];
    let mut lines = vec![first.line() as u32];
    if let Some(t) = rest.strip_prefix(',') {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        lines.push(t[..digits].parse().ok()?);
        rest = &t[digits..];
    }
    let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
    let pawn: Cell = inner.parse().ok()?;
    if pawn.column() != first.column() {
        return None;
    }
    en_passant(mover, pawn, &lines)
}

/// The program also writes `P@<column><line>[<pawn cell>]` after a pawn capture of
/// three lines (`P@F13[F12]` after `E15×F12`), naming a cell that does not exist. No
/// capture can use it, so it reads as no right.
fn is_program_capture_marker(rest: &str) -> bool {
    let Some((inner, tail)) = rest.split_once('[') else {
        return false;
    };
    let mut chars = inner.chars();
    let col = chars.next().and_then(column_from_letter);
    let line: Option<u8> = chars.as_str().parse().ok();
    let pawn = tail.strip_suffix(']').and_then(|p| p.parse::<Cell>().ok());
    matches!((col, line, pawn), (Some(c), Some(l), Some(_)) if l <= MAX_LINE && Cell::new(c, l).is_none())
}

/// Writes the seed form of the TLPD with the standard letters.
pub fn write(p: &Position) -> String {
    write_with(p, &Letters::default())
}

/// Writes the seed form of the TLPD with the given letters.
pub fn write_with(p: &Position, letters: &Letters) -> String {
    let mut out = String::from("/");
    write_board(&mut out, p, letters);
    out.push(' ');
    out.push(match p.side_to_move() {
        Side::White => 'w',
        Side::Black => 'b',
    });
    out.push(' ');
    write_castling(&mut out, p, letters);
    out.push(' ');
    write_special(&mut out, p);
    out.push_str(&format!(" {} ", p.halfmove_clock()));
    match p.fullmove_number() {
        Some(n) => out.push_str(&n.to_string()),
        None => out.push('?'),
    }
    out
}

/// The occupied lines, top down, each as `line:` then pieces and runs of empty cells.
fn write_board(out: &mut String, p: &Position, letters: &Letters) {
    for line in (0..=MAX_LINE).rev() {
        let cells: Vec<Cell> = line_cells(line).collect();
        if cells.iter().all(|&c| p.piece_at(c).is_none()) {
            continue;
        }
        out.push_str(&format!("{line}:"));
        let mut run = 0;
        for c in cells {
            match p.piece_at(c) {
                None => run += 1,
                Some(piece) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(letters.piece_char(piece));
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        out.push('/');
    }
}

/// White's castling rights then Black's (in lower case), `-` for a side without.
fn write_castling(out: &mut String, p: &Position, letters: &Letters) {
    let rights = p.castling_rights();
    let rook = letters.letter(PieceKind::Rook);
    let king = letters.letter(PieceKind::King);
    for (sc, upper) in [(rights.white, true), (rights.black, false)] {
        let mut part = String::new();
        if !sc.king {
            part.push('-');
        } else {
            if sc.queen_rook {
                part.push(rook);
            }
            part.push(king);
            if sc.king_rook {
                part.push(rook);
            }
        }
        if !upper {
            part = part.to_lowercase();
        }
        out.push_str(&part);
    }
}

/// The special right: `-`, an en-passant pawn with its line(s), or a scornful target.
fn write_special(out: &mut String, p: &Position) {
    match p.special() {
        SpecialRight::None => out.push('-'),
        SpecialRight::EnPassant { pawn, near, far } => {
            out.push_str(&format!("{pawn}@"));
            match far {
                None => out.push_str(&near.line().to_string()),
                Some(f) => {
                    let (a, b) = (near.line().min(f.line()), near.line().max(f.line()));
                    out.push_str(&format!("{a}-{b}"));
                }
            }
        }
        SpecialRight::Scornful { target, capturers } => {
            // The seed form names only the target; fall back to the program's
            // capturer@target form when a reader could not recover the capturer.
            let mut probe = p.to_setup();
            probe.special = SpecialRight::Scornful {
                target,
                capturers: [None, None],
            };
            let same = Position::from_setup(probe).is_ok_and(|q| q.special() == p.special());
            match capturers {
                [Some(c), None] if !same => out.push_str(&format!("{c}@{target}")),
                _ => out.push_str(&target.to_string()),
            }
        }
    }
}
