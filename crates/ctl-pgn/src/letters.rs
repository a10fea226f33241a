//! Piece letters of a record: the standard set, `Redefine` alternatives and FAN glyphs
//! (spec §7.1, §7.6, §9.13).
//!
//! The game model always stores standard letters, so that a record can be written with
//! any letter set; this table translates at the edges (reading tokens, writing tokens,
//! and the placement and castling fields of the TLPD tag).

use crate::model::Side;
pub use cescacs_rules::PieceKind;

/// The letter set in force in one record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LetterTable {
    fan: bool,
    /// Replacement letter per kind (index = `PieceKind as usize`); `None` keeps the standard.
    alt: [Option<char>; 9],
}

/// How a glyph read from movetext was interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LetterRead {
    /// A letter valid in this record.
    Ok(PieceKind),
    /// A FAN glyph valid in this record, with the colour it shows.
    Fan(PieceKind, Side),
    /// Not valid here; the message says why.
    Invalid(PieceKind, &'static str),
}

impl LetterTable {
    /// The standard letters (no `Redefine`).
    pub fn standard() -> Self {
        Self::default()
    }

    /// The FAN glyph set (`[Redefine "FAN"]`).
    pub fn fan() -> Self {
        LetterTable {
            fan: true,
            alt: [None; 9],
        }
    }

    /// Whether this is the FAN set.
    pub fn is_fan(&self) -> bool {
        self.fan
    }

    /// Whether this is the standard set.
    pub fn is_standard(&self) -> bool {
        !self.fan && self.alt.iter().all(Option::is_none)
    }

