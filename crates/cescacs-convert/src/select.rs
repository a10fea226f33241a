//! Selecting games: the filters of `cescacs select`, for every format.
//!
//! A [`Filter`] is a conjunction of conditions on a game's tags (name patterns,
//! players, result, Elo, date) and on its main line (length, a position it passes
//! through, checkmate or stalemate at its end, errors). Tag conditions are decided from
//! the tag section alone (the headers-only readers of `chess-pgn`, `xiangqi-pgn` and the
//! CTL-PGN scanner, with no replay), so a tag filter runs near the speed of cutting the
//! file into games; the game is read and replayed only when a condition needs its moves.
//!
//! [`Selection`] is the per-game function a batch run applies ([`Selection::select`]),
//! and [`SelectedWriter`] the writer that receives its outputs in input order: it drops
//! duplicates ([`Selection::dedupe`]), counts, and joins the selected games.
//!
//! ```
//! use cescacs_convert::{Filter, Format, raw_game};
//!
//! let mut filter = Filter::default();
//! filter.player = Some("Fischer*".parse().unwrap());
//! filter.min_plies = Some(4);
//! let game = raw_game(b"[White \"Fischer, R.\"]\n[Black \"Spassky\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n");
//! assert!(filter.matches(Format::Pgn, &game));
//! filter.max_plies = Some(3);
//! assert!(!filter.matches(Format::Pgn, &game));
//! ```

use crate::criteria::TagCriterion;
use crate::positions::{self, BoardPattern, BoardTest};
use crate::record::Game;
use crate::{Converter, Format, GameDiagnostic, GameOutcome, Options, RawGame, Record};
use std::collections::HashSet;
use std::hash::{BuildHasher, Hash, Hasher, RandomState};
use std::io::{self, Write};

/// A shell-style pattern: `*` any text, `?` one character, `[abc]`, `[a-z]`, `[!…]` one
/// character of (not of) a set, `\` takes the next character literally. Case-sensitive;
/// the whole value must match (`Carlsen*` for a prefix, `*Carlsen*` anywhere).
///
/// Matching costs O(value length × pattern length) at worst, never more: the pattern
/// is cut at its stars and each piece is found at its leftmost place, with no
/// backtracking over earlier pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    /// The pieces between stars; the first is anchored at the start unless the pattern
    /// starts with `*`, the last at the end unless it ends with `*`.
    pieces: Vec<Vec<Atom>>,
    stars: bool,
    /// Case-insensitive ([`Glob::loose`]): the value is lowercased before matching.
    fold: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom {
    Char(char),
    Any,
    Set(bool, Vec<(char, char)>),
}

impl Atom {
    fn accepts(&self, c: char) -> bool {
        match self {
            Atom::Char(x) => *x == c,
            Atom::Any => true,
            Atom::Set(negated, ranges) => {
                ranges.iter().any(|&(a, b)| (a..=b).contains(&c)) != *negated
            }
        }
    }

    /// The same atom matching lowercased text: its characters lowercased, a set
    /// widened by its ranges' lowercase ends (`[A-C]` also takes `a`–`c`).
    fn folded(self) -> Atom {
        let lower = |c: char| c.to_lowercase().next().unwrap_or(c);
        match self {
            Atom::Char(c) => Atom::Char(lower(c)),
            Atom::Any => Atom::Any,
            Atom::Set(negated, ranges) => {
                let mut all = ranges.clone();
                all.extend(ranges.iter().map(|&(a, b)| (lower(a), lower(b))));
                Atom::Set(negated, all)
            }
        }
    }
}

impl std::str::FromStr for Glob {
    type Err = String;

    fn from_str(pattern: &str) -> Result<Glob, String> {
        let mut pieces = vec![Vec::new()];
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            let atom = match c {
                '*' => {
                    pieces.push(Vec::new());
                    continue;
                }
                '?' => Atom::Any,
                '\\' => Atom::Char(chars.next().unwrap_or('\\')),
                '[' => {
                    let negated = chars.next_if(|&c| c == '!' || c == '^').is_some();
                    let mut ranges = Vec::new();
                    let mut first = true;
                    loop {
                        let Some(a) = chars.next() else {
                            return Err(format!(
                                "pattern {pattern:?}: expected ']', found the end"
                            ));
                        };
                        if a == ']' && !first {
                            break;
                        }
                        first = false;
                        // `a-z` is a range; a `-` before the closing `]` is itself.
                        let mut look = chars.clone();
                        let b = match (look.next(), look.next()) {
                            (Some('-'), Some(b)) if b != ']' => {
                                chars.nth(1);
                                b
                            }
                            _ => a,
                        };
                        ranges.push((a, b));
                    }
                    Atom::Set(negated, ranges)
                }
                c => Atom::Char(c),
            };
            pieces.last_mut().expect("never empty").push(atom);
        }
        Ok(Glob {
            stars: pieces.len() > 1,
            pieces,
            fold: false,
        })
    }
}

impl Glob {
    /// The matching of `select --player/--event/--site/--tag NAME=…` without `--exact`:
    /// case-insensitive, and a pattern with no `*`, `?` or `[` is found anywhere in the
    /// value (`carlsen` matches `Carlsen, Magnus`); one with them is a glob over the
    /// whole value, as [`Glob::from_str`](std::str::FromStr) reads it.
    pub fn loose(pattern: &str) -> Result<Glob, String> {
        let plain = !pattern.contains(['*', '?', '[', '\\']);
        let mut glob: Glob = pattern.parse()?;
        if plain {
            glob.pieces.insert(0, Vec::new());
            glob.pieces.push(Vec::new());
            glob.stars = true;
        }
        glob.pieces = glob
            .pieces
            .into_iter()
            .map(|p| p.into_iter().map(Atom::folded).collect())
            .collect();
        glob.fold = true;
        Ok(glob)
    }

    /// The whole value equal to `text`, case-sensitively, with no wildcard
    /// (`select --exact`).
    pub fn exact(text: &str) -> Glob {
        Glob {
            pieces: vec![text.chars().map(Atom::Char).collect()],
            stars: false,
            fold: false,
        }
    }

