//! Canonical writer (spec §2.2 tag order, §3 export layout) and the seed's XML form.

use std::borrow::Cow;

use xiangqi::{Position, Side};

use crate::model::{Game, Line};
use crate::notation::{MoveStyle, render};

const LINE_WIDTH: usize = 80;

const SEVEN: [&str; 7] = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];

/// A tag value as the PGN writer writes it (before `\\`/`"` escaping): a tag pair
/// holds one line, so line breaks become spaces. Reading the written tag gives back
/// exactly this string.
pub(crate) fn pgn_tag_value(v: &str) -> Cow<'_, str> {
    if v.contains(['\n', '\r']) {
        Cow::Owned(v.replace("\r\n", " ").replace(['\n', '\r'], " "))
    } else {
        Cow::Borrowed(v)
    }
}

/// A tag name as the PGN writer writes it: full-width ASCII folded (as the reader
/// folds it), characters that would end the name (white space, `"`, brackets, braces,
/// parentheses, `;`, `%`) made `_`; an empty name is `_`.
pub(crate) fn pgn_tag_name(n: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_whitespace() || "\"[]{}();%".contains(c);
    let folded = crate::notation::fold_fullwidth(n);
    if n.is_empty() {
        Cow::Borrowed("_")
    } else if folded.contains(bad) {
        Cow::Owned(
            folded
                .chars()
                .map(|c| if bad(c) { '_' } else { c })
                .collect(),
        )
    } else if folded != n {
        Cow::Owned(folded)
    } else {
        Cow::Borrowed(n)
    }
}

fn escape_tag(v: &str) -> String {
    pgn_tag_value(v).replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment as the PGN writer writes it, which is what reading it back gives:
/// line breaks normalised to `\n`, outer white space trimmed (the reader trims),
/// blank lines dropped (a blank line inside a game misleads splitters), and a line
/// break before a line that looks like a tag pair (`[Name "…"]`, which the reader
/// takes as the start of the next game after an unclosed comment) made a space. A
/// comment holding `}` cannot be a brace comment: it is written as a `;` comment, one
/// line, its line breaks as spaces.
pub(crate) fn pgn_comment(c: &str) -> Cow<'_, str> {
    let unified;
    let text = if c.contains('\r') {
        unified = c.replace("\r\n", "\n").replace('\r', "\n");
        unified.as_str()
    } else {
        c
    };
    let trimmed = text.trim();
    let out = if trimmed.contains('}') {
        trimmed
            .split('\n')
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        let mut out = String::with_capacity(trimmed.len());
        for (i, l) in trimmed
            .split('\n')
            .filter(|l| !l.trim().is_empty())
            .enumerate()
        {
            if i > 0 {
                out.push(if crate::lexer::is_tag_line(l) {
                    ' '
                } else {
                    '\n'
                });
            }
            out.push_str(l);
        }
        out
    };
    if out == c {
        Cow::Borrowed(c)
    } else {
        Cow::Owned(out)
    }
}

/// A NAG or glyph the writer can write (`$n`, or `!`/`?` runs); others are left out.
pub(crate) fn pgn_nag_writable(n: &str) -> bool {
    let digits = n.strip_prefix('$');
    match digits {
        Some(d) => !d.is_empty() && d.len() <= 3 && d.bytes().all(|b| b.is_ascii_digit()),
        None => !n.is_empty() && n.len() <= 2 && n.chars().all(|c| c == '!' || c == '?'),
    }
}

/// The result token written: one of `1-0`, `0-1`, `1/2-1/2`, `*` (anything else is
/// written as `*`).
pub(crate) fn pgn_result(r: &str) -> &str {
    match r {
        "1-0" | "0-1" | "1/2-1/2" | "*" => r,
        _ => "*",
    }
}

