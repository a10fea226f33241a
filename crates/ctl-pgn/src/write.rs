//! The writer: the seed's canonical export form, a minimal form and a FAN form.
//!
//! Writing is deterministic and idempotent: `write(read(write(g)))` is byte-identical
//! to `write(g)`. The canonical form first applies [`Game::canonical`] (seed tag order,
//! `:` after the last non-mating move, an explicit result line); everything else in the
//! model is written as it is.

use crate::letters::LetterTable;
use crate::model::*;

/// Output form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The seed's form with everything the model holds, in the record's letters.
    Canonical,
    /// For a minimal reader (§7.9): main line only, no comments, no variations,
    /// standard letters (no `Redefine`; the TLPD tag mapped back to standard letters).
    Minimal,
    /// Canonical with `[Redefine "FAN"]`: Unicode glyphs in movetext and TLPD.
    Fan,
}

fn tag_rank(name: &str, has_roster: bool) -> u8 {
    match name {
        "Variant" => 0,
        "Id" if !has_roster => 1,
        "Event" => 2,
        "Site" => 3,
        "Date" => 4,
        "Round" => 5,
        "White" => 6,
        "Black" => 7,
        "Result" => 8,
        "Id" => 9,
        "Annotator" => 10,
        "Redefine" => 12,
        "TLPD" | "PDTL" | "DPTL" => 13,
        _ => 11,
    }
}

fn mated_result(game: &Game) -> Option<GameResult> {
    let last = game.main_moves().last()?;
    (last.check == Some(CheckMark::Mate)).then_some(match last.side {
        Side::White => GameResult::WhiteWins,
        Side::Black => GameResult::BlackWins,
    })
}

impl Game {
    /// The result the record states: the result line, else a final mate (the movetext
    /// wins over a contradicting tag, §9.4), else the `Result` tag, else `*`.
    pub fn effective_result(&self) -> GameResult {
        self.result
            .or_else(|| mated_result(self))
            .or_else(|| self.tag("Result").and_then(GameResult::parse))
            .unwrap_or(GameResult::Unfinished)
    }

    /// The seed's canonical arrangement of this record: tags in seed order (Variant,
    /// roster or Id, Annotator, other tags, Redefine, TLPD; repeated tags keep their
    /// order), the start tag named `TLPD`, `:` on the last main-line move unless it
    /// mates, and an explicit result line. Nothing else changes.
    pub fn canonical(&self) -> Game {
        let mut g = self.clone();
        let has_roster = g.tags.iter().any(|t| t.name == "Event");
        g.tags.sort_by_key(|t| tag_rank(&t.name, has_roster));
        for t in &mut g.tags {
            if t.name == "PDTL" || t.name == "DPTL" {
                t.name = "TLPD".to_string();
            }
        }
        g.result = Some(g.effective_result());
        if let Some(Item::Move(m)) = g
            .main
            .items
            .iter_mut()
            .rev()
            .find(|i| matches!(i, Item::Move(_)))
            && m.check != Some(CheckMark::Mate)
        {
            m.end_mark = true;
        }
        g
    }
}

/// Writes one record.
pub fn write_game(game: &Game, form: Form) -> String {
    let mut out = String::new();
    write_into(&mut out, game, form);
    out
}

/// Writes records separated by a blank line.
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a Game>, form: Form) -> String {
    let mut out = String::new();
    for (i, g) in games.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_into(&mut out, g, form);
    }
    out
}

fn write_into(out: &mut String, game: &Game, form: Form) {
    let g = game.canonical();
    let record_letters = g.letters().unwrap_or_default();
    let letters = match form {
        Form::Canonical => record_letters.clone(),
        Form::Minimal => LetterTable::standard(),
        Form::Fan => LetterTable::fan(),
    };
    for t in &g.tags {
        let value = match t.name.as_str() {
            "Redefine" if form != Form::Canonical => continue,
            "TLPD" if form != Form::Canonical => {
                letters.tlpd_from_standard(&record_letters.tlpd_to_standard(&t.value))
            }
            _ => t.value.clone(),
        };
        if form == Form::Fan && t.name == "TLPD" {
            push_tag(out, "Redefine", "FAN");
        }
        push_tag(out, &t.name, &value);
    }
    if form == Form::Fan && g.start_tlpd().is_none() {
        push_tag(out, "Redefine", "FAN");
    }
    let full = form != Form::Minimal;
    for row in write_line(&g.main, 0, &letters, full) {
        out.push_str(&row);
        out.push('\n');
    }
    out.push_str(g.result.unwrap_or(GameResult::Unfinished).as_str());
    out.push('\n');
    if full {
        for c in &g.final_comments {
            out.push_str(&comment_text(c));
            out.push('\n');
        }
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(&crate::escape::tag_name(name));
    out.push_str(" \"");
    out.push_str(&crate::escape::tag_value(value));
    out.push_str("\"]\n");
}

fn comment_text(c: &Comment) -> String {
    let marker = marker_for(c);
    format!(
        "{{{marker}{}}}",
        crate::escape::comment_text(&c.text, marker)
    )
}

/// The marker to write: the kind's, except for an automatic comment whose text would
/// change its meaning after `#` (a digit or `.` makes a move reference, `{#14}`; `W:`,
/// `B:` or `N:` an automatic White/Black marker): it takes the SITE marker `:`, which
/// the reader maps back to `#` with a note.
fn marker_for(c: &Comment) -> &'static str {
    let t = c.text.as_str();
    let misread = t.starts_with(|ch: char| ch.is_ascii_digit() || ch == '.')
        || ["W:", "B:", "N:"].iter().any(|p| t.starts_with(p));
    if c.kind == CommentKind::Auto && misread {
        ":"
    } else {
        c.kind.marker()
    }
}

