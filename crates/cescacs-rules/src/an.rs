//! CTL-AN for a single move: writing (with the check marker), tolerant parsing of a
//! token, and resolving a parsed token against a position.

use crate::piece::{Letters, PieceKind, Side};
use crate::position::{CheckMarker, FixedMoves, Move, MoveKind, Position, ToCell};
use crate::tables::TABLES;
use cescacs_hex::{Cell, column_from_letter, parse_cell_prefix};

/// How the writer spells check markers and awaiting promotions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnStyle {
    /// `+^` for adjoining or knight checks and `+∞` for checks from afar (site and
    /// author's program). When false, seed mode: `+^` only for a knight-jump check,
    /// `+` for any other single check.
    pub rich_checks: bool,
    /// Write `=&` on a pawn that reaches its promotion cell with nothing to regain
    /// (seed and site). The author's program writes the plain move.
    pub awaiting_marker: bool,
}

impl AnStyle {
    /// Site style, the default: `+^`, `+∞`, `++`, `#`, and `=&`.
    pub const RICH: AnStyle = AnStyle {
        rich_checks: true,
        awaiting_marker: true,
    };
    /// Seed style: `+`, `+^` (knight jump only), `++`, `#`, and `=&`.
    pub const SEED: AnStyle = AnStyle {
        rich_checks: false,
        awaiting_marker: true,
    };
    /// As the author's TypeScript program (and the oracle data) writes moves.
    pub const PROGRAM: AnStyle = AnStyle {
        rich_checks: true,
        awaiting_marker: false,
    };
}

impl Default for AnStyle {
    fn default() -> Self {
        AnStyle::RICH
    }
}

/// Separator between the two coordinates of an ordinary move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Separator {
    /// `-`, `‐` or `–`
    Move,
    /// `×`, `*` or `x`
    Capture,
    /// `@`: scornful capture or en passant on the skipped cell next to the victim.
    EnPassant,
    /// `@@`: en passant on the far skipped cell of a triple step.
    EnPassantFar,
}

/// A check marker as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckText {
    /// `+`
    Check,
    /// `+^` or `^+`
    Adjoining,
    /// `+∞`
    Afar,
    /// `++`
    Double,
    /// `#`
    Mate,
}

/// Promotion suffix as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromotionText {
    /// A regainable piece (`=R`).
    Piece(PieceKind),
    /// `=&`
    Awaiting,
}

/// The move part of a token.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveTextKind {
    /// A piece move or capture, `E7-E13`, `NE3×D8`.
    Ordinary {
        /// The moving piece (Pawn when no letter is written).
        mover: PieceKind,
        /// Origin cell.
        from: Cell,
        /// The separator written between the cells.
        separator: Separator,
        /// The captured piece's letter, when written after `×`.
        captured: Option<PieceKind>,
        /// Destination cell.
        to: Cell,
        /// Promotion suffix, if any.
        promotion: Option<PromotionText>,
    },
    /// Standard spelling of the castling (`KRK-HIO`), whatever letters were used.
    Castling(String),
    /// Forced promotion of an awaiting pawn (`F28=R`).
    PromotionInPlace {
        /// The cell of the awaiting pawn.
        cell: Cell,
        /// The piece it becomes.
        piece: PieceKind,
    },
}

/// A parsed, unresolved move token.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The move part.
    pub kind: MoveTextKind,
    /// The check marker as written, if any.
    pub check: Option<CheckText>,
}

/// Why a token is not CTL-AN. `offset` is a byte offset into the token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: expected {expected}, found {found}")]
pub struct ParseError {
    /// Byte offset of the error in the token.
    pub offset: usize,
    /// What the reader expected there.
    pub expected: &'static str,
    /// What it found.
    pub found: String,
}

fn found_at(s: &str, at: usize) -> String {
    match s.get(at..).and_then(|r| r.chars().next()) {
        Some(c) => format!("'{c}'"),
        None => "end of move".to_string(),
    }
}

fn is_hyphen(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2013}')
}

const CHECK_SUFFIXES: [(&str, CheckText); 6] = [
    ("++", CheckText::Double),
    ("+^", CheckText::Adjoining),
    ("^+", CheckText::Adjoining),
    ("+∞", CheckText::Afar),
    ("#", CheckText::Mate),
    ("+", CheckText::Check),
];

