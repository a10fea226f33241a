//! Legal replay of records with the rules crate: every move token resolves to a legal
//! move or to a located error; check markers, end indicators and results are checked.
//!
//! Move semantics live in `cescacs-rules`: a token goes to `MoveText::parse` (in
//! standard letters, which the model stores) and `Position::resolve`.

use crate::diag::{Code, Diagnostic, Severity};
use crate::fast::read_str;
use crate::model::{
    CellName, CheckMark, Game, GameResult, Item, Line, MoveNode, Side, Span, Variation,
};
use crate::model::{MoveToken, Promotion, Separator};
use crate::read::Record;
use crate::write::{Form, write_games};
use cescacs_rules::an::{
    self as an, CheckText, MoveText, MoveTextKind, ParseError, PromotionText, ResolveWarning,
    Separator as AnSeparator,
};
use cescacs_rules::{Cell, PieceKind};
use cescacs_rules::{CheckMarker, Letters, Position, Status};

/// Options of [`replay`] and [`check`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Turn the warnings of tolerant repairs (wrong marker, missing result line,
    /// contradicting result) into errors.
    pub strict: bool,
}

/// The outcome of replaying one record.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// 1-based index of the record in its file.
    pub index: usize,
    /// The record as read (absent after a syntax error).
    pub game: Option<Game>,
    /// The position after the last main-line move that could be played.
    pub position: Option<Position>,
    /// Main-line half-moves played.
    pub plies: usize,
    /// Those half-moves as the rules engine resolved them (`plies` of them), so that a
    /// converter does not resolve the record a second time.
    pub moves: Vec<cescacs_rules::Move>,
    /// Whether every main-line move was played.
    pub complete: bool,
    /// Everything the reader and the replay found, in order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Replayed {
    /// [`Replayed::position`] as a TLPD string (the seed's form, standard letters),
    /// written on demand (a check never needs it).
    pub fn tlpd(&self) -> Option<String> {
        self.position.as_ref().map(cescacs_tlpd::write)
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

struct Ctx<'a> {
    file: &'a str,
    game: usize,
    diags: Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn push(&mut self, severity: Severity, code: Code, span: Span, message: String) {
        self.diags.push(Diagnostic {
            severity,
            code,
            file: self.file.to_string(),
            game: self.game,
            line: span.line,
            col: span.col,
            message,
        });
    }
}

/// Reads a file and replays every record.
pub fn replay(file: &str, src: &str, options: Options) -> Vec<Replayed> {
    read_str(file, src)
        .into_iter()
        .map(|r| replay_record(file, r, options))
        .collect()
}

/// Replays one record as read by [`read_str`].
pub fn replay_record(file: &str, record: Record, options: Options) -> Replayed {
    let Record {
        index,
        game,
        mut diagnostics,
    } = record;
    let mut out = Replayed {
        index,
        game: None,
        position: None,
        plies: 0,
        moves: Vec::new(),
        complete: false,
        diagnostics: Vec::new(),
    };
    if let Some(g) = &game
        && !diagnostics.iter().any(Diagnostic::is_error)
    {
        let mut ctx = Ctx {
            file,
            game: index,
            diags: Vec::new(),
        };
        if let Some(start) = start_position(&mut ctx, g) {
            let mut history = cescacs_rules::Game::new(start);
            let (plies, complete) = replay_line(&mut ctx, &mut Track::Main(&mut history), &g.main);
            if complete {
                check_end(&mut ctx, g, history.position(), Some(&history));
            }
            let (pos, moves) = history.into_position_and_moves();
            out.moves = moves;
            out.position = Some(pos);
            out.plies = plies;
            out.complete = complete;
        }
        diagnostics.extend(ctx.diags);
    }
    if options.strict {
        for d in &mut diagnostics {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
        }
    }
    out.game = game;
    out.diagnostics = diagnostics;
    out
}

/// Syntax, legality, markers and result consistency of every record of a file.
pub fn check(file: &str, src: &str, options: Options) -> Vec<Diagnostic> {
    replay(file, src, options)
        .into_iter()
        .flat_map(|r| r.diagnostics)
        .collect()
}

