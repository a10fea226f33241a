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
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    promoted: bool,
    style: String,
    abbreviation: String,
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
        &self.style
    }
    /// The abbreviation, whose case gives the side.
    pub fn abbreviation(&self) -> &str {
        &self.abbreviation
    }

    /// Upper-case abbreviation: bottom side (moves first); lower case: top side.
    pub fn side(&self) -> Side {
        if self.abbreviation.chars().any(|c| c.is_ascii_uppercase()) {
            Side::Bottom
        } else {
            Side::Top
        }
    }

    /// The piece as it enters the taker's hand: abbreviation case flipped, promotion
    /// dropped (a piece in hand is a plain piece, as in Shōgi), style untouched.
    pub fn captured(&self) -> Piece {
        let flipped = if self.side() == Side::Bottom {
            self.abbreviation.to_ascii_lowercase()
        } else {
            self.abbreviation.to_ascii_uppercase()
        };
        Piece {
            promoted: false,
            style: self.style.clone(),
            abbreviation: flipped,
        }
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
        Ok(Piece {
            promoted,
            style: style.to_owned(),
            abbreviation: abbreviation.to_owned(),
        })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.promoted {
            f.write_str("+")?;
        }
        write!(f, "{}:{}", self.style, self.abbreviation)
    }
}

impl serde::Serialize for Piece {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Boards write dozens of pieces per document: the text is put together on the
        // stack rather than through the formatter (the same string either way).
        let parts = [
            if self.promoted { "+" } else { "" },
            self.style.as_str(),
            ":",
            self.abbreviation.as_str(),
        ];
        let mut buf = [0u8; 64];
        let mut n = 0;
        for p in parts {
            let Some(room) = buf.get_mut(n..n + p.len()) else {
                return s.collect_str(self);
            };
            room.copy_from_slice(p.as_bytes());
            n += p.len();
        }
        match std::str::from_utf8(&buf[..n]) {
            Ok(text) => s.serialize_str(text),
            Err(_) => s.collect_str(self),
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
