//! Piece strings: `[+]style:abbreviation`, with the case of the abbreviation giving the side.

use crate::error::PieceError;
use std::fmt;
use std::str::FromStr;

/// The two players. The seed calls them by board side: `Bottom` moves first and is
/// written in upper case; `Top` starts at row 0 and is written in lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Moves first; pieces in upper case.
    Bottom,
    /// Starts at row 0; pieces in lower case.
    Top,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Bottom => Side::Top,
            Side::Top => Side::Bottom,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Bottom => "bottom",
            Side::Top => "top",
        })
    }
}

/// A validated piece string such as `W:K`, `x:s`, `+s:b` or, after a Shōgi-style
/// capture, `x:S` (a top-side Xiangqi soldier now owned by the bottom player).
///
/// The side is read from the abbreviation's case only: a capture to hand flips the
/// abbreviation and leaves the style in the case of the piece's original owner, which
/// is how the seed's sample writes a captured soldier.
#[derive(Clone)]
pub struct Piece {
    promoted: bool,
    /// `style:abbreviation` (without the `+`): one allocation per piece, and a small
    /// value to copy, since boards and moves hold many.
    text: Box<str>,
    /// Byte index of the colon in `text`.
    colon: usize,
}

impl Piece {
    fn from_parts(promoted: bool, style: &str, abbreviation: &str) -> Piece {
        Piece {
            promoted,
            text: format!("{style}:{abbreviation}").into_boxed_str(),
            colon: style.len(),
        }
    }

    /// What equality, order and hashing compare, in this order.
    fn key(&self) -> (bool, &str, &str) {
        (self.promoted, self.style(), self.abbreviation())
    }
}

impl PartialEq for Piece {
    fn eq(&self, other: &Piece) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Piece {}

impl std::hash::Hash for Piece {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl PartialOrd for Piece {
    fn partial_cmp(&self, other: &Piece) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Piece {
    fn cmp(&self, other: &Piece) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Piece")
            .field("promoted", &self.promoted)
            .field("style", &self.style())
            .field("abbreviation", &self.abbreviation())
            .finish()
    }
}

fn check_part(s: &str) -> Result<Option<bool>, PieceError> {
    // Returns whether the letters are upper case (None when there is no letter).
    let mut upper = None;
    for c in s.chars() {
        if !(c.is_ascii_alphanumeric() || c == '_') {
            return Err(PieceError::BadChar(c));
        }
        if c.is_ascii_alphabetic() {
            let u = c.is_ascii_uppercase();
            match upper {
                None => upper = Some(u),
                Some(prev) if prev != u => return Err(PieceError::MixedCaseAbbreviation),
                Some(_) => {}
            }
        }
    }
    Ok(upper)
}

impl Piece {
    /// Builds a piece of `side` from a style and an abbreviation given in any case;
    /// both are written in the side's case, as the seed does for pieces in their
    /// owner's camp.
    pub fn new(
        style: &str,
        abbreviation: &str,
        side: Side,
        promoted: bool,
    ) -> Result<Piece, PieceError> {
        let case = |s: &str| match side {
            Side::Bottom => s.to_ascii_uppercase(),
            Side::Top => s.to_ascii_lowercase(),
        };
        let text = format!(
            "{}{}:{}",
            if promoted { "+" } else { "" },
            case(style),
            case(abbreviation)
        );
        text.parse()
    }

    /// Whether the piece carries the `+` prefix.
    pub fn is_promoted(&self) -> bool {
        self.promoted
    }
    /// The style (`w`, `x`, `s`, …), in its written case.
    pub fn style(&self) -> &str {
        &self.text[..self.colon]
    }
    /// The abbreviation, whose case gives the side.
    pub fn abbreviation(&self) -> &str {
        &self.text[self.colon + 1..]
    }

    /// Upper-case abbreviation: bottom side (moves first); lower case: top side.
    pub fn side(&self) -> Side {
        if self.abbreviation().chars().any(|c| c.is_ascii_uppercase()) {
            Side::Bottom
        } else {
            Side::Top
        }
    }

