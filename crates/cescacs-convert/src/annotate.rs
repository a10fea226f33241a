//! Tags added to every game written (`--eco`, `--plycount`, `--hash`, `--fix-results`),
//! whether the game is
//! converted (the tags are set on the game model before it is written) or copied as
//! it was by `select` (the tag lines are edited in the game's own bytes, nothing else
//! of it touched).
//!
//! A tag already present with the same name is replaced (its line removed, the new
//! value written after the last tag), so running twice gives the same output. Setting
//! `ECO` replaces the whole classification: `Opening`, `Variation` and `SubVariation`
//! lines go too, even when the new opening has no variation. A game the table does not
//! name keeps the classification it had.
//!
//! ```
//! use cescacs_convert::{Annotate, Format, Record};
//!
//! let pgn = b"[White \"a\"]\n[PlyCount \"1\"]\n\n1. e4 e5 2. Nf3 *\n";
//! let record = Record::from_bytes(Format::Pgn, pgn);
//! let annotate = Annotate { eco: true, plycount: true, ..Annotate::default() };
//! let tags = annotate.tags(&record);
//! let text = cescacs_convert::set_tag_lines(pgn, &tags);
//! assert_eq!(
//!     String::from_utf8(text).unwrap(),
//!     "[White \"a\"]\n[PlyCount \"3\"]\n[ECO \"C40\"]\n[Opening \"King's Knight Opening\"]\n\n1. e4 e5 2. Nf3 *\n"
//! );
//! ```

use crate::record::{Game, Record};

/// Which tags are added to each game written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Annotate {
    /// `ECO`, `Opening` and `Variation` of a chess game from the openings table
    /// ([`crate::game_opening`]); a game the table does not name gets none (and keeps
    /// its own, if any).
    pub eco: bool,
    /// `PlyCount`: the half-moves of the main line, in every game.
    pub plycount: bool,
    /// `HashCode`: the game's 64-bit key ([`game_hash`]) as 16 hexadecimal digits.
    pub hash: bool,
    /// `Result` from the game's end ([`fixed_result`]): the final position when it is
    /// checkmate or stalemate, else the movetext's result marker.
    pub fix_results: bool,
}

impl Annotate {
    /// Whether no tag is asked for.
    pub fn is_empty(&self) -> bool {
        *self == Annotate::default()
    }

    /// The tags to set on this game, in the order they are written.
    pub fn tags(&self, record: &Record) -> Vec<(String, String)> {
        let mut tags = Vec::new();
        if record.game().is_none() {
            return tags;
        }
        if self.plycount {
            tags.push(("PlyCount".to_string(), record.plies().to_string()));
        }
        if self.hash
            && let Some(h) = game_hash(record)
        {
            tags.push(("HashCode".to_string(), format!("{h:016x}")));
        }
        if self.eco
            && let Some(opening) = crate::record_opening(record)
        {
            tags.extend(opening.tags());
        }
        if self.fix_results
            && let Some(fixed) = fixed_result(record)
        {
            tags.push(("Result".to_string(), fixed.result));
        }
        tags
    }

    /// The warnings of setting this game's tags: with `fix_results`, a result marker
    /// that the final position contradicts.
    pub fn warnings(&self, record: &Record) -> Vec<cescacs_batch::GameDiagnostic> {
        match (self.fix_results, fixed_result(record)) {
            (
                true,
                Some(FixedResult {
                    disagreement: Some(w),
                    ..
                }),
            ) => vec![crate::warning(crate::codes::RESULT_DISAGREES, w)],
            _ => Vec::new(),
        }
    }

