//! Tag criteria with comparisons: `select --tag 'WhiteElo>=2700'`, `--tag 'Date<2000'`,
//! `--event`, `--site` and the lines of a `--criteria` file (pgn-extract `-t` style).
//!
//! A criterion is a tag name, an operator (`=`, `!=`, `<`, `<=`, `>`, `>=`) and a value.
//! `=` and `!=` match text (a [`Glob`], loose or exact) unless the value is a whole
//! number or the tag is a date, which compare as numbers and dates like the orders do.
//! The orders compare numbers (the tag's leading integer, so the Elo `2812:0` some
//! databases write is 2812, as pgn-extract reads it) or, for a tag whose name ends in
//! `Date`, dates (`YYYY`, `YYYY.MM`, `YYYY.MM.DD`; a PGN date with unknown parts is the
//! whole period it may mean, and it passes when some day of it does). A value that is
//! neither is refused when the criterion is read: a criterion never silently compares
//! with 0.

use crate::select::{Glob, date_bound, date_span};
use std::fmt;

/// A comparison operator of a [`TagCriterion`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// `=` (also `==`): matches.
    Eq,
    /// `!=` (also `<>`): does not match.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl Compare {
    /// The operators, longest first so that `<=` is not read as `<`.
    const SPELLINGS: [(&'static str, Compare); 8] = [
        ("<=", Compare::Le),
        (">=", Compare::Ge),
        ("!=", Compare::Ne),
        ("<>", Compare::Ne),
        ("==", Compare::Eq),
        ("<", Compare::Lt),
        (">", Compare::Gt),
        ("=", Compare::Eq),
    ];

    fn holds(self, ordering: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Compare::Eq => ordering == Equal,
            Compare::Ne => ordering != Equal,
            Compare::Lt => ordering == Less,
            Compare::Le => ordering != Greater,
            Compare::Gt => ordering == Greater,
            Compare::Ge => ordering != Less,
        }
    }
}

impl fmt::Display for Compare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = Compare::SPELLINGS
            .iter()
            .find(|(_, c)| c == self)
            .map_or("=", |(s, _)| s);
        f.write_str(s)
    }
}

/// What a criterion compares the tag's value with.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Operand {
    Text(Glob),
    Number(i64),
    /// The first and last day (`YYYYMMDD`) the criterion's date means.
    Date(u32, u32),
}

/// One condition on one tag: `NAME OP VALUE` (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagCriterion {
    /// The tag's name (looked up exactly, then case-insensitively).
    pub name: String,
    /// The operator.
    pub op: Compare,
    operand: Operand,
}

/// Whether a tag name holds a date (`Date`, `EventDate`, `UTCDate`…).
fn is_date_tag(name: &str) -> bool {
    name.len() >= 4 && name[name.len() - 4..].eq_ignore_ascii_case("date")
}

/// The leading integer of a tag value (`2812:0` is 2812, `-` or text is none), as C's
/// `atoi` reads it, which is what pgn-extract compares.
fn leading_integer(value: &str) -> Option<i64> {
    let v = value.trim();
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    let n = digits.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    let number: i64 = digits[..n.min(18)].parse().ok()?;
    Some(if v.starts_with('-') { -number } else { number })
}

impl TagCriterion {
    /// `NAME OP VALUE` (`WhiteElo>=2700`, `Event=blitz`, spaces around the operator
    /// allowed, the value optionally in double quotes); `exact` as in
    /// [`TagCriterion::new`]. Without `exact` this is [`str::parse`].
    pub fn parse(s: &str, exact: bool) -> Result<TagCriterion, String> {
        parse(s, exact)
    }