#[cfg(test)]
/// What writing `game` as PGN changes, one message per change (tag values or names
/// that cannot be written as they are, comments normalised, NAGs left out, an
/// unknown result): empty when reading the written game gives back the same game.
pub(crate) fn pgn_changes(game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    for (n, v) in &game.tags {
        if pgn_tag_name(n) != n.as_str() {
            out.push(format!("tag name {n:?} written as {:?}", pgn_tag_name(n)));
        }
        if pgn_tag_value(v) != v.as_str() {
            out.push(format!(
                "tag {n}: line breaks in the value written as spaces"
            ));
        }
    }
    if pgn_result(&game.result) != game.result {
        out.push(format!("result {:?} written as *", game.result));
    }
    fn walk(line: &Line, out: &mut Vec<String>) {
        let comments = line
            .leading_comments
            .iter()
            .chain(line.moves.iter().flat_map(|m| m.comments.iter()));
        for c in comments {
            if pgn_comment(c) != c.as_str() {
                out.push(format!("comment {:?} written as {:?}", c, pgn_comment(c)));
            }
        }
        for m in &line.moves {
            for n in &m.nags {
                if !pgn_nag_writable(n) {
                    out.push(format!("annotation {n:?} left out"));
                }
            }
            for v in &m.variations {
                walk(v, out);
            }
        }
    }
    walk(&game.line, &mut out);
    out
}

/// Tags in canonical order (spec §2.2), `Format` set to the written notation.
pub fn canonical_tags(game: &Game, style: &MoveStyle) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![("Game".into(), "Chinese Chess".into())];
    let get = |n: &str| game.tag(n).map(|s| s.to_string());
    let mut used = vec!["game", "format", "fen", "white"];
    for name in SEVEN {
        if name == "Red" {
            if let Some(v) = get("RedTeam").filter(|v| !v.is_empty()) {
                out.push(("RedTeam".into(), v));
            }
            used.push("redteam");
        }
        if name == "Black" {
            if let Some(v) = get("BlackTeam").filter(|v| !v.is_empty()) {
                out.push(("BlackTeam".into(), v));
            }
            used.push("blackteam");
        }
        let v = match (name, get(name)) {
            ("Red", None) => get("White").unwrap_or_else(|| "?".into()),
            ("Result", _) => pgn_result(&game.result).to_string(),
            (_, Some(v)) => v,
            ("Date", None) => "????.??.??".into(),
            (_, None) => "?".into(),
        };
        out.push((name.into(), v));
    }
    used.extend(["event", "site", "date", "round", "red", "black", "result"]);
    for name in ["Opening", "Variation", "ECCO"] {
        if let Some(v) = get(name) {
            out.push((name.into(), v));
        }
        used.push(match name {
            "Opening" => "opening",
            "Variation" => "variation",
            _ => "ecco",
        });
    }
    if game.start != Position::initial() || game.start.side_to_move() == Side::Black {
        // Keep the source spelling (`r` or `w`) when it still describes the start.
        let fen = get("FEN")
            .filter(|f| Position::from_fen(f).ok().as_ref() == Some(&game.start))
            .unwrap_or_else(|| game.start.to_fen());
        out.push(("FEN".into(), fen));
    }
    out.push(("Format".into(), style.notation.tag_value().into()));
    for (n, v) in &game.tags {
        let lower = n.to_ascii_lowercase();
        if !used.contains(&lower.as_str()) {
            out.push((n.clone(), v.clone()));
        }
    }
    out
}

/// Movetext tokens in one string: each token a range of it, with the parentheses of
/// the variations it opens and closes glued to it (written without a string per
/// token: the writer's hot path spells every move).
#[derive(Default)]
struct Tokens {
    text: String,
    toks: Vec<Token>,
}

struct Token {
    start: usize,
    end: usize,
    /// `(` written before the token.
    opens: usize,
    /// `)` written after it.
    closes: usize,
}

impl Tokens {
    /// Ends the token whose text was appended since `start`.
    fn end(&mut self, start: usize) {
        self.toks.push(Token {
            start,
            end: self.text.len(),
            opens: 0,
            closes: 0,
        });
    }

