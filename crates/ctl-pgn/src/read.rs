//! The tolerant reader: split a file into records, parse each with the pest grammar,
//! and build the game model.

use crate::diag::{Code, Diagnostic, LineIndex, Severity};
use crate::letters::{LetterRead, LetterTable, PieceKind};
use crate::model::*;
use pest::Parser as _;
use pest::iterators::Pair;

use crate::grammar::{CtlPgnParser, Rule};

/// Deepest variation nesting the reader accepts. The model, the writer and the replay
/// walk variations recursively; this bound keeps their stack use small on any thread
/// (the grammar itself is flat, so the parser never recurses, see the grammar's
/// header). Real records nest a few levels.
pub const MAX_VARIATION_DEPTH: usize = 200;

/// A game holds at most this many moves, comments and variations (together, in every
/// line, comments after the result included). The token that would be one more is
/// a located error ([`Code::TooLarge`]) and the record has no model; the next record
/// is read as usual. Real games hold a few thousand; the cap bounds the model's
/// memory (some 100–200 bytes a node, so at most about 40 MB) whatever the input,
/// as classic PGN's `MAX_GAME_NODES` does. Both readers count the same nodes.
pub const MAX_GAME_NODES: usize = 200_000;

/// A game holds at most this many tags. The first tag past it is a located error
/// ([`Code::TooLarge`]) and the record has no model; the next record is read as usual.
/// Real games hold a few dozen; the cap bounds the tag list whatever the input (a
/// game of a million tags, 20 MB, took 260 MiB before it), as classic PGN's
/// `MAX_GAME_TAGS` does. Both readers and both parse modes give the same verdict: a
/// syntax error anywhere in the record is reported instead, as for any record.
pub const MAX_GAME_TAGS: usize = 10_000;

/// The error of the first tag past [`MAX_GAME_TAGS`].
fn too_many_tags(ctx: &mut Ctx<'_>, at: usize) {
    ctx.diag_at(
        Severity::Error,
        Code::TooLarge,
        at,
        format!("game with more than {MAX_GAME_TAGS} tags: not read"),
    );
}

/// One record of a file, as read.
#[derive(Debug, Clone)]
pub struct Record {
    /// 1-based index of the record in the file.
    pub index: usize,
    /// The game, unless a syntax error stopped the record.
    pub game: Option<Game>,
    /// Errors, warnings and notes, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads every record of a file. A syntax error is reported in its record, and
/// reading resumes at the next record.
pub fn read_str(file: &str, src: &str) -> Vec<Record> {
    let index = LineIndex::new(src);
    split_records(src)
        .into_iter()
        .enumerate()
        .map(|(i, (start, end))| read_record(file, src, &index, i + 1, start, end))
        .collect()
}

/// The game of the first record, or its first error (the fast reader's `read_game`).
pub(crate) fn first_game(mut recs: Vec<Record>) -> Result<Game, Diagnostic> {
    if recs.is_empty() {
        return Ok(Game::default());
    }
    let rec = recs.swap_remove(0);
    if let Some(e) = rec.diagnostics.into_iter().find(Diagnostic::is_error) {
        return Err(e);
    }
    rec.game.ok_or_else(|| Diagnostic {
        severity: Severity::Error,
        code: Code::Syntax,
        file: "<input>".into(),
        game: 1,
        line: 1,
        col: 1,
        message: "no game".into(),
    })
}

/// Byte ranges of the records of a file. A record starts at a tag line that follows
/// movetext, or at a `[Variant` tag that follows a blank line after a tag section that
/// already has one (a record of tags only); a `[Variant` line among the tag lines is a
/// repeated tag of the same record, reported by the reader, so that no tag or move of
/// it is lost (docs/ctl-pgn.md); braces are tracked so that a line starting
/// with `[` inside a multi-line comment does not split a record. An unterminated
/// comment still yields to a `[Variant` line, so one bad record does not swallow the
/// rest of the file.
pub fn split_records(src: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut start = 0usize;
    let mut in_movetext = false;
    let mut in_comment = false;
    let mut has_variant = false;
    let mut has_content = false;
    let mut blank_after_tags = false;
    let mut pos = 0usize;
    for line in src.split_inclusive('\n') {
        let t = line.trim_start_matches([' ', '\t', '\u{FEFF}']);
        let is_variant = t.starts_with("[Variant");
        let is_tag = t.starts_with('[') && (!in_comment || is_variant);
        if is_tag {
            if (in_movetext || (is_variant && has_variant && blank_after_tags)) && has_content {
                ranges.push((start, pos));
                start = pos;
                has_variant = false;
            }
            in_movetext = false;
            in_comment = false;
            blank_after_tags = false;
            has_variant |= is_variant;
            has_content = true;
        } else if t.trim().is_empty() {
            blank_after_tags |= !in_movetext && has_content;
        } else {
            in_movetext = true;
            has_content = true;
            for c in line.chars() {
                match c {
                    '{' if !in_comment => in_comment = true,
                    '}' if in_comment => in_comment = false,
                    _ => {}
                }
            }
        }
        pos += line.len();
    }
    if has_content {
        ranges.push((start, src.len()));
    }
    ranges
}

struct Ctx<'a> {
    file: &'a str,
    index: &'a LineIndex<'a>,
    game: usize,
    base: usize,
    letters: LetterTable,
    diags: Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn span(&self, s: pest::Span<'_>) -> Span {
        let start = self.base + s.start();
        let (line, col) = self.index.line_col(start);
        Span {
            start,
            end: self.base + s.end(),
            line,
            col,
        }
    }