    /// A criterion `name op value`; `exact` makes `=`/`!=` on text compare the whole
    /// value case-sensitively, else they match loosely ([`Glob::loose`]).
    pub fn new(name: &str, op: Compare, value: &str, exact: bool) -> Result<TagCriterion, String> {
        let name = name.trim();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '"') {
            return Err(format!("tag criterion: {name:?} is not a tag name"));
        }
        let v = value.trim();
        let ordered = !matches!(op, Compare::Eq | Compare::Ne);
        let date = is_date_tag(name).then(|| (date_bound(v, false), date_bound(v, true)));
        let operand = match (date, v.parse::<i64>()) {
            (Some((Ok(first), Ok(last))), _) => Operand::Date(first, last),
            (Some((Err(e), _) | (_, Err(e))), _) if ordered => {
                return Err(format!("tag criterion {name}{op}{value}: {e}"));
            }
            (_, Ok(n)) => Operand::Number(n),
            _ if !ordered => Operand::Text(if exact {
                Glob::exact(value)
            } else {
                Glob::loose(value)?
            }),
            _ => {
                return Err(format!(
                    "tag criterion {name}{op}{value}: {value:?} is not a number (the orders \
                     compare numbers, or dates for a tag named …Date)"
                ));
            }
        };
        Ok(TagCriterion {
            name: name.to_string(),
            op,
            operand,
        })
    }

    /// Whether a tag's value passes; `None` (the tag is missing) never does, and nor
    /// does a value that is not a number (a date) when the criterion compares numbers
    /// (dates), even with `!=`.
    pub fn holds(&self, value: Option<&str>) -> bool {
        let Some(value) = value else { return false };
        match &self.operand {
            Operand::Text(glob) => glob.matches(value) == (self.op == Compare::Eq),
            Operand::Number(n) => leading_integer(value).is_some_and(|v| self.op.holds(v.cmp(n))),
            Operand::Date(lo, hi) => {
                let Some((first, last)) = date_span(value) else {
                    return false;
                };
                // The game's date is a period: it passes when some day of it does.
                let meets = first <= *hi && last >= *lo;
                match self.op {
                    Compare::Eq => meets,
                    Compare::Ne => !(first >= *lo && last <= *hi),
                    Compare::Lt => first < *lo,
                    Compare::Le => first <= *hi,
                    Compare::Gt => last > *hi,
                    Compare::Ge => last >= *lo,
                }
            }
        }
    }
}

impl std::str::FromStr for TagCriterion {
    type Err = String;

    /// `NAME OP VALUE` as `--tag` takes it (`WhiteElo>=2700`, `Event=*blitz*`), spaces
    /// around the operator allowed; text matched loosely.
    fn from_str(s: &str) -> Result<TagCriterion, String> {
        parse(s, false)
    }
}

/// `NAME OP VALUE` (`WhiteElo>=2700`, `Event=blitz`), the value optionally in double
/// quotes; `exact` as in [`TagCriterion::new`].
fn parse(s: &str, exact: bool) -> Result<TagCriterion, String> {
    let at = s.find(['<', '>', '=', '!']).ok_or_else(|| {
        format!("tag criterion {s:?}: expected NAME OP VALUE (OP one of = != < <= > >=)")
    })?;
    let (name, rest) = s.split_at(at);
    let (op, value) = Compare::SPELLINGS
        .iter()
        .find_map(|(spelling, op)| rest.strip_prefix(spelling).map(|v| (*op, v)))
        .ok_or_else(|| format!("tag criterion {s:?}: expected = != < <= > or >= after the name"))?;
    TagCriterion::new(name, op, unquote(value.trim()), exact)
}

fn unquote(v: &str) -> &str {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
}

/// Reads a `--criteria` file: one criterion a line, `Name "value"` (matches) or
/// `Name OP "value"` (pgn-extract's `-t` form; the quotes are optional), blank lines and
/// lines starting with `#` or `%` skipped. Lines on the same tag name make one group
/// that holds when any of its lines does (`White "Carlsen"` and `White "Anand"`: either
/// player); every group must hold. Errors name the line.
pub fn read_criteria(text: &str, exact: bool) -> Result<Vec<Vec<TagCriterion>>, String> {
    let mut groups: Vec<Vec<TagCriterion>> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let fail = |e: String| format!("line {}: {e}", n + 1);
        let name_end = line
            .find(|c: char| c.is_whitespace() || "<>=!\"".contains(c))
            .unwrap_or(line.len());
        let (name, rest) = line.split_at(name_end);
        let rest = rest.trim_start();
        let criterion = if rest.starts_with('"') {
            TagCriterion::new(name, Compare::Eq, unquote(rest), exact).map_err(fail)?
        } else {
            parse(&format!("{name}{rest}"), exact).map_err(fail)?
        };
        match groups.iter_mut().find(|g| g[0].name == criterion.name) {
            Some(group) => group.push(criterion),
            None => groups.push(vec![criterion]),
        }
    }
    Ok(groups)
}