    fn push(&mut self, t: &str) {
        let start = self.text.len();
        self.text.push_str(t);
        self.end(start);
    }

    /// `12.` or `12...`, digit by digit.
    fn number(&mut self, n: u32, dots: &str) {
        let start = self.text.len();
        let mut buf = [0u8; 10];
        let mut at = buf.len();
        let mut n = n;
        loop {
            at -= 1;
            buf[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &buf[at..] {
            self.text.push(char::from(d));
        }
        self.text.push_str(dots);
        self.end(start);
    }

    /// A comment as a movetext token (see [`pgn_comment`]): `{…}`, or, when the text
    /// holds a `}` (which a brace comment cannot), a `;` comment to the end of the line.
    fn comment(&mut self, c: &str) {
        let c = pgn_comment(c);
        let start = self.text.len();
        if c.contains('}') {
            self.text.push(';');
            self.text.push_str(&c);
            self.text.push('\n');
        } else {
            self.text.push('{');
            self.text.push_str(&c);
            self.text.push('}');
        }
        self.end(start);
    }
}

/// Characters of a token's text (nearly always ASCII).
fn chars(t: &str) -> usize {
    if t.is_ascii() {
        t.len()
    } else {
        t.chars().count()
    }
}

/// Movetext tokens of a line; `(` and `)` are glued to the first and last token.
fn line_tokens(line: &Line, start: &Position, style: &MoveStyle, numbers: bool, out: &mut Tokens) {
    let mut pos = start.clone();
    let mut need_number = true;
    for c in &line.leading_comments {
        out.comment(c);
    }
    for node in &line.moves {
        let n = pos.fullmove_number();
        match pos.side_to_move() {
            _ if !numbers => {}
            Side::Red => out.number(n, "."),
            Side::Black if need_number => out.number(n, "..."),
            Side::Black => {}
        }
        let at = out.text.len();
        crate::notation::render_into(&pos, node.mv, style, &mut out.text);
        out.end(at);
        need_number = false;
        if style.annotate_ambiguous
            && style.notation == crate::notation::Notation::Chinese
            && crate::notation::tandem_order_sensitive(&pos, node.mv)
        {
            let iccs = node.mv.to_iccs();
            // A game read from an annotated file already holds the note as its first
            // comment: written again, it is not doubled (write ∘ read is the identity).
            if node.comments.first() != Some(&iccs) {
                let at = out.text.len();
                out.text.push('{');
                out.text.push_str(&iccs);
                out.text.push('}');
                out.end(at);
                need_number = true;
            }
        }
        for g in node.nags.iter().filter(|g| pgn_nag_writable(g)) {
            out.push(g);
        }
        for c in &node.comments {
            out.comment(c);
            need_number = true;
        }
        for v in &node.variations {
            // Written in place (no per-level copy: nesting depth does not multiply
            // the cost), then the parentheses glued to its first and last token.
            let from = out.toks.len();
            line_tokens(v, &pos, style, numbers, out);
            if out.toks.len() > from {
                out.toks[from].opens += 1;
                if let Some(last) = out.toks.last_mut() {
                    last.closes += 1;
                }
            }
            need_number = true;
        }
        pos.play(node.mv);
    }
}

/// The tokens packed into lines of at most `width_limit` characters (a longer token
/// makes a longer line), appended to `s`.
fn wrap(tokens: &Tokens, width_limit: usize, s: &mut String) {
    let mut width = 0;
    for t in &tokens.toks {
        let text = &tokens.text[t.start..t.end];
        let w = t.opens + chars(text) + t.closes;
        if width > 0 && width + 1 + w > width_limit {
            s.push('\n');
            width = 0;
        } else if width > 0 {
            s.push(' ');
            width += 1;
        }
        for _ in 0..t.opens {
            s.push('(');
        }
        s.push_str(text);
        for _ in 0..t.closes {
            s.push(')');
        }
        // Comments may hold newlines; count the text after the last one.
        width = match text.rfind('\n') {
            Some(i) => chars(&text[i + 1..]) + t.closes,
            None => width + w,
        };
    }
    s.push('\n');
}

/// The layout of the movetext [`write_game_with`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteLayout {
    /// Lines are packed up to this many characters (a longer token makes a longer line).
    pub line_width: usize,
    /// Move numbers (`12.`, `12...`); without them, pgn-extract's `--nomovenumbers`.
    pub move_numbers: bool,
    /// The result marker at the end (the `Result` tag is written either way).
    pub result_marker: bool,
}

impl Default for WriteLayout {
    fn default() -> Self {
        WriteLayout {
            line_width: LINE_WIDTH,
            move_numbers: true,
            result_marker: true,
        }
    }
}

/// Writes one game as PGN in `style`, ending with a blank line.
pub fn write_game(game: &Game, style: &MoveStyle) -> String {
    write_game_with(game, style, &WriteLayout::default())
}

/// [`write_game`] with a movetext layout other than the default (80 characters, move
/// numbers and result marker).
pub fn write_game_with(game: &Game, style: &MoveStyle, layout: &WriteLayout) -> String {
    let mut s = String::new();
    for (n, v) in canonical_tags(game, style) {
        s.push('[');
        s.push_str(&pgn_tag_name(&n));
        s.push_str(" \"");
        s.push_str(&escape_tag(&v));
        s.push_str("\"]\n");
    }
    s.push('\n');
    let mut toks = Tokens::default();
    line_tokens(
        &game.line,
        &game.start,
        style,
        layout.move_numbers,
        &mut toks,
    );
    if layout.result_marker {
        toks.push(pgn_result(&game.result));
    }
    wrap(&toks, layout.line_width.max(1), &mut s);
    s.push('\n');
    s
}

/// Writes several games (one blank line between games).
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a Game>, style: &MoveStyle) -> String {
    games.into_iter().map(|g| write_game(g, style)).collect()
}

fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '&' => o.push_str("&amp;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            _ => o.push(c),
        }
    }
    o
}

/// Characters XML 1.0 text cannot hold as they are: C0 controls (a parser rejects
/// them, even as character references), CR (a parser turns it into LF), U+FFFE/U+FFFF.
fn xml_unsafe(c: char) -> bool {
    (c < ' ' && c != '\t' && c != '\n') || c == '\u{FFFE}' || c == '\u{FFFF}'
}

/// Text for an element: escaped markup, and, when the text holds a character XML
/// cannot carry, the attribute ` escaped="1"` with `\` written `\\` and each such
/// character written `\u{hex}` (decode with `xml_unescape` in the tests).
fn xml_text(s: &str) -> (&'static str, String) {
    if s.chars().any(xml_unsafe) {
        (" escaped=\"1\"", xml_escape(&xml_backslashed(s)))
    } else {
        ("", xml_escape(s))
    }
}

/// In an attribute value a parser also turns tab and line feed into spaces.
fn xml_attr_unsafe(c: char) -> bool {
    xml_unsafe(c) || c == '\t' || c == '\n'
}

/// The backslash form of `escaped="1"` text.
fn xml_backslashed(s: &str) -> String {
    xml_backslashed_by(s, xml_unsafe)
}

fn xml_backslashed_by(s: &str, is_unsafe: fn(char) -> bool) -> String {
    let mut e = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => e.push_str("\\\\"),
            c if is_unsafe(c) => e.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => e.push(c),
        }
    }
    e
}