    /// Whether the whole of `value` matches.
    pub fn matches(&self, value: &str) -> bool {
        if value.is_ascii() {
            // Nearly every tag value: matched on its bytes (lowercased as read when
            // folding, as below), with no copy.
            let fold = self.fold;
            return self.matches_text(value.as_bytes(), |b| {
                char::from(if fold { b.to_ascii_lowercase() } else { b })
            });
        }
        // The characters go to a buffer the thread keeps: a filter matches every game.
        thread_local! {
            static TEXT: std::cell::Cell<Vec<char>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut text = TEXT.take();
        text.clear();
        for c in value.chars() {
            match c {
                c if !self.fold => text.push(c),
                c if c.is_ascii() => text.push(c.to_ascii_lowercase()),
                c => text.extend(c.to_lowercase()),
            }
        }
        let matched = self.matches_text(&text, |c| c);
        if text.capacity() <= 1 << 16 {
            TEXT.set(text);
        }
        matched
    }

    /// Whether the whole of `text` matches, each item read as the character `char_of`
    /// gives.
    fn matches_text<T: Copy>(&self, text: &[T], char_of: impl Fn(T) -> char) -> bool {
        let at = |piece: &[Atom], i: usize| {
            i + piece.len() <= text.len()
                && piece
                    .iter()
                    .zip(&text[i..])
                    .all(|(a, &c)| a.accepts(char_of(c)))
        };
        let first = &self.pieces[0];
        if !self.stars {
            return first.len() == text.len() && at(first, 0);
        }
        let last = self.pieces.last().expect("stars: two pieces at least");
        if !at(first, 0) || first.len() + last.len() > text.len() {
            return false;
        }
        let end = text.len() - last.len();
        if !at(last, end) {
            return false;
        }
        let mut from = first.len();
        for piece in &self.pieces[1..self.pieces.len() - 1] {
            match (from..=end.saturating_sub(piece.len())).find(|&i| at(piece, i)) {
                Some(i) if i + piece.len() <= end => from = i + piece.len(),
                _ => return false,
            }
        }
        true
    }
}

/// A PGN date bound, `YYYY`, `YYYY.MM` or `YYYY.MM.DD` (`-` also separates).
pub(crate) fn date_bound(s: &str, upper: bool) -> Result<u32, String> {
    let parts: Vec<&str> = s.split(['.', '-']).collect();
    let num = |i: usize, max: u32| -> Result<Option<u32>, String> {
        match parts.get(i) {
            None => Ok(None),
            Some(p) => match p.parse::<u32>() {
                Ok(n) if (i == 0 || (1..=max).contains(&n)) && p.len() <= 4 => Ok(Some(n)),
                _ => Err(format!("date {s:?}: expected YYYY, YYYY.MM or YYYY.MM.DD")),
            },
        }
    };
    if parts.len() > 3 {
        return Err(format!("date {s:?}: expected YYYY, YYYY.MM or YYYY.MM.DD"));
    }
    let year = num(0, 9999)?.unwrap_or(0);
    let fill = |n: Option<u32>, max| n.unwrap_or(if upper { max } else { 1 });
    Ok(year * 10_000 + fill(num(1, 12)?, 12) * 100 + fill(num(2, 31)?, 31))
}

/// The earliest and latest day a PGN `Date` value can mean (`1990.??.??` is all of
/// 1990); `None` when its year is unknown or the value is not a date.
pub(crate) fn date_span(value: &str) -> Option<(u32, u32)> {
    let mut parts = value.trim().split(['.', '-', '/']);
    let year: u32 = parts.next()?.parse().ok()?;
    let part = |p: Option<&str>, max: u32| match p.and_then(|p| p.parse::<u32>().ok()) {
        Some(n) if (1..=max).contains(&n) => (n, n),
        _ => (1, max),
    };
    let (m0, m1) = part(parts.next(), 12);
    let (d0, d1) = part(parts.next(), 31);
    Some((year * 10_000 + m0 * 100 + d0, year * 10_000 + m1 * 100 + d1))
}

/// A position the main line must pass through (`--position`), parsed for each game
/// it can be: a chess FEN, a xiangqi FEN, a C'escacs TLPD.
#[derive(Debug, Clone)]
pub struct Target {
    /// A board-only FEN: the placement alone, whatever the game.
    board: Option<BoardPattern>,
    chess: Option<chess_pgn::cozy_chess::Board>,
    xiangqi: Option<xiangqi::Position>,
    cescacs: Option<(u64, String)>,
}

impl std::str::FromStr for Target {
    type Err = String;

    fn from_str(s: &str) -> Result<Target, String> {
        let placement = s.trim();
        let board_only =
            !placement.contains(char::is_whitespace) && !placement.contains(['?', '!', '*', '[']);
        if board_only && let Ok(board) = placement.parse() {
            return Ok(Target {
                board: Some(board),
                chess: None,
                xiangqi: None,
                cescacs: None,
            });
        }
        let t = Target {
            board: None,
            chess: chess_pgn::cozy_chess::Board::from_fen(s.trim(), false)
                .or_else(|_| chess_pgn::cozy_chess::Board::from_fen(s.trim(), true))
                .ok(),
            xiangqi: xiangqi::Position::from_fen(s.trim()).ok(),
            cescacs: cescacs_tlpd::parse(s.trim())
                .ok()
                .map(|p| (p.zobrist(), tlpd_identity(&p))),
        };
        match (&t.chess, &t.xiangqi, &t.cescacs) {
            (None, None, None) => Err(format!(
                "position {s:?}: not a chess FEN, a xiangqi FEN or a C'escacs TLPD"
            )),
            _ => Ok(t),
        }
    }
}

/// A C'escacs position's TLPD without its two move counters.
fn tlpd_identity(p: &cescacs_rules::Position) -> String {
    let t = cescacs_tlpd::write(p);
    let mut fields: Vec<&str> = t.split(' ').collect();
    fields.truncate(fields.len().saturating_sub(2));
    fields.join(" ")
}

/// What `cescacs select` keeps: every condition set must hold (a conjunction). An
/// empty filter keeps every game.
///
/// Tags are looked up by exact name, then case-insensitively. A condition on a tag the
/// game does not have fails (even `*`).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// `--tag NAME=PATTERN`: each named tag's value matches its pattern.
    pub tags: Vec<(String, Glob)>,
    /// `--player`: the `White`, `Black` or `Red` tag matches (either side).
    pub player: Option<Glob>,
    /// `--result`: the `Result` tag is this (`1/2` stands for `1/2-1/2`).
    pub result: Option<String>,
    /// `--min-elo`: at least one player's Elo tag (`WhiteElo`, `BlackElo`, `RedElo`)
    /// is at least this (pgn-extract's `Elo >= N`).
    pub min_elo: Option<u32>,
    /// `--max-elo`: at least one player's Elo tag is at most this.
    pub max_elo: Option<u32>,
    /// `--date-from` (as `YYYYMMDD`): the `Date` tag can be on or after this day
    /// (`1990.??.??` can be any day of 1990); an unknown year never matches.
    pub date_from: Option<u32>,
    /// `--date-to` (as `YYYYMMDD`): the `Date` tag can be on or before this day.
    pub date_to: Option<u32>,
    /// `--min-plies`: the main line has at least this many half-moves.
    pub min_plies: Option<usize>,
    /// `--max-plies`: the main line has at most this many half-moves.
    pub max_plies: Option<usize>,
    /// `--position`: the main line passes through this position (its start included),
    /// compared by Zobrist key and then by the whole position (move counters aside).
    pub position: Option<Target>,
    /// `--mate`: the main line ends in checkmate.
    pub mate: bool,
    /// `--stalemate`: the main line ends in stalemate.
    pub stalemate: bool,
    /// `--invalid`: only games with an error (what `cescacs check` reports bad).
    pub invalid: bool,
    /// Tag criteria with operators (`--tag 'WhiteElo>=2700'`, `--event`, `--site`, a
    /// `--criteria` file), in groups: a group holds when any of its criteria does.
    pub criteria: Vec<Vec<TagCriterion>>,
    /// `--any`: the tag conditions (every `tags` entry, `player`, `result`, the Elo
    /// bounds, the date range, every criteria group) are joined by OR instead of AND;
    /// conditions on moves still must hold.
    pub any: bool,
    /// Board conditions (`--fen-pattern`, `--positions`, `--material`), in groups: the
    /// main line must reach, for every group, a position passing one of its tests.
    pub reach: Vec<Vec<BoardTest>>,
}