    fn diag_at(&mut self, severity: Severity, code: Code, offset: usize, message: String) {
        let (line, col) = self.index.line_col(offset);
        self.diags.push(Diagnostic {
            severity,
            code,
            file: self.file.to_string(),
            game: self.game,
            line,
            col,
            message,
        });
    }

    fn diag(&mut self, severity: Severity, code: Code, s: pest::Span<'_>, message: String) {
        self.diag_at(severity, code, self.base + s.start(), message);
    }
}

pub(crate) fn read_record(
    file: &str,
    src: &str,
    index: &LineIndex<'_>,
    game: usize,
    start: usize,
    end: usize,
) -> Record {
    let text = &src[start..end];
    let mut ctx = Ctx {
        file,
        index,
        game,
        base: start,
        letters: LetterTable::standard(),
        diags: Vec::new(),
    };
    if text.len() > whole_parse_limit() {
        let game_model = read_tokenwise(&mut ctx, text);
        return Record {
            index: game,
            game: game_model,
            diagnostics: ctx.diags,
        };
    }
    let parsed = match CtlPgnParser::parse(Rule::game, text) {
        Ok(mut pairs) => pairs.next(),
        Err(e) => {
            syntax_error(&mut ctx, text, &e);
            return Record {
                index: game,
                game: None,
                diagnostics: ctx.diags,
            };
        }
    };
    let game_model = parsed.and_then(|p| build_game(&mut ctx, p, text.len()));
    Record {
        index: game,
        game: game_model,
        diagnostics: ctx.diags,
    }
}

/// Records longer than this many bytes are parsed one token at a time
/// (`read_tokenwise`) instead of in one pest call. pest keeps the pair tree of the
/// whole parse (about 80 bytes of tree per byte of movetext: a 12 MB record took
/// 941 MB), so the whole-record parse is kept for records where that stays small
/// (at most about 20 MB of tree).
pub const WHOLE_PARSE_LIMIT: usize = 256 << 10;

thread_local! {
    static LIMIT_OVERRIDE: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

fn whole_parse_limit() -> usize {
    LIMIT_OVERRIDE
        .with(|c| c.get())
        .unwrap_or(WHOLE_PARSE_LIMIT)
}

/// [`read_str`] with every record parsed one token at a time, whatever its size: for
/// the tests that hold the two parse modes to the same records and diagnostics.
pub fn read_str_tokenwise(file: &str, src: &str) -> Vec<Record> {
    LIMIT_OVERRIDE.with(|c| c.set(Some(0)));
    let out = read_str(file, src);
    LIMIT_OVERRIDE.with(|c| c.set(None));
    out
}

/// `WHITESPACE` of the grammar (implicit between the tokens of non-atomic rules).
fn skip_ws(text: &str, mut pos: usize) -> usize {
    while let Some(c) = text[pos..].chars().next() {
        if matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{FEFF}' | '\u{00A0}') {
            pos += c.len_utf8();
        } else {
            break;
        }
    }
    pos
}

/// One `rule` parsed at `pos` of `text` (its pairs are located in `text[pos..]`) and
/// where the match ends.
fn parse_at(
    rule: Rule,
    text: &str,
    pos: usize,
) -> Result<(pest::iterators::Pairs<'_, Rule>, usize), pest::error::Error<Rule>> {
    let pairs = CtlPgnParser::parse(rule, &text[pos..])?;
    // Every rule asked for here matches as one pair (`element`'s alternatives are
    // all non-silent rules).
    let end = pos + pairs.clone().next().map_or(0, |p| p.as_span().end());
    Ok((pairs, end))
}