/// How the [`write()`] entry point spells check markers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Markers {
    /// Recomputed from the positions, seed mode (§6.4): `+` for a single check,
    /// `+^` only for a knight-jump check, `++`, `#`.
    #[default]
    Seed,
    /// Recomputed, rich mode (SITE/TS): `+^` adjoining or knight, `+∞` from afar.
    Rich,
    /// As read (no replay needed).
    AsRead,
}

/// What [`write()`] produced.
#[derive(Debug, Clone)]
pub struct Written {
    /// The records that could be written, in file order.
    pub text: String,
    /// How many records were written.
    pub records: usize,
    /// Errors of the records that were left out.
    pub diagnostics: Vec<Diagnostic>,
}

impl Written {
    /// The text if every record was written, else the errors.
    pub fn into_result(self) -> Result<String, Vec<Diagnostic>> {
        if self.diagnostics.is_empty() {
            Ok(self.text)
        } else {
            Err(self.diagnostics)
        }
    }
}

/// Reads a file and writes every record in a form, with markers recomputed as
/// `markers` says. A record with errors (syntax, or legality when markers are
/// recomputed) is left out and its errors are returned; the other records are written.
pub fn write(file: &str, src: &str, form: Form, markers: Markers) -> Written {
    let mut games = Vec::new();
    let mut diagnostics = Vec::new();
    for rec in read_str(file, src) {
        let errors: Vec<Diagnostic> = rec
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        let Some(mut g) = rec.game.clone().filter(|_| errors.is_empty()) else {
            diagnostics.extend(errors);
            continue;
        };
        if markers != Markers::AsRead {
            let r = replay_record(file, rec, Options::default());
            let errors: Vec<Diagnostic> = r
                .diagnostics
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect();
            if !errors.is_empty() {
                diagnostics.extend(errors);
                continue;
            }
            // The replay above read the start position without errors.
            let start = g
                .start_tlpd()
                .and_then(|t| {
                    let letters = g.letters().unwrap_or_default();
                    cescacs_tlpd::parse(&letters.tlpd_to_standard(t)).ok()
                })
                .unwrap_or_else(Position::initial);
            set_markers(&mut g.main, &start, markers);
        }
        games.push(g);
    }
    Written {
        text: write_games(&games, form),
        records: games.len(),
        diagnostics,
    }
}

/// Sets every marker of a line (and its variations) from the positions. The line has
/// been replayed without errors, so every move resolves.
fn set_markers(line: &mut Line, start: &Position, style: Markers) {
    let letters = Letters::default();
    let mut pos = start.clone();
    let mut before: Vec<(u32, Side, Position)> = Vec::new();
    for item in &mut line.items {
        match item {
            Item::Comment(_) => {}
            Item::Variation(v) => {
                let Some(first) = v.line.moves().next() else {
                    continue;
                };
                let key = (first.number, first.side);
                if let Some((_, _, p)) = before.iter().rev().find(|(n, s, _)| (*n, *s) == key) {
                    set_markers(&mut v.line, p, style);
                }
            }
            Item::Move(m) => {
                let Some(mv) = move_text(m, &letters)
                    .ok()
                    .and_then(|t| pos.resolve(&t).ok())
                    .map(|r| r.mv)
                else {
                    return;
                };
                before.push((m.number, m.side, pos.clone()));
                pos.play_unchecked(mv);
                m.check = match pos.check_marker() {
                    CheckMarker::None => None,
                    CheckMarker::Mate => Some(CheckMark::Mate),
                    CheckMarker::Double => Some(CheckMark::Double),
                    CheckMarker::Adjoining
                        if style == Markers::Rich || pos.is_knight_jump_check() =>
                    {
                        Some(CheckMark::Unblockable)
                    }
                    CheckMarker::Afar if style == Markers::Rich => Some(CheckMark::Afar),
                    CheckMarker::Adjoining | CheckMarker::Afar => Some(CheckMark::Check),
                };
            }
        }
    }
}