/// The answer for one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The game is selected.
    Selected,
    /// The game is not selected.
    Rejected,
    /// A condition needed the moves and the game could not be read: its diagnostics.
    Bad(Vec<GameDiagnostic>),
}

impl Filter {
    /// Parses a `--date-from` (`upper` false) or `--date-to` (`upper` true) value,
    /// `YYYY`, `YYYY.MM` or `YYYY.MM.DD`, as `YYYYMMDD`: a missing month or day is the
    /// first of the period for `from`, the last for `to`.
    pub fn date(value: &str, upper: bool) -> Result<u32, String> {
        date_bound(value, upper)
    }

    /// Whether some condition needs the game's moves (a replay), not only its tags.
    pub fn needs_moves(&self) -> bool {
        self.min_plies.is_some()
            || self.max_plies.is_some()
            || self.position.is_some()
            || self.mate
            || self.stalemate
            || self.invalid
            || !self.reach.is_empty()
    }

    fn has_tag_conditions(&self) -> bool {
        !self.tags.is_empty()
            || self.player.is_some()
            || self.result.is_some()
            || self.min_elo.is_some()
            || self.max_elo.is_some()
            || self.date_from.is_some()
            || self.date_to.is_some()
            || !self.criteria.is_empty()
    }

    /// Whether tags (name, value pairs in record order) pass the tag conditions.
    pub fn matches_tags<'a>(&self, tags: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> bool {
        // The first tag of that name, else the first of that name in another case: in
        // one pass over the tags.
        let tag = |name: &str| {
            let mut loose = None;
            for (n, v) in tags.clone() {
                if n == name {
                    return Some(v);
                }
                if loose.is_none() && n.eq_ignore_ascii_case(name) {
                    loose = Some(v);
                }
            }
            loose
        };
        // Each condition set, decided; `--any` wants one of them, else all. Counted,
        // not kept: the filter runs on every game.
        let (mut passed, mut failed) = (0, 0);
        let mut decided = |pass: bool| {
            if pass {
                passed += 1;
            } else {
                failed += 1;
            }
        };
        for (name, glob) in &self.tags {
            decided(tag(name).is_some_and(|v| glob.matches(v)));
        }
        if let Some(g) = &self.player {
            decided(
                ["White", "Black", "Red"]
                    .iter()
                    .any(|side| tag(side).is_some_and(|v| g.matches(v))),
            );
        }
        if let Some(want) = self.result.as_deref() {
            let want = if want == "1/2" { "1/2-1/2" } else { want };
            decided(tag("Result").is_some_and(|r| r.trim() == want));
        }
        if self.min_elo.is_some() || self.max_elo.is_some() {
            let elos: Vec<u32> = ["WhiteElo", "BlackElo", "RedElo"]
                .iter()
                .filter_map(|n| tag(n)?.trim().parse().ok())
                .collect();
            decided(
                self.min_elo.is_none_or(|m| elos.iter().any(|&e| e >= m))
                    && self.max_elo.is_none_or(|m| elos.iter().any(|&e| e <= m)),
            );
        }
        if self.date_from.is_some() || self.date_to.is_some() {
            decided(
                tag("Date")
                    .and_then(date_span)
                    .is_some_and(|(first, last)| {
                        self.date_from.is_none_or(|f| last >= f)
                            && self.date_to.is_none_or(|t| first <= t)
                    }),
            );
        }
        for group in &self.criteria {
            decided(group.iter().any(|c| c.holds(tag(&c.name))));
        }
        if self.any {
            passed + failed == 0 || passed > 0
        } else {
            failed == 0
        }
    }

    /// Whether the tags of a game's tag section pass the tag conditions, or `None`
    /// when they cannot be had without reading the whole game (see [`headers`]).
    fn tag_section_passes(&self, format: Format, game: &RawGame) -> Option<bool> {
        match format {
            Format::Pgn => with_pgn_headers(game, |h| self.matches_tags(h.tags())),
            _ => headers(format, game)
                .map(|tags| self.matches_tags(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())))),
        }
    }

    /// Whether a game read and replayed passes the conditions on its moves (tag
    /// conditions are checked on [`Record::tags`] too). A record with errors passes
    /// only [`Filter::invalid`].
    pub fn matches_record(&self, record: &Record) -> bool {
        if record.has_errors() != self.invalid {
            return false;
        }
        let tags = record.tags();
        if self.has_tag_conditions()
            && !self.matches_tags(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        {
            return false;
        }
        if self.invalid {
            return true;
        }
        self.matches_moves(record)
    }

    fn matches_moves(&self, record: &Record) -> bool {
        let plies = record.plies();
        self.min_plies.is_none_or(|m| plies >= m)
            && self.max_plies.is_none_or(|m| plies <= m)
            && (!self.mate || record.is_checkmate() == Some(true))
            && (!self.stalemate || record.is_stalemate() == Some(true))
            && self
                .position
                .as_ref()
                .is_none_or(|t| record.game().is_some_and(|g| passes_through(g, t)))
            && self
                .reach
                .iter()
                .all(|group| record.game().is_some_and(|g| positions::reaches(g, group)))
    }

    /// Whether one game of `format` (as cut by the splitter) is selected; a game that
    /// cannot be read counts as not selected unless the filter asks for invalid games
    /// (see [`Filter::verdict`] for its diagnostics).
    pub fn matches(&self, format: Format, game: &RawGame) -> bool {
        self.verdict(format, game, &Options::default()) == Verdict::Selected
    }

    /// The verdict on one game: tag conditions from the tag section alone; the game is
    /// read and replayed only when a condition needs its moves.
    pub fn verdict(&self, format: Format, game: &RawGame, options: &Options) -> Verdict {
        self.evaluate(format, game, options, false).0
    }

    /// The verdict, and the record when one was read (always when `read` is set and
    /// the game is selected).
    fn evaluate(
        &self,
        format: Format,
        game: &RawGame,
        options: &Options,
        read: bool,
    ) -> (Verdict, Option<Vec<Record>>) {
        let mut tags_decided = !self.has_tag_conditions();
        if !tags_decided && let Some(pass) = self.tag_section_passes(format, game) {
            if !pass {
                return (Verdict::Rejected, None);
            }
            tags_decided = true;
        }
        // Without a tag section (PCN, a damaged one) the record decides, after a read.
        let read = read || !tags_decided;
        if !self.needs_moves() && !read {
            return (Verdict::Selected, None);
        }
        let records = Record::read_all_with(format, game, options);
        let bad = records.iter().any(Record::has_errors);
        if bad && !self.invalid {
            let diagnostics = records.iter().flat_map(|r| r.diagnostics().to_vec());
            return (Verdict::Bad(diagnostics.collect()), Some(records));
        }
        let tags_match = |r: &Record| {
            let tags = r.tags();
            tags_decided || self.matches_tags(tags.iter().map(|(n, v)| (n.as_str(), v.as_str())))
        };
        let selected = if self.invalid {
            bad && records.iter().any(tags_match)
        } else {
            records
                .iter()
                .any(|r| tags_match(r) && self.matches_moves(r))
        };
        let verdict = if selected {
            Verdict::Selected
        } else {
            Verdict::Rejected
        };
        (verdict, Some(records))
    }
}