#[cfg(test)]
/// Reverses the `escaped="1"` form of the XML writer: `\\` is `\`, `\u{hex}` the
/// character of that code.
pub(crate) fn xml_unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 1..];
        if let Some(t) = tail.strip_prefix('\\') {
            out.push('\\');
            rest = t;
        } else if let Some(code) = tail
            .strip_prefix("u{")
            .and_then(|t| t.split_once('}'))
            .and_then(|(h, t)| Some((char::from_u32(u32::from_str_radix(h, 16).ok()?)?, t)))
        {
            out.push(code.0);
            rest = code.1;
        } else {
            out.push('\\');
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Element names of the XML form itself: a tag with one of these names would read as
/// a move, a comment or the end of the game, so it is written as `<tag name="…">`.
const XML_STRUCTURE: [&str; 8] = [
    "pgn",
    "pgns",
    "move",
    "nag",
    "comment",
    "variation",
    "end",
    "tag",
];

// Tag names become element names; anything that is not a safe XML name (or is one of
// the form's own elements) is written as a generic <tag name="..."> element so no tag
// is lost or taken for something else.
fn xml_name(n: &str) -> Option<String> {
    let l = n.to_lowercase();
    let ok = l.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && l.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !l.starts_with("xml")
        && !XML_STRUCTURE.contains(&l.as_str());
    ok.then_some(l)
}

fn xml_element(indent: &str, name: &str, text: &str, out: &mut String) {
    let (attr, body) = xml_text(text);
    out.push_str(&format!("{indent}<{name}{attr}>{body}</{name}>\n"));
}

fn xml_line(line: &Line, start: &Position, style: &MoveStyle, indent: &str, out: &mut String) {
    let mut pos = start.clone();
    for c in &line.leading_comments {
        xml_element(indent, "comment", c, out);
    }
    for node in &line.moves {
        xml_element(indent, "move", &render(&pos, node.mv, style), out);
        for g in &node.nags {
            xml_element(indent, "nag", g, out);
        }
        for c in &node.comments {
            xml_element(indent, "comment", c, out);
        }
        for v in &node.variations {
            out.push_str(&format!("{indent}<variation>\n"));
            xml_line(v, &pos, style, &format!("{indent}  "), out);
            out.push_str(&format!("{indent}</variation>\n"));
        }
        pos.play(node.mv);
    }
}

/// The seed's XML form of one game (`<pgn>` element). Tags are elements named after
/// them in lower case (`<event>`), or `<tag name="…">` when the name is no XML name or
/// is one of the form's own elements (`Move`, `End`, …); text holding characters XML
/// cannot carry (control characters, CR) is written in the `escaped="1"` form (see
/// `xml_unescape` in the tests), so the document is always well-formed and gives back what was
/// written.
pub fn write_xml_game(game: &Game, style: &MoveStyle) -> String {
    let mut s = String::from("<pgn>\n");
    for (n, v) in canonical_tags(game, style) {
        match xml_name(&n) {
            Some(e) => xml_element("  ", &e, &v, &mut s),
            None => {
                // One `escaped` attribute covers both the name and the value.
                let escaped = n.chars().any(xml_attr_unsafe) || v.chars().any(xml_unsafe);
                let (name, value) = if escaped {
                    (
                        xml_escape(&xml_backslashed_by(&n, xml_attr_unsafe)),
                        xml_escape(&xml_backslashed(&v)),
                    )
                } else {
                    (xml_escape(&n), xml_escape(&v))
                };
                let attr = if escaped { " escaped=\"1\"" } else { "" };
                s.push_str(&format!("  <tag name=\"{name}\"{attr}>{value}</tag>\n"));
            }
        }
    }
    xml_line(&game.line, &game.start, style, "  ", &mut s);
    xml_element("  ", "end", pgn_result(&game.result), &mut s);
    s.push_str("</pgn>\n");
    s
}

/// XML for several games: one `<pgn>` alone, or a `<pgns>` wrapper (our extension).
pub fn write_xml<'a>(games: impl IntoIterator<Item = &'a Game>, style: &MoveStyle) -> String {
    let parts: Vec<String> = games
        .into_iter()
        .map(|g| write_xml_game(g, style))
        .collect();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if parts.len() == 1 {
        s.push_str(&parts[0]);
    } else {
        s.push_str("<pgns>\n");
        for p in parts {
            s.push_str(&p);
        }
        s.push_str("</pgns>\n");
    }
    s
}