fn start_position(ctx: &mut Ctx<'_>, g: &Game) -> Option<Position> {
    let Some(tag) = g
        .tags
        .iter()
        .find(|t| matches!(t.name.as_str(), "TLPD" | "PDTL" | "DPTL"))
    else {
        return Some(Position::initial());
    };
    // The model works in standard letters; the tag is in the record's letters
    // (`Redefine` applies to it, §7.6), so it is mapped back before the TLPD reader.
    let letters = g.letters().unwrap_or_default();
    let standard = letters.tlpd_to_standard(&tag.value);
    match cescacs_tlpd::parse(&standard) {
        Ok(p) => {
            if let (Some(n), Some(first)) = (p.fullmove_number(), g.main_moves().next())
                && !first.number_unknown
                && first.number != n
            {
                ctx.push(
                    Severity::Warning,
                    Code::Numbering,
                    first.span,
                    format!(
                        "first move numbered {} but the TLPD says move {n}",
                        first.number
                    ),
                );
            }
            Some(p)
        }
        Err(e) => {
            ctx.push(
                Severity::Error,
                Code::StartPosition,
                tag.span,
                format!("[{} \"{}\"]: {e}", tag.name, tag.value),
            );
            None
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

fn move_label(m: &MoveNode) -> String {
    match m.side {
        Side::White => format!("{}. {}", m.number, m.token.to_standard()),
        Side::Black => format!("{}. …, {}", m.number, m.token.to_standard()),
    }
}

/// Where a line is replayed: the main line on a game (which knows repetitions and the
/// move-count rules, and plays each resolved move once, with the check marker and the
/// end state from one evaluation), a variation on a bare position.
enum Track<'a> {
    Main(&'a mut cescacs_rules::Game),
    Variation(&'a mut Position),
}

impl Track<'_> {
    fn position(&self) -> &Position {
        match self {
            Track::Main(g) => g.position(),
            Track::Variation(p) => p,
        }
    }
}

/// Replays a line from the track's position; returns the half-moves played and
/// whether all were. Variations are replayed from the position before the half-move
/// they replace; their errors are reported and the enclosing line goes on.
fn replay_line(ctx: &mut Ctx<'_>, track: &mut Track<'_>, line: &Line) -> (usize, bool) {
    let mut state = LineState {
        letters: Letters::default(),
        before: Vec::new(),
        keep_before: line.items.iter().any(|i| matches!(i, Item::Variation(_))),
        plies: 0,
        side_warned: false,
        ended_warned: false,
    };
    for item in &line.items {
        match item {
            Item::Comment(_) => {}
            Item::Variation(v) => replay_variation(ctx, &state.before, v),
            Item::Move(m) => {
                if !replay_move(ctx, track, &mut state, m) {
                    return (state.plies, false);
                }
            }
        }
    }
    (state.plies, true)
}

/// What [`replay_line`] keeps while it walks one line.
struct LineState {
    letters: Letters,
    /// (number, side, position before) of each half-move played in this line; only
    /// variations need them, so a line without variations keeps none.
    before: Vec<(u32, Side, Position)>,
    keep_before: bool,
    plies: usize,
    side_warned: bool,
    /// After an automatic end the history refuses moves; report that once.
    ended_warned: bool,
}

/// Replays a variation from the position before the move it replaces, or reports
/// that it replaces none.
fn replay_variation(ctx: &mut Ctx<'_>, before: &[(u32, Side, Position)], v: &Variation) {
    let Some(first) = v.line.moves().next() else {
        return;
    };
    match before
        .iter()
        .rev()
        .find(|(n, s, _)| *n == first.number && *s == first.side)
    {
        Some((_, _, p)) => {
            let mut vp = p.clone();
            replay_line(ctx, &mut Track::Variation(&mut vp), &v.line);
        }
        None => ctx.push(
            Severity::Error,
            Code::Variation,
            v.span,
            format!(
                "variation starting with {} replaces no move of the enclosing line",
                move_label(first)
            ),
        ),
    }
}

/// Plays one half-move of the line and reports its warnings; `false` (reported) when
/// it cannot be read or played.
fn replay_move(
    ctx: &mut Ctx<'_>,
    track: &mut Track<'_>,
    state: &mut LineState,
    m: &MoveNode,
) -> bool {
    let pos = track.position();
    let to_move = pos.side_to_move();
    if to_move != m.side && !state.side_warned {
        state.side_warned = true;
        ctx.push(
            Severity::Warning,
            Code::Numbering,
            m.span,
            format!(
                "numbering gives this move to {}, but {} is to move",
                side_name(m.side),
                side_name(to_move)
            ),
        );
    }
    // Both results are used in place (by reference): moving them out
    // copies them right after their narrow stores, a store-forwarding
    // stall measured at a tenth of this loop.
    let mt = move_text(m, &state.letters);
    let mt = match &mt {
        Ok(t) => t,
        Err(e) => {
            ctx.push(
                Severity::Error,
                Code::MoveSyntax,
                m.span,
                format!("move {}: {e}", move_label(m)),
            );
            return false;
        }
    };
    // The main line checks the marker after playing the move (below).
    let mut resolved = match &*track {
        Track::Main(h) => h.resolve_unmarked(mt),
        Track::Variation(_) => pos.resolve(mt),
    };
    let resolved = match &mut resolved {
        Ok(r) => r,
        Err(e) => {
            ctx.push(
                Severity::Error,
                Code::IllegalMove,
                m.span,
                format!(
                    "move {}: {e}; position: {}",
                    move_label(m),
                    cescacs_tlpd::write(pos)
                ),
            );
            return false;
        }
    };
    if state.keep_before {
        state.before.push((m.number, m.side, pos.clone()));
    }
    // Reported after the move's own warnings.
    let ended = play_resolved(track, resolved, mt, m, &mut state.ended_warned);
    push_move_warnings(ctx, m, &resolved.warnings);
    if let Some(message) = ended {
        ctx.push(Severity::Warning, Code::Result, m.span, message);
    }
    state.plies += 1;
    true
}

/// Plays a resolved move on the track; on the main line, checks its marker (into the
/// move's warnings) and returns the warning for a move played after the game ended
/// (once per line).
fn play_resolved(
    track: &mut Track<'_>,
    resolved: &mut an::Resolved,
    mt: &MoveText,
    m: &MoveNode,
    ended_warned: &mut bool,
) -> Option<String> {
    let mut ended = None;
    match track {
        Track::Main(h) => {
            let played = h.play_resolved(resolved.mv);
            resolved.warnings.extend(an::check_marker_warning(
                mt.check,
                played.marker,
                played.knight_check,
            ));
            if let Some(r) = played.after_end
                && !*ended_warned
            {
                *ended_warned = true;
                let why = h
                    .outcome()
                    .map_or(String::new(), |o| format!(" by {:?}", o.1));
                ended = Some(format!(
                    "move {} is played after the game ended ({r}{why})",
                    move_label(m)
                ));
            }
        }
        Track::Variation(p) => p.play_unchecked(resolved.mv),
    }
    ended
}

/// The warnings of resolving and playing move `m`, as diagnostics.
fn push_move_warnings(ctx: &mut Ctx<'_>, m: &MoveNode, warnings: &[ResolveWarning]) {
    for w in warnings {
        let (severity, code, message) = match w {
            ResolveWarning::CheckMarker { actual, .. } => (
                Severity::Warning,
                Code::CheckMarker,
                format!(
                    "move {}: check marker {} does not match the position reached ({})",
                    move_label(m),
                    m.check
                        .map_or("absent".to_string(), |c| format!("`{}`", c.as_str())),
                    marker_name(*actual)
                ),
            ),
            ResolveWarning::Separator { .. } => (
                Severity::Warning,
                Code::Spelling,
                format!(
                    "move {}: separator does not say what the move captures (`@`/`@@` for en passant and scornful captures)",
                    move_label(m)
                ),
            ),
            ResolveWarning::MissingAwaitingMarker => (
                Severity::Note,
                Code::Spelling,
                format!("move {}: `=&` omitted (program form)", move_label(m)),
            ),
        };
        ctx.push(severity, code, m.span, message);
    }
}

/// End of the main line: end indicator, result line, `Result` tag, mate.
fn check_end(ctx: &mut Ctx<'_>, g: &Game, pos: &Position, history: Option<&cescacs_rules::Game>) {
    let last = g.main_moves().last();
    let status = pos.status();
    let mover = last.map(|m| m.side);
    let automatic_draw = history
        .and_then(|h| h.outcome())
        .is_some_and(|(r, _)| r == GameResult::Draw);
    let by_rules = match (status, mover) {
        (Status::Checkmate, Some(Side::White)) => Some(GameResult::WhiteWins),
        (Status::Checkmate, Some(Side::Black)) => Some(GameResult::BlackWins),
        (Status::Stalemate, Some(Side::White)) => Some(GameResult::WhiteStalemates),
        (Status::Stalemate, Some(Side::Black)) => Some(GameResult::BlackStalemates),
        _ if automatic_draw => Some(GameResult::Draw),
        _ => None,
    };
    let end_span = last.map_or(g.span, |m| m.span);
    if let Some(m) = last
        && !m.end_mark
        && m.check != Some(CheckMark::Mate)
    {
        ctx.push(
            Severity::Note,
            Code::MissingEnd,
            m.span,
            "last move without the `:` end indicator".into(),
        );
    }
    let tag = g.tag("Result").map(|v| (v, GameResult::parse(v)));
    if let Some((v, None)) = tag {
        ctx.push(
            Severity::Warning,
            Code::Result,
            tag_span(g, "Result"),
            format!("Result tag `{v}` is not a result (3-0 2-1 1-1 1-2 0-3 *)"),
        );
    }
    let tag_result = tag.and_then(|t| t.1);
    match g.result {
        None => ctx.push(
            Severity::Warning,
            Code::MissingEnd,
            end_span,
            format!(
                "no result line; the record says {}",
                by_rules.or(tag_result).unwrap_or(GameResult::Unfinished)
            ),
        ),
        Some(r) => {
            if let Some(t) = tag_result
                && t != r
            {
                ctx.push(
                    Severity::Warning,
                    Code::Result,
                    tag_span(g, "Result"),
                    format!("Result tag {t} differs from the result line {r}"),
                );
            }
            if let Some(b) = by_rules
                && b != r
            {
                ctx.push(
                    Severity::Warning,
                    Code::Result,
                    end_span,
                    format!("result line {r} contradicts the final position ({b})"),
                );
            }
        }
    }
    if let (Some(t), Some(b)) = (tag_result, by_rules)
        && t != b
    {
        ctx.push(
            Severity::Warning,
            Code::Result,
            tag_span(g, "Result"),
            format!(
                "Result tag {t} contradicts the final {} ({b})",
                match status {
                    Status::Checkmate => "mate",
                    Status::Stalemate => "stalemate",
                    Status::Ongoing => "automatic draw",
                }
            ),
        );
    }
}

fn marker_name(m: CheckMarker) -> &'static str {
    match m {
        CheckMarker::None => "no check",
        CheckMarker::Adjoining => "`+^`: one adjoining or knight-jump checker",
        CheckMarker::Afar => "`+∞` or seed `+`: one checker from afar",
        CheckMarker::Double => "`++`: double check",
        CheckMarker::Mate => "`#`: checkmate",
    }
}

fn tag_span(g: &Game, name: &str) -> Span {
    g.tags
        .iter()
        .find(|t| t.name == name)
        .map_or(g.span, |t| t.span)
}

/// The rules' view of a half-move, built from what the reader matched (no second parse
/// of the move text). Forms the direct path does not cover (castling, a cell off the
/// board, a promotion to a piece that cannot be regained) go through `MoveText::parse`,
/// which also words their errors.
#[inline]
pub(crate) fn move_text(
    m: &MoveNode,
    letters: &cescacs_rules::Letters,
) -> Result<MoveText, ParseError> {
    let check = m.check.map(|c| match c {
        CheckMark::Check => CheckText::Check,
        CheckMark::Unblockable => CheckText::Adjoining,
        CheckMark::Afar => CheckText::Afar,
        CheckMark::Double => CheckText::Double,
        CheckMark::Mate => CheckText::Mate,
    });
    let direct = match &m.token {
        MoveToken::Ordinary {
            mover,
            from,
            sep,
            captured,
            to,
            promotion,
        } => (|| {
            let promotion = match promotion {
                None => None,
                Some(Promotion::Awaiting) => Some(PromotionText::Awaiting),
                Some(Promotion::To(k)) if PieceKind::REGAINABLE.contains(k) => {
                    Some(PromotionText::Piece(*k))
                }
                Some(Promotion::To(_)) => return None,
            };
            Some(MoveTextKind::Ordinary {
                mover: mover.unwrap_or(PieceKind::Pawn),
                from: cell(from)?,
                separator: match sep {
                    Separator::Move => AnSeparator::Move,
                    Separator::Capture => AnSeparator::Capture,
                    Separator::NearEp => AnSeparator::EnPassant,
                    Separator::FarEp => AnSeparator::EnPassantFar,
                },
                captured: *captured,
                to: cell(to)?,
                promotion,
            })
        })(),
        MoveToken::ForcedPromotion { cell: c, piece } if PieceKind::REGAINABLE.contains(piece) => {
            cell(c).map(|cell| MoveTextKind::PromotionInPlace {
                cell,
                piece: *piece,
            })
        }
        _ => None,
    };
    match direct {
        Some(kind) => Ok(MoveText { kind, check }),
        None => {
            let mut text = m.token.to_standard();
            if let Some(c) = m.check {
                text.push_str(c.as_str());
            }
            MoveText::parse(&text, letters)
        }
    }
}

/// A cell as the grammar matched it (a column letter and a line 0..28), from its
/// bytes (no UTF-8 check, no search for the column letter).
#[inline]
fn cell(name: &CellName) -> Option<Cell> {
    /// Column index (P T A B C D E F G H I K L X Z = 0..15) by letter, 15 for none.
    const COLUMNS: [u8; 26] = {
        let letters = b"PTABCDEFGHIKLXZ";
        let mut t = [15u8; 26];
        let mut i = 0;
        while i < letters.len() {
            t[(letters[i] - b'A') as usize] = i as u8;
            i += 1;
        }
        t
    };
    let digit = |d: u8| d.is_ascii_digit().then(|| d - b'0');
    let (col, line) = match *name.as_bytes() {
        [c, d] => (c, digit(d)?),
        [c, d1, d2] => (c, digit(d1)? * 10 + digit(d2)?),
        _ => return None,
    };
    let col = *COLUMNS.get(usize::from(col.checked_sub(b'A')?))?;
    if col == 15 {
        return None;
    }
    Cell::new(col, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(l: &Line, f: &mut dyn FnMut(&MoveNode)) {
        for i in &l.items {
            match i {
                Item::Move(m) => f(m),
                Item::Variation(v) => walk(&v.line, f),
                Item::Comment(_) => {}
            }
        }
    }

    /// The direct path builds the same `MoveText` as parsing the move's text, on every
    /// move of the CTL-PGN test files.
    #[test]
    fn move_text_from_the_token_equals_the_parsed_text() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ctl-pgn");
        let letters = cescacs_rules::Letters::default();
        let mut n = 0;
        let entries = ["oracle", "real", "spec"]
            .into_iter()
            .flat_map(|d| std::fs::read_dir(root.join(d)).expect("testdata/ctl-pgn"));
        for e in entries {
            let p = e.expect("entry").path();
            let Ok(src) = std::fs::read_to_string(&p) else {
                continue;
            };
            for r in read_str("t", &src) {
                let Some(g) = r.game else { continue };
                walk(&g.main, &mut |m| {
                    let mut text = m.token.to_standard();
                    if let Some(c) = m.check {
                        text.push_str(c.as_str());
                    }
                    assert_eq!(
                        move_text(m, &letters),
                        MoveText::parse(&text, &letters),
                        "{text}"
                    );
                    n += 1;
                });
            }
        }
        assert!(n > 1000, "only {n} moves checked");
    }
}