/// The tags of a game from its tag section alone (no movetext read, no replay), or
/// `None` when they cannot be had without reading the whole game (PCN, a damaged tag
/// section, a game the splitter flagged): the headers-only read of `cescacs select`
/// and of the Python package's `read_headers`.
pub fn headers(format: Format, game: &RawGame) -> Option<Vec<(String, String)>> {
    if game.problem.is_some() {
        return None;
    }
    match format {
        Format::Pgn => with_pgn_headers(game, |h| {
            h.tags()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect()
        }),
        Format::XiangqiPgn => {
            let (text, _) = xiangqi_pgn::decode(tag_section(&game.bytes));
            let h = xiangqi_pgn::read_headers(&text, "").next()?;
            h.error.is_none().then_some(h.tags)
        }
        Format::CtlPgn => {
            let text = std::str::from_utf8(tag_section(&game.bytes)).ok()?;
            let g = ctl_pgn::read_game(text).ok()?;
            Some(g.tags.into_iter().map(|t| (t.name, t.value)).collect())
        }
        Format::Pcn | Format::XiangqiXml => None,
    }
}

/// `f` of the tags of a classic PGN game, read from its tag section alone into
/// headers the thread keeps from one game to the next: a tag filter allocates nothing
/// per game. `None` when the tag section cannot be read.
///
/// A section in the plain form (nearly every one) is scanned by
/// `GameHeaders::read_plain`, with no reader; any other (no tag at all, a repeated
/// name, a `%` line, a line break in a value, ...) is read by the reader, on the tag
/// section alone (`GameHeaders::read_first`): the tags are the reader's either way.
fn with_pgn_headers<T>(game: &RawGame, f: impl FnOnce(&chess_pgn::GameHeaders) -> T) -> Option<T> {
    thread_local! {
        static HEADERS: std::cell::RefCell<chess_pgn::GameHeaders> =
            std::cell::RefCell::new(chess_pgn::GameHeaders::default());
    }
    if game.problem.is_some() {
        return None;
    }
    HEADERS.with_borrow_mut(|h| {
        // The reader refuses a token over `MAX_TOKEN` bytes, which the scan would take.
        let plain =
            game.bytes.len() <= chess_pgn::MAX_TOKEN && h.read_plain(&game.bytes) && !h.is_empty();
        let read = plain || matches!(h.read_first(tag_section(&game.bytes)), Ok(true));
        let out = read.then(|| f(h));
        // A huge game's tag text is not kept for the games after it.
        if game.bytes.len() > 1 << 20 {
            *h = chess_pgn::GameHeaders::default();
        }
        out
    })
}

/// Same placement, side to move and castling rights, by Zobrist key first. The en
/// passant square is left out: a FEN names it after every double step or only when a
/// capture is possible, depending on who wrote it.
fn same_chess_position(a: &chess_pgn::cozy_chess::Board, b: &chess_pgn::cozy_chess::Board) -> bool {
    use chess_pgn::cozy_chess::{Color, Piece};
    a.hash_without_ep() == b.hash_without_ep()
        && a.side_to_move() == b.side_to_move()
        && Piece::ALL.iter().all(|&p| a.pieces(p) == b.pieces(p))
        && Color::ALL
            .iter()
            .all(|&c| a.colors(c) == b.colors(c) && a.castle_rights(c) == b.castle_rights(c))
}

/// The game's bytes up to its first line that is neither a tag, blank nor a `%` escape:
/// the headers-only readers then never see the movetext, whatever its length. (A tag
/// line is recognised by its opening bracket only; the reader parses it.)
pub(crate) fn tag_section(bytes: &[u8]) -> &[u8] {
    let mut at = 0;
    while at < bytes.len() {
        // Lines found with memchr: a byte-by-byte split cost 15 % of `read_headers`.
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        let line = &bytes[at..end];
        let body = line
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(line)
            .trim_ascii_start();
        if !(body.is_empty() || body.starts_with(b"[") || body.starts_with(b"%")) {
            break;
        }
        at = end;
    }
    &bytes[..at]
}

/// Whether the main line (its start included) reaches the target position.
fn passes_through(game: &Game, target: &Target) -> bool {
    if let Some(board) = &target.board {
        return positions::reaches(game, &[BoardTest::Pattern(board.clone())]);
    }
    match game {
        Game::Chess(g) => {
            let Some(t) = &target.chess else { return false };
            let hit = |b: &chess_pgn::cozy_chess::Board| same_chess_position(b, t);
            let mut board = g.start.clone();
            if hit(&board) {
                return true;
            }
            for node in &g.moves.moves {
                match node.mv {
                    Some(m) => board.play_unchecked(m),
                    None => match board.null_move() {
                        Some(b) => board = b,
                        None => return false,
                    },
                }
                if hit(&board) {
                    return true;
                }
            }
            false
        }
        Game::Xiangqi(g) => {
            let Some(t) = &target.xiangqi else {
                return false;
            };
            // No Zobrist key here: the side and both generals first, the men after.
            let hit = |p: &xiangqi::Position| {
                p.side_to_move() == t.side_to_move()
                    && [xiangqi::Side::Red, xiangqi::Side::Black]
                        .iter()
                        .all(|&s| p.general(s) == t.general(s))
                    && xiangqi::Square::all().all(|sq| p.piece_at(sq) == t.piece_at(sq))
            };
            let mut p = g.start.clone();
            if hit(&p) {
                return true;
            }
            g.line.moves.iter().any(|m| {
                p.play(m.mv);
                hit(&p)
            })
        }
        Game::Cescacs { record, .. } => {
            let Some((key, identity)) = &target.cescacs else {
                return false;
            };
            let hit =
                |p: &cescacs_rules::Position| p.zobrist() == *key && tlpd_identity(p) == *identity;
            let Ok(mut plies) = record.plies() else {
                return false;
            };
            if hit(plies.position()) {
                return true;
            }
            while let Some(Ok(_)) = plies.next() {
                if hit(plies.position()) {
                    return true;
                }
            }
            false
        }
        Game::Pcn(_) => false,
    }
}