    /// Sets this game's tags on its model (a no-op for a game that could not be read).
    pub(crate) fn apply(&self, record: &mut Record) {
        if self.is_empty() {
            return;
        }
        let tags = self.tags(record);
        if tags.is_empty() {
            return;
        }
        let gone = replaced(&tags);
        let set = |list: &mut Vec<(String, String)>| {
            list.retain(|(n, _)| !gone.contains(&n.as_str()));
            list.extend(tags.iter().cloned());
        };
        let result = tags
            .iter()
            .find(|(n, _)| n == "Result")
            .map(|(_, v)| v.clone());
        match &mut record.game {
            Some(Game::Chess(g)) => {
                set(&mut g.tags);
                // The writer writes the Result tag and the marker from the outcome.
                if let Some(o) = result.and_then(|r| chess_pgn::Outcome::parse(r.as_bytes())) {
                    g.outcome = o;
                }
            }
            Some(Game::Xiangqi(g)) => {
                set(&mut g.tags);
                if let Some(r) = result {
                    g.result = r;
                }
            }
            Some(Game::Cescacs { record: r, .. }) => {
                if let Some(res) = result.as_deref().and_then(cescacs_rules::GameResult::parse) {
                    r.result = Some(res);
                }
                r.tags.retain(|t| !gone.contains(&t.name.as_str()));
                r.tags.extend(tags.iter().map(|(name, value)| ctl_pgn::Tag {
                    name: name.clone(),
                    value: value.clone(),
                    span: Default::default(),
                }));
            }
            // A board no rules engine plays has no tags to set (and no opening).
            Some(Game::Pcn(_)) | None => return,
        }
        // A PCN input written back as PCN is written from the model now, tags and all.
        record.source_pcn = None;
    }
}

/// The result `--fix-results` gives a game, and why it disagrees with the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedResult {
    /// The result: `1-0`, `0-1`, `1/2-1/2`, `*` (C'escacs: `3-0`, `2-1`, `1-2`, `0-3`,
    /// `1-1`, `*`).
    pub result: String,
    /// When the movetext's marker states a different finished result than the
    /// final position's checkmate or stalemate, what the warning says.
    pub disagreement: Option<String>,
}

/// The result of a game from its end: when the final position of the main line is
/// checkmate or stalemate, the result the rules give it (chess: the mating side wins,
/// stalemate is a draw; xiangqi: the side to move loses both; C'escacs: `3-0`/`0-3`
/// for mate, `2-1`/`1-2` for stalemate); otherwise the movetext's result marker (`*`
/// when it has none). The marker is the game's own statement: the `Result` tag is
/// what this fixes. A finished marker that the position contradicts gives the
/// position's result and a disagreement. `None` for a game that could not be read.
///
/// ```
/// use cescacs_convert::{Format, Record, fixed_result};
/// let mate = Record::from_bytes(Format::Pgn, b"[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n");
/// let fixed = fixed_result(&mate).unwrap();
/// assert_eq!(fixed.result, "0-1");
/// assert!(fixed.disagreement.unwrap().contains("1/2-1/2"));
/// ```
pub fn fixed_result(record: &Record) -> Option<FixedResult> {
    let marker = record.result().unwrap_or_else(|| "*".to_string());
    let (mate, stalemate) = (record.is_checkmate()?, record.is_stalemate()?);
    let decided = if mate || stalemate {
        let white_to_move = match record.game()? {
            Game::Chess(g) => g.final_board().side_to_move() == chess_pgn::cozy_chess::Color::White,
            Game::Xiangqi(g) => g.final_position().side_to_move() == xiangqi::Side::Red,
            Game::Cescacs { position, .. } => {
                position.as_ref()?.side_to_move() == cescacs_rules::Side::White
            }
            Game::Pcn(_) => return None,
        };
        let cescacs = matches!(record.game()?, Game::Cescacs { .. });
        let xiangqi = matches!(record.game()?, Game::Xiangqi(_));
        Some(match (cescacs, mate, white_to_move) {
            (true, true, true) => "0-3",
            (true, true, false) => "3-0",
            (true, false, true) => "1-2",
            (true, false, false) => "2-1",
            (false, false, _) if !xiangqi => "1/2-1/2",
            (false, _, true) => "0-1",
            (false, _, false) => "1-0",
        })
    } else {
        None
    };
    Some(match decided {
        Some(d) => FixedResult {
            result: d.to_string(),
            disagreement: (marker != "*" && marker != d).then(|| {
                let end = if mate { "checkmate" } else { "stalemate" };
                format!(
                    "the movetext ends with {marker} but its final position is {end}: Result set to {d}"
                )
            }),
        },
        None => FixedResult {
            result: marker,
            disagreement: None,
        },
    })
}