impl MoveText {
    /// Parses one move token such as `EF12×NF14`, `F12@@G9`, `F28=R`, `KRK-HIO+∞`.
    pub fn parse(s: &str, letters: &Letters) -> Result<MoveText, ParseError> {
        let mut body = s;
        let mut check = None;
        for (suffix, c) in CHECK_SUFFIXES {
            if let Some(b) = s.strip_suffix(suffix) {
                body = b;
                check = Some(c);
                break;
            }
        }
        let err = |offset: usize, expected: &'static str| ParseError {
            offset,
            expected,
            found: found_at(s, offset),
        };
        if body.is_empty() {
            return Err(err(0, "a move"));
        }
        if let Some(name) = parse_castling(body, letters) {
            let name = name.map_err(|off| err(off, "one of the 24 castling strings"))?;
            return Ok(MoveText {
                kind: MoveTextKind::Castling(name),
                check,
            });
        }
        let bytes_at = |i: usize| body.get(i..).and_then(|r| r.chars().next());
        let mut i = 0;
        let mut mover = PieceKind::Pawn;
        if let (Some(c0), Some(c1)) = (bytes_at(0), bytes_at(1))
            && let Some(k) = letters.kind_of(c0)
            && column_from_letter(c1).is_some()
        {
            mover = k;
            i = c0.len_utf8();
        }
        let (from, n) = parse_cell_prefix(&body[i..]).ok_or_else(|| err(i, "a coordinate"))?;
        i += n;
        let Some(sep_char) = bytes_at(i) else {
            return Err(err(i, "a separator (- × @ @@) or '='"));
        };
        if sep_char == '=' {
            i += 1;
            let piece = bytes_at(i)
                .and_then(|c| letters.kind_of(c))
                .filter(|k| PieceKind::REGAINABLE.contains(k))
                .ok_or_else(|| err(i, "a promotion piece letter"))?;
            i += 1;
            if i != body.len() || mover != PieceKind::Pawn {
                return Err(err(i, "end of move"));
            }
            return Ok(MoveText {
                kind: MoveTextKind::PromotionInPlace { cell: from, piece },
                check,
            });
        }
        let separator = if is_hyphen(sep_char) {
            Separator::Move
        } else if matches!(sep_char, '×' | '*' | 'x') {
            Separator::Capture
        } else if sep_char == '@' {
            if bytes_at(i + 1) == Some('@') {
                i += 1;
                Separator::EnPassantFar
            } else {
                Separator::EnPassant
            }
        } else {
            return Err(err(i, "a separator (- × @ @@)"));
        };
        i += sep_char.len_utf8();
        let mut captured = None;
        if let (Some(c0), Some(c1)) = (bytes_at(i), bytes_at(i + 1))
            && let Some(k) = letters.kind_of(c0)
            && column_from_letter(c1).is_some()
        {
            captured = Some(k);
            i += c0.len_utf8();
        }
        let (to, n) = parse_cell_prefix(&body[i..]).ok_or_else(|| err(i, "a coordinate"))?;
        i += n;
        let mut promotion = None;
        if bytes_at(i) == Some('=') {
            i += 1;
            promotion = match bytes_at(i) {
                Some('&') => Some(PromotionText::Awaiting),
                Some(c) => match letters.kind_of(c) {
                    Some(k) if PieceKind::REGAINABLE.contains(&k) => Some(PromotionText::Piece(k)),
                    _ => None,
                },
                None => None,
            };
            if promotion.is_none() {
                return Err(err(i, "a promotion piece letter or '&'"));
            }
            i += 1;
        }
        if i != body.len() {
            return Err(err(i, "end of move (or a check marker)"));
        }
        Ok(MoveText {
            kind: MoveTextKind::Ordinary {
                mover,
                from,
                separator,
                captured,
                to,
                promotion,
            },
            check,
        })
    }
}