/// The identity of a game for `--dedupe`: its start position and main-line moves,
/// hashed to 128 bits by two SipHash functions keyed at random for the run (so no input
/// can be built to collide on purpose).
fn game_key(records: &[Record], keys: &(RandomState, RandomState)) -> u128 {
    let (mut a, mut b) = (keys.0.build_hasher(), keys.1.build_hasher());
    let mut feed = |part: &str| {
        part.hash(&mut a);
        part.hash(&mut b);
    };
    for record in records {
        match record.game() {
            Some(Game::Chess(g)) => {
                feed("chess");
                feed(&g.start.to_string());
                for node in &g.moves.moves {
                    feed(&node.mv.map_or("--".to_string(), |m| m.to_string()));
                }
            }
            Some(Game::Xiangqi(g)) => {
                feed("xiangqi");
                feed(&g.start.to_fen());
                g.line.moves.iter().for_each(|m| feed(&m.mv.to_iccs()));
            }
            Some(Game::Cescacs { record: r, .. }) => {
                feed("cescacs");
                feed(r.start_tlpd().unwrap_or(""));
                record.main_line().iter().for_each(|m| feed(m));
            }
            Some(Game::Pcn(_)) | None => {
                feed("pcn");
                record.main_line().iter().for_each(|m| feed(m));
            }
        }
    }
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// The settings of a [`Selection`] beyond its filter: an opening range, games given
/// for `--rejected`, groups for a split output (see the builders of the same names).
#[derive(Debug, Clone, Default)]
pub struct SelectionExtras {
    /// [`Selection::eco`].
    pub eco: Option<crate::EcoRange>,
    /// [`Selection::rejected`].
    pub rejected: bool,
    /// [`Selection::split_by`].
    pub split_by: Option<SplitBy>,
}

/// What a split output's files are made by (`--split-by`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitBy {
    /// A tag's value (name looked up exactly, then case-insensitively).
    Tag(String),
    /// The ECO code of the game's opening, by position.
    Eco,
}

impl std::str::FromStr for SplitBy {
    type Err = String;

    fn from_str(s: &str) -> Result<SplitBy, String> {
        match s {
            "eco" => Ok(SplitBy::Eco),
            "" => Err("--split-by: expected a tag name or eco".into()),
            tag if tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                Ok(SplitBy::Tag(tag.to_string()))
            }
            tag => Err(format!(
                "--split-by {tag:?}: expected a tag name (letters, digits, _) or eco"
            )),
        }
    }
}

/// The per-game function of `cescacs select` for one input format: the filter, the
/// optional conversion of the selected games, and the key for dropping duplicates.
///
/// Its outputs are meant for a [`SelectedWriter`], which alone knows the input order:
/// each selected game's output is a small frame (length, key, bytes) that the writer
/// unpacks; a game not selected has no output.
#[derive(Debug)]
pub struct Selection {
    filter: Filter,
    from: Format,
    converter: Option<Converter>,
    dedupe: bool,
    eco: Option<crate::EcoRange>,
    rejected: bool,
    split_by: Option<SplitBy>,
    options: Options,
    keys: (RandomState, RandomState),
}

impl Selection {
    /// A selection of games of `from`, written byte for byte, or converted to `to`
    /// with `options`. `keys` come from [`SelectedWriter::keys`] so that every group of
    /// a run hashes alike.
    pub fn new(
        filter: Filter,
        from: Format,
        to: Option<Format>,
        options: Options,
        keys: (RandomState, RandomState),
    ) -> Result<Selection, crate::ConvertError> {
        // PCN copied as it was has no tag lines to edit: tags asked for are set on the
        // model and the document written again.
        let to = match to {
            None if from == Format::Pcn && !options.annotate.is_empty() => Some(Format::Pcn),
            // A layout is the writer's: the games are written again from their model
            // (not for options the writer has no place for: those are ignored).
            None if options.layout.applies_to(from) => Some(from),
            to => to,
        };
        let converter = match to {
            Some(to) => Some(Converter::new(from, Some(to), options.clone())?),
            None => {
                Converter::new(from, None, options.clone())?;
                None
            }
        };
        Ok(Selection {
            filter,
            from,
            converter,
            dedupe: false,
            eco: None,
            rejected: false,
            split_by: None,
            options,
            keys,
        })
    }

    /// Drops every game whose start position and main-line moves equal those of an
    /// earlier game (in input order, across every input of the run): the first stays.
    pub fn dedupe(mut self, on: bool) -> Selection {
        self.dedupe = on;
        self
    }

    /// Keeps only the chess games whose opening ([`crate::game_opening`], by position)
    /// has an ECO code in `range`; a game the table does not name, or not a chess
    /// game, is not selected.
    pub fn eco(mut self, range: Option<crate::EcoRange>) -> Selection {
        self.eco = range;
        self
    }

    /// Gives games not selected, and bad ones, an output too, as they were (for
    /// [`SelectedWriter::rejected_to`]); a bad game's output then needs a run that
    /// writes bad games' outputs (`cescacs_batch::Options::bad_output`).
    pub fn rejected(mut self, on: bool) -> Selection {
        self.rejected = on;
        self
    }

    /// Gives each selected game its group for a split output by value
    /// ([`SelectedWriter::split_into`]): a tag's value, or the ECO code of its opening
    /// (by position, [`crate::game_opening`]); empty when the game has no such tag or
    /// no opening.
    pub fn split_by(mut self, by: Option<SplitBy>) -> Selection {
        self.split_by = by;
        self
    }

    fn group(&self, game: &RawGame, records: Option<&Vec<Record>>) -> String {
        let first = records.and_then(|r| r.first());
        match &self.split_by {
            None => String::new(),
            Some(SplitBy::Eco) => first
                .and_then(crate::record_opening)
                .map_or(String::new(), |o| o.eco.to_string()),
            Some(SplitBy::Tag(name)) => {
                let tags = headers(self.from, game).or_else(|| first.map(Record::tags));
                let tags = tags.unwrap_or_default();
                tags.iter()
                    .find(|(n, _)| n == name)
                    .or_else(|| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)))
                    .map_or(String::new(), |(_, v)| v.trim().to_string())
            }
        }
    }

    /// Decides on one game and gives its output frame (empty when not selected).
    /// Never panics, whatever the bytes.
    pub fn select(&self, game: &RawGame) -> GameOutcome {
        let annotate = !self.options.annotate.is_empty() && !self.filter.invalid;
        let read =
            self.dedupe || self.eco.is_some() || annotate || self.split_by == Some(SplitBy::Eco);
        let (mut verdict, records) = self.filter.evaluate(self.from, game, &self.options, read);
        if let (Verdict::Selected, Some(range)) = (&verdict, &self.eco) {
            let named = records
                .iter()
                .flatten()
                .any(|r| crate::record_opening(r).is_some_and(|o| range.contains(o.eco)));
            if !named {
                verdict = Verdict::Rejected;
            }
        }
        let rejected = || match (self.rejected, self.from) {
            (true, Format::Pcn) => framed(Kind::Rejected, None, "", game.bytes.trim_ascii_end()),
            (true, _) => framed(Kind::Rejected, None, "", &game.bytes),
            (false, _) => Vec::new(),
        };
        match verdict {
            Verdict::Rejected => GameOutcome::output(rejected()),
            Verdict::Bad(diagnostics) => GameOutcome {
                output: rejected(),
                diagnostics,
            },
            Verdict::Selected => {
                let key = match (&records, self.dedupe) {
                    (Some(r), true) => Some(game_key(r, &self.keys)),
                    _ => None,
                };
                let mut outcome = match (&self.converter, &records) {
                    (Some(c), _) if !self.filter.invalid => c.convert(game),
                    (_, Some(r)) if annotate && r.len() == 1 => {
                        let tags = self.options.annotate.tags(&r[0]);
                        GameOutcome {
                            output: crate::set_tag_lines(&game.bytes, &tags),
                            diagnostics: self.options.annotate.warnings(&r[0]),
                        }
                    }
                    _ => GameOutcome::output(game.bytes.clone()),
                };
                if !outcome.is_bad() {
                    if self.from == Format::Pcn && self.converter.is_none() {
                        let end = outcome.output.trim_ascii_end().len();
                        outcome.output.truncate(end);
                    }
                    let group = self.group(game, records.as_ref());
                    outcome.output = framed(Kind::Selected, key, &group, &outcome.output);
                } else {
                    outcome.output = rejected();
                }
                outcome
            }
        }
    }
}