/// The text of one half-move with its annotations.
pub fn half_text(m: &MoveNode, letters: &LetterTable) -> String {
    let mut s = String::new();
    push_half(&mut s, m, letters);
    s
}

/// [`half_text`] appended to a row (no string of its own per move).
fn push_half(s: &mut String, m: &MoveNode, letters: &LetterTable) {
    m.token.render_into(letters, m.side, s);
    if let Some(c) = m.check {
        s.push_str(c.as_str());
    }
    if m.assessment.is_some() || m.draw_offer || m.end_mark {
        s.push(' ');
    }
    if let Some(a) = m.assessment {
        s.push_str(a.as_str());
    }
    if m.draw_offer {
        s.push_str("(=)");
    }
    if m.end_mark {
        s.push(':');
    }
}

/// `12.` (or `12?` for an unknown number) appended to a row.
fn push_number(s: &mut String, m: &MoveNode) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut n = m.number;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        s.push(char::from(d));
    }
    s.push(if m.number_unknown { '?' } else { '.' });
}

/// Rows of one line at a nesting depth; each row starts with one dot per level (§7.7).
fn write_line(line: &Line, depth: usize, letters: &LetterTable, full: bool) -> Vec<String> {
    let dots = ".".repeat(depth);
    let mut rows = Vec::new();
    // An open row holds White's move waiting for Black's.
    let mut open: Option<(String, u32)> = None;
    for item in &line.items {
        match item {
            Item::Move(m) => match m.side {
                Side::White => {
                    if let Some((r, _)) = open.take() {
                        rows.push(r);
                    }
                    let mut r = String::with_capacity(dots.len() + 40);
                    r.push_str(&dots);
                    push_number(&mut r, m);
                    r.push(' ');
                    push_half(&mut r, m, letters);
                    open = Some((r, m.number));
                }
                Side::Black => match open.take() {
                    Some((mut r, n)) if n == m.number && !m.number_unknown => {
                        r.push_str(", ");
                        push_half(&mut r, m, letters);
                        rows.push(r);
                    }
                    other => {
                        if let Some((r, _)) = other {
                            rows.push(r);
                        }
                        let mut r = String::with_capacity(dots.len() + 40);
                        r.push_str(&dots);
                        push_number(&mut r, m);
                        r.push_str(" …, ");
                        push_half(&mut r, m, letters);
                        rows.push(r);
                    }
                },
            },
            Item::Comment(c) if full => {
                if let Some((r, _)) = open.take() {
                    rows.push(r);
                }
                rows.push(format!("{dots}{}", comment_text(c)));
            }
            Item::Variation(v) if full => {
                if let Some((r, _)) = open.take() {
                    rows.push(r);
                }
                let inner_dots = ".".repeat(depth + 1);
                let mut vrows = write_line(&v.line, depth + 1, letters, full);
                let label = v.label.map(|l| format!("$[{l}] ")).unwrap_or_default();
                if let Some(first) = vrows.first_mut() {
                    let body = first[inner_dots.len()..].to_string();
                    *first = format!("{inner_dots}({label}{body}");
                } else {
                    vrows.push(format!("{inner_dots}({label}"));
                }
                // `}` must stay the last character of a comment's row (§7.8).
                match vrows.last_mut() {
                    Some(last) if !last.ends_with('}') => last.push(')'),
                    _ => vrows.push(format!("{inner_dots})")),
                }
                rows.extend(vrows);
            }
            Item::Comment(_) | Item::Variation(_) => {}
        }
    }
    if let Some((r, _)) = open.take() {
        rows.push(r);
    }
    rows
}