/// The record parsed one token at a time with the grammar's own rules, in the order
/// `game` tries them (`tag*`, then `element*`, then `result ~ comment*`, then `EOI`),
/// each token handed to the builder as soon as it is parsed and then dropped: memory
/// is the model's, not pest's tree of the whole record. Accepts exactly what `game`
/// accepts; a syntax error gets the same message, because the failing place is
/// parsed again with `game` from the start of the token before it (pest reports the
/// furthest place any alternative reached, and only that token's alternatives and
/// the failing ones reach there), or, after the result, from the attempts `game`
/// makes there (`comment`, `EOI`). `tests/tokenwise.rs` compares the two modes.
fn read_tokenwise(ctx: &mut Ctx<'_>, text: &str) -> Option<Game> {
    let base = ctx.base;
    let span = Span {
        start: base,
        end: base + text.len(),
        line: ctx.index.line_col(base).0,
        col: 1,
    };
    let mut pos = skip_ws(text, 0);
    // Start of the last token parsed: where a failing parse is replayed from.
    let mut last = 0usize;
    let mut tags = Vec::new();
    // Past MAX_GAME_TAGS no tag is kept and no model built, but the record is parsed to
    // its end: a syntax error anywhere is what the whole parse reports instead.
    let mut first_extra_tag = None;
    while let Ok((pairs, end)) = parse_at(Rule::tag, text, pos) {
        ctx.base = base + pos;
        for p in pairs {
            if tags.len() < MAX_GAME_TAGS {
                tags.push(build_tag(ctx, p));
            } else if first_extra_tag.is_none() {
                first_extra_tag = Some(ctx.base + p.as_span().start());
            }
        }
        last = pos;
        pos = skip_ws(text, end);
    }
    ctx.base = base;
    let mut builder = None;
    if first_extra_tag.is_none() {
        check_tags(ctx, &tags);
        builder = Some(MovetextBuilder::new());
    }
    let mut feed = |ctx: &mut Ctx<'_>, pairs: pest::iterators::Pairs<'_, Rule>, at: usize| {
        if let Some(b) = &mut builder {
            ctx.base = base + at;
            for p in pairs {
                if b.feed(ctx, p).is_none() {
                    // An error of structure: no model. The rest is still parsed, since
                    // a syntax error further on is what the whole parse would report.
                    builder = None;
                    break;
                }
            }
            ctx.base = base;
        }
    };
    // Past MAX_GAME_NODES the rest of the record is not read at all: a record that
    // large never takes the whole-record parse, so no other verdict is owed, and
    // reading on would cost time for a game that is refused anyway.
    let over_cap = |ctx: &Ctx<'_>| ctx.diags.last().is_some_and(|d| d.code == Code::TooLarge);
    while let Ok((pairs, end)) = parse_at(Rule::element, text, pos) {
        feed(ctx, pairs, pos);
        if over_cap(ctx) {
            return None;
        }
        last = pos;
        pos = skip_ws(text, end);
    }
    let mut after_result = false;
    if let Ok((pairs, end)) = parse_at(Rule::result, text, pos) {
        feed(ctx, pairs, pos);
        after_result = true;
        pos = skip_ws(text, end);
        while let Ok((pairs, end)) = parse_at(Rule::comment, text, pos) {
            feed(ctx, pairs, pos);
            if over_cap(ctx) {
                return None;
            }
            pos = skip_ws(text, end);
        }
    }
    if pos < text.len() {
        let err = if after_result {
            // `game` tries `comment` then `EOI` here; nothing before reaches this far.
            let (at, mut positives) = match parse_at(Rule::comment, text, pos) {
                Err(e) => attempts(&e, pos),
                Ok(_) => (pos, Vec::new()),
            };
            if at == pos {
                positives.push(Rule::EOI);
            }
            (at, positives)
        } else {
            match CtlPgnParser::parse(Rule::game, &text[last..]) {
                Err(e) => attempts(&e, last),
                // Not reached: the token-at-a-time parse failed at `pos`.
                Ok(_) => (pos, Vec::new()),
            }
        };
        ctx.diags.clear();
        let (at, positives) = err;
        let e = pest::error::Error::new_from_pos(
            pest::error::ErrorVariant::ParsingError {
                positives,
                negatives: Vec::new(),
            },
            pest::Position::new(text, at).unwrap_or_else(|| pest::Position::from_start(text)),
        );
        syntax_error(ctx, text, &e);
        return None;
    }
    if let Some(at) = first_extra_tag {
        too_many_tags(ctx, at);
        return None;
    }
    let (main, result, final_comments) = builder?.finish(ctx)?;
    Some(Game {
        tags,
        main,
        result,
        final_comments,
        span,
    })
}

/// Where a parse failed (offset in the record, the parse having started at `from`)
/// and the rules it expected there.
fn attempts(e: &pest::error::Error<Rule>, from: usize) -> (usize, Vec<Rule>) {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let positives = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    (from + pos, positives)
}

fn syntax_error(ctx: &mut Ctx<'_>, text: &str, e: &pest::error::Error<Rule>) {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().map(|r| describe(*r)).collect();
            names.sort_unstable();
            names.dedup();
            match names.len() {
                0 => "valid CTL-PGN".to_string(),
                1 => names[0].to_string(),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("{} or {}", names.join(", "), last)
                }
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    // An unterminated comment fails at the end of the record; the useful place is
    // the `{` that opened it.
    if expected == "`}` closing the comment"
        && let Some(open) = unclosed_brace(&text[..pos.min(text.len())])
    {
        ctx.diag_at(
            Severity::Error,
            Code::Syntax,
            ctx.base + open,
            format!(
                "expected `}}` closing this comment, found {}",
                found_at(text, pos)
            ),
        );
        return;
    }
    let found = found_at(text, pos);
    ctx.diag_at(
        Severity::Error,
        Code::Syntax,
        ctx.base + pos,
        format!("expected {expected}, found {found}"),
    );
}

/// Byte offset of the last `{` with no `}` after it.
fn unclosed_brace(text: &str) -> Option<usize> {
    let open = text.rfind('{')?;
    (!text[open..].contains('}')).then_some(open)
}

/// The text at an error position, up to the next whitespace, for messages.
fn found_at(text: &str, pos: usize) -> String {
    let rest = text.get(pos..).unwrap_or("");
    let word: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace())
        .take(24)
        .collect();
    if word.is_empty() {
        if rest.is_empty() {
            "end of input".into()
        } else {
            "end of line".into()
        }
    } else {
        format!("`{word}`")
    }
}