    /// Parses the value of a `Redefine` tag: `FAN` or a comma-separated list of
    /// `alt@std`. Inner quotes are dropped (the seed's own examples carry a stray one,
    /// §9.13).
    pub fn from_redefine(value: &str) -> Result<Self, String> {
        let cleaned: String = value.chars().filter(|&c| c != '"').collect();
        let cleaned = cleaned.trim();
        if cleaned.eq_ignore_ascii_case("FAN") {
            return Ok(Self::fan());
        }
        let mut table = LetterTable::default();
        for item in cleaned.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let mut parts = item.split('@');
            let (Some(alt), Some(std), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!("expected `alt@std`, found `{item}`"));
            };
            let (alt, std) = (alt.trim(), std.trim());
            let mut ac = alt.chars();
            let mut sc = std.chars();
            let (Some(a), None, Some(s), None) = (ac.next(), ac.next(), sc.next(), sc.next())
            else {
                return Err(format!(
                    "expected one letter on each side of `@`, found `{item}`"
                ));
            };
            let Some(kind) = PieceKind::from_standard_letter(s) else {
                return Err(format!("`{s}` is not a standard piece letter"));
            };
            if !kind.redefine_alternatives().contains(&a) {
                return Err(format!(
                    "`{a}` is not an alternative letter of {s} (allowed: {})",
                    kind.redefine_alternatives()
                        .iter()
                        .map(char::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if let Some(prev) = table.alt[kind.index()]
                && prev != a
            {
                return Err(format!("{s} is redefined twice ({prev} and {a})"));
            }
            table.alt[kind.index()] = Some(a);
        }
        Ok(table)
    }

    /// The `Redefine` tag value that gives this table, or `None` for the standard set.
    pub fn redefine_value(&self) -> Option<String> {
        if self.fan {
            return Some("FAN".to_string());
        }
        let items: Vec<String> = PieceKind::ALL
            .into_iter()
            .filter_map(|k| self.alt[k.index()].map(|a| format!("{a}@{}", k.standard_letter())))
            .collect();
        if items.is_empty() {
            None
        } else {
            Some(items.join(", "))
        }
    }

    /// The letter (upper case) this table writes for a kind; FAN tables are handled by
    /// [`LetterTable::glyph`].
    pub fn letter(&self, kind: PieceKind) -> char {
        self.alt[kind.index()].unwrap_or(kind.standard_letter())
    }

    /// The glyph written in movetext for a man of `side`.
    pub fn glyph(&self, kind: PieceKind, side: Side) -> String {
        let mut s = String::new();
        self.push_glyph(&mut s, kind, side);
        s
    }

    /// [`LetterTable::glyph`] appended to `s` (no allocation of its own: writers call
    /// it for nearly every move).
    pub fn push_glyph(&self, s: &mut String, kind: PieceKind, side: Side) {
        if self.fan {
            s.push_str(kind.fan(side));
        } else {
            s.push(self.letter(kind));
        }
    }

    /// Interprets a piece glyph matched by the grammar's `piece_letter`.
    pub fn read(&self, s: &str) -> Option<LetterRead> {
        // The common case first: a standard letter in a record without `Redefine`.
        if let [c] = s.as_bytes()
            && self.is_standard()
            && let Some(kind) = PieceKind::from_standard_letter(char::from(*c))
        {
            return Some(LetterRead::Ok(kind));
        }
        if let Some((kind, side)) = PieceKind::from_fan(s) {
            return Some(if self.fan {
                LetterRead::Fan(kind, side)
            } else {
                LetterRead::Invalid(kind, "FAN glyphs need [Redefine \"FAN\"]")
            });
        }
        let mut chars = s.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        if self.fan
            && let Some(k) = PieceKind::from_standard_letter(c)
        {
            return Some(LetterRead::Invalid(
                k,
                "letters are replaced by FAN glyphs in this record",
            ));
        }
        for kind in PieceKind::ALL {
            if self.alt[kind.index()] == Some(c) {
                return Some(LetterRead::Ok(kind));
            }
        }
        if let Some(kind) = PieceKind::from_standard_letter(c) {
            return Some(if self.alt[kind.index()].is_some() {
                LetterRead::Invalid(kind, "the standard letter is redefined in this record")
            } else {
                LetterRead::Ok(kind)
            });
        }
        PieceKind::ALL
            .into_iter()
            .find(|k| k.redefine_alternatives().contains(&c))
            .map(|k| LetterRead::Invalid(k, "an alternative letter needs a Redefine tag"))
    }

    /// Rewrites a TLPD string in this table's letters into standard letters. Only the
    /// placement and the castling field hold piece letters; the en-passant field holds
    /// columns, which must not be touched.
    pub fn tlpd_to_standard(&self, tlpd: &str) -> String {
        if self.is_standard() {
            return tlpd.to_string();
        }
        self.map_tlpd(tlpd, |s| self.std_glyph(s))
    }

    /// Rewrites a standard TLPD string into this table's letters.
    pub fn tlpd_from_standard(&self, tlpd: &str) -> String {
        if self.is_standard() {
            return tlpd.to_string();
        }
        self.map_tlpd(tlpd, |s| self.out_glyph(s))
    }

    fn map_tlpd(&self, tlpd: &str, f: impl Fn(char) -> Option<String>) -> String {
        let mut fields: Vec<String> = tlpd.split(' ').map(str::to_string).collect();
        for idx in [0usize, 2] {
            if let Some(field) = fields.get_mut(idx) {
                let mapped: String = glyphs(field)
                    .map(|g| {
                        let c = g.chars().next().unwrap_or(' ');
                        if g.chars().count() == 1 {
                            f(c).unwrap_or_else(|| g.to_string())
                        } else {
                            g.to_string()
                        }
                    })
                    .collect();
                *field = mapped;
            }
        }
        fields.join(" ")
    }

    fn std_glyph(&self, c: char) -> Option<String> {
        let mut buf = [0u8; 4];
        if let Some((kind, side)) = PieceKind::from_fan(c.encode_utf8(&mut buf)) {
            let l = kind.standard_letter();
            return Some(match side {
                Side::White => l.to_string(),
                Side::Black => l.to_ascii_lowercase().to_string(),
            });
        }
        let upper = c.to_ascii_uppercase();
        let kind = PieceKind::ALL
            .into_iter()
            .find(|k| self.alt[k.index()] == Some(upper))?;
        let l = kind.standard_letter();
        Some(if c.is_ascii_uppercase() {
            l.to_string()
        } else {
            l.to_ascii_lowercase().to_string()
        })
    }

    fn out_glyph(&self, c: char) -> Option<String> {
        let kind = PieceKind::from_standard_letter(c.to_ascii_uppercase())?;
        let side = if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        if self.fan {
            return Some(kind.fan(side).to_string());
        }
        let l = self.letter(kind);
        Some(match side {
            Side::White => l.to_string(),
            Side::Black => l.to_ascii_lowercase().to_string(),
        })
    }
}

/// Splits a string into chars as `&str` slices (the FAN glyphs outside the BMP are one
/// char each, so a char is the right unit).
fn glyphs(s: &str) -> impl Iterator<Item = &str> {
    s.char_indices().map(move |(i, c)| &s[i..i + c.len_utf8()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redefine_with_stray_quote_is_read() {
        let t = LetterTable::from_redefine("A@J, T@R\", C@N").unwrap();
        assert_eq!(t.letter(PieceKind::Bishop), 'A');
        assert_eq!(t.letter(PieceKind::Rook), 'T');
        assert_eq!(t.letter(PieceKind::Knight), 'C');
        assert_eq!(t.redefine_value().unwrap(), "T@R, C@N, A@J");
        assert!(matches!(
            t.read("J"),
            Some(LetterRead::Invalid(PieceKind::Bishop, _))
        ));
        assert_eq!(t.read("A"), Some(LetterRead::Ok(PieceKind::Bishop)));
    }

    #[test]
    fn redefine_rejects_foreign_alternatives() {
        assert!(LetterTable::from_redefine("T@J").is_err());
        assert!(LetterTable::from_redefine("M@E").is_err());
        assert!(LetterTable::from_redefine("A@J, B@J").is_err());
    }

    #[test]
    fn tlpd_maps_placement_and_castling_but_not_columns() {
        // The spec's §8.7 examples.
        let std = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";
        let alt = "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1";
        let fan = "/28:🩒/27:♛♚/26:🩓♝🩓/25:♜♞♞♜/24:♟☗♝☗♟/23:♟♟☗☗♟♟/22:2♟♝♟2/21:3♟♟3/20:3♟3/8:3♙3/7:3♙♙3/6:2♙♗♙2/5:♙♙☖☖♙♙/4:♙☖♗☖♙/3:♖♘♘♖/2:🩐♗🩐/1:♕♔/0:🩏/ w ♖♔♖♜♚♜ - 0 1";
        let t = LetterTable::from_redefine("A@J, T@R, C@N").unwrap();
        assert_eq!(t.tlpd_from_standard(std), alt);
        assert_eq!(t.tlpd_to_standard(alt), std);
        let f = LetterTable::fan();
        assert_eq!(f.tlpd_from_standard(std), fan);
        assert_eq!(f.tlpd_to_standard(fan), std);
        // The en-passant field names a column E (also the Elephant's letter): untouched.
        let ep = "/27:1k/1:1K/ b -- E13@9-11 0 1";
        assert_eq!(f.tlpd_from_standard(ep), "/27:1♚/1:1♔/ b -- E13@9-11 0 1");
        assert_eq!(f.tlpd_to_standard(&f.tlpd_from_standard(ep)), ep);
    }
}