/// The game key of `--hash` (the `HashCode` tag), the same on every machine and run:
/// 64-bit FNV-1a (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) over the
/// UTF-8 bytes of `GAME \n START \n` followed by each main-line move and a space, where
///
/// - GAME is `chess`, `xiangqi` or `cescacs`;
/// - START is the start position: the FEN (chess, move counters included, as the
///   toolkit writes it), the xiangqi FEN, or the C'escacs `TLPD` tag's value (empty
///   for the standard start);
/// - each move is in one canonical form whatever the input spelled: SAN with its check
///   suffix as the PGN writer makes it (`Nf3`, `exd5`, `O-O+`; `--` for a null move),
///   ICCS (`h2e2`), or CTL-AN as the CTL-PGN writer renders it.
///
/// Two games with the same start and main line have the same key (tags, comments and
/// variations play no part), as `--dedupe` compares them; a different key means a
/// different game. `None` for a game that could not be read or a PCN document of a
/// board no rules engine plays. (`--dedupe` itself uses a keyed 128-bit hash, not this.)
pub fn game_hash(record: &Record) -> Option<u64> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |s: &str| {
        for b in s.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    match record.game()? {
        Game::Chess(g) => {
            feed("chess\n");
            feed(&g.start.to_string());
            feed("\n");
            let mut board = g.start.clone();
            for node in &g.moves.moves {
                match node.mv {
                    Some(m) => {
                        feed(&chess_pgn::SanPlus::from_move(&board, m).to_string());
                        board.play_unchecked(m);
                    }
                    None => {
                        feed("--");
                        board = board.null_move()?;
                    }
                }
                feed(" ");
            }
        }
        Game::Xiangqi(g) => {
            feed("xiangqi\n");
            feed(&g.start.to_fen());
            feed("\n");
            for m in &g.line.moves {
                feed(&m.mv.to_iccs());
                feed(" ");
            }
        }
        Game::Cescacs { record: r, .. } => {
            feed("cescacs\n");
            feed(r.start_tlpd().unwrap_or(""));
            feed("\n");
            for m in record.main_line() {
                feed(&m);
                feed(" ");
            }
        }
        Game::Pcn(_) => return None,
    }
    Some(h)
}

/// The tag names whose lines setting `tags` removes: their own, and with `ECO` the
/// rest of the classification it replaces.
fn replaced(tags: &[(String, String)]) -> Vec<&str> {
    let mut names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
    if names.contains(&"ECO") {
        names.extend(["Opening", "Variation", "SubVariation"]);
    }
    names
}

/// A game's text (PGN, xiangqi PGN or CTL-PGN) with these tags set: a tag line of the
/// same name is removed (with `ECO`, the `Opening`, `Variation` and `SubVariation`
/// lines too), and the new lines go after the last tag line of the tag
/// section (before the movetext when there is none), with the game's own line ending.
/// Values are written with `\` and `"` escaped.
pub fn set_tag_lines(bytes: &[u8], tags: &[(String, String)]) -> Vec<u8> {
    if tags.is_empty() {
        return bytes.to_vec();
    }
    let section = crate::select::tag_section(bytes);
    let crlf = section.windows(2).any(|w| w == b"\r\n")
        || (section.is_empty() && bytes.windows(2).any(|w| w == b"\r\n"));
    let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
    let gone = replaced(tags);
    let mut out = Vec::with_capacity(bytes.len() + 64 * tags.len());
    // Up to the end of the last tag line, the lines of replaced tags left out.
    let mut last_tag_end = 0;
    let mut at = 0;
    for line in section.split_inclusive(|&b| b == b'\n') {
        let body = line.trim_ascii_start();
        let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
        if body.starts_with(b"[") {
            last_tag_end = at + line.len();
        }
        at += line.len();
    }
    let mut at = 0;
    for line in section[..last_tag_end].split_inclusive(|&b| b == b'\n') {
        at += line.len();
        if tag_name(line).is_some_and(|n| gone.iter().any(|t| t.as_bytes() == n)) {
            // A BOM at the start of the game stays.
            if at == line.len() && line.starts_with(b"\xEF\xBB\xBF") {
                out.extend_from_slice(b"\xEF\xBB\xBF");
            }
            continue;
        }
        out.extend_from_slice(line);
    }
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.extend_from_slice(eol);
    }
    for (name, value) in tags {
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        for c in value.bytes() {
            if c == b'\\' || c == b'"' {
                out.push(b'\\');
            }
            out.push(c);
        }
        out.extend_from_slice(b"\"]");
        out.extend_from_slice(eol);
    }
    if last_tag_end == 0 {
        // No tag section: the movetext follows after a blank line.
        out.extend_from_slice(eol);
    }
    out.extend_from_slice(&bytes[last_tag_end..]);
    out
}