/// Human names of grammar rules for `expected …` messages. Exhaustive, so that a new
/// grammar rule cannot fall back to a vague name unnoticed.
fn describe(r: Rule) -> &'static str {
    match r {
        Rule::file | Rule::tagged_record | Rule::game => "a CTL-PGN record",
        Rule::tag | Rule::tag_name => "a tag",
        Rule::tag_value => "a tag value",
        Rule::movetext | Rule::half | Rule::move_token | Rule::ordinary => "a move",
        Rule::move_number | Rule::number | Rule::number_mark | Rule::black_mark => "a move number",
        Rule::comment | Rule::comment_marker => "a comment",
        Rule::marker_white
        | Rule::marker_black
        | Rule::marker_auto_white
        | Rule::marker_auto_black
        | Rule::marker_auto => "a comment marker",
        Rule::comment_text
        | Rule::reference
        | Rule::move_ref
        | Rule::ref_bracket
        | Rule::player_ref
        | Rule::piece_ref
        | Rule::nag => "`}` closing the comment",
        Rule::rav_open | Rule::rav_label => "`(`",
        Rule::rav_close => "`)`",
        Rule::comma => "`,`",
        Rule::ellipsis => "`…`",
        Rule::result | Rule::result_points | Rule::result_open => {
            "a result (3-0 2-1 1-1 1-2 0-3 *)"
        }
        Rule::check
        | Rule::check_double
        | Rule::check_knight
        | Rule::check_knight_old
        | Rule::check_afar
        | Rule::check_plain
        | Rule::mate => "a check marker",
        Rule::assessment => "an assessment",
        Rule::indicator | Rule::draw_offer | Rule::end_mark => "a game indicator",
        Rule::coord | Rule::column | Rule::line | Rule::from | Rule::to => "a cell",
        Rule::separator | Rule::hyphen | Rule::capture | Rule::near_ep | Rule::far_ep => {
            "a separator"
        }
        Rule::piece_letter | Rule::mover | Rule::captured => "a piece letter",
        Rule::promotion | Rule::await_mark | Rule::forced_promotion => "a promotion",
        Rule::castling
        | Rule::castle_rook
        | Rule::castle_single
        | Rule::castle_side
        | Rule::castle_suffix
        | Rule::castle_double => "a castling",
        Rule::EOI => "end of input",
        Rule::WHITESPACE | Rule::sp => "whitespace",
        Rule::game_body | Rule::element => "a move",
        Rule::tag_end => "`\"]` closing the tag",
        Rule::depth_dots => "`.`",
        Rule::ascii_piece | Rule::fan_piece => "a piece letter",
        Rule::comment_char => "`}` closing the comment",
        Rule::result_dash => "a result (3-0 2-1 1-1 1-2 0-3 *)",
    }
}

fn build_game(ctx: &mut Ctx<'_>, game: Pair<'_, Rule>, len: usize) -> Option<Game> {
    let span = Span {
        start: ctx.base,
        end: ctx.base + len,
        line: ctx.index.line_col(ctx.base).0,
        col: 1,
    };
    let mut tags = Vec::new();
    let mut movetext = None;
    for p in game.into_inner() {
        match p.as_rule() {
            Rule::tag if tags.len() == MAX_GAME_TAGS => {
                too_many_tags(ctx, ctx.base + p.as_span().start());
                return None;
            }
            Rule::tag => tags.push(build_tag(ctx, p)),
            Rule::movetext => movetext = Some(p),
            _ => {}
        }
    }
    check_tags(ctx, &tags);
    let (main, result, final_comments) = match movetext {
        Some(m) => build_movetext(ctx, m)?,
        None => (Line::default(), None, Vec::new()),
    };
    Some(Game {
        tags,
        main,
        result,
        final_comments,
        span,
    })
}

fn build_tag(ctx: &mut Ctx<'_>, p: Pair<'_, Rule>) -> Tag {
    let span = ctx.span(p.as_span());
    let mut name = String::new();
    let mut value = String::new();
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::tag_name => name = q.as_str().to_string(),
            Rule::tag_value => value = q.as_str().to_string(),
            _ => {}
        }
    }
    Tag { name, value, span }
}

fn check_tags(ctx: &mut Ctx<'_>, tags: &[Tag]) {
    if let Some(first) = tags.first() {
        check_variant_tags(ctx, tags, first);
        check_game_tags(ctx, tags);
    }
    if let Some(t) = tags.iter().find(|t| t.name == "Redefine") {
        match LetterTable::from_redefine(&t.value) {
            Ok(l) => ctx.letters = l,
            Err(m) => push_span(ctx, Severity::Error, Code::Redefine, t.span, m),
        }
        if t.value.contains('"') {
            push_span(
                ctx,
                Severity::Note,
                Code::Spelling,
                t.span,
                "stray quote inside the Redefine value ignored".into(),
            );
        }
    }
    for t in tags {
        if t.name == "PDTL" || t.name == "DPTL" {
            push_span(
                ctx,
                Severity::Note,
                Code::Spelling,
                t.span,
                format!("[{}] read as [TLPD]", t.name),
            );
        }
    }
}

/// The `Variant` tag: missing, naming another variant, not first, or repeated.
fn check_variant_tags(ctx: &mut Ctx<'_>, tags: &[Tag], first: &Tag) {
    match tags.iter().find(|t| t.name == "Variant") {
        None => push_span(
            ctx,
            Severity::Warning,
            Code::Tag,
            first.span,
            "no [Variant \"C'escacs\"] tag".into(),
        ),
        Some(v) if v.value != "C'escacs" => push_span(
            ctx,
            Severity::Error,
            Code::Tag,
            v.span,
            format!(
                "expected Variant \"C'escacs\", found \"{}\" (other variants are not supported)",
                v.value
            ),
        ),
        Some(v) if first.name != "Variant" => push_span(
            ctx,
            Severity::Note,
            Code::Tag,
            v.span,
            "Variant is not the first tag".into(),
        ),
        Some(_) => {}
    }
    for v in tags.iter().filter(|t| t.name == "Variant").skip(1) {
        if v.value == "C'escacs" {
            push_span(
                ctx,
                Severity::Warning,
                Code::Tag,
                v.span,
                "Variant tag repeated (the game is still read as one record)".into(),
            );
        } else {
            push_span(
                ctx,
                Severity::Error,
                Code::Tag,
                v.span,
                format!(
                    "repeated Variant tag names \"{}\", not \"C'escacs\" (other variants are not supported)",
                    v.value
                ),
            );
        }
    }
}