/// The text form of `select`'s tag and board criteria, as the command line and the
/// Python bindings take them, turned into a [`crate::Filter`] by [`Criteria::apply`]:
/// one meaning for both doors.
#[derive(Debug, Clone, Default)]
pub struct Criteria {
    /// `--player`: White, Black or Red contains this text.
    pub player: Option<String>,
    /// `--event`: the Event tag contains this text.
    pub event: Option<String>,
    /// `--site`: the Site tag contains this text.
    pub site: Option<String>,
    /// `--tag`: `NAME=TEXT` or `NAME OP VALUE` each.
    pub tags: Vec<String>,
    /// The text of a `--criteria` file and the name to give in its errors.
    pub criteria: Option<(String, String)>,
    /// `--exact`: text compares the whole value, case-sensitively.
    pub exact: bool,
    /// `--any`: one tag condition is enough.
    pub any: bool,
    /// `--fen-pattern`: board patterns (any one).
    pub fen_patterns: Vec<String>,
    /// The text of a `--positions` file and the name to give in its errors.
    pub positions: Option<(String, String)>,
    /// `--material`: material signatures (any one).
    pub material: Vec<String>,
}

impl Criteria {
    /// Adds these conditions to `filter`; an error names the option, or the file and
    /// its line.
    pub fn apply(&self, filter: &mut crate::Filter) -> Result<(), String> {
        use crate::positions::{BoardTest, Material};
        let text = |t: &str| match self.exact {
            true => Ok(Glob::exact(t)),
            false => Glob::loose(t),
        };
        if let Some(p) = &self.player {
            filter.player = Some(text(p).map_err(|e| format!("--player: {e}"))?);
        }
        for (name, value) in [("Event", &self.event), ("Site", &self.site)] {
            if let Some(v) = value {
                filter
                    .criteria
                    .push(vec![TagCriterion::new(name, Compare::Eq, v, self.exact)?]);
            }
        }
        for t in &self.tags {
            let c = TagCriterion::parse(t, self.exact).map_err(|e| format!("--tag: {e}"))?;
            filter.criteria.push(vec![c]);
        }
        if let Some((name, file)) = &self.criteria {
            let groups =
                read_criteria(file, self.exact).map_err(|e| format!("--criteria {name}: {e}"))?;
            filter.criteria.extend(groups);
        }
        filter.any = self.any;
        let mut boards = Vec::new();
        for p in &self.fen_patterns {
            boards.push(BoardTest::Pattern(
                p.parse().map_err(|e| format!("--fen-pattern: {e}"))?,
            ));
        }
        if let Some((name, file)) = &self.positions {
            let fail = |e: String| format!("--positions {name}: {e}");
            let before = boards.len();
            for (n, line) in file.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with(['%', '#']) {
                    continue;
                }
                // A board, or a move sequence as pgn-extract's `-x` file lists them.
                let board = match line.parse() {
                    Ok(board) => board,
                    Err(e) => crate::positions::after_moves(line)
                        .ok_or_else(|| {
                            fail(format!(
                                "line {}: {e}; nor is it a move sequence from the start position (chess SAN or UCI, xiangqi ICCS or any notation the reader knows)",
                                n + 1
                            ))
                        })?
                        .parse()
                        .map_err(|e| fail(format!("line {}: {e}", n + 1)))?,
                };
                boards.push(BoardTest::Pattern(board));
            }
            if boards.len() == before {
                return Err(fail("no position in the file".into()));
            }
        }
        if !boards.is_empty() {
            filter.reach.push(boards);
        }
        let mut materials = Vec::new();
        for m in &self.material {
            let m: Material = m.parse().map_err(|e| format!("--material: {e}"))?;
            materials.push(BoardTest::Material(m));
        }
        if !materials.is_empty() {
            filter.reach.push(materials);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> TagCriterion {
        s.parse().unwrap()
    }

    #[test]
    fn numbers_read_like_pgn_extract() {
        assert!(c("WhiteElo>=2700").holds(Some("2812:0")), "2812:0 is 2812");
        assert!(!c("WhiteElo>=2700").holds(Some("2699")));
        assert!(c("WhiteElo<2700").holds(Some("2699")));
        assert!(!c("WhiteElo<2700").holds(Some("")), "no number: no match");
        assert!(
            !c("WhiteElo!=2700").holds(Some("-")),
            "no number, even with !="
        );
        assert!(c("WhiteElo = 2700").holds(Some("2700")));
        assert!(c("WhiteElo!=2700").holds(Some("2701")));
        assert!(!c("WhiteElo>=2700").holds(None), "missing tag");
        assert!(c("Round<=3").holds(Some("3.1")));
        assert!("WhiteElo>=abc".parse::<TagCriterion>().is_err());
        assert!("WhiteElo>=".parse::<TagCriterion>().is_err());
        assert!("WhiteElo".parse::<TagCriterion>().is_err());
        assert!("=x".parse::<TagCriterion>().is_err());
    }

    #[test]
    fn dates_are_periods() {
        assert!(c("Date<2000").holds(Some("1999.12.31")));
        assert!(!c("Date<2000").holds(Some("2000.01.01")));
        assert!(c("Date<2000").holds(Some("1999.??.??")));
        assert!(!c("Date<2000").holds(Some("????.??.??")));
        assert!(
            c("Date>=2000.06").holds(Some("2000.??.??")),
            "can be in June"
        );
        assert!(c("Date=1962").holds(Some("1962.06.01")));
        assert!(c("Date!=1962").holds(Some("1963.01.01")));
        assert!(!c("Date!=1962").holds(Some("1962.??.??")));
        assert!(c("EventDate>1990").holds(Some("1991.01.01")));
        assert!("Date<twothousand".parse::<TagCriterion>().is_err());
        assert!(
            c("Date=*.06.*").holds(Some("1990.06.01")),
            "a glob stays text"
        );
    }

    #[test]
    fn text_is_loose_unless_exact() {
        assert!(c("Event=blitz").holds(Some("World Blitz 2019")));
        assert!(c("Event=*Blitz*").holds(Some("world blitz")));
        assert!(c("Event!=blitz").holds(Some("Rapid")));
        assert!(!c("Event!=blitz").holds(Some("Blitz")));
        let exact = parse("Event=Blitz", true).unwrap();
        assert!(exact.holds(Some("Blitz")) && !exact.holds(Some("blitz")));
        assert!(!exact.holds(Some("World Blitz")));
        assert!(c("Event=\"a b\"").holds(Some("xa by")));
        assert!("Event<blitz".parse::<TagCriterion>().is_err());
    }

    #[test]
    fn criteria_files_group_by_tag() {
        let file = "# players\nWhite \"Carlsen\"\nWhite \"Anand\"\n\nWhiteElo >= \"2700\"\n% x\nDate<2000\n";
        let groups = read_criteria(file, false).unwrap();
        let names: Vec<(&str, usize)> = groups
            .iter()
            .map(|g| (g[0].name.as_str(), g.len()))
            .collect();
        assert_eq!(names, [("White", 2), ("WhiteElo", 1), ("Date", 1)]);
        let err = read_criteria("White \"x\"\nWhiteElo >= \"high\"\n", false).unwrap_err();
        assert!(err.starts_with("line 2: "), "{err}");
    }
}