const FRAME_HEAD: usize = 8 + 1 + 16 + 2;

/// What a frame holds: a game selected, or (for `--rejected`) one not selected or bad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Selected = 0,
    Rejected = 1,
}

#[cfg(test)]
fn frame(key: Option<u128>, body: &[u8]) -> Vec<u8> {
    framed(Kind::Selected, key, "", body)
}

/// A game's frame: body length, flags (key present, kind), key, group length, group
/// (the file of a split output), body.
fn framed(kind: Kind, key: Option<u128>, group: &str, body: &[u8]) -> Vec<u8> {
    // A group name is a tag value or an ECO code: cut at 255 bytes, on a character.
    let mut cut = group.len().min(255);
    while !group.is_char_boundary(cut) {
        cut -= 1;
    }
    let group = &group[..cut];
    let mut out = Vec::with_capacity(FRAME_HEAD + group.len() + body.len());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.push(u8::from(key.is_some()) | (kind as u8) << 1);
    out.extend_from_slice(&key.unwrap_or(0).to_le_bytes());
    out.extend_from_slice(&(group.len() as u16).to_le_bytes());
    out.extend_from_slice(group.as_bytes());
    out.extend_from_slice(body);
    out
}

/// Where the games written to one output stand: joined by `separator`, or, for
/// PGN-like text (`separator` `None`), each after a blank line when the game before
/// it did not end with one, so that a whole input comes out as it was.
#[derive(Debug, Clone, Copy)]
struct Joining {
    written: bool,
    tail: [u8; 2],
    games: usize,
}

impl Joining {
    const NEW: Joining = Joining {
        written: false,
        tail: *b"\n\n",
        games: 0,
    };

    fn game(
        &mut self,
        out: &mut dyn Write,
        separator: Option<&[u8]>,
        body: &[u8],
    ) -> io::Result<()> {
        self.games += 1;
        match separator {
            Some(s) if self.written => out.write_all(s)?,
            None if self.written => {
                let missing = match self.tail {
                    [_, b'\n'] if body.starts_with(b"\n") || body.starts_with(b"\r\n") => 0,
                    [b'\n', b'\n'] => 0,
                    [_, b'\n'] => 1,
                    _ => 2,
                };
                out.write_all(&b"\n\n"[..missing])?;
            }
            _ => {}
        }
        self.written = true;
        if let [.., a, b] = body {
            self.tail = [*a, *b];
        } else if let [b] = body {
            self.tail = [self.tail[1], *b];
        }
        // `\r\n\r\n` ends in `\n`, `\r\n` after a `\n`: both count as a blank line.
        if self.tail == *b"\r\n" && body.ends_with(b"\n\r\n") {
            self.tail = *b"\n\n";
        }
        out.write_all(body)
    }
}

/// One output and where its games stand.
struct Joined<W> {
    inner: W,
    state: Joining,
}

impl<W: Write> Joined<W> {
    fn new(inner: W) -> Joined<W> {
        Joined {
            inner,
            state: Joining::NEW,
        }
    }

    fn game(&mut self, separator: Option<&[u8]>, body: &[u8]) -> io::Result<()> {
        self.state.game(&mut self.inner, separator, body)
    }
}

/// A second output of a run (`--duplicates`, `--rejected`).
type SideOutput<'a> = Option<Joined<Box<dyn Write + 'a>>>;

/// Receives a [`Selection`]'s outputs in input order (it is the batch run's sink),
/// drops duplicates, and writes the selected games to `inner`: joined by `separator`,
/// or, for PGN-like text (`separator` `None`), each after a blank line when the game
/// before it did not end with one, so that a whole input selected comes out as it was.
/// Duplicates dropped go to [`SelectedWriter::duplicates_to`], games not selected (or
/// bad) to [`SelectedWriter::rejected_to`] when those are set, joined alike; with
/// [`SelectedWriter::split_into`] the selected games go to the files of a split output
/// instead of `inner`.
///
/// Memory: one 16-byte key per distinct game kept with `--dedupe` (about 40 bytes with
/// the set's overhead), nothing per game otherwise.
pub struct SelectedWriter<'a, W> {
    selected: Joined<W>,
    separator: Option<Vec<u8>>,
    split: Option<(cescacs_batch::SplitOutput, Vec<Joining>, bool)>,
    duplicates_out: SideOutput<'a>,
    rejected_out: SideOutput<'a>,
    pending: Vec<u8>,
    seen: HashSet<u128>,
    keys: (RandomState, RandomState),
    limit: Option<usize>,
    stopped: bool,
    stop_run: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Games the filter selected.
    pub matched: usize,
    /// Of those, games dropped as duplicates.
    pub duplicates: usize,
}