/// A `Game` tag naming another game: its moves are not C'escacs moves.
fn check_game_tags(ctx: &mut Ctx<'_>, tags: &[Tag]) {
    for g in tags
        .iter()
        .filter(|t| t.name == "Game" && crate::games::names_another_game(&t.name, &t.value))
    {
        push_span(
            ctx,
            Severity::Error,
            Code::Tag,
            g.span,
            format!(
                "[Game \"{}\"] names a game this reader does not implement (only C'escacs)",
                g.value
            ),
        );
    }
}

fn push_span(ctx: &mut Ctx<'_>, severity: Severity, code: Code, span: Span, message: String) {
    ctx.diags.push(Diagnostic {
        severity,
        code,
        file: ctx.file.to_string(),
        game: ctx.game,
        line: span.line,
        col: span.col,
        message,
    });
}

/// Numbering state of one line being built (by this reader and by `fast`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// Nothing yet: a number (or, tolerated, a bare move) comes next.
    Start,
    /// After `n.`: White's move or an ellipsis.
    White,
    /// After `n. …` or `n...`: Black's move, a comma allowed first.
    BlackAfterEllipsis,
    /// After White's move: `,` then Black's move.
    Comma,
    /// After the comma: Black's move.
    Black,
    /// After Black's move: the next number.
    Number,
}

pub(crate) struct Frame {
    pub(crate) line: Line,
    pub(crate) label: Option<u32>,
    pub(crate) open: Span,
    pub(crate) number: u32,
    pub(crate) side: Side,
    pub(crate) expect: Expect,
    pub(crate) unknown: bool,
    /// Whether the last number token was written, for numbering checks.
    pub(crate) started: bool,
    /// Number and side of the line's last move: where a variation without a number
    /// starts. Kept here because finding it in `line` costs a scan past every
    /// variation after that move (quadratic on thousands of sibling variations).
    pub(crate) last_move: Option<(u32, Side)>,
}

impl Frame {
    pub(crate) fn new(open: Span, label: Option<u32>, number: u32, side: Side) -> Self {
        Frame {
            line: Line::default(),
            label,
            open,
            number,
            side,
            expect: Expect::Start,
            unknown: false,
            started: false,
            last_move: None,
        }
    }
}

type Built = (Line, Option<GameResult>, Vec<Comment>);

fn build_movetext(ctx: &mut Ctx<'_>, m: Pair<'_, Rule>) -> Option<Built> {
    let mut b = MovetextBuilder::new();
    for p in m.into_inner() {
        b.feed(ctx, p)?;
    }
    b.finish(ctx)
}

/// Builds the line tree from the movetext's tokens, one at a time: the whole-record
/// parse feeds it the children of `movetext`, the token-at-a-time parse
/// ([`read_tokenwise`]) each token as soon as it is parsed, so that neither keeps
/// more than the model and the open variations.
struct MovetextBuilder {
    stack: Vec<Frame>,
    result: Option<GameResult>,
    final_comments: Vec<Comment>,
    /// Moves, comments and variations read so far (see [`MAX_GAME_NODES`]).
    nodes: usize,
}

impl MovetextBuilder {
    fn new() -> Self {
        MovetextBuilder {
            stack: vec![Frame::new(Span::default(), None, 1, Side::White)],
            result: None,
            final_comments: Vec::new(),
            nodes: 0,
        }
    }

    /// Counts one node at `pspan`; `None` (with the error) past [`MAX_GAME_NODES`].
    fn count(&mut self, ctx: &mut Ctx<'_>, pspan: pest::Span<'_>) -> Option<()> {
        self.nodes += 1;
        if self.nodes > MAX_GAME_NODES {
            ctx.diag(
                Severity::Error,
                Code::TooLarge,
                pspan,
                format!(
                    "game larger than {MAX_GAME_NODES} moves, comments and variations: not read"
                ),
            );
            return None;
        }
        Some(())
    }

    /// Takes one token. `None` after an error (reported in `ctx`): the record has no
    /// model, and no more tokens are to be fed.
    fn feed(&mut self, ctx: &mut Ctx<'_>, p: Pair<'_, Rule>) -> Option<()> {
        let rule = p.as_rule();
        let pspan = p.as_span();
        if matches!(rule, Rule::comment | Rule::rav_open | Rule::half) {
            self.count(ctx, pspan)?;
        }
        if self.result.is_some() {
            if rule == Rule::comment {
                self.final_comments.push(build_comment(ctx, p));
            }
            return Some(());
        }
        let stack = &mut self.stack;
        match rule {
            Rule::comment => {
                let c = build_comment(ctx, p);
                top(stack).line.items.push(Item::Comment(c));
            }
            Rule::result => self.result = Some(result_token(ctx, stack, p)?),
            Rule::rav_open => open_variation(ctx, stack, p)?,
            Rule::rav_close => close_variation(ctx, stack, pspan)?,
            Rule::move_number => number_token(ctx, top(stack), p)?,
            Rule::ellipsis => ellipsis_token(ctx, top(stack), p)?,
            Rule::comma => comma_token(ctx, top(stack), pspan)?,
            Rule::half => {
                let node = build_half(ctx, p, top(stack))?;
                let f = top(stack);
                f.last_move = Some((node.number, node.side));
                f.line.items.push(Item::Move(node));
            }
            _ => {}
        }
        Some(())
    }

