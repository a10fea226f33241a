//! Canonical writer (spec §2.2 tag order, §3 export layout) and the seed's XML form.

use xiangqi::{Position, Side};

use crate::model::{Game, Line};
use crate::notation::{MoveStyle, render};

const LINE_WIDTH: usize = 80;

const SEVEN: [&str; 7] = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
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
            ("Result", _) => game.result.clone(),
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

/// A comment as a movetext token: `{…}`, or, when the text holds a `}` (which a brace
/// comment cannot), a `;` comment to the end of the line (its line breaks as spaces).
fn comment_token(c: &str) -> String {
    if c.contains('}') {
        format!(";{}\n", c.split(['\n', '\r']).collect::<Vec<_>>().join(" "))
    } else {
        format!("{{{c}}}")
    }
}

/// Movetext tokens of a line; `(` and `)` are glued to the first and last token.
fn line_tokens(line: &Line, start: &Position, style: &MoveStyle, out: &mut Vec<String>) {
    let mut pos = start.clone();
    let mut need_number = true;
    for c in &line.leading_comments {
        out.push(comment_token(c));
    }
    for node in &line.moves {
        let n = pos.fullmove_number();
        match pos.side_to_move() {
            Side::Red => out.push(format!("{n}.")),
            Side::Black if need_number => out.push(format!("{n}...")),
            Side::Black => {}
        }
        out.push(render(&pos, node.mv, style));
        need_number = false;
        if style.annotate_ambiguous
            && style.notation == crate::notation::Notation::Chinese
            && crate::notation::tandem_order_sensitive(&pos, node.mv)
        {
            out.push(format!("{{{}}}", node.mv.to_iccs()));
            need_number = true;
        }
        for g in &node.nags {
            out.push(g.clone());
        }
        for c in &node.comments {
            out.push(comment_token(c));
            need_number = true;
        }
        for v in &node.variations {
            let mut inner = Vec::new();
            line_tokens(v, &pos, style, &mut inner);
            if let Some(first) = inner.first_mut() {
                first.insert(0, '(');
            }
            if let Some(last) = inner.last_mut() {
                last.push(')');
            }
            out.extend(inner);
            need_number = true;
        }
        pos.play(node.mv);
    }
}

fn wrap(tokens: &[String]) -> String {
    let mut s = String::new();
    let mut width = 0;
    for t in tokens {
        // Comments may hold newlines; count the text after the last one.
        let w = t.chars().count();
        if width > 0 && width + 1 + w > LINE_WIDTH {
            s.push('\n');
            width = 0;
        } else if width > 0 {
            s.push(' ');
            width += 1;
        }
        s.push_str(t);
        width = match t.rfind('\n') {
            Some(i) => t[i + 1..].chars().count(),
            None => width + w,
        };
    }
    s.push('\n');
    s
}

/// Writes one game as PGN in `style`, ending with a blank line.
pub fn write_game(game: &Game, style: &MoveStyle) -> String {
    let mut s = String::new();
    for (n, v) in canonical_tags(game, style) {
        s.push_str(&format!("[{n} \"{}\"]\n", escape_tag(&v)));
    }
    s.push('\n');
    let mut toks = Vec::new();
    line_tokens(&game.line, &game.start, style, &mut toks);
    toks.push(game.result.clone());
    s.push_str(&wrap(&toks));
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

// Tag names become element names; anything that is not a safe XML name is written as
// a generic <tag name="..."> element so no tag is lost.
fn xml_name(n: &str) -> Option<String> {
    let l = n.to_lowercase();
    let ok = l.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && l.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !l.starts_with("xml");
    ok.then_some(l)
}

fn xml_line(line: &Line, start: &Position, style: &MoveStyle, indent: &str, out: &mut String) {
    let mut pos = start.clone();
    for c in &line.leading_comments {
        out.push_str(&format!("{indent}<comment>{}</comment>\n", xml_escape(c)));
    }
    for node in &line.moves {
        out.push_str(&format!(
            "{indent}<move>{}</move>\n",
            xml_escape(&render(&pos, node.mv, style))
        ));
        for g in &node.nags {
            out.push_str(&format!("{indent}<nag>{}</nag>\n", xml_escape(g)));
        }
        for c in &node.comments {
            out.push_str(&format!("{indent}<comment>{}</comment>\n", xml_escape(c)));
        }
        for v in &node.variations {
            out.push_str(&format!("{indent}<variation>\n"));
            xml_line(v, &pos, style, &format!("{indent}  "), out);
            out.push_str(&format!("{indent}</variation>\n"));
        }
        pos.play(node.mv);
    }
}

/// The seed's XML form of one game (`<pgn>` element).
pub fn write_xml_game(game: &Game, style: &MoveStyle) -> String {
    let mut s = String::from("<pgn>\n");
    for (n, v) in canonical_tags(game, style) {
        let v = xml_escape(&v);
        match xml_name(&n) {
            Some(e) => s.push_str(&format!("  <{e}>{v}</{e}>\n")),
            None => s.push_str(&format!("  <tag name=\"{}\">{v}</tag>\n", xml_escape(&n))),
        }
    }
    xml_line(&game.line, &game.start, style, "  ", &mut s);
    s.push_str(&format!(
        "  <end>{}</end>\n</pgn>\n",
        xml_escape(&game.result)
    ));
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