/// `None`: not a castling token. `Some(Err(offset))`: castling-like but not valid.
fn parse_castling(body: &str, letters: &Letters) -> Option<Result<String, usize>> {
    let chars: Vec<char> = body.chars().collect();
    let rook = letters.letter(PieceKind::Rook);
    if chars.len() < 4 || chars[0] != 'K' || (chars[1] != rook && chars[1] != 'R') {
        return None;
    }
    let side = match chars[2] {
        'K' => 'K',
        'D' => 'D',
        c if c == rook || c == 'R' => 'R',
        _ => return None,
    };
    if !is_hyphen(chars[3]) {
        return None;
    }
    let rest: String = chars[4..].iter().collect();
    let name = format!("KR{side}-{rest}");
    if TABLES.castlings.iter().any(|c| c.name == name) {
        Some(Ok(name))
    } else {
        Some(Err(body.char_indices().nth(4).map_or(body.len(), |x| x.0)))
    }
}

/// Why a parsed token does not name a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    #[error("no piece of the side to move on {0}")]
    /// No piece of the side to move on the origin cell.
    NoSuchPiece(Cell),
    #[error("the piece on {cell} is a {found:?}, the move names a {written:?}")]
    /// The origin holds another kind than the token names.
    WrongPiece {
        /// The origin cell.
        cell: Cell,
        /// The kind the token names.
        written: PieceKind,
        /// The kind on the board.
        found: PieceKind,
    },
    #[error("{0} is not a legal move here")]
    /// No legal move matches the token.
    Illegal(String),
    #[error("{0} matches several legal moves (promotion piece missing?)")]
    /// Several legal moves match the token.
    Ambiguous(String),
    #[error("the move captures {actual}, the text says {written}")]
    /// The capture written differs from the capture made.
    WrongCapture {
        /// The capture as written.
        written: String,
        /// The capture the move makes.
        actual: String,
    },
}

/// A tolerated deviation: the move was found, but the text differs from what a
/// writer would emit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ResolveWarning {
    /// The check marker does not match the position reached.
    CheckMarker {
        /// The marker written, if any.
        written: Option<CheckText>,
        /// The marker of the position reached.
        actual: CheckMarker,
    },
    /// `×` written for an en passant / scornful capture, or `@`/`@@` mixed up.
    Separator {
        /// The separator written.
        written: Separator,
    },
    /// A pawn reached its promotion cell with nothing to regain and `=&` was omitted
    /// (the author's program writes it that way).
    MissingAwaitingMarker,
}

/// A resolved move and the deviations of its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The legal move the token names.
    pub mv: Move,
    /// Deviations of the text from what the writer would emit.
    pub warnings: Vec<ResolveWarning>,
}

fn kind_name(k: Option<PieceKind>) -> String {
    k.map_or("a pawn (no letter)".to_string(), |k| {
        format!("{:?} ({})", k, k.standard_letter())
    })
}

fn marker_matches(written: Option<CheckText>, actual: CheckMarker, knight: bool) -> bool {
    match (written, actual) {
        (None, CheckMarker::None) => true,
        (Some(CheckText::Mate), CheckMarker::Mate) => true,
        (Some(CheckText::Double), CheckMarker::Double) => true,
        (Some(CheckText::Adjoining), CheckMarker::Adjoining) => true,
        (Some(CheckText::Afar), CheckMarker::Afar) => true,
        // Seed `+`: any single check (the seed keeps `+^` for knight jumps only).
        (Some(CheckText::Check), CheckMarker::Afar | CheckMarker::Adjoining) => true,
        (Some(CheckText::Adjoining), CheckMarker::Afar) => knight,
        _ => false,
    }
}

/// The warning for a check marker `written` that does not match the marker `actual`
/// of the position reached (`knight`: its single checker stands a knight jump from the
/// King), or `None` when the marker fits.
pub fn check_marker_warning(
    written: Option<CheckText>,
    actual: CheckMarker,
    knight: bool,
) -> Option<ResolveWarning> {
    (!marker_matches(written, actual, knight))
        .then_some(ResolveWarning::CheckMarker { written, actual })
}

impl Position {
    /// Finds the legal move a token names, or says precisely why there is none.
    pub fn resolve(&self, t: &MoveText) -> Result<Resolved, ResolveError> {
        let mut r = self.resolve_unmarked(t)?;
        let (actual, knight) = self.after(r.mv).check_marker_and_knight();
        r.warnings
            .extend(check_marker_warning(t.check, actual, knight));
        Ok(r)
    }

    /// [`Position::resolve`] without the check marker: the marker needs the position
    /// after the move (and a mate test), which a caller that plays the move anyway
    /// gets from [`crate::Game::play_resolved`] at no extra cost; it then checks the
    /// marker with [`check_marker_warning`].
    pub fn resolve_unmarked(&self, t: &MoveText) -> Result<Resolved, ResolveError> {
        self.resolve_in(t, None)
    }