    /// The main line, the result and the comments after it, once every token is fed.
    fn finish(mut self, ctx: &mut Ctx<'_>) -> Option<Built> {
        let stack = &mut self.stack;
        if stack.len() > 1 {
            let open = top(stack).open;
            push_span(
                ctx,
                Severity::Error,
                Code::Structure,
                open,
                "expected `)`, found end of record (variation not closed)".into(),
            );
            return None;
        }
        let f = stack.pop()?;
        Some((f.line, self.result, self.final_comments))
    }
}

fn top(stack: &mut [Frame]) -> &mut Frame {
    // The stack always holds the main-line frame: it is created first and only
    // variation frames are popped.
    let n = stack.len() - 1;
    &mut stack[n]
}

/// The game-termination marker: refused inside a variation; a spelling other than
/// the standard one is noted.
fn result_token(ctx: &mut Ctx<'_>, stack: &mut [Frame], p: Pair<'_, Rule>) -> Option<GameResult> {
    let pspan = p.as_span();
    let s = p.as_str();
    if stack.len() > 1 {
        let open = top(stack).open;
        ctx.diag(
            Severity::Error,
            Code::Structure,
            pspan,
            format!(
                "expected `)` closing the variation opened at {}:{}, found the result `{s}`",
                open.line, open.col
            ),
        );
        return None;
    }
    let r = GameResult::parse(s).unwrap_or(GameResult::Unfinished);
    if r.as_str() != s {
        ctx.diag(
            Severity::Note,
            Code::Spelling,
            pspan,
            format!("result `{s}` read as `{r}`"),
        );
    }
    Some(r)
}

/// A `(`, with its optional label: a new frame starting where the variation's first
/// move stands.
fn open_variation(ctx: &mut Ctx<'_>, stack: &mut Vec<Frame>, p: Pair<'_, Rule>) -> Option<()> {
    let pspan = p.as_span();
    if stack.len() > MAX_VARIATION_DEPTH {
        ctx.diag(
            Severity::Error,
            Code::TooDeep,
            pspan,
            format!("variations nested deeper than {MAX_VARIATION_DEPTH} levels are not read"),
        );
        return None;
    }
    let label = p
        .into_inner()
        .find(|q| q.as_rule() == Rule::rav_label)
        .and_then(|q| q.into_inner().next())
        .map(|n| n.as_str().parse().unwrap_or(u32::MAX));
    let parent = top(stack);
    // Without a number, a variation replaces the most recent half-move.
    let (number, side) = parent.last_move.unwrap_or((parent.number, parent.side));
    let open = ctx.span(pspan);
    stack.push(Frame::new(open, label, number, side));
    Some(())
}

/// A `)`: the variation's frame becomes a variation of its parent line; refused when
/// no variation is open or the variation holds no move.
fn close_variation(ctx: &mut Ctx<'_>, stack: &mut Vec<Frame>, pspan: pest::Span<'_>) -> Option<()> {
    if stack.len() == 1 {
        ctx.diag(
            Severity::Error,
            Code::Structure,
            pspan,
            "expected a move, found `)` closing no variation".into(),
        );
        return None;
    }
    let f = stack.pop()?;
    let close_end = ctx.span(pspan).end;
    if f.last_move.is_none() {
        ctx.diag(
            Severity::Error,
            Code::Structure,
            pspan,
            "expected a move, found `)` (empty variation)".into(),
        );
        return None;
    }
    let mut vspan = f.open;
    vspan.end = close_end;
    top(stack).line.items.push(Item::Variation(Variation {
        label: f.label,
        line: f.line,
        span: vspan,
    }));
    Some(())
}

/// An ellipsis (`...`, `…`): only right after a move number, and then Black moves.
fn ellipsis_token(ctx: &mut Ctx<'_>, f: &mut Frame, p: Pair<'_, Rule>) -> Option<()> {
    const MISPLACED: &str =
        "expected a move, found `…` (an ellipsis stands only after a move number)";
    let pspan = p.as_span();
    // A token of several `...` (see the grammar): the second one is where an
    // ellipsis comes after another one.
    let text = p.as_str();
    if let Some(second) = text.get(3..).and_then(|r| r.find("..."))
        && f.expect == Expect::White
    {
        let at = pspan.start() + 3 + second;
        ctx.diag_at(
            Severity::Error,
            Code::Structure,
            ctx.base + at,
            MISPLACED.into(),
        );
        return None;
    }
    if f.expect != Expect::White {
        ctx.diag(Severity::Error, Code::Structure, pspan, MISPLACED.into());
        return None;
    }
    f.side = Side::Black;
    f.expect = Expect::BlackAfterEllipsis;
    Some(())
}

/// The `,` between White's and Black's moves.
fn comma_token(ctx: &mut Ctx<'_>, f: &mut Frame, pspan: pest::Span<'_>) -> Option<()> {
    match f.expect {
        Expect::Comma => f.expect = Expect::Black,
        Expect::BlackAfterEllipsis => {}
        _ => {
            ctx.diag(
                Severity::Error,
                Code::Structure,
                pspan,
                "expected a move or a move number, found `,`".into(),
            );
            return None;
        }
    }
    Some(())
}