impl<'a, W: Write> SelectedWriter<'a, W> {
    /// A writer into `inner` (see the type's documentation for `separator`).
    pub fn new(inner: W, separator: Option<Vec<u8>>) -> SelectedWriter<'a, W> {
        SelectedWriter {
            selected: Joined::new(inner),
            separator,
            split: None,
            duplicates_out: None,
            rejected_out: None,
            pending: Vec::new(),
            seen: HashSet::new(),
            keys: (RandomState::new(), RandomState::new()),
            limit: None,
            stopped: false,
            stop_run: None,
            matched: 0,
            duplicates: 0,
        }
    }

    /// Writes the selected games into the files of `out` instead of `inner`; `by_value`
    /// when the run's [`Selection`]s give each game a group ([`Selection::split_by`]).
    pub fn split_into(&mut self, out: cescacs_batch::SplitOutput, by_value: bool) {
        self.split = Some((out, Vec::new(), by_value));
    }

    /// The split output, to commit with the run ([`cescacs_batch::SplitOutput::into_sinks`]).
    pub fn take_split(&mut self) -> Option<cescacs_batch::SplitOutput> {
        self.split.take().map(|(s, _, _)| s)
    }

    /// Writes nothing more once `n` games are kept (`--stop-after`): the games after
    /// them, selected or not, go to no output (pgn-extract's `--stopafter`).
    pub fn stop_after(&mut self, n: Option<usize>) {
        self.limit = n;
    }

    /// Raises `flag` as soon as the limit of [`SelectedWriter::stop_after`] is reached
    /// (`cescacs_batch::Session::enough_flag`): the run then reads no further, so
    /// that games after the limit, bad or not, are neither read nor reported.
    pub fn stop_run(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        if self.limit == Some(0) {
            // Nothing is to be written: nothing to read.
            self.stopped = true;
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.stop_run = Some(flag);
    }

    /// Whether the limit of [`SelectedWriter::stop_after`] was reached: with
    /// [`SelectedWriter::stop_run`], as soon as the last game was written (the run
    /// stopped there); else when a game came after it.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Writes the duplicates dropped to `out` (joined like the selected games).
    pub fn duplicates_to(&mut self, out: Box<dyn Write + 'a>) {
        self.duplicates_out = Some(Joined::new(out));
    }

    /// Writes the games not selected, and the bad ones, to `out`; the run's
    /// [`Selection`]s must give them ([`Selection::rejected`]).
    pub fn rejected_to(&mut self, out: Box<dyn Write + 'a>) {
        self.rejected_out = Some(Joined::new(out));
    }

    /// The run's hash keys, for every [`Selection`] of the run.
    pub fn keys(&self) -> (RandomState, RandomState) {
        self.keys.clone()
    }

    /// Games written.
    pub fn kept(&self) -> usize {
        self.matched - self.duplicates
    }

    /// Games written to the rejected output.
    pub fn rejected(&self) -> usize {
        self.rejected_out.as_ref().map_or(0, |j| j.state.games)
    }

    /// Flushes every output.
    pub fn flush_all(&mut self) -> io::Result<()> {
        for side in [&mut self.duplicates_out, &mut self.rejected_out]
            .into_iter()
            .flatten()
        {
            side.inner.flush()?;
        }
        self.selected.inner.flush()
    }

    fn game(&mut self, kind: Kind, key: Option<u128>, group: &str, body: &[u8]) -> io::Result<()> {
        let separator = self.separator.as_deref();
        if self.limit.is_some_and(|n| self.kept() >= n) {
            self.stopped = true;
            return Ok(());
        }
        if kind == Kind::Rejected {
            return match &mut self.rejected_out {
                Some(out) => out.game(separator, body),
                None => Ok(()),
            };
        }
        self.matched += 1;
        if let Some(k) = key
            && !self.seen.insert(k)
        {
            self.duplicates += 1;
            return match &mut self.duplicates_out {
                Some(out) => out.game(separator, body),
                None => Ok(()),
            };
        }
        match &mut self.split {
            Some((out, states, by_value)) => {
                let (index, _) = out.next_game(by_value.then_some(group))?;
                if states.len() <= index {
                    states.resize(index + 1, Joining::NEW);
                }
                states[index].game(out.file(index), separator, body)?;
            }
            None => self.selected.game(separator, body)?,
        }
        if let Some(flag) = &self.stop_run
            && self.limit.is_some_and(|n| self.kept() >= n)
        {
            self.stopped = true;
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(())
    }
}

impl<W: Write> Write for SelectedWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while self.pending.len() >= FRAME_HEAD {
            let len = u64::from_le_bytes(self.pending[..8].try_into().expect("8 bytes")) as usize;
            let group_len =
                u16::from_le_bytes(self.pending[25..FRAME_HEAD].try_into().expect("2 bytes"))
                    as usize;
            let start = FRAME_HEAD + group_len;
            if self.pending.len() < start + len {
                break;
            }
            let flags = self.pending[8];
            let key = (flags & 1 == 1)
                .then(|| u128::from_le_bytes(self.pending[9..25].try_into().expect("16 bytes")));
            let kind = if flags >> 1 == 1 {
                Kind::Rejected
            } else {
                Kind::Selected
            };
            let group = String::from_utf8_lossy(&self.pending[FRAME_HEAD..start]).into_owned();
            let body = self.pending[start..start + len].to_vec();
            self.pending.drain(..start + len);
            self.game(kind, key, &group, &body)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.selected.inner.flush()
    }
}

#[cfg(test)]
#[allow(clippy::field_reassign_with_default)] // filters built up condition by condition
mod tests {
    use super::*;

    fn glob(p: &str) -> Glob {
        p.parse().unwrap()
    }

    #[test]
    fn globs() {
        assert!(glob("Carlsen*").matches("Carlsen, Magnus"));
        assert!(!glob("Carlsen*").matches("Magnus Carlsen"));
        assert!(glob("*Carlsen*").matches("Magnus Carlsen"));
        assert!(glob("a*b*c").matches("aXbYbc") && !glob("a*b*c").matches("acb"));
        assert!(glob("a?c").matches("abc") && !glob("a?c").matches("ac"));
        assert!(glob("[A-C]x").matches("Bx") && !glob("[!A-C]x").matches("Bx"));
        assert!(glob("*").matches("") && glob("").matches("") && !glob("").matches("x"));
        assert!(!glob("ab*ab").matches("ab") && glob("ab*ab").matches("abab"));
        assert!(glob("\\*").matches("*") && !glob("\\*").matches("x"));
        assert!(glob("[a-]").matches("-") && glob("[]]").matches("]"));
        assert!("[ab".parse::<Glob>().is_err());
        // Long hostile value: linear per piece, no blow-up.
        let long = "a".repeat(100_000);
        assert!(!glob("*a*a*a*b").matches(&long));
    }

    #[test]
    fn the_tag_section_stops_at_the_movetext() {
        let g = b"\xEF\xBB\xBF[A \"1\"]\r\n% escape\n\n[B \"]\"]\n\n1. e4 [not a tag] *\n";
        let moves = g.windows(5).position(|w| w == b"1. e4").unwrap();
        assert_eq!(tag_section(g), &g[..moves]);
        assert_eq!(tag_section(b"1. e4 *"), b"");
    }