    /// The piece as it enters the taker's hand: abbreviation case flipped, promotion
    /// dropped (a piece in hand is a plain piece, as in Shōgi), style untouched.
    pub fn captured(&self) -> Piece {
        let flipped = if self.side() == Side::Bottom {
            self.abbreviation().to_ascii_lowercase()
        } else {
            self.abbreviation().to_ascii_uppercase()
        };
        Piece::from_parts(false, self.style(), &flipped)
    }
}

impl FromStr for Piece {
    type Err = PieceError;
    fn from_str(s: &str) -> Result<Piece, PieceError> {
        let (promoted, rest) = match s.strip_prefix('+') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let (style, abbreviation) = rest.split_once(':').ok_or(PieceError::NoColon)?;
        if abbreviation.contains(':') {
            return Err(PieceError::ExtraColon);
        }
        if style.is_empty() {
            return Err(PieceError::EmptyStyle);
        }
        if abbreviation.is_empty() {
            return Err(PieceError::EmptyAbbreviation);
        }
        check_part(style).map_err(|e| match e {
            PieceError::MixedCaseAbbreviation => PieceError::MixedCaseStyle,
            other => other,
        })?;
        if check_part(abbreviation)?.is_none() {
            return Err(PieceError::NoLetter);
        }
        Ok(Piece::from_parts(promoted, style, abbreviation))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.promoted {
            f.write_str("+")?;
        }
        f.write_str(&self.text)
    }
}

impl serde::Serialize for Piece {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !self.promoted {
            return s.serialize_str(&self.text);
        }
        // A promoted piece: `+` and the text, put together on the stack when it fits.
        let mut buf = [0u8; 64];
        match buf.get_mut(1..1 + self.text.len()) {
            Some(room) => {
                room.copy_from_slice(self.text.as_bytes());
                buf[0] = b'+';
                match std::str::from_utf8(&buf[..1 + self.text.len()]) {
                    Ok(text) => s.serialize_str(text),
                    Err(_) => s.collect_str(self),
                }
            }
            None => s.collect_str(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialised_as_its_text() {
        let long = format!("+{}:{}", "a".repeat(40), "b".repeat(40));
        for s in ["W:P", "+s:b", "dai_dai_shogi:k2", long.as_str()] {
            let p: Piece = s.parse().unwrap();
            assert_eq!(serde_json::to_string(&p).unwrap(), format!("\"{s}\""));
            assert_eq!(serde_json::to_value(&p).unwrap(), serde_json::json!(s));
        }
    }

    #[test]
    fn seed_examples_parse() {
        for (s, side) in [
            ("W:P", Side::Bottom),
            ("w:p", Side::Top),
            ("TAIKYOKU_SHOGI:GD", Side::Bottom),
            ("+s:b", Side::Top),
            ("x:S", Side::Bottom),
            ("dai_dai_shogi:k2", Side::Top),
        ] {
            let p: Piece = s.parse().unwrap();
            assert_eq!(p.side(), side, "{s}");
            assert_eq!(p.to_string(), s);
        }
    }

    #[test]
    fn rejects() {
        assert_eq!("wp".parse::<Piece>(), Err(PieceError::NoColon));
        assert_eq!("w:p:q".parse::<Piece>(), Err(PieceError::ExtraColon));
        assert_eq!("++w:p".parse::<Piece>(), Err(PieceError::BadChar('+')));
        assert_eq!(
            "w:Pp".parse::<Piece>(),
            Err(PieceError::MixedCaseAbbreviation)
        );
        assert_eq!("Ww:p".parse::<Piece>(), Err(PieceError::MixedCaseStyle));
        assert_eq!("x:^g".parse::<Piece>(), Err(PieceError::BadChar('^')));
        assert_eq!("x:12".parse::<Piece>(), Err(PieceError::NoLetter));
        assert_eq!(":p".parse::<Piece>(), Err(PieceError::EmptyStyle));
    }

    #[test]
    fn capture_flips_abbreviation_only() {
        let p: Piece = "+x:s".parse().unwrap();
        assert_eq!(p.captured().to_string(), "x:S");
        let q: Piece = "W:Q".parse().unwrap();
        assert_eq!(q.captured().to_string(), "W:q");
        assert_eq!(
            Piece::new("w", "n", Side::Top, false).unwrap().to_string(),
            "w:n"
        );
    }
}