    /// [`Position::resolve_unmarked`], given whether the side to move is in check
    /// when the caller knows it (a [`crate::Game`] does, from its last evaluation).
    pub(crate) fn resolve_in(
        &self,
        t: &MoveText,
        in_check: Option<bool>,
    ) -> Result<Resolved, ResolveError> {
        let mut legal = ToCell::new();
        let out = &mut legal;
        self.resolve_with(t, move |from, to| {
            self.legal_from_to(from, to, in_check, out);
            let out: &ToCell = out;
            out.as_slice()
        })
    }

    /// The resolution, given where an ordinary move's candidates come from:
    /// `legal_between(from, to)` returns the legal moves from `from` to `to` in
    /// generation order (production: [`Position::legal_from_to`], which generates the
    /// named piece's moves only; the differential tests: the full legal list).
    /// (The candidates are borrowed from the caller's buffer: a buffer returned by
    /// value would be copied right after its narrow stores, a store-forwarding stall.)
    pub(crate) fn resolve_with<'a>(
        &self,
        t: &MoveText,
        legal_between: impl FnOnce(Cell, Cell) -> &'a [Move],
    ) -> Result<Resolved, ResolveError> {
        // Only the named piece's legal moves are generated: a token names its origin
        // (or, for castling, the King).
        let mut warnings = Vec::new();
        let mv = match &t.kind {
            MoveTextKind::Castling(name) => {
                let mut legal = FixedMoves::new();
                self.legal_from(self.king(self.side_to_move()), &mut legal);
                *legal
                    .as_slice()
                    .iter()
                    .find(|m| m.castling_name() == Some(name.as_str()))
                    .ok_or_else(|| ResolveError::Illegal(name.clone()))?
            }
            MoveTextKind::PromotionInPlace { cell, piece } => {
                let own = self
                    .piece_at(*cell)
                    .filter(|p| p.side == self.side_to_move());
                match own {
                    None => return Err(ResolveError::NoSuchPiece(*cell)),
                    Some(p) if p.kind != PieceKind::Pawn => {
                        return Err(ResolveError::WrongPiece {
                            cell: *cell,
                            written: PieceKind::Pawn,
                            found: p.kind,
                        });
                    }
                    _ => {}
                }
                let mut legal = FixedMoves::new();
                self.legal_from(*cell, &mut legal);
                *legal
                    .as_slice()
                    .iter()
                    .find(|m| {
                        m.kind() == MoveKind::PromotionInPlace
                            && m.from() == *cell
                            && m.promotion() == Some(*piece)
                    })
                    .ok_or_else(|| {
                        ResolveError::Illegal(format!("{cell}={}", piece.standard_letter()))
                    })?
            }
            MoveTextKind::Ordinary {
                mover,
                from,
                separator,
                captured,
                to,
                promotion,
            } => {
                let text = || format!("{from}-{to}");
                let own = self
                    .piece_at(*from)
                    .filter(|p| p.side == self.side_to_move());
                let Some(own) = own else {
                    return Err(ResolveError::NoSuchPiece(*from));
                };
                if own.kind != *mover {
                    return Err(ResolveError::WrongPiece {
                        cell: *from,
                        written: *mover,
                        found: own.kind,
                    });
                }
                // Only the moves that reach the named cell are tested for legality.
                let legal = legal_between(*from, *to);
                let mut cands = 0usize;
                let mut chosen = 0usize;
                let mut first = None;
                for &m in legal {
                    if m.from() != *from
                        || m.to() != *to
                        || matches!(m.kind(), MoveKind::Castling | MoveKind::PromotionInPlace)
                    {
                        continue;
                    }
                    cands += 1;
                    let fits = match promotion {
                        Some(PromotionText::Piece(k)) => m.promotion() == Some(*k),
                        _ => m.promotion().is_none(),
                    };
                    if fits {
                        chosen += 1;
                        first.get_or_insert(m);
                    }
                }
                if cands == 0 {
                    return Err(ResolveError::Illegal(text()));
                }
                let m = match (chosen, first) {
                    (1, Some(m)) => m,
                    (0, _) if promotion.is_none() && cands > 1 => {
                        return Err(ResolveError::Ambiguous(text()));
                    }
                    (0, _) => return Err(ResolveError::Illegal(text())),
                    _ => return Err(ResolveError::Ambiguous(text())),
                };
                let awaiting = is_awaiting_arrival(self, m);
                if awaiting && promotion.is_none() {
                    warnings.push(ResolveWarning::MissingAwaitingMarker);
                }
                if !awaiting && *promotion == Some(PromotionText::Awaiting) {
                    return Err(ResolveError::Illegal(format!("{}=&", text())));
                }
                let actual_captured = m.captured().map(|p| p.kind);
                let expected_letter = actual_captured.filter(|&k| k != PieceKind::Pawn);
                match (separator, actual_captured) {
                    (Separator::Move, Some(_)) => {
                        return Err(ResolveError::WrongCapture {
                            written: "no capture ('-')".into(),
                            actual: kind_name(expected_letter),
                        });
                    }
                    (Separator::Capture | Separator::EnPassant | Separator::EnPassantFar, None) => {
                        return Err(ResolveError::WrongCapture {
                            written: "a capture".into(),
                            actual: "nothing".into(),
                        });
                    }
                    _ => {}
                }
                if actual_captured.is_some() && *captured != expected_letter {
                    return Err(ResolveError::WrongCapture {
                        written: kind_name(*captured),
                        actual: kind_name(expected_letter),
                    });
                }
                if actual_captured.is_some() && *separator != separator_of(m) {
                    warnings.push(ResolveWarning::Separator {
                        written: *separator,
                    });
                }
                m
            }
        };
        Ok(Resolved { mv, warnings })
    }

    /// Writes `m` in CTL-AN with its check marker, site style ([`AnStyle::RICH`]).
    pub fn move_to_an(&self, m: Move, letters: &Letters) -> String {
        self.move_to_an_with(m, letters, AnStyle::RICH)
    }

    /// Writes `m` in CTL-AN with its check marker, in the given style.
    pub fn move_to_an_with(&self, m: Move, letters: &Letters, style: AnStyle) -> String {
        let mut s = self.move_text_without_check(m, letters, style);
        let (marker, knight) = self.after(m).check_marker_and_knight();
        s.push_str(match marker {
            CheckMarker::None => "",
            CheckMarker::Mate => "#",
            CheckMarker::Double => "++",
            CheckMarker::Adjoining if style.rich_checks || knight => "+^",
            CheckMarker::Afar if style.rich_checks => "+∞",
            CheckMarker::Adjoining | CheckMarker::Afar => "+",
        });
        s
    }

    /// The move part only (no check marker); cheap, needs no look-ahead.
    pub fn move_text_without_check(&self, m: Move, letters: &Letters, style: AnStyle) -> String {
        if let Some(name) = m.castling_name() {
            let rook = letters.letter(PieceKind::Rook);
            let (prefix, rest) = name.split_at(3);
            return format!("{}{}", prefix.replace('R', &rook.to_string()), rest);
        }
        if m.kind() == MoveKind::PromotionInPlace {
            let k = m.promotion().unwrap_or(PieceKind::Queen);
            return format!("{}={}", m.from(), letters.letter(k));
        }
        let mut s = String::new();
        let mover = self.piece_at(m.from()).map_or(PieceKind::Pawn, |p| p.kind);
        if mover != PieceKind::Pawn {
            s.push(letters.letter(mover));
        }
        s.push_str(&m.from().to_string());
        s.push_str(match separator_of(m) {
            Separator::Move => "-",
            Separator::Capture => "×",
            Separator::EnPassant => "@",
            Separator::EnPassantFar => "@@",
        });
        if let Some(c) = m.captured()
            && c.kind != PieceKind::Pawn
        {
            s.push(letters.letter(c.kind));
        }
        s.push_str(&m.to().to_string());
        if let Some(k) = m.promotion() {
            s.push('=');
            s.push(letters.letter(k));
        } else if style.awaiting_marker && is_awaiting_arrival(self, m) {
            s.push_str("=&");
        }
        s
    }
}