    /// The tags a tag filter reads are the reader's on the tag section
    /// (`GameHeaders::read_first`, the only read before the plain scan served most
    /// games), on every game of `testdata/chess` and on every one-byte change of a few
    /// sections: whatever the plain scan takes, it reads as the reader does.
    #[test]
    fn tag_filters_read_the_tags_the_reader_reads() {
        let reader = |bytes: &[u8]| {
            let mut h = chess_pgn::GameHeaders::default();
            matches!(h.read_first(tag_section(bytes)), Ok(true)).then(|| {
                h.tags()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect::<Vec<_>>()
            })
        };
        let plain = |bytes: &[u8]| chess_pgn::GameHeaders::default().read_plain(bytes);
        let (mut games, mut plain_games) = (0, 0);
        let dir = test_support::workspace_root().join("testdata/chess");
        for file in test_support::files_with_extension(&dir, "pgn") {
            let bytes = std::fs::read(&file).unwrap();
            let mut splitter = cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24);
            while let Some(raw) = splitter.next_game().unwrap() {
                let what = format!("{} game {}", file.display(), raw.index);
                let expected = if raw.problem.is_some() {
                    None
                } else {
                    reader(&raw.bytes)
                };
                assert_eq!(headers(Format::Pgn, &raw), expected, "{what}");
                games += 1;
                plain_games += usize::from(plain(&raw.bytes) && raw.problem.is_none());
            }
        }
        assert!(
            games > 500 && plain_games * 2 > games,
            "{plain_games} of {games}"
        );
        // Sections one byte away from a repeated name, a roster name in another case, a
        // set-up name, an escape, a line break or tab in a value, a `%` line, a BOM.
        let sections: [&[u8]; 4] = [
            b"[White \"a\"]\n[Whitd \"b \\\"c\\\"\"]\n\n1. e4 *",
            b"[Xhite \"a\"]\r\n[FEM \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n{x} e4",
            b" [Event\"\\\\\"] [Site \"s\"]\n%\n1-0",
            b"\xEF\xBB\xBF[Black \"Ren\xe9\"]\n[SetUq \"1\"]\n",
        ];
        for base in sections {
            let mut v = base.to_vec();
            for at in 0..base.len() {
                for x in 0..=255u8 {
                    v[at] = x;
                    assert_eq!(
                        headers(Format::Pgn, &crate::raw_game(&v)),
                        reader(&v),
                        "{:?}",
                        String::from_utf8_lossy(&v)
                    );
                }
                v[at] = base[at];
            }
        }
    }

    #[test]
    fn dates() {
        assert_eq!(date_bound("1990", false), Ok(19900101));
        assert_eq!(date_bound("1990.05", true), Ok(19900531));
        assert!(date_bound("1990.13", false).is_err() && date_bound("x", true).is_err());
        assert_eq!(date_span("1990.??.??"), Some((19900101, 19901231)));
        assert_eq!(date_span("1990.06.??"), Some((19900601, 19900631)));
        assert_eq!(date_span("????.??.??"), None);
    }

    fn pgn(tags: &str, moves: &str) -> RawGame {
        crate::raw_game(format!("{tags}\n\n{moves}\n").as_bytes())
    }

    #[test]
    fn tag_conditions() {
        let g = pgn(
            "[White \"Tal, M.\"]\n[Black \"Fischer\"]\n[Result \"1/2-1/2\"]\n[Date \"1962.??.??\"]\n[WhiteElo \"2600\"]",
            "1. e4 e5 1/2-1/2",
        );
        let mut f = Filter::default();
        f.player = Some(glob("Fischer"));
        f.result = Some("1/2".into());
        f.min_elo = Some(2550);
        f.date_from = Some(Filter::date("1962.06", false).unwrap());
        f.date_to = Some(Filter::date("1962.06.30", true).unwrap());
        assert!(f.matches(Format::Pgn, &g));
        f.tags.push(("white".into(), glob("Tal*")));
        assert!(f.matches(Format::Pgn, &g), "case-insensitive name");
        f.max_elo = Some(2500);
        assert!(!f.matches(Format::Pgn, &g));
        let mut f = Filter::default();
        f.date_from = Some(Filter::date("1963", false).unwrap());
        assert!(!f.matches(Format::Pgn, &g));
        let mut f = Filter::default();
        f.tags.push(("Site".into(), glob("*")));
        assert!(!f.matches(Format::Pgn, &g), "a missing tag never matches");
    }

    #[test]
    fn move_conditions_and_positions() {
        let mate = pgn(
            "[White \"a\"]",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        );
        let mut f = Filter::default();
        f.mate = true;
        assert!(f.matches(Format::Pgn, &mate));
        f.stalemate = true;
        assert!(!f.matches(Format::Pgn, &mate));
        let mut f = Filter::default();
        f.position = Some(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
                .parse()
                .unwrap(),
        );
        assert!(f.matches(Format::Pgn, &mate));
        f.position = Some("8/8/8/8/8/8/8/K6k w - - 0 1".parse().unwrap());
        assert!(!f.matches(Format::Pgn, &mate));
        assert!("not a position".parse::<Target>().is_err());
        let bad = pgn("[White \"a\"]", "1. e4 e5 2. Ke3 *");
        let mut f = Filter::default();
        f.min_plies = Some(1);
        assert!(matches!(
            f.verdict(Format::Pgn, &bad, &Options::default()),
            Verdict::Bad(_)
        ));
        f.min_plies = None;
        f.invalid = true;
        assert!(f.matches(Format::Pgn, &bad) && !f.matches(Format::Pgn, &mate));
    }

    #[test]
    fn xiangqi_and_cescacs_positions() {
        let xq = pgn("[Red \"Hu\"]", "1. h2e2 h9g7 *");
        let mut f = Filter::default();
        f.position = Some(
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
                .parse()
                .unwrap(),
        );
        assert!(f.matches(Format::XiangqiPgn, &xq));
        f.player = Some(glob("Hu"));
        assert!(f.matches(Format::XiangqiPgn, &xq));
        let ctl = crate::raw_game(b"[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n");
        let record = Record::from_bytes(Format::CtlPgn, &ctl.bytes);
        let end = record.final_position().unwrap();
        let mut f = Filter::default();
        f.position = Some(end.parse().unwrap());
        assert!(f.matches(Format::CtlPgn, &ctl));
        f.min_plies = Some(3);
        assert!(!f.matches(Format::CtlPgn, &ctl));
    }

    #[test]
    fn the_writer_drops_duplicates_and_keeps_the_layout() {
        let text = "[A \"1\"]\n\n1. e4 *\n\n[A \"2\"]\n\n1. d4 *\n\n[A \"3\"]\n\n1. e4 *\n";
        let mut out = SelectedWriter::new(Vec::new(), None);
        let sel = Selection::new(
            Filter::default(),
            Format::Pgn,
            None,
            Options::default(),
            out.keys(),
        )
        .unwrap()
        .dedupe(true);
        let games: Vec<&str> = text.split_inclusive("*\n\n").collect();
        for g in &games {
            let outcome = sel.select(&crate::raw_game(g.as_bytes()));
            out.write_all(&outcome.output).unwrap();
        }
        assert_eq!((out.matched, out.duplicates, out.kept()), (3, 1, 2));
        assert_eq!(
            String::from_utf8(out.selected.inner).unwrap(),
            games[..2].concat()
        );
        // A last game without its newline still gets a blank line after it.
        let mut out = SelectedWriter::new(Vec::new(), None);
        for g in ["[A \"1\"]\n*", "[A \"2\"]\n*\n"] {
            out.write_all(&frame(None, g.as_bytes())).unwrap();
        }
        assert_eq!(out.selected.inner, b"[A \"1\"]\n*\n\n[A \"2\"]\n*\n");
    }
}
