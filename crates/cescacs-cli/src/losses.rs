//! What a writer leaves out of the game it is given: one warning per dropped item, so
//! that no conversion loses anything silently (`docs/conversion-losses.md`).
//!
//! Each function looks at the model about to be written and the options of the
//! writer; it returns `(line, column, message)` triples, the location relative to the
//! game's own first line where the model keeps one (1:1 otherwise).

use crate::XiangqiNotation;

/// A dropped item: line, column, message.
pub type Loss = (u64, u64, String);

/// Shortens a text for a message.
fn excerpt(s: &str) -> String {
    let flat: Vec<&str> = s.split_whitespace().collect();
    let flat = flat.join(" ");
    if flat.chars().count() <= 40 {
        flat
    } else {
        format!("{}…", flat.chars().take(40).collect::<String>())
    }
}

fn at(span: &ctl_pgn::Span) -> (u64, u64) {
    (u64::from(span.line.max(1)), u64::from(span.col.max(1)))
}

/// Counts moves, comments and variations inside a line (all depths).
fn ctl_contents(line: &ctl_pgn::Line) -> (usize, usize, usize) {
    let (mut moves, mut comments, mut variations) = (0, 0, 0);
    for it in &line.items {
        match it {
            ctl_pgn::Item::Move(_) => moves += 1,
            ctl_pgn::Item::Comment(_) => comments += 1,
            ctl_pgn::Item::Variation(v) => {
                let (m, c, n) = ctl_contents(&v.line);
                moves += m;
                comments += c;
                variations += n + 1;
            }
        }
    }
    (moves, comments, variations)
}

fn ctl_line_losses(line: &ctl_pgn::Line, out: &mut Vec<Loss>) {
    for it in &line.items {
        match it {
            ctl_pgn::Item::Move(_) => {}
            ctl_pgn::Item::Comment(c) => {
                let (l, col) = at(&c.span);
                out.push((
                    l,
                    col,
                    format!(
                        "--minimal drops comment {{{}{}}}",
                        c.kind.marker(),
                        excerpt(&c.text)
                    ),
                ));
            }
            ctl_pgn::Item::Variation(v) => {
                let (m, c, n) = ctl_contents(&v.line);
                let first = v
                    .line
                    .moves()
                    .next()
                    .map(|m| format!(" from move {}", m.number))
                    .unwrap_or_default();
                let label = v.label.map(|l| format!(" $[{l}]")).unwrap_or_default();
                let (l, col) = at(&v.span);
                out.push((
                    l,
                    col,
                    format!(
                        "--minimal drops variation{label}{first} ({m} move(s), {c} comment(s), {n} nested variation(s))"
                    ),
                ));
            }
        }
    }
}

/// What a CTL-PGN form leaves out: `--minimal` drops comments, variations and
/// `Redefine`; `--fan` replaces the record's own `Redefine`.
pub fn ctl_pgn(game: &ctl_pgn::Game, form: ctl_pgn::Form) -> Vec<Loss> {
    let mut out = Vec::new();
    match form {
        ctl_pgn::Form::Canonical => {}
        ctl_pgn::Form::Minimal => {
            ctl_line_losses(&game.main, &mut out);
            for c in &game.final_comments {
                let (l, col) = at(&c.span);
                out.push((
                    l,
                    col,
                    format!(
                        "--minimal drops comment after the result {{{}{}}}",
                        c.kind.marker(),
                        excerpt(&c.text)
                    ),
                ));
            }
            for t in game.tags.iter().filter(|t| t.name == "Redefine") {
                let (l, col) = at(&t.span);
                out.push((
                    l,
                    col,
                    format!(
                        "--minimal drops tag [Redefine \"{}\"] (moves written in standard letters)",
                        t.value
                    ),
                ));
            }
        }
        ctl_pgn::Form::Fan => {
            for t in game
                .tags
                .iter()
                .filter(|t| t.name == "Redefine" && t.value != "FAN")
            {
                let (l, col) = at(&t.span);
                out.push((
                    l,
                    col,
                    format!(
                        "--fan replaces tag [Redefine \"{}\"] by [Redefine \"FAN\"]",
                        t.value
                    ),
                ));
            }
        }
    }
    out
}