fn number_token(ctx: &mut Ctx<'_>, f: &mut Frame, p: Pair<'_, Rule>) -> Option<()> {
    let pspan = p.as_span();
    let mut number = 0u32;
    let mut mark = ".";
    let mut black = false;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::number => number = q.as_str().parse().unwrap_or(u32::MAX),
            Rule::number_mark => {
                mark = q.as_str();
                black = q.into_inner().any(|r| r.as_rule() == Rule::black_mark);
            }
            _ => {}
        }
    }
    if matches!(
        f.expect,
        Expect::White | Expect::BlackAfterEllipsis | Expect::Black
    ) {
        ctx.diag(
            Severity::Error,
            Code::Structure,
            pspan,
            format!(
                "expected a move, found the move number `{}`",
                pspan.as_str().trim()
            ),
        );
        return None;
    }
    let side = if black { Side::Black } else { Side::White };
    let n = f.number;
    if f.started && matches!(f.expect, Expect::Comma | Expect::Number) && n != number {
        ctx.diag(
            Severity::Warning,
            Code::Numbering,
            pspan,
            format!("move number {number} does not follow the previous move ({n})"),
        );
    }
    f.number = number;
    f.unknown = mark == "?";
    f.started = true;
    f.side = side;
    f.expect = if black {
        Expect::BlackAfterEllipsis
    } else {
        Expect::White
    };
    Some(())
}