fn is_awaiting_arrival(pos: &Position, m: Move) -> bool {
    let side: Side = pos.side_to_move();
    m.promotion().is_none()
        && m.kind() != MoveKind::PromotionInPlace
        && m.kind() != MoveKind::Castling
        && pos
            .piece_at(m.from())
            .is_some_and(|p| p.kind == PieceKind::Pawn)
        && TABLES.promotion[side.index()][m.to().index()]
}

fn separator_of(m: Move) -> Separator {
    match m.kind() {
        MoveKind::ScornfulCapture => Separator::EnPassant,
        MoveKind::EnPassant => {
            let victim = m.capture_cell().unwrap_or(m.to());
            if victim.line().abs_diff(m.to().line()) <= 2 {
                Separator::EnPassant
            } else {
                Separator::EnPassantFar
            }
        }
        _ if m.is_capture() => Separator::Capture,
        _ => Separator::Move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> MoveText {
        MoveText::parse(s, &Letters::default()).unwrap()
    }

    #[test]
    fn parses_the_spec_forms() {
        for s in [
            "E7-E13",
            "EE5-E9",
            "JF6×G9",
            "EF12×NF14",
            "DE27×JE13",
            "F12@@G9",
            "G15@F14",
            "E25-E27=D",
            "F26-F28=&",
            "F28=R",
            "KRD-DE",
            "KRK-HIOO",
            "KRR-FEE",
            "GL5-H6#",
            "VF24-D26++",
            "E7‐E13",
            "E7–E13",
            "JF6*G9",
            "JF6xG9",
            "GL5×GE5^+",
            "DB10-D10+∞",
            "GH6xRI3",
            "NT18-B22+^",
        ] {
            assert!(MoveText::parse(s, &Letters::default()).is_ok(), "{s}");
        }
        assert_eq!(p("KRK-HIO").kind, MoveTextKind::Castling("KRK-HIO".into()));
        assert_eq!(p("GL5×GE5^+").check, Some(CheckText::Adjoining));
        let t = Letters::redefine("T@R, A@J").unwrap();
        assert_eq!(
            MoveText::parse("KTK-HIO", &t).unwrap().kind,
            MoveTextKind::Castling("KRK-HIO".into())
        );
        assert!(matches!(
            MoveText::parse("AF6-A21", &t).unwrap().kind,
            MoveTextKind::Ordinary {
                mover: PieceKind::Bishop,
                ..
            }
        ));
        assert!(matches!(
            MoveText::parse("A5-A7", &t).unwrap().kind,
            MoveTextKind::Ordinary {
                mover: PieceKind::Pawn,
                ..
            }
        ));
    }

    #[test]
    fn rejects_junk_with_offsets() {
        let l = Letters::default();
        let e = MoveText::parse("E7-J13", &l).unwrap_err();
        assert_eq!(e.offset, 3);
        for s in [
            "",
            "+",
            "E7",
            "E7E9",
            "KRK-XX",
            "E7-E9=K",
            "E7-E9junk",
            "F28=&",
            "Q",
            "E7-E99",
            "@@",
            "×",
            "E7-",
            "F28=",
        ] {
            assert!(MoveText::parse(s, &l).is_err(), "{s}");
        }
    }

    #[test]
    fn resolves_and_writes_against_the_initial_position() {
        let pos = Position::initial();
        let l = Letters::default();
        let r = pos.resolve(&p("E7-E13")).unwrap();
        assert!(r.warnings.is_empty());
        assert_eq!(pos.move_to_an(r.mv, &l), "E7-E13");
        assert_eq!(
            pos.resolve(&p("F2-F4")),
            Err(ResolveError::WrongPiece {
                cell: "F2".parse().unwrap(),
                written: PieceKind::Pawn,
                found: PieceKind::Bishop,
            })
        );
        assert_eq!(
            pos.resolve(&p("E9-E11")),
            Err(ResolveError::NoSuchPiece("E9".parse().unwrap()))
        );
        assert!(matches!(
            pos.resolve(&p("E7-E15")),
            Err(ResolveError::Illegal(_))
        ));
        let w = pos.resolve(&p("E7-E13+")).unwrap();
        assert_eq!(w.warnings.len(), 1);
        for m in pos.legal_moves().iter() {
            let s = pos.move_to_an(*m, &l);
            assert_eq!(
                pos.resolve(&p(&s)).unwrap(),
                Resolved {
                    mv: *m,
                    warnings: vec![]
                }
            );
        }
    }
}