/// The move name used in messages: `12.` / `12...` and the export SAN.
fn chess_line_losses(
    line: &chess_pgn::Line,
    start: &chess_pgn::cozy_chess::Board,
    out: &mut Vec<Loss>,
) {
    let mut board = start.clone();
    for node in &line.moves {
        let n = board.fullmove_number();
        let dots = if board.side_to_move() == chess_pgn::cozy_chess::Color::White {
            "."
        } else {
            "..."
        };
        let name = format!("{n}{dots} {}", node.san);
        if node.nags.contains(&0) {
            out.push((
                1,
                1,
                format!("NAG $0 after {name} dropped (export never writes the null annotation)"),
            ));
        }
        if let Some(g) = node.san.glyph {
            if !node.nags.contains(&g) {
                out.push((
                    1,
                    1,
                    format!("glyph ${g} on {name} dropped (export writes NAGs only)"),
                ));
            }
        }
        let (mut clock, mut eval) = (None, None);
        for a in &node.after {
            if let chess_pgn::After::Comment(c) = a {
                let (k, e) = chess_pgn::model::parse_commands(c);
                clock = k.or(clock);
                eval = e.or(eval);
            }
        }
        if let Some(c) = node.clock {
            if clock != Some(c) {
                out.push((
                    1,
                    1,
                    format!("clock {c} s after {name} dropped (no [%clk] comment holds it)"),
                ));
            }
        }
        if let Some(e) = node.eval {
            if eval != Some(e) {
                out.push((
                    1,
                    1,
                    format!("evaluation {e:?} after {name} dropped (no [%eval] comment holds it)"),
                ));
            }
        }
        let before = board.clone();
        for a in &node.after {
            if let chess_pgn::After::Variation(v) = a {
                chess_line_losses(v, &before, out);
            }
        }
        match node.mv {
            Some(m) => board.play_unchecked(m),
            None => {
                if let Some(b) = board.null_move() {
                    board = b;
                }
            }
        }
    }
}

/// What PGN export leaves out of a chess game model. The reader fills the model only
/// with what export writes; these losses come from models built from PCN documents.
pub fn chess(game: &chess_pgn::Game) -> Vec<Loss> {
    let mut out = Vec::new();
    let mut pool = chess_pgn::export_tags(game);
    for (n, v) in &game.tags {
        match pool.iter().position(|(pn, pv)| pn == n && pv == v) {
            Some(i) => {
                pool.remove(i);
            }
            None if n == "Result" => out.push((
                1,
                1,
                format!(
                    "tag [Result \"{v}\"] replaced by the game's result {}",
                    game.outcome.as_str()
                ),
            )),
            None if v.contains(['\t', '\n', '\r']) => out.push((
                1,
                1,
                format!("tag {n}: tabs and line breaks written as spaces"),
            )),
            None => out.push((1, 1, format!("tag [{n} \"{}\"] dropped", excerpt(v)))),
        }
    }
    if game.variant == chess_pgn::Variant::Chess960
        && !game
            .tag("Variant")
            .is_some_and(|v| chess_pgn::Variant::from_tag(v) == Ok(chess_pgn::Variant::Chess960))
    {
        out.push((
            1,
            1,
            "variant Chess960 dropped (no Variant tag says it)".into(),
        ));
    }
    chess_line_losses(&game.moves, &game.start, &mut out);
    out
}

fn xiangqi_style(n: XiangqiNotation) -> xiangqi_pgn::MoveStyle {
    xiangqi_pgn::MoveStyle::canonical(match n {
        XiangqiNotation::Chinese => xiangqi_pgn::Notation::Chinese,
        XiangqiNotation::Wxf => xiangqi_pgn::Notation::Wxf,
        XiangqiNotation::Iccs => xiangqi_pgn::Notation::Iccs,
    })
}

/// Tag names the writer spells itself (the XML writer lower-cases every name).
const XIANGQI_KNOWN_TAGS: [&str; 16] = [
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "Red",
    "Black",
    "Result",
    "RedTeam",
    "BlackTeam",
    "Opening",
    "Variation",
    "ECCO",
    "FEN",
    "Format",
    "White",
];

/// What xiangqi PGN (or, with `xml`, the XML form) leaves out of a game: tags the
/// canonical tag list does not repeat, and in XML the spelling of unusual tag names.
pub fn xiangqi(game: &xiangqi_pgn::Game, notation: XiangqiNotation, xml: bool) -> Vec<Loss> {
    let mut out = Vec::new();
    let mut pool = xiangqi_pgn::canonical_tags(game, &xiangqi_style(notation));
    for (n, v) in &game.tags {
        // Format names the notation written, FEN the start (always written when needed).
        if n.eq_ignore_ascii_case("Format") || n.eq_ignore_ascii_case("FEN") {
            continue;
        }
        let red_as_white = n.eq_ignore_ascii_case("White")
            && !game.tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("Red"));
        let found = pool.iter().position(|(pn, pv)| {
            pv == v && (pn.eq_ignore_ascii_case(n) || (red_as_white && pn == "Red"))
        });
        match found {
            Some(i) => {
                pool.remove(i);
            }
            None => out.push((1, 1, format!("tag [{n} \"{}\"] dropped", excerpt(v)))),
        }
        if xml
            && n.chars().any(|c| c.is_ascii_uppercase())
            && !XIANGQI_KNOWN_TAGS.contains(&n.as_str())
        {
            out.push((
                1,
                1,
                format!(
                    "tag name {n} written as XML element <{}>: its letter case is lost",
                    n.to_lowercase()
                ),
            ));
        }
    }
    out
}