fn build_half(ctx: &mut Ctx<'_>, p: Pair<'_, Rule>, f: &mut Frame) -> Option<MoveNode> {
    let pspan = p.as_span();
    match f.expect {
        Expect::Start | Expect::Number if f.started => ctx.diag(
            Severity::Note,
            Code::Numbering,
            pspan,
            "move without a move number".into(),
        ),
        Expect::Comma => ctx.diag(
            Severity::Note,
            Code::Spelling,
            pspan,
            "Black's move without the `,` after White's".into(),
        ),
        _ => {}
    }
    let side = match f.expect {
        Expect::Start | Expect::Number | Expect::White => {
            if f.expect == Expect::White {
                Side::White
            } else {
                f.side
            }
        }
        Expect::BlackAfterEllipsis | Expect::Comma | Expect::Black => Side::Black,
    };
    let mut token = None;
    let mut check = None;
    let mut assessment = None;
    let mut draw_offer = false;
    let mut end_mark = false;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::move_token => token = Some(build_token(ctx, q, side)?),
            Rule::check => check = build_check(ctx, q),
            Rule::assessment => assessment = Assessment::from_str(q.as_str()),
            Rule::indicator => {
                for r in q.into_inner() {
                    match r.as_rule() {
                        Rule::draw_offer => draw_offer = true,
                        Rule::end_mark => end_mark = true,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    let token = token?;
    let node = MoveNode {
        number: f.number,
        side,
        number_unknown: f.unknown,
        token,
        check,
        assessment,
        draw_offer,
        end_mark,
        span: ctx.span(pspan),
    };
    f.unknown = false;
    f.started = true;
    match side {
        Side::White => {
            f.side = Side::Black;
            f.expect = Expect::Comma;
        }
        Side::Black => {
            f.side = Side::White;
            f.number = f.number.saturating_add(1);
            f.expect = Expect::Number;
        }
    }
    Some(node)
}

fn build_check(ctx: &mut Ctx<'_>, q: Pair<'_, Rule>) -> Option<CheckMark> {
    let inner = q.into_inner().next()?;
    Some(match inner.as_rule() {
        Rule::check_double => CheckMark::Double,
        Rule::check_knight => CheckMark::Unblockable,
        Rule::check_knight_old => {
            ctx.diag(
                Severity::Warning,
                Code::Spelling,
                inner.as_span(),
                "old check marker `^+` read as `+^`".into(),
            );
            CheckMark::Unblockable
        }
        Rule::check_afar => CheckMark::Afar,
        Rule::mate => CheckMark::Mate,
        _ => CheckMark::Check,
    })
}

fn letter(ctx: &mut Ctx<'_>, q: &Pair<'_, Rule>, side: Side) -> Option<PieceKind> {
    let s = q.as_str();
    match ctx.letters.read(s) {
        Some(LetterRead::Ok(k)) => Some(k),
        Some(LetterRead::Fan(k, glyph_side)) => {
            if glyph_side != side {
                ctx.diag(
                    Severity::Warning,
                    Code::Letter,
                    q.as_span(),
                    format!("FAN glyph `{s}` has the wrong colour here"),
                );
            }
            Some(k)
        }
        Some(LetterRead::Invalid(k, why)) => {
            ctx.diag(
                Severity::Error,
                Code::Letter,
                q.as_span(),
                format!(
                    "expected a piece letter of this record, found `{s}` ({} : {why})",
                    k.standard_letter()
                ),
            );
            None
        }
        None => {
            ctx.diag(
                Severity::Error,
                Code::Letter,
                q.as_span(),
                format!("expected a piece letter, found `{s}`"),
            );
            None
        }
    }
}

fn build_token(ctx: &mut Ctx<'_>, p: Pair<'_, Rule>, side: Side) -> Option<MoveToken> {
    let inner = p.into_inner().next()?;
    match inner.as_rule() {
        Rule::ordinary => {
            let mut mover = None;
            let mut from = None;
            let mut to = None;
            let mut sep = Separator::Move;
            let mut captured = None;
            let mut promotion = None;
            for q in inner.into_inner() {
                match q.as_rule() {
                    Rule::mover => mover = Some(letter(ctx, &q, side)?),
                    Rule::captured => captured = Some(letter(ctx, &q, side.opponent())?),
                    Rule::from => from = CellName::new(q.as_str()),
                    Rule::to => to = CellName::new(q.as_str()),
                    Rule::separator => sep = build_sep(ctx, q)?,
                    Rule::promotion => {
                        let r = q.into_inner().next()?;
                        promotion = Some(if r.as_rule() == Rule::await_mark {
                            Promotion::Awaiting
                        } else {
                            Promotion::To(letter(ctx, &r, side)?)
                        });
                    }
                    _ => {}
                }
            }
            Some(MoveToken::Ordinary {
                mover,
                from: from?,
                sep,
                captured,
                to: to?,
                promotion,
            })
        }
        Rule::forced_promotion => {
            let mut cell = None;
            let mut piece = None;
            for q in inner.into_inner() {
                match q.as_rule() {
                    Rule::coord => cell = CellName::new(q.as_str()),
                    Rule::piece_letter => piece = Some(letter(ctx, &q, side)?),
                    _ => {}
                }
            }
            Some(MoveToken::ForcedPromotion {
                cell: cell?,
                piece: piece?,
            })
        }
        Rule::castling => build_castling(ctx, inner),
        _ => None,
    }
}

fn build_sep(ctx: &mut Ctx<'_>, q: Pair<'_, Rule>) -> Option<Separator> {
    let s = q.as_str();
    let r = q.into_inner().next()?;
    let sep = match r.as_rule() {
        Rule::far_ep => Separator::FarEp,
        Rule::near_ep => Separator::NearEp,
        Rule::capture => Separator::Capture,
        _ => Separator::Move,
    };
    if s != sep.as_str() && s != "‐" {
        ctx.diag(
            Severity::Note,
            Code::Spelling,
            r.as_span(),
            format!("separator `{s}` read as `{}`", sep.as_str()),
        );
    }
    Some(sep)
}

fn build_castling(ctx: &mut Ctx<'_>, p: Pair<'_, Rule>) -> Option<MoveToken> {
    let span = p.as_span();
    let rook_letter = if ctx.letters.is_fan() {
        'R'
    } else {
        ctx.letters.letter(PieceKind::Rook)
    };
    let mut ok = true;
    let mut result = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::castle_rook => ok &= q.as_str().starts_with(rook_letter),
            Rule::castle_single => {
                let mut king_side = true;
                let mut columns = String::new();
                let mut suffix = String::new();
                for r in q.into_inner() {
                    match r.as_rule() {
                        Rule::castle_side => {
                            let queen = ctx.letters.letter(PieceKind::Queen);
                            king_side = r.as_str() == "K";
                            // `KRD` names the Queen's side; Q is read only under `Q@D`.
                            ok &= king_side || r.as_str() == "D" || r.as_str().starts_with(queen);
                        }
                        Rule::column => columns.push_str(r.as_str()),
                        Rule::castle_suffix => suffix = r.as_str().to_string(),
                        _ => {}
                    }
                }
                result = Some(Castling::Single {
                    king_side,
                    columns,
                    suffix,
                });
            }
            Rule::castle_double => {
                let mut columns = String::new();
                for r in q.into_inner() {
                    match r.as_rule() {
                        Rule::castle_rook => ok &= r.as_str().starts_with(rook_letter),
                        Rule::column => columns.push_str(r.as_str()),
                        _ => {}
                    }
                }
                result = Some(Castling::Double { columns });
            }
            _ => {}
        }
    }
    if !ok {
        ctx.diag(
            Severity::Error,
            Code::Letter,
            span,
            format!(
                "expected castling with rook letter {rook_letter}, found `{}`",
                span.as_str()
            ),
        );
        return None;
    }
    result.map(|c| MoveToken::Castling(Box::new(c)))
}

fn build_comment(ctx: &mut Ctx<'_>, p: Pair<'_, Rule>) -> Comment {
    let span = ctx.span(p.as_span());
    let mut kind = CommentKind::General;
    let mut text = String::new();
    let mut references = Vec::new();
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::comment_marker => {
                if let Some(m) = q.into_inner().next() {
                    let s = m.as_str();
                    kind = match m.as_rule() {
                        Rule::marker_white => CommentKind::White,
                        Rule::marker_black => CommentKind::Black,
                        Rule::marker_auto_white => CommentKind::AutoWhite,
                        Rule::marker_auto_black => CommentKind::AutoBlack,
                        _ => CommentKind::Auto,
                    };
                    if s != kind.marker() {
                        ctx.diag(
                            Severity::Note,
                            Code::Spelling,
                            m.as_span(),
                            format!("comment marker `{s}` read as `{}`", kind.marker()),
                        );
                    }
                }
            }
            Rule::comment_text => {
                let base = q.as_span().start();
                text = q.as_str().to_string();
                for r in q.into_inner() {
                    let kind = match r.clone().into_inner().next().map(|x| x.as_rule()) {
                        Some(Rule::move_ref) => ReferenceKind::Move,
                        Some(Rule::player_ref) => ReferenceKind::Player,
                        Some(Rule::piece_ref) => ReferenceKind::Piece,
                        _ => ReferenceKind::Nag,
                    };
                    references.push(Reference {
                        kind,
                        text: r.as_str().to_string(),
                        offset: r.as_span().start() - base,
                    });
                }
            }
            _ => {}
        }
    }
    Comment {
        kind,
        text,
        references,
        span,
    }
}