/// The name of a line holding one tag (`[Name "value"]`), else `None`.
fn tag_name(line: &[u8]) -> Option<&[u8]> {
    let body = line.trim_ascii_start();
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let rest = body.strip_prefix(b"[")?.trim_ascii_start();
    let end = rest
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))?;
    // A line with two tags (`[A "1"] [B "2"]`) is kept as it is.
    let one_tag =
        body.trim_ascii_end().ends_with(b"]") && memchr::memchr_iter(b'[', body).count() == 1;
    (end > 0 && one_tag).then_some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a_of_the_documented_text() {
        // The reference: FNV-1a written out over the text the documentation names.
        let fnv = |text: &str| {
            text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let read = |t: &str| Record::from_bytes(crate::Format::Pgn, t.as_bytes());
        let a = read("[White \"a\"]\n\n1. e4 e5 2. Ng1f3 {x} (2. d4) *\n");
        let b = read("1. e2e4 e7e5 2. Nf3 *\n");
        let want = fnv(&format!("chess\n{start}\ne4 e5 Nf3 "));
        assert_eq!((game_hash(&a), game_hash(&b)), (Some(want), Some(want)));
        assert_ne!(game_hash(&read("1. e4 e5 *")), Some(want));
        let xq = Record::from_bytes(crate::Format::XiangqiPgn, b"1. h2e2 h9g7 *\n");
        let xfen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert_eq!(
            game_hash(&xq),
            Some(fnv(&format!("xiangqi\n{xfen}\nh2e2 h9g7 ")))
        );
        let ctl = Record::from_bytes(
            crate::Format::CtlPgn,
            b"[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n",
        );
        assert_eq!(game_hash(&ctl), Some(fnv("cescacs\n\nE7-E9 E21-E19 ")));
    }

    fn set(text: &str, tags: &[(&str, &str)]) -> String {
        let tags: Vec<(String, String)> = tags
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        String::from_utf8(set_tag_lines(text.as_bytes(), &tags)).unwrap()
    }

    #[test]
    fn a_new_eco_replaces_the_whole_classification() {
        assert_eq!(
            set(
                "[Opening \"x\"]\n[Variation \"y\"]\n[ECO \"A00\"]\n\n*\n",
                &[
                    ("ECO", "A07"),
                    ("Opening", "King's Indian Attack, with Bf5")
                ]
            ),
            "[ECO \"A07\"]\n[Opening \"King's Indian Attack, with Bf5\"]\n\n*\n"
        );
    }

    #[test]
    fn tag_lines_are_replaced_and_added_after_the_last_tag() {
        assert_eq!(
            set(
                "[A \"1\"]\r\n[ECO \"X\"]\r\n[B \"2\"]\r\n\r\n1. e4 *\r\n",
                &[("ECO", "C20")]
            ),
            "[A \"1\"]\r\n[B \"2\"]\r\n[ECO \"C20\"]\r\n\r\n1. e4 *\r\n"
        );
        assert_eq!(
            set("1. e4 *\n", &[("PlyCount", "1")]),
            "[PlyCount \"1\"]\n\n1. e4 *\n"
        );
        assert_eq!(
            set("[A \"x\"]\n1. e4 *\n", &[("V", "a \"b\" \\")]),
            "[A \"x\"]\n[V \"a \\\"b\\\" \\\\\"]\n1. e4 *\n"
        );
        // Only whole tag lines of that name go: a longer name, or two tags on a line, stay.
        assert_eq!(
            set(
                "[ECOx \"1\"]\n[ECO \"1\"] [Y \"2\"]\n\n*\n",
                &[("ECO", "A00")]
            ),
            "[ECOx \"1\"]\n[ECO \"1\"] [Y \"2\"]\n[ECO \"A00\"]\n\n*\n"
        );
    }
}
